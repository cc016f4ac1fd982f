//! Weighs, from a web build's manifest alone, the JavaScript a page loads before any island of its own:
//! the common script and everything it imports statically, plus, when named, islands and their static imports.
//
// Usage: node scripts/bench/entry-weight.mjs [DIST] [ISLAND ...]
// DIST defaults to dist/; an island is a file name of src/islands/ without `.tsx` (e.g. `newsletter`).
// Prints one JSON object: the files, their raw and gzip bytes, and the totals. Chromium's transfer
// sizes in scripts/bench.mjs are brotli as served; this reads the files, so two builds compare
// without a server.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The manifest keys a page fetches for `roots`, following static imports only (dynamic imports
 * load on demand: an island a page does not have, the logout notice, the image loader).
 * @param {Record<string, { file: string, imports?: string[] }>} manifest
 * @param {string[]} roots
 */
export function staticClosure(manifest, roots) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (chunk === undefined) throw new Error(`${key} is not in the manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  roots.forEach(visit);
  return [...seen];
}

/** @param {string} dist @param {string[]} islands */
export function entryWeight(dist, islands) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const keys = staticClosure(manifest, ['src/main.ts', ...islands.map((name) => `src/islands/${name}.tsx`)]);
  const files = keys
    .map((key) => manifest[key].file)
    .filter((file) => file.endsWith('.js'))
    .sort()
    .map((file) => {
      const bytes = readFileSync(join(dist, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  const total = (field) => files.reduce((sum, file) => sum + file[field], 0);
  return { islands, scripts: files.length, raw: total('raw'), gzip: total('gzip'), files };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dist = 'dist', ...islands] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(entryWeight(resolve(dist), islands), null, 2)}\n`);
}
