//! Client-side validation, the same rules and messages the server applies (core `forms::validation`), so most mistakes are caught before a key is spent.

import { CHARACTER_LIMIT, EMAIL_INVALID, PARSE_FAILURE, ZIP_INVALID, requiredMessage } from './messages';
import { isBlank, type FieldProps, type FieldValue } from './model';
import { exceedsMaxLength, isValidEmail, isValidUsZip, namesUnitedStates } from './rules';

/** The message for one field's value, or undefined when it is valid. */
export function validateField(field: FieldProps, value: FieldValue): string | undefined {
  if (field.type === 'section') return undefined;
  if (isBlank(value)) return field.required ? requiredMessage(field.title) : undefined;
  const options = field.options ?? [];
  if (typeof value === 'string') {
    switch (field.type) {
      case 'email':
        return isValidEmail(value.trim()) ? undefined : EMAIL_INVALID;
      case 'textarea':
        return exceedsMaxLength(value, field.maxLength) ? CHARACTER_LIMIT : undefined;
      case 'radio':
      case 'select':
        return options.includes(value) ? undefined : PARSE_FAILURE;
      default:
        return undefined;
    }
  }
  if (Array.isArray(value)) {
    if (field.type === 'address') {
      const zip = (value[4] ?? '').trim();
      return namesUnitedStates(value[5] ?? '') && zip !== '' && !isValidUsZip(zip) ? ZIP_INVALID : undefined;
    }
    if (field.type === 'checkbox') return value.every((choice: string) => options.includes(choice)) ? undefined : PARSE_FAILURE;
    return undefined;
  }
  if (field.type === 'likert') {
    const answered = Object.entries(value).filter(([, answer]) => answer.trim() !== '');
    if (answered.some(([statement, answer]) => !options.includes(statement) || !['-2', '-1', '0', '1', '2'].includes(answer.trim()))) {
      return PARSE_FAILURE;
    }
    return field.required && answered.length < options.length ? requiredMessage(field.title) : undefined;
  }
  return undefined;
}

/** Field id to message for every invalid field, in the form's order. */
export function validateForm(fields: readonly FieldProps[], values: Readonly<Record<string, FieldValue>>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.id];
    if (value === undefined) continue;
    const message = validateField(field, value);
    if (message !== undefined) errors[field.id] = message;
  }
  return errors;
}
