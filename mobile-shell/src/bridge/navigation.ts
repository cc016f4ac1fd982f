//! Which pages the web view may show and which origin may talk to the app: only the configured
//! site's origin. Other addresses the visitor follows open in the system browser; frames from
//! elsewhere and schemes that run code or reach the device are refused.

export type NavigationDecision = 'load' | 'open-in-browser' | 'refuse';

/** The origin of `url`, or undefined when it has none (about:, data:, javascript: ...). */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

/** True when `url` is a page of the allowed origin (scheme, host and port all equal). */
export function isAllowedOrigin(url: string, allowedOrigin: string): boolean {
  const origin = originOf(url);
  return origin !== undefined && origin === originOf(allowedOrigin);
}

/** Decides a navigation of the top frame or of a frame inside the page. */
export function navigationDecision(url: string, isTopFrame: boolean, allowedOrigin: string): NavigationDecision {
  if (isAllowedOrigin(url, allowedOrigin)) return 'load';
  // Empty frames (about:blank, about:srcdoc) are a page's own; the bridge never reaches them.
  if (!isTopFrame && (url === 'about:blank' || url === 'about:srcdoc')) return 'load';
  if (!isTopFrame) return 'refuse';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  return scheme === 'https' || scheme === 'http' || scheme === 'mailto' || scheme === 'tel' ? 'open-in-browser' : 'refuse';
}
