//! The follow button's rules (001 s2, s3, s7): its props, and the one load per page of the social
//! platform's script, which gives up after 10 s. Until that script drew the platform's button
//! (and whenever it cannot), the server's first-party link stays. Plain TypeScript over a
//! document, so the rules are unit-tested without the platform.

/** 001 s7: the platform's script gives up after 10 s. */
export const FOLLOW_SCRIPT_TIMEOUT_MS = 10_000;

export interface FollowProps {
  readonly script: string;
  readonly timeoutMs: number;
}

/** What the platform's script defines once it ran: `twttr.widgets.load(element)` draws the buttons under `element`. */
export interface FollowPlatform {
  readonly widgets: { load(element?: Element): unknown };
}

export function parseFollowProps(raw: unknown): FollowProps {
  if (typeof raw !== 'object' || raw === null) throw new Error("Vitrine: the follow button's props are not an object.");
  const props = raw as Record<string, unknown>;
  const script = props['script'];
  // The server only ever names the platform's https script here.
  if (typeof script !== 'string' || !script.startsWith('https://')) {
    throw new Error("Vitrine: the follow button's script is not an https address.");
  }
  const timeoutMs = props['timeoutMs'];
  return {
    script,
    timeoutMs: typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : FOLLOW_SCRIPT_TIMEOUT_MS,
  };
}

/** The platform's script did not load within its time-out, failed to, or defined nothing. */
export class FollowScriptError extends Error {
  override readonly name = 'FollowScriptError';
}

const loads = new WeakMap<Document, Promise<FollowPlatform>>();

/**
 * Adds the platform's script to `doc` once; every follow button of the page shares the promise,
 * which rejects with a {@link FollowScriptError} when the script fails, defines no `twttr`, or
 * has not loaded after `timeoutMs`. A failed load is not retried: the links stay.
 */
export function loadFollowScript(doc: Document, props: FollowProps): Promise<FollowPlatform> {
  const existing = loads.get(doc);
  if (existing !== undefined) return existing;
  const win = doc.defaultView;
  const loading = new Promise<FollowPlatform>((resolve, reject) => {
    if (win === null) {
      reject(new FollowScriptError('The follow button needs a window.'));
      return;
    }
    const script = doc.createElement('script');
    const timer = setTimeout(() => {
      reject(new FollowScriptError(`The follow button's script did not load within ${props.timeoutMs / 1000} s.`));
    }, props.timeoutMs);
    script.addEventListener('load', () => {
      clearTimeout(timer);
      const platform = (win as unknown as { twttr?: Partial<FollowPlatform> }).twttr;
      if (typeof platform?.widgets?.load === 'function') resolve(platform as FollowPlatform);
      else reject(new FollowScriptError("The follow button's script defined no buttons."));
    });
    script.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new FollowScriptError("The follow button's script could not be loaded."));
    });
    script.src = props.script;
    script.async = true;
    doc.head.append(script);
  });
  loads.set(doc, loading);
  return loading;
}
