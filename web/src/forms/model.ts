//! The form island's props (written by the server into data-island-props) and the value shapes of spec 000 s3.

export type FieldType =
  | 'text' | 'textarea' | 'email' | 'number' | 'website' | 'currency' | 'password' | 'twitter'
  | 'date' | 'time' | 'name' | 'address' | 'phone' | 'section' | 'radio' | 'checkbox' | 'select'
  | 'likert' | 'hidden';

export interface FieldProps {
  readonly id: string;
  readonly type: FieldType;
  readonly title: string;
  readonly required: boolean;
  readonly maxLength?: number;
  readonly options?: readonly string[];
}

export interface FormProps {
  readonly formId: string;
  readonly submitLabel: string;
  readonly fields: readonly FieldProps[];
  /** Where to go after a successful submission instead of showing the message (000 s4); the server sends only site paths and http(s) URLs. */
  readonly successUrl?: string;
}

/** name, date, time, address and phone: arrays of parts; checkbox: checked values; likert: statement to answer; others: one value. */
export type FieldValue = string | readonly string[] | Readonly<Record<string, string>>;

/** The input names of each multi-part type's parts, after the field id and a hyphen, as the server renders them. */
export const PART_NAMES: Partial<Record<FieldType, readonly string[]>> = {
  name: ['first', 'last'],
  date: ['month', 'day', 'year'],
  time: ['hour', 'minute', 'second', 'ampm'],
  address: ['line1', 'line2', 'city', 'state', 'zip', 'country'],
  phone: ['areacode', 'prefix', 'line'],
};

const FIELD_TYPES: readonly FieldType[] = [
  'text', 'textarea', 'email', 'number', 'website', 'currency', 'password', 'twitter', 'date', 'time',
  'name', 'address', 'phone', 'section', 'radio', 'checkbox', 'select', 'likert', 'hidden',
];

/** Reads the props, refusing anything that is not a form's: the island then leaves the static form alone. */
export function parseFormProps(props: unknown): FormProps {
  if (typeof props !== 'object' || props === null) throw new Error('form island: props must be an object');
  const { formId, submitLabel, fields, successUrl } = props as Record<string, unknown>;
  if (typeof formId !== 'string' || !Array.isArray(fields)) throw new Error('form island: formId and fields are required');
  return {
    formId,
    submitLabel: typeof submitLabel === 'string' ? submitLabel : 'Submit',
    ...(typeof successUrl === 'string' && successUrl !== '' ? { successUrl } : {}),
    fields: fields.map((field: unknown) => {
      const f = field as Record<string, unknown>;
      if (typeof f['id'] !== 'string' || !FIELD_TYPES.includes(f['type'] as FieldType)) {
        throw new Error('form island: a field needs an id and a known type');
      }
      return {
        id: f['id'],
        type: f['type'] as FieldType,
        title: typeof f['title'] === 'string' ? f['title'] : f['id'],
        required: f['required'] === true,
        ...(typeof f['maxLength'] === 'number' ? { maxLength: f['maxLength'] } : {}),
        ...(Array.isArray(f['options']) ? { options: f['options'].map(String) } : {}),
      };
    }),
  };
}

/** Whether a value is empty: blank text, all parts blank, nothing checked or answered. */
export function isBlank(value: FieldValue): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every((part: string) => part.trim() === '');
  return Object.values(value).every((answer) => answer.trim() === '');
}
