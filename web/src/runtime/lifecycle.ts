//! Page lifecycle (spec 000 s4): initialisers run once the page signals ready, and a global destroy undoes them.

/** Work that runs when the page is initialised; it may return a destructor run by `destroy()`. */
export type Initialiser = () => Destructor | void;

/** Undoes what an initialiser did. */
export type Destructor = () => void;

export type LifecycleState = 'not-initialised' | 'initialised';

export interface PageLifecycle {
  /** Current state; `initialised` from the ready signal until `destroy()`. */
  readonly state: LifecycleState;
  /**
   * Registers an initialiser. Before the page is initialised it waits for the ready signal;
   * afterwards it runs at once. Returns a function that removes it (running its destructor if it ran).
   */
  register(initialiser: Initialiser): () => void;
  /** Signals that the page is ready: runs every registered initialiser once. Repeated signals do nothing. */
  init(): void;
  /** Runs every destructor (newest first) and returns to `not-initialised`; a later `init()` runs the initialisers again. */
  destroy(): void;
}

interface Entry {
  readonly initialiser: Initialiser;
  destructor: Destructor | undefined;
  ran: boolean;
}

/**
 * Creates a lifecycle. `onError` receives an initialiser's or destructor's exception, so that one
 * faulty block never stops the others from starting or stopping.
 */
export function createPageLifecycle(onError: (error: unknown) => void = reportToConsole): PageLifecycle {
  const entries: Entry[] = [];
  let state: LifecycleState = 'not-initialised';

  const run = (entry: Entry): void => {
    if (entry.ran) return;
    entry.ran = true;
    try {
      entry.destructor = entry.initialiser() ?? undefined;
    } catch (error) {
      onError(error);
    }
  };

  const undo = (entry: Entry): void => {
    const destructor = entry.destructor;
    entry.destructor = undefined;
    entry.ran = false;
    if (destructor === undefined) return;
    try {
      destructor();
    } catch (error) {
      onError(error);
    }
  };

  return {
    get state() {
      return state;
    },
    register(initialiser) {
      const entry: Entry = { initialiser, destructor: undefined, ran: false };
      entries.push(entry);
      if (state === 'initialised') run(entry);
      return () => {
        const index = entries.indexOf(entry);
        if (index === -1) return;
        entries.splice(index, 1);
        undo(entry);
      };
    },
    init() {
      if (state === 'initialised') return;
      state = 'initialised';
      // A copy, because an initialiser may register further initialisers, which then run at once.
      for (const entry of [...entries]) run(entry);
    },
    destroy() {
      if (state === 'not-initialised') return;
      state = 'not-initialised';
      for (const entry of [...entries].reverse()) undo(entry);
    },
  };
}

/**
 * Calls `signal` once the document is ready: at once when parsing has finished, otherwise on
 * DOMContentLoaded. Module scripts are deferred, so in practice this is almost always immediate.
 */
export function whenDocumentReady(doc: Document, signal: () => void): void {
  if (doc.readyState !== 'loading') {
    signal();
    return;
  }
  doc.addEventListener('DOMContentLoaded', () => signal(), { once: true });
}

function reportToConsole(error: unknown): void {
  console.error(error);
}
