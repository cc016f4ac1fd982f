//! Which script chunks the build made and which of them a page may load, from Vite's manifest of web/dist.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const manifestPath = resolve(webDir, 'dist/.vite/manifest.json');
const islandsDir = resolve(webDir, 'src/islands');

interface ManifestChunk {
  readonly file: string;
  readonly src?: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
}
type Manifest = Readonly<Record<string, ManifestChunk>>;

/**
 * The build's script chunks split in two: those every page loads (the entry and what it imports
 * statically) and those only a page with the right island may load, per island name.
 */
export interface ChunkMap {
  /** File names (no folder) of the common script and its static imports. */
  readonly common: ReadonlySet<string>;
  /** For each island (the base name of src/islands/NAME.tsx), the extra file names it brings in. */
  readonly islands: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * The common script's own on-demand chunks, by the selector of the server-rendered markup that
   * makes a page fetch them, with the extra file names each brings in.
   */
  readonly features: ReadonlyMap<string, ReadonlySet<string>>;
  /** True when the build made this file; a script it did not make means web/dist and the server binary differ. */
  isKnown(fileName: string): boolean;
  /** True when an island-free page must not load this file. */
  isOnDemand(fileName: string): boolean;
  /** Where the facts came from, for test annotations. */
  readonly source: string;
}

function isScript(file: string): boolean {
  return /\.m?js$/.test(file);
}

function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (chunk === undefined) return;
    if (isScript(chunk.file)) files.add(basename(chunk.file));
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

/** What the common script fetches for markup the server rendered (see `src/consent/privacy-runtime.ts`). */
const PAGE_FEATURES: Readonly<Record<string, string>> = {
  '[data-vitrine-cookie-banner]': 'src/consent/cookie-banner.ts',
  '[data-vitrine-popup-overlay]': 'src/popup/popup-overlay.ts',
};

function fromManifest(manifest: Manifest): ChunkMap {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry === true);
  const common = staticClosure(manifest, entries);
  const islands = new Map<string, Set<string>>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const match = /(?:^|\/)islands\/([^/]+)\.tsx$/.exec(chunk.src ?? key);
    if (match?.[1] === undefined) continue;
    const own = staticClosure(manifest, [key]);
    for (const file of common) own.delete(file);
    islands.set(match[1], own);
  }
  const features = new Map<string, Set<string>>();
  for (const [selector, key] of Object.entries(PAGE_FEATURES)) {
    const own = staticClosure(manifest, [key]);
    for (const file of common) own.delete(file);
    features.set(selector, own);
  }
  const all = new Set(Object.values(manifest).map((chunk) => basename(chunk.file)).filter(isScript));
  return {
    common,
    islands,
    features,
    isKnown: (file) => all.has(file),
    isOnDemand: (file) => all.has(file) && !common.has(file),
    source: manifestPath,
  };
}

/**
 * Without a manifest only names can tell: a chunk named after React or after an island is on
 * demand, anything else is taken as common. Weaker, so the tests say when they fell back to it.
 */
function fromNames(): ChunkMap {
  const names = existsSync(islandsDir)
    ? readdirSync(islandsDir).filter((file) => file.endsWith('.tsx')).map((file) => file.slice(0, -4))
    : [];
  const onDemand = (file: string): boolean =>
    /react/i.test(file) || names.some((name) => file.toLowerCase().startsWith(name.toLowerCase()));
  return {
    common: new Set(),
    islands: new Map(names.map((name) => [name, new Set<string>()])),
    features: new Map(),
    isKnown: () => true,
    isOnDemand: onDemand,
    source: 'chunk names (web/dist/.vite/manifest.json is missing: enable build.manifest in vite.config.ts)',
  };
}

export function loadChunkMap(): ChunkMap {
  if (!existsSync(manifestPath)) return fromNames();
  return fromManifest(JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest);
}

/** The file name of a script URL, as the manifest lists it. */
export function chunkFileName(url: string): string {
  return basename(new URL(url).pathname);
}
