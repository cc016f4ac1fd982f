//! What an island module exports: the contract between the islands loader and `src/islands/*.tsx`.

/** Undoes a mount: unmounts the React root and puts the element back the way the island found it, if it can. */
export type IslandUnmount = () => void;

/**
 * An island module. `mount` takes over one server-rendered block element (`[data-island]`) with
 * the props the server wrote into `data-island-props`; it may replace the static markup with an
 * equivalent interactive one. It throws when it cannot, and the static markup then stays.
 */
export interface IslandModule {
  mount(element: HTMLElement, props: unknown): IslandUnmount | void;
}

export function isIslandModule(value: unknown): value is IslandModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { mount?: unknown }).mount === 'function'
  );
}
