//! Reading value shapes (000 s3) from server-shaped markup, and client validation with the server's messages.

import { describe, expect, it } from 'vitest';
import { CHARACTER_LIMIT, EMAIL_INVALID, ZIP_INVALID, requiredMessage } from './messages';
import { parseFormProps, type FieldProps } from './model';
import { validateField, validateForm } from './validation';
import { readFormValues } from './values';

function form(html: string): HTMLFormElement {
  const element = document.createElement('form');
  element.innerHTML = html;
  return element;
}

const fields: FieldProps[] = [
  { id: 'name', type: 'name', title: 'Name', required: true },
  { id: 'phone', type: 'phone', title: 'Phone', required: false },
  { id: 'color', type: 'radio', title: 'Colour', required: false, options: ['red', 'blue'] },
  { id: 'extras', type: 'checkbox', title: 'Extras', required: false, options: ['a', 'b', 'c'] },
  { id: 'scale', type: 'likert', title: 'Scale', required: false, options: ['Fast', 'Kind'] },
  { id: 'source', type: 'hidden', title: 'source', required: false },
  { id: 'intro', type: 'section', title: 'Intro', required: false },
  { id: 'note', type: 'textarea', title: 'Note', required: false, maxLength: 3 },
];

const markup = `
  <input name="name-first" value="Ada"><input name="name-last" value="Lovelace">
  <input name="phone-areacode" value="555"><input name="phone-prefix" value="123"><input name="phone-line" value="4567">
  <input type="radio" name="color" value="red"><input type="radio" name="color" value="blue" checked>
  <input type="checkbox" name="extras" value="a" checked><input type="checkbox" name="extras" value="b"><input type="checkbox" name="extras" value="c" checked>
  <input type="radio" name="scale-0" value="2" checked><input type="radio" name="scale-1" value="-1">
  <input type="hidden" name="source" value="">
  <textarea name="note">abcd</textarea>`;

describe('value shapes', () => {
  it('follow the spec for every kind of field', () => {
    const values = readFormValues(form(markup), fields, '?source=newsletter&x=1');
    expect(values).toEqual({
      name: ['Ada', 'Lovelace'],
      phone: ['', '555', '123', '4567'],
      color: 'blue',
      extras: ['a', 'c'],
      scale: { Fast: '2' },
      source: 'newsletter',
      note: 'abcd',
    });
  });

  it('read a hidden field from its input when the URL has no such parameter', () => {
    const values = readFormValues(form('<input type="hidden" name="source" value="ad">'), [fields[5]!], '');
    expect(values['source']).toBe('ad');
  });
});

describe('client validation', () => {
  it('uses the server rules and messages', () => {
    const values = readFormValues(form(markup), fields, '');
    expect(validateForm(fields, values)).toEqual({ note: CHARACTER_LIMIT });
    expect(validateField({ id: 'e', type: 'email', title: 'Email', required: false }, 'nope')).toBe(EMAIL_INVALID);
    expect(validateField({ id: 'e', type: 'email', title: 'Email', required: false }, '')).toBeUndefined();
    expect(validateField({ id: 'e', type: 'email', title: 'Email', required: true }, ' ')).toBe(requiredMessage('Email'));
    const address = { id: 'a', type: 'address', title: 'Address', required: false } as const;
    expect(validateField(address, ['1 Main', '', 'Boston', 'MA', '021', 'US'])).toBe(ZIP_INVALID);
    expect(validateField(address, ['Rua', '', 'Lisboa', '', '1100-321', 'Portugal'])).toBeUndefined();
  });
});

describe('props', () => {
  it('are read from the server JSON and refused when malformed', () => {
    const props = parseFormProps({ formId: 'contact', submitLabel: 'Send', fields: [{ id: 'e', type: 'email', title: 'Email', required: true }] });
    expect(props.fields[0]).toEqual({ id: 'e', type: 'email', title: 'Email', required: true });
    expect(() => parseFormProps({ fields: [] })).toThrow();
    expect(() => parseFormProps({ formId: 'x', fields: [{ id: 'e', type: 'nonsense' }] })).toThrow();
  });
});
