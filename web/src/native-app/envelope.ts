//! The native bridge's envelope (001 s7, s8), as the page speaks it: versioned JSON requests
//! `{v, id, name, payload}` keyed by a generated id, and the app's replies `{v, id, ok, result}`
//! or `{v, id, ok: false, error}`. The limits, names and texts are the shared rules of
//! `mobile-shell/contract/rules.ts`, which the app imports too; the recorded envelopes beside
//! them are replayed against both sides and the core's `bridge` module so they cannot drift.

import { PROTOCOL_VERSION, MAX_MESSAGE_BYTES, isValidId, messageBytes } from '../../../mobile-shell/contract/rules';

// The shared rules are part of this module's interface.
export * from '../../../mobile-shell/contract/rules';

/** A fresh request id: 22 characters of base64url from 16 random bytes. */
export function newRequestId(crypto: Pick<Crypto, 'getRandomValues'>): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The request message the page posts to the app. */
export function requestMessage(id: string, name: string, payload: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, id, name, payload });
}

export type BridgeReply =
  | { readonly id: string; readonly ok: true; readonly result: Readonly<Record<string, unknown>> }
  | { readonly id: string; readonly ok: false; readonly error: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a reply from the app, or undefined for anything that is not one: too large, not JSON,
 * another version, an invalid id, or a result or error of the wrong shape. Such messages are
 * dropped, never allowed to settle a call.
 */
export function parseReply(message: unknown): BridgeReply | undefined {
  if (typeof message !== 'string' || messageBytes(message) > MAX_MESSAGE_BYTES) return undefined;
  let envelope: unknown;
  try {
    envelope = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isObject(envelope) || envelope['v'] !== PROTOCOL_VERSION || !isValidId(envelope['id'])) return undefined;
  const id = envelope['id'];
  if (envelope['ok'] === true && isObject(envelope['result'])) return { id, ok: true, result: envelope['result'] };
  if (envelope['ok'] === false && typeof envelope['error'] === 'string') return { id, ok: false, error: envelope['error'] };
  return undefined;
}
