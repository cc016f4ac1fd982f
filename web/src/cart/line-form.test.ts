//! Reading a line's form and the answers a form element holds.

import { describe, expect, it } from 'vitest';
import { answersIn, fieldErrorsOf, isLineForm, sameAnswers } from './line-form';

const lineForm = {
  lineId: 'JUG',
  productName: 'Moss Pouring Jug',
  sku: 'JUG',
  form: {
    title: 'Gift options',
    fields: [{ id: 'gift-wrap', type: 'radio', title: 'Gift wrap', description: '', placeholder: '', required: true, maxLength: 1000, options: ['No', 'Yes'] }],
  },
  answers: {},
};

describe('line forms', () => {
  it('reads only well-formed forms', () => {
    expect(isLineForm(lineForm)).toBe(true);
    const field = lineForm.form.fields[0]!;
    expect(isLineForm({ ...lineForm, form: { ...lineForm.form, fields: [{ ...field, type: 'date' }] } })).toBe(false);
    expect(isLineForm({ ...lineForm, answers: { 'gift-wrap': 1 } })).toBe(false);
    expect(isLineForm({ ...lineForm, form: undefined })).toBe(false);
  });

  it('takes the answers from form[...] controls only', () => {
    const data = new FormData();
    data.append('itemId', 'jug');
    data.append('form[gift-wrap]', 'Yes');
    data.append('form[gift-message]', 'Happy birthday');
    data.append('form', 'x');
    expect(answersIn(data)).toEqual({ 'gift-wrap': 'Yes', 'gift-message': 'Happy birthday' });
  });

  it('knows field messages only in a refusal of the answers', () => {
    expect(fieldErrorsOf({ reason: 'INVALID_ANSWERS', errors: { a: 'Required.' } })).toEqual({ a: 'Required.' });
    expect(fieldErrorsOf({ reason: 'OUT_OF_STOCK', errors: { a: 'x' } })).toBeUndefined();
    expect(fieldErrorsOf({ reason: 'INVALID_ANSWERS', errors: { a: 1 } })).toBeUndefined();
    expect(fieldErrorsOf(undefined)).toBeUndefined();
  });

  it('compares a line’s answers with typed ones as the server keeps them', () => {
    const held = [{ fieldId: 'gift-wrap', value: 'Yes' }];
    expect(sameAnswers(held, { 'gift-wrap': ' Yes ', 'gift-message': '' })).toBe(true);
    expect(sameAnswers(held, { 'gift-wrap': 'No' })).toBe(false);
    expect(sameAnswers(null, { 'gift-message': '  ' })).toBe(true);
  });
});
