//! The form island's DOM work over the server's markup: field errors before each field's title, aria-invalid and aria-describedby, the text-area counters, the locked button and the success view.

import { SUBMITTING } from './messages';
import type { FieldProps } from './model';
import { counterText } from './rules';

export const ERROR_CLASS = 'field--error';

/** The element the server rendered for field `index` of the block: the control, or the fieldset of a group. */
export function fieldElement(block: HTMLElement, index: number): HTMLElement | null {
  return block.ownerDocument.getElementById(`${block.id}-field-${index}`);
}

/** The wrapper that holds the field's label and control. */
function fieldContainer(element: HTMLElement): HTMLElement {
  return element.closest<HTMLElement>('.field') ?? element;
}

function controls(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('input, select, textarea')].filter(
    (control) => !(control instanceof HTMLInputElement && control.type === 'hidden'),
  );
}

/** Removes every error the island added. */
export function clearFieldErrors(block: HTMLElement): void {
  block.querySelectorAll('.field__error').forEach((error) => error.remove());
  block.querySelectorAll(`.${ERROR_CLASS}`).forEach((container) => container.classList.remove(ERROR_CLASS));
  block.querySelectorAll<HTMLElement>('[aria-invalid]').forEach((control) => {
    control.removeAttribute('aria-invalid');
    const describedBy = (control.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((id) => id !== '' && !id.endsWith('-error'))
      .join(' ');
    if (describedBy) control.setAttribute('aria-describedby', describedBy);
    else control.removeAttribute('aria-describedby');
  });
}

/**
 * Shows each message before its field's title and marks the field; returns the first invalid
 * control, for focus. Messages for ids the form does not have are ignored.
 */
export function showFieldErrors(block: HTMLElement, fields: readonly FieldProps[], errors: Readonly<Record<string, string>>): HTMLElement | undefined {
  let first: HTMLElement | undefined;
  fields.forEach((field, index) => {
    const message = errors[field.id];
    const element = fieldElement(block, index);
    if (message === undefined || element === null) return;
    const container = fieldContainer(element);
    const error = block.ownerDocument.createElement('p');
    error.className = 'field__error';
    error.id = `${block.id}-field-${index}-error`;
    error.textContent = message;
    container.prepend(error);
    container.classList.add(ERROR_CLASS);
    const targets = controls(container);
    for (const control of element.matches('fieldset') ? [element, ...targets] : targets) {
      control.setAttribute('aria-invalid', 'true');
      const describedBy = control.getAttribute('aria-describedby');
      control.setAttribute('aria-describedby', describedBy ? `${error.id} ${describedBy}` : error.id);
    }
    first ??= targets[0];
  });
  return first;
}

/** Locks the form: the button says 'Submitting…' and the form is marked busy. Returns the unlock. */
export function lockForm(form: HTMLFormElement): () => void {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const label = button?.textContent ?? '';
  if (button) button.textContent = SUBMITTING;
  form.setAttribute('aria-busy', 'true');
  form.dataset['state'] = 'locked';
  return () => {
    if (button) button.textContent = label;
    form.removeAttribute('aria-busy');
    delete form.dataset['state'];
  };
}

/** Hides every part of the form and shows `success` (focused, so screen readers read it). */
export function showSuccess(form: HTMLFormElement, success: HTMLElement): void {
  for (const child of [...form.children]) {
    if (child !== success && child instanceof HTMLElement) child.hidden = true;
  }
  if (success.parentElement !== form) form.append(success);
  success.hidden = false;
  success.tabIndex = -1;
  success.setAttribute('role', 'status');
  success.focus();
  form.dataset['state'] = 'success';
}

/** Adds a 'count / max' counter after each text area with a valid data-max-length; returns the cleanup. */
export function attachCounters(form: HTMLFormElement): () => void {
  const cleanups: (() => void)[] = [];
  form.querySelectorAll<HTMLTextAreaElement>('textarea[data-max-length]').forEach((area) => {
    const max = area.getAttribute('data-max-length');
    if (counterText('', max) === undefined) return;
    const counter = form.ownerDocument.createElement('p');
    counter.className = 'field__counter';
    counter.id = `${area.id}-counter`;
    const update = () => {
      const shown = counterText(area.value, max);
      counter.textContent = shown?.label ?? '';
      counter.classList.toggle('field__counter--error', shown?.over ?? false);
    };
    update();
    area.after(counter);
    area.addEventListener('input', update);
    cleanups.push(() => {
      area.removeEventListener('input', update);
      counter.remove();
    });
  });
  return () => cleanups.forEach((cleanup) => cleanup());
}
