//! Wires the runtime's parts together and publishes them as `window.Vitrine`; `main.ts` only calls this.

import { createChunkLoader, type ChunkImporter } from './chunk-loading';
import { createEscapeRegistry, type EscapeRegistry } from './escape-registry';
import { startIslands, islandSources, type Islands } from './islands';
import { createPageLifecycle, whenDocumentReady, type PageLifecycle } from './lifecycle';
import { readPageContext, type PageContext } from './page-context';
import { createRequestClient, type RequestClient } from './request/client';
import { claimRuntimeGlobal } from './single-run-guard';
import { createSystemErrorOverlay, type SystemErrorOverlay } from './system-error-overlay';

/** What the page's other scripts and islands reach through `window.Vitrine`. */
export interface VitrineRuntime {
  readonly lifecycle: PageLifecycle;
  /**
   * Escape's targets. The overlay coordinator is made from it by the first overlay that opens
   * (`pageOverlays` in `overlay-coordinator.ts`), so the coordinator is not part of this script.
   */
  readonly escape: EscapeRegistry;
  readonly requests: RequestClient;
  readonly systemError: SystemErrorOverlay;
  readonly pageContext: PageContext;
  /** Mounts islands added to the page after it initialised (no-op before initialisation). */
  scanIslands(): void;
}

export interface RuntimeHost {
  readonly window: Window & typeof globalThis;
  /** Island chunks by module path, as `import.meta.glob('./islands/*.tsx')` gives them. */
  readonly islandModules: Readonly<Record<string, ChunkImporter<unknown>>>;
}

/** Starts the runtime once per page; returns undefined when another copy already runs. */
export function startRuntime(host: RuntimeHost): VitrineRuntime | undefined {
  const win = host.window;
  const doc = win.document;
  const lifecycle = createPageLifecycle();
  const escape = createEscapeRegistry();
  const systemError = createSystemErrorOverlay({ document: doc, escape, reload: () => win.location.reload() });
  const requests = createRequestClient({
    fetch: win.fetch.bind(win),
    document: doc,
    events: win,
    baseUrl: win.location.href,
    showSystemError: (error) => systemError.show(error),
  });
  const chunks = createChunkLoader(islandSources(host.islandModules));
  let islands: Islands | undefined;

  const runtime: VitrineRuntime = {
    lifecycle,
    escape,
    requests,
    systemError,
    pageContext: readPageContext(doc),
    scanIslands: () => islands?.scan(),
  };
  if (!claimRuntimeGlobal(win, runtime)) return undefined;

  lifecycle.register(() => escape.listen(doc));
  lifecycle.register(() => {
    islands = startIslands({
      root: doc,
      chunks,
      IntersectionObserver: 'IntersectionObserver' in win ? win.IntersectionObserver : undefined,
    });
    return () => {
      islands?.destroy();
      islands = undefined;
    };
  });
  whenDocumentReady(doc, () => lifecycle.init());
  return runtime;
}
