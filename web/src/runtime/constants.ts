//! Constants the specification fixes for the visitor runtime, kept in one place so a change is one edit.

/** Delay between two attempts of a request that has a retry count (spec 000 s9: request retry delay 200 ms). */
export const REQUEST_RETRY_DELAY_MS = 200;

/** Length of an accordion item's open/close animation (spec 000 s9: accordion animation 250 ms). */
export const ACCORDION_ANIMATION_MS = 250;

/** Lowest z-index of UI the runtime manages, such as the system error overlay (spec 000 s9). */
export const BASE_Z_INDEX = 30000;

/** Time after which a chunk that has not loaded counts as failed (spec 001 s9: chunk load timeout 120 s). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Name of the CSRF cookie whose value is appended to every request as the `crumb` query parameter, on a site served over
 * TLS: the `__Host-` prefix means only this host could have set it, over HTTPS.
 */
export const HOST_CRUMB_COOKIE_NAME = '__Host-crumb';

/** Name of the same cookie on a server run over plain HTTP for development (`vitrine serve --plain-http`). */
export const CRUMB_COOKIE_NAME = 'crumb';

/** Where a page without a crumb cookie gets one: pages never set it, so shared caches can keep them. */
export const CRUMB_PATH = '/api/crumb';

/** Name of the query parameter that carries the crumb (spec 000 s7). */
export const CRUMB_QUERY_PARAMETER = 'crumb';

/** Id of the script element holding the server-provided page context as JSON. */
export const PAGE_CONTEXT_ELEMENT_ID = 'vitrine-page-context';

/** Window event fired when a request fails because the visitor must sign in. */
export const LOGIN_REQUIRED_EVENT = 'vitrine:login-required';

/** Window global that marks the common script as already running on this page. */
export const RUNTIME_GLOBAL = 'Vitrine';

/** Margin around the viewport within which an island is mounted before it scrolls into view. */
export const ISLAND_ROOT_MARGIN = '200px';

/** Texts of the request layer, shown to people verbatim (spec 000 s8). */
export const REQUEST_MESSAGES = {
  unauthorized: 'Unauthorized request',
  internalServerError: 'Internal server error. Please try again later.',
  serviceUnavailable: 'This service is temporarily unavailable. Please try again later.',
  unableToConnect: 'Unable to connect\u2026',
} as const;

/** Texts of the system error overlay, shown to people verbatim (spec 000 s2 and s8). */
export const SYSTEM_ERROR_TEXTS = {
  title: 'Something Went Wrong!',
  reload: 'Reload Page',
  clear: 'Clear',
} as const;
