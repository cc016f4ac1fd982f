//! The loading spinner (001 s2): a ring that turns while something loads, announced once to
//! screen readers by its label. It stands still under reduced motion (the stylesheet's rule).

export interface Spinner {
  readonly element: HTMLElement;
  /** Takes the spinner off the page. */
  remove(): void;
}

/** Puts a spinner into `container`, labelled for assistive technology ("Loading" by default). */
export function showSpinner(container: HTMLElement, label = 'Loading'): Spinner {
  const doc = container.ownerDocument;
  const element = doc.createElement('span');
  element.className = 'spinner';
  element.setAttribute('role', 'status');
  const text = doc.createElement('span');
  text.className = 'visually-hidden';
  text.textContent = label;
  element.append(text);
  container.append(element);
  container.setAttribute('aria-busy', 'true');
  return {
    element,
    remove() {
      element.remove();
      container.removeAttribute('aria-busy');
    },
  };
}
