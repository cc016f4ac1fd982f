//! Escape-key close targets (spec 000 s2): Escape closes the topmost registered target first.

/** Something Escape can close: a dialog, an overlay, a lightbox. */
export interface CloseTarget {
  close(): void;
}

/**
 * Called when Escape is pressed and nothing is registered. On a public page this does nothing;
 * the signed-in owner's shortcuts (Escape opens the configuration area, Shift+Escape logs out)
 * belong to code that knows about the session and installs itself through `setFallback`.
 */
export type EscapeFallback = (event: KeyboardEvent) => void;

export interface EscapeRegistry {
  /** Puts `target` on top of the stack; returns a function that unregisters it. */
  register(target: CloseTarget): () => void;
  /** Removes `target` wherever it is in the stack; unknown targets are ignored. */
  unregister(target: CloseTarget): void;
  /** Number of registered targets. */
  readonly size: number;
  /** Replaces the no-target behaviour; pass `undefined` to restore the default no-op. */
  setFallback(fallback: EscapeFallback | undefined): void;
  /** Handles one key event; returns true when Escape closed a target. */
  handleKeydown(event: KeyboardEvent): boolean;
  /** Listens for Escape on `target` (normally the document); returns a function that stops listening. */
  listen(target: EventTarget): () => void;
}

const noFallback: EscapeFallback = () => {};

export function createEscapeRegistry(): EscapeRegistry {
  // Newest last: the topmost target is the most recently registered one still open.
  const stack: CloseTarget[] = [];
  let fallback: EscapeFallback = noFallback;

  const unregister = (target: CloseTarget): void => {
    const index = stack.lastIndexOf(target);
    if (index !== -1) stack.splice(index, 1);
  };

  const handleKeydown = (event: KeyboardEvent): boolean => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return false;
    const top = stack.pop();
    if (top === undefined) {
      fallback(event);
      return false;
    }
    // Removed before closing, so a close() that unregisters itself again is harmless.
    top.close();
    return true;
  };

  return {
    register(target) {
      stack.push(target);
      return () => unregister(target);
    },
    unregister,
    get size() {
      return stack.length;
    },
    setFallback(next) {
      fallback = next ?? noFallback;
    },
    handleKeydown,
    listen(target) {
      const listener = (event: Event): void => {
        if (event instanceof KeyboardEvent && handleKeydown(event)) event.preventDefault();
      };
      target.addEventListener('keydown', listener);
      return () => target.removeEventListener('keydown', listener);
    },
  };
}
