//! The bridge envelope's shared rules (001 s7, s8), one module for both sides: the page's client
//! (`web/src/native-app/envelope.ts`) and the app (`src/bridge/envelope.ts`) import these, and
//! the recorded envelopes beside it (`envelopes.json`) are replayed against both and the core's
//! `bridge` module, whose limits and texts these are.

/** The envelope version both sides speak. */
export const PROTOCOL_VERSION = 1;
/** The largest message, in bytes of UTF-8, either side reads or sends. */
export const MAX_MESSAGE_BYTES = 16_384;
/** The longest request id. */
export const MAX_ID_CHARS = 64;
/** The allow-list of message names the app answers (001 s7). */
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

/** What `info` tells the app about the page; the app's reply carries its copy of these fields. */
export interface InfoReport {
  readonly pageType: string;
  readonly cartCount: number;
  readonly signedIn: boolean;
  readonly locale: string;
  readonly experiments: Readonly<Record<string, string>>;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A request id: 1 to 64 characters of `A-Z a-z 0-9 _ -`. */
export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

export function isBridgeName(name: string): name is BridgeName {
  return (BRIDGE_NAMES as readonly string[]).includes(name);
}

/** The UTF-8 length of a message, which is what the limit counts (no TextEncoder: React Native may lack it). */
export function messageBytes(message: string): number {
  let bytes = 0;
  for (const char of message) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}
