//! Reads each field's value from the server-rendered form in the shapes of spec 000 s3, and builds the `form` JSON of the payload.

import { PART_NAMES, type FieldProps, type FieldValue } from './model';

function inputs(form: HTMLFormElement, name: string): (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[] {
  return [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')].filter(
    (element) => element.name === name,
  );
}

function textOf(form: HTMLFormElement, name: string): string {
  return inputs(form, name)[0]?.value ?? '';
}

function checked(form: HTMLFormElement, name: string): string[] {
  return inputs(form, name)
    .filter((element): element is HTMLInputElement => element instanceof HTMLInputElement && element.checked)
    .map((element) => element.value);
}

/**
 * One field's value. A phone has a leading empty entry for its missing country code (three
 * parts shown); a hidden field takes the same-named URL query parameter when the page has one.
 */
export function readFieldValue(form: HTMLFormElement, field: FieldProps, search: string): FieldValue {
  const parts = PART_NAMES[field.type];
  if (parts) {
    const values = parts.map((part) => textOf(form, `${field.id}-${part}`));
    return field.type === 'phone' && values.length === 3 ? ['', ...values] : values;
  }
  switch (field.type) {
    case 'radio':
      return checked(form, field.id)[0] ?? '';
    case 'checkbox':
      return checked(form, field.id);
    case 'likert': {
      const answers: Record<string, string> = {};
      (field.options ?? []).forEach((statement, index) => {
        const answer = checked(form, `${field.id}-${index}`)[0];
        if (answer !== undefined) answers[statement] = answer;
      });
      return answers;
    }
    case 'hidden': {
      const fromQuery = new URLSearchParams(search).get(field.id);
      return fromQuery ?? textOf(form, field.id);
    }
    default:
      return textOf(form, field.id);
  }
}

/** Field id to value for every field that holds one (sections do not). */
export function readFormValues(form: HTMLFormElement, fields: readonly FieldProps[], search: string): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of fields) {
    if (field.type !== 'section') values[field.id] = readFieldValue(form, field, search);
  }
  return values;
}
