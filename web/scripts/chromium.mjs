//! The system Chromium and the flags every tool here launches it with (Playwright tests, the benchmark, Lighthouse).

/** Debian's Chromium; no tool may download a browser of its own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for a quiet, reproducible headless browser: no sandbox (containers lack the namespaces),
 * no GPU, no QUIC, and none of the background traffic (updates, sync, component downloads) that
 * would show up in network measurements. Never add --user-data-dir: Playwright refuses it and
 * already gives every launch a fresh profile.
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);
