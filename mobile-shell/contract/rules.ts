//! The bridge envelope's shared rules (001 s7, s8), one module for both sides: the page's client
//! (`web/src/native-app/envelope.ts`) and the app (`src/bridge/envelope.ts`) import these, and
//! the recorded envelopes beside it (`envelopes.json`) are replayed against both and the core's
//! `bridge` module, whose limits and texts these are (the constants in `limits.ts` are generated
//! from it).

import {
  BRIDGE_NAMES,
  MAX_ID_CHARS,
  MAX_MESSAGE_BYTES,
  NAME_NOT_FOUND_AFTER,
  NAME_NOT_FOUND_BEFORE,
} from './limits';

// The version, limits, names and the spec's texts are generated from the core
// (`cargo xtask codegen`), so neither side can hold other ones.
export { BRIDGE_NAMES, MAX_ID_CHARS, MAX_MESSAGE_BYTES, PLATFORM_NOT_IDENTIFIED, PROTOCOL_VERSION } from './limits';
export type BridgeName = (typeof BRIDGE_NAMES)[number];

/** 001 s8, verbatim: a message name the app does not handle. */
export function nameNotFound(name: string): string {
  return `${NAME_NOT_FOUND_BEFORE}${name}${NAME_NOT_FOUND_AFTER}`;
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

const ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_ID_CHARS}}$`);

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
