//! Messages at the fields of a server-rendered product form, for add to cart without leaving
//! the page (plain DOM, no React). A refused field gets its message in a `p.field__error` after
//! its controls, as the server renders it; its controls get `aria-invalid` and name the message
//! in `aria-describedby`; focus moves to the first refused control.

import type { FieldErrors } from './line-form';

const CONTROLS = 'input, textarea, select';

function containers(form: HTMLFormElement): HTMLElement[] {
  return [...form.querySelectorAll<HTMLElement>('[data-answer-field]')];
}

function describedBy(control: Element, without: string, withId?: string): string | undefined {
  const ids = (control.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id !== '' && id !== without);
  if (withId !== undefined) ids.push(withId);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function setDescribedBy(control: Element, ids: string | undefined): void {
  if (ids === undefined) control.removeAttribute('aria-describedby');
  else control.setAttribute('aria-describedby', ids);
}

/** Removes every field message and invalid mark of the form's product fields. */
export function clearFieldMessages(form: HTMLFormElement): void {
  for (const container of containers(form)) {
    container.classList.remove('field--error');
    for (const message of container.querySelectorAll('.field__error')) {
      for (const control of container.querySelectorAll(CONTROLS)) setDescribedBy(control, describedBy(control, message.id));
      message.remove();
    }
    for (const control of container.querySelectorAll(CONTROLS)) control.removeAttribute('aria-invalid');
  }
}

/** Shows each field's message at its field and focuses the first refused control. */
export function showFieldMessages(form: HTMLFormElement, errors: FieldErrors): void {
  clearFieldMessages(form);
  let first: HTMLElement | undefined;
  for (const container of containers(form)) {
    const message = errors[container.dataset['answerField'] ?? ''];
    if (message === undefined) continue;
    const controls = [...container.querySelectorAll<HTMLElement>(CONTROLS)];
    const id = `${controls[0]?.id ?? container.dataset['answerField']}-error`;
    const paragraph = form.ownerDocument.createElement('p');
    paragraph.className = 'field__error';
    paragraph.id = id;
    paragraph.textContent = message;
    container.append(paragraph);
    container.classList.add('field--error');
    for (const control of controls) {
      control.setAttribute('aria-invalid', 'true');
      setDescribedBy(control, describedBy(control, id, id));
    }
    first ??= controls[0];
  }
  first?.focus();
}
