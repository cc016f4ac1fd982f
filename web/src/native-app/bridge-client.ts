//! The page's side of the native bridge (001 s7): `info` and `dismiss` go to the app as
//! versioned envelopes with a generated id, and each returns a promise that the app's reply of
//! the same id settles. Outside the app every call is a no-op with a documented value.
//!
//! | call | inside the app | mobile-app web platform | outside the app |
//! | --- | --- | --- | --- |
//! | `info(report)` | the app's accepted copy of the report | `null` | `null` |
//! | `dismiss({backUrl})` | `true` once the app closed the web view | navigates to the back URL, `true` | `false` |

import type { NativeAppHandler, NativeAppMode } from './detection';

export type { InfoReport } from './envelope';
import {
  MAX_MESSAGE_BYTES,
  type InfoReport,
  PLATFORM_NOT_IDENTIFIED,
  isBridgeName,
  messageBytes,
  nameNotFound,
  newRequestId,
  parseReply,
  requestMessage,
  tooLarge,
} from './envelope';

/** How long a call waits for the app's reply. */
export const REPLY_TIMEOUT_MS = 10_000;
/** The platforms the app's bridge can serve. */
const PLATFORMS = new Set(['android', 'ios']);
/** Why a call inside a frame fails: frames never reach the app. */
export const FRAME_REFUSAL = 'The native bridge does not run inside frames.';

export function timeoutMessage(name: string, ms: number): string {
  return `The app did not answer ${name} within ${ms / 1000} s.`;
}

export interface DismissPayload {
  /** Where the mobile-app web platform goes; only same-origin http(s) addresses are followed. */
  readonly backUrl?: string;
}

export interface BridgeClient {
  info(report: InfoReport): Promise<InfoReport | null>;
  dismiss(payload?: DismissPayload): Promise<boolean>;
  /** Any name: the allow-list refuses those the app does not answer. */
  call(name: string, payload: Readonly<Record<string, unknown>>): Promise<Record<string, unknown> | null>;
  /** Stops listening for replies and rejects every waiting call. */
  close(): void;
}

export interface BridgeClientHost {
  readonly window: Pick<Window, 'location' | 'setTimeout' | 'clearTimeout' | 'crypto'>;
  readonly mode: NativeAppMode;
  /** True inside a frame: every call is refused. */
  readonly inFrame: boolean;
  readonly timeoutMs?: number;
  readonly newId?: () => string;
  /** Leaves the page; `location.assign` unless a test watches it. */
  readonly navigate?: (url: string) => void;
}

interface Waiting {
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
  readonly timer: number;
}

/** The back URL to follow on the web platform: same origin only, so a page cannot redirect elsewhere. */
export function safeBackUrl(backUrl: string | undefined, here: string): string {
  if (backUrl === undefined) return '/';
  try {
    const url = new URL(backUrl, here);
    const origin = new URL(here).origin;
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin ? url.href : '/';
  } catch {
    return '/';
  }
}

export function createBridgeClient(host: BridgeClientHost): BridgeClient {
  const win = host.window;
  const timeoutMs = host.timeoutMs ?? REPLY_TIMEOUT_MS;
  const newId = host.newId ?? (() => newRequestId(win.crypto));
  const navigate = host.navigate ?? ((url: string) => win.location.assign(url));
  const waiting = new Map<string, Waiting>();
  const handler: NativeAppHandler | undefined = host.mode.kind === 'app' ? host.mode.handler : undefined;

  const unsubscribe = handler?.subscribe((message) => {
    const reply = parseReply(message);
    // A reply for no waiting call (a forged or repeated id) settles nothing.
    const call = reply === undefined ? undefined : waiting.get(reply.id);
    if (reply === undefined || call === undefined) return;
    waiting.delete(reply.id);
    win.clearTimeout(call.timer);
    if (reply.ok) call.resolve({ ...reply.result });
    else call.reject(new Error(reply.error));
  });

  function send(app: NativeAppHandler, name: string, payload: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    if (!isBridgeName(name)) return Promise.reject(new Error(nameNotFound(name)));
    if (!PLATFORMS.has(app.platform)) return Promise.reject(new Error(PLATFORM_NOT_IDENTIFIED));
    let id = newId();
    while (waiting.has(id)) id = newId();
    const message = requestMessage(id, name, payload);
    const bytes = messageBytes(message);
    if (bytes > MAX_MESSAGE_BYTES) return Promise.reject(new Error(tooLarge(bytes)));
    return new Promise((resolve, reject) => {
      const timer = win.setTimeout(() => {
        waiting.delete(id);
        reject(new Error(timeoutMessage(name, timeoutMs)));
      }, timeoutMs);
      waiting.set(id, { resolve, reject, timer });
      try {
        app.postMessage(message);
      } catch (error) {
        waiting.delete(id);
        win.clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  async function call(name: string, payload: Readonly<Record<string, unknown>>): Promise<Record<string, unknown> | null> {
    if (host.inFrame) throw new Error(FRAME_REFUSAL);
    if (handler !== undefined) return send(handler, name, payload);
    // Outside the app: the names the app would answer are no-ops; others still fail as the app would.
    if (!isBridgeName(name)) throw new Error(nameNotFound(name));
    if (name === 'dismiss' && host.mode.kind === 'web-platform') {
      const backUrl = typeof payload['backUrl'] === 'string' ? payload['backUrl'] : undefined;
      navigate(safeBackUrl(backUrl, win.location.href));
      return {};
    }
    return null;
  }

  return {
    async info(report) {
      const result = await call('info', { ...report });
      return result === null ? null : (result as unknown as InfoReport);
    },
    async dismiss(payload = {}) {
      const result = await call('dismiss', payload.backUrl === undefined ? {} : { backUrl: payload.backUrl });
      return result !== null;
    },
    call,
    close() {
      unsubscribe?.();
      for (const [id, pending] of waiting) {
        win.clearTimeout(pending.timer);
        pending.reject(new Error(`The bridge closed before the app answered ${id}.`));
      }
      waiting.clear();
    },
  };
}
