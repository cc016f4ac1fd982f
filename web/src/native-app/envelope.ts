//! The native bridge's envelope (001 s7, s8), as the page speaks it: versioned JSON requests
//! `{v, id, name, payload}` keyed by a generated id, and the app's replies `{v, id, ok, result}`
//! or `{v, id, ok: false, error}`. The same rules as the core's `bridge` module and the shell's
//! `src/bridge/envelope.ts`; the recorded envelopes in `mobile-shell/contract/envelopes.json`
//! are replayed against all of them so they cannot drift.

/** The envelope version both sides speak. */
export const PROTOCOL_VERSION = 1;
/** The largest message, in bytes of UTF-8, either side reads or sends. */
export const MAX_MESSAGE_BYTES = 16_384;
/** The longest request id. */
export const MAX_ID_CHARS = 64;
/** The message names the app answers (001 s7). */
export const BRIDGE_NAMES = ['info', 'dismiss'] as const;
export type BridgeName = (typeof BRIDGE_NAMES)[number];

/** 001 s8, verbatim: the bridge cannot tell which mobile platform it runs on. */
export const PLATFORM_NOT_IDENTIFIED = 'mobile platform not correctly identified';
/** 001 s8, verbatim: a message name the app does not handle. */
export function nameNotFound(name: string): string {
  return `[JS -> Native Bridge] ${name} not found`;
}
/** The core's text for a message over the size limit. */
export function tooLarge(bytes: number): string {
  return `the bridge message is ${bytes} bytes, over the limit of ${MAX_MESSAGE_BYTES}`;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

export function isBridgeName(name: string): name is BridgeName {
  return (BRIDGE_NAMES as readonly string[]).includes(name);
}

/** The UTF-8 length of a message, which is what the limit counts. */
export function messageBytes(message: string): number {
  return new TextEncoder().encode(message).length;
}

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
