//! The bridge envelope (001 s7, s8) as the app reads it: the core's `bridge` module's order of
//! checks over the shared rules of `contract/rules.ts` (limits, names, texts), in TypeScript
//! because the uniffi TurboModule cannot load under jest. The recorded envelopes in
//! `contract/envelopes.json` are replayed against this module, the web client, the Playwright
//! spec and the core's `bridge` module, so they cannot drift.

import {
  MAX_ID_CHARS,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  isBridgeName,
  isValidId,
  messageBytes,
  nameNotFound,
  tooLarge,
  type BridgeName,
  type InfoReport,
} from '../../contract/rules';

// The shared rules are part of this module's interface.
export * from '../../contract/rules';

export type BridgeCall = { readonly name: 'info'; readonly info: InfoReport } | { readonly name: 'dismiss'; readonly backUrl: string | null };

export interface BridgeRequest {
  readonly id: string;
  readonly call: BridgeCall;
}

/** A refused message: `id` is set when the refusal can be answered. */
export interface RejectedMessage {
  readonly id: string | null;
  readonly error: string;
}

export type ParsedRequest = { readonly ok: true; readonly request: BridgeRequest } | { readonly ok: false; readonly rejected: RejectedMessage };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the report of an `info` request; only the five fields of the report are kept. */
function readInfo(payload: Record<string, unknown>): InfoReport | string {
  const { pageType, cartCount, signedIn, locale, experiments } = payload;
  if (typeof pageType !== 'string') return 'pageType must be a string';
  if (typeof cartCount !== 'number' || !Number.isInteger(cartCount) || cartCount < 0 || cartCount > 0xffff_ffff) {
    return 'cartCount must be a whole number from 0';
  }
  if (typeof signedIn !== 'boolean') return 'signedIn must be true or false';
  if (typeof locale !== 'string') return 'locale must be a string';
  if (!isObject(experiments) || !Object.values(experiments).every((variant) => typeof variant === 'string')) {
    return 'experiments must map names to variant strings';
  }
  // Sorted by name, as the core's map writes them, so both sides send the same bytes.
  const sorted = Object.fromEntries(Object.entries(experiments as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { pageType, cartCount, signedIn, locale, experiments: sorted };
}

function readCall(name: BridgeName, payload: Record<string, unknown>): BridgeCall | string {
  if (name === 'info') {
    const info = readInfo(payload);
    return typeof info === 'string' ? info : { name, info };
  }
  const backUrl = payload['backUrl'];
  if (backUrl === undefined || backUrl === null) return { name, backUrl: null };
  return typeof backUrl === 'string' ? { name, backUrl } : 'backUrl must be a string';
}

/**
 * Reads and validates a message from the page, in the core's order: the size, the JSON object,
 * the id, the version, the name, then the payload. Once the id is known a refusal carries it,
 * so the page's call is rejected rather than left to time out.
 */
export function parseRequest(message: string): ParsedRequest {
  const reject = (id: string | null, error: string): ParsedRequest => ({ ok: false, rejected: { id, error } });
  const bytes = messageBytes(message);
  if (bytes > MAX_MESSAGE_BYTES) return reject(null, tooLarge(bytes));
  let envelope: unknown;
  try {
    envelope = JSON.parse(message);
  } catch (error) {
    return reject(null, `the bridge message is not a JSON envelope: ${(error as Error).message}`);
  }
  if (!isObject(envelope)) return reject(null, 'the bridge message is not a JSON envelope: expected a JSON object');
  const id = envelope['id'];
  if (!isValidId(id)) {
    return reject(null, `the bridge message id must be 1 to ${MAX_ID_CHARS} characters of A-Z, a-z, 0-9, _ or -`);
  }
  if (envelope['v'] !== PROTOCOL_VERSION) {
    const found = envelope['v'] === undefined ? '(missing)' : JSON.stringify(envelope['v']);
    return reject(id, `the bridge message version ${found} is not supported (expected ${PROTOCOL_VERSION})`);
  }
  const name = envelope['name'];
  if (typeof name !== 'string') return reject(id, 'the bridge message is not a JSON envelope: the name must be a string');
  if (!isBridgeName(name)) return reject(id, nameNotFound(name));
  const payload = envelope['payload'];
  const invalid = (reason: string) => reject(id, `the ${name} payload is invalid: ${reason}`);
  if (!isObject(payload)) return invalid('the payload must be an object');
  const call = readCall(name, payload);
  return typeof call === 'string' ? invalid(call) : { ok: true, request: { id, call } };
}

/** The reply for a request that succeeded; `result` holds only what the app chose to send. */
export function okReply(id: string, result: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, id, ok: true, result });
}

export function errorReply(id: string, error: string): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, id, ok: false, error });
}
