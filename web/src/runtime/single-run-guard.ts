//! Guard against the common script running twice on one page (spec 000 s4).

import { RUNTIME_GLOBAL } from './constants';

/** The warning logged when a second copy of the common script starts. */
export const SECOND_RUN_WARNING =
  'Vitrine: the common script has already run on this page; this second copy stops here.';

type GlobalHost = Record<string, unknown>;

/**
 * Publishes `api` under the runtime global and returns true, or, when a copy of the runtime has
 * already published itself, logs a console warning and returns false so the caller stops.
 */
export function claimRuntimeGlobal(host: object, api: object): boolean {
  const slots = host as GlobalHost;
  if (slots[RUNTIME_GLOBAL] !== undefined) {
    console.warn(SECOND_RUN_WARNING);
    return false;
  }
  Object.defineProperty(slots, RUNTIME_GLOBAL, {
    value: Object.freeze(api),
    configurable: true,
    enumerable: false,
    writable: false,
  });
  return true;
}
