//! Product forms in the cart: a line's form as the cart API gives it
//! (`GET /api/commerce/cart/items/{line}/form`), the answers a form element holds, and the
//! per-field messages of a refused add or save (a 400 with `reason: INVALID_ANSWERS`).

/** The field types a product form has: each answer is one text. */
export type AnswerFieldType = 'text' | 'textarea' | 'email' | 'select' | 'radio';

export interface AnswerFieldSpec {
  readonly id: string;
  readonly type: AnswerFieldType;
  readonly title: string;
  readonly description: string;
  readonly placeholder: string;
  readonly required: boolean;
  /** The most characters the answer takes. */
  readonly maxLength: number;
  readonly options?: readonly string[];
}

/** Field id to answer. */
export type Answers = Readonly<Record<string, string>>;
/** Field id to the message that says what is wrong with its answer. */
export type FieldErrors = Readonly<Record<string, string>>;

export interface LineForm {
  readonly lineId: string;
  readonly productName: string;
  readonly sku: string;
  readonly form: { readonly title: string; readonly fields: readonly AnswerFieldSpec[] };
  readonly answers: Answers;
}

const FIELD_TYPES: readonly string[] = ['text', 'textarea', 'email', 'select', 'radio'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTextMap(value: unknown): value is Readonly<Record<string, string>> {
  return isRecord(value) && Object.values(value).every((text) => typeof text === 'string');
}

function isFieldSpec(value: unknown): value is AnswerFieldSpec {
  if (!isRecord(value)) return false;
  const options = value['options'];
  return (
    typeof value['id'] === 'string' &&
    typeof value['type'] === 'string' &&
    FIELD_TYPES.includes(value['type']) &&
    typeof value['title'] === 'string' &&
    typeof value['required'] === 'boolean' &&
    typeof value['maxLength'] === 'number' &&
    (options === undefined || (Array.isArray(options) && options.every((option) => typeof option === 'string')))
  );
}

/** Whether a value is a line's form as the API answers it. */
export function isLineForm(value: unknown): value is LineForm {
  if (!isRecord(value) || !isRecord(value['form'])) return false;
  const fields = value['form']['fields'];
  return (
    typeof value['lineId'] === 'string' &&
    typeof value['productName'] === 'string' &&
    typeof value['form']['title'] === 'string' &&
    Array.isArray(fields) &&
    fields.every(isFieldSpec) &&
    isTextMap(value['answers'])
  );
}

/** The per-field messages of a refusal body, when the answers were what was refused. */
export function fieldErrorsOf(body: Readonly<Record<string, unknown>> | undefined): FieldErrors | undefined {
  if (body?.['reason'] !== 'INVALID_ANSWERS') return undefined;
  const errors = body['errors'];
  return isTextMap(errors) ? errors : undefined;
}

/** The name a product form's control has in the add-to-cart form: `form[<field id>]`. */
export function answerName(fieldId: string): string {
  return `form[${fieldId}]`;
}

/** The answers a form element holds, from its `form[<field id>]` controls. */
export function answersIn(data: FormData): Answers {
  const answers: Record<string, string> = {};
  for (const [name, value] of data.entries()) {
    const match = /^form\[(.+)\]$/.exec(name);
    if (match && typeof value === 'string') answers[match[1]!] = value;
  }
  return answers;
}

/** Whether a line's answers say what `answers` says (blank answers are not kept). */
export function sameAnswers(line: readonly { readonly fieldId: string; readonly value: string }[] | null, answers: Answers): boolean {
  const given = Object.entries(answers)
    .map(([fieldId, value]) => [fieldId, value.trim()] as const)
    .filter(([, value]) => value !== '');
  const held = line ?? [];
  return given.length === held.length && given.every(([fieldId, value]) => held.some((answer) => answer.fieldId === fieldId && answer.value === value));
}
