//! Islands loader: finds `[data-island]` blocks, loads each island type's chunk only when present, mounts each block once.

import type { ChunkImporter, ChunkLoader, ChunkSource } from './chunk-loading';
import { ISLAND_ROOT_MARGIN } from './constants';
import { isIslandModule, type IslandUnmount } from './island-contract';

/** Progress of one block element, written to its `data-island-state` attribute for styles and tests. */
export type IslandState = 'pending' | 'mounted' | 'failed';

export interface IslandElement {
  readonly element: HTMLElement;
  /** The island type, from `data-island` (e.g. `accordion`). */
  readonly name: string;
}

export interface IslandsOptions {
  /** Where to look for islands (normally `document`). */
  readonly root: ParentNode;
  readonly chunks: ChunkLoader<unknown>;
  /**
   * Defers each mount until its block comes near the viewport. Without it (no IntersectionObserver
   * in the browser, or in tests) every island mounts at once.
   */
  readonly IntersectionObserver?: typeof IntersectionObserver | undefined;
  /** Receives every failure; a failed island never stops the others. */
  readonly report?: (message: string, error: unknown) => void;
}

export interface Islands {
  /** Mounts islands that appeared since the last scan (e.g. markup inserted later); known ones are skipped. */
  scan(): void;
  /** Unmounts every island, stops observing, and forgets them so a later scan mounts them afresh. */
  destroy(): void;
}

const STATE_ATTRIBUTE = 'data-island-state';

/** Maps `import.meta.glob('./islands/*.tsx')` to chunk sources keyed by island name (the file's base name). */
export function islandSources(glob: Readonly<Record<string, ChunkImporter<unknown>>>): Map<string, ChunkSource<unknown>> {
  const sources = new Map<string, ChunkSource<unknown>>();
  for (const [path, importer] of Object.entries(glob)) {
    const name = /([^/]+)\.tsx$/.exec(path)?.[1];
    if (name !== undefined) sources.set(name, { importer, request: path });
  }
  return sources;
}

export function discoverIslands(root: ParentNode): IslandElement[] {
  return [...root.querySelectorAll<HTMLElement>('[data-island]')].flatMap((element) => {
    const name = element.dataset['island']?.trim();
    return name ? [{ element, name }] : [];
  });
}

/** Reads `data-island-props`; a missing attribute means no props, malformed JSON is an error. */
export function readIslandProps(element: HTMLElement): unknown {
  const raw = element.dataset['islandProps'];
  if (raw === undefined || raw.trim() === '') return {};
  return JSON.parse(raw);
}

export function startIslands(options: IslandsOptions): Islands {
  const report = options.report ?? ((message, error) => console.error(message, error));
  const mounted = new Map<HTMLElement, IslandUnmount | undefined>();
  let generation = 0;
  let observer: IntersectionObserver | undefined;

  const describe = (island: IslandElement): string =>
    `Vitrine: island "${island.name}"${island.element.id ? ` (#${island.element.id})` : ''}`;

  const fail = (island: IslandElement, what: string, error: unknown): void => {
    island.element.setAttribute(STATE_ATTRIBUTE, 'failed');
    report(`${describe(island)} ${what}; its static markup stays in place.`, error);
  };

  const mount = (island: IslandElement): void => {
    const { element } = island;
    const started = generation;
    let props: unknown;
    try {
      props = readIslandProps(element);
    } catch (error) {
      fail(island, 'has malformed data-island-props', error);
      return;
    }
    options.chunks.load(island.name).then(
      (module) => {
        // A destroy() while the chunk loaded means this block must stay static.
        if (started !== generation || !mounted.has(element)) return;
        if (!isIslandModule(module)) {
          fail(island, 'chunk does not export mount()', module);
          return;
        }
        try {
          mounted.set(element, module.mount(element, props) ?? undefined);
          element.setAttribute(STATE_ATTRIBUTE, 'mounted');
        } catch (error) {
          fail(island, 'failed to mount', error);
        }
      },
      (error: unknown) => fail(island, 'chunk failed to load', error),
    );
  };

  const ensureObserver = (): IntersectionObserver | undefined => {
    if (observer !== undefined || options.IntersectionObserver === undefined) return observer;
    observer = new options.IntersectionObserver(
      (entries, self) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          self.unobserve(entry.target);
          const element = entry.target as HTMLElement;
          const name = element.dataset['island'];
          if (name !== undefined) mount({ element, name: name.trim() });
        }
      },
      { rootMargin: ISLAND_ROOT_MARGIN },
    );
    return observer;
  };

  const scan = (): void => {
    for (const island of discoverIslands(options.root)) {
      if (mounted.has(island.element)) continue;
      mounted.set(island.element, undefined);
      island.element.setAttribute(STATE_ATTRIBUTE, 'pending');
      const lazy = ensureObserver();
      if (lazy === undefined) mount(island);
      else lazy.observe(island.element);
    }
  };

  const destroy = (): void => {
    generation += 1;
    observer?.disconnect();
    observer = undefined;
    for (const [element, unmount] of mounted) {
      element.removeAttribute(STATE_ATTRIBUTE);
      try {
        unmount?.();
      } catch (error) {
        report('Vitrine: an island failed to unmount.', error);
      }
    }
    mounted.clear();
  };

  scan();
  return { scan, destroy };
}
