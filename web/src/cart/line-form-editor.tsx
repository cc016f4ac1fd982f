//! The cart island's editor of a line's answers: it opens the line's form from the cart API
//! ('Unable to open form' when it cannot), shows the fields as the server renders them, keeps
//! what the shopper types, saves through the API, and shows refused answers at their fields and
//! any other failure as 'Unable to update form'.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CartApi, CartResult } from './api';
import type { AnswerFieldSpec, Answers, FieldErrors, LineForm } from './line-form';
import type { CartEntry } from './model';
import { UNABLE_TO_OPEN_FORM } from './texts';

export interface LineFormEditorProps {
  readonly api: CartApi;
  readonly entry: CartEntry;
  /** Prefix of the editor's element ids, unique on the page. */
  readonly idPrefix: string;
  /** Another cart call is running. */
  readonly busy: boolean;
  /** Runs the save of `answers` as a cart call: the island is busy meanwhile and takes the new cart. */
  readonly save: (answers: Answers, call: () => Promise<CartResult>) => Promise<CartResult>;
  readonly onClose: () => void;
}

type Opening = { readonly phase: 'loading' } | { readonly phase: 'failed' } | { readonly phase: 'open'; readonly lineForm: LineForm };

export function LineFormEditor({ api, entry, idPrefix, busy, save, onClose }: LineFormEditorProps) {
  const [opening, setOpening] = useState<Opening>({ phase: 'loading' });
  const [values, setValues] = useState<Answers>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string | undefined>(undefined);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    let current = true;
    void api.openForm(entry.lineId).then((result) => {
      if (!current) return;
      if (!result.ok) {
        setOpening({ phase: 'failed' });
        return;
      }
      setValues(result.lineForm.answers);
      setOpening({ phase: 'open', lineForm: result.lineForm });
    });
    return () => {
      current = false;
    };
  }, [api, entry.lineId]);

  useEffect(() => {
    if (opening.phase === 'open') formRef.current?.querySelector<HTMLElement>('input, textarea, select')?.focus();
  }, [opening.phase]);

  useEffect(() => {
    // The first refused control in the form's order takes the focus.
    if (Object.keys(errors).length > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save(values, () => api.updateForm(entry.lineId, values));
    if (result.ok) {
      onClose();
      return;
    }
    setErrors(result.fieldErrors ?? {});
    setAlert(result.message);
  };

  if (opening.phase !== 'open') {
    return (
      <div className="cart-line-form" id={idPrefix}>
        {opening.phase === 'loading' ? (
          <p role="status">Opening the form…</p>
        ) : (
          <p className="commerce-alert" role="alert">
            {UNABLE_TO_OPEN_FORM}
          </p>
        )}
        <button className="button button--small button--secondary" type="button" onClick={onClose}>
          Close
        </button>
      </div>
    );
  }
  const { form } = opening.lineForm;
  return (
    <form className="cart-line-form line-form" id={idPrefix} ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
      <fieldset className="product-form">
        <legend className="product-form__title">
          {form.title}
          <span className="visually-hidden"> for {entry.productName}</span>
        </legend>
        {form.fields.map((field, index) => (
          <AnswerField
            key={field.id}
            id={`${idPrefix}-answer-${index}`}
            field={field}
            value={values[field.id] ?? ''}
            error={errors[field.id]}
            onChange={(value) => setValues((before) => ({ ...before, [field.id]: value }))}
          />
        ))}
      </fieldset>
      {alert !== undefined && (
        <p className="commerce-alert" role="alert">
          {alert}
        </p>
      )}
      <p className="line-form__actions">
        <button className="button button--small button--primary" type="submit" disabled={busy}>
          Save
        </button>{' '}
        <button className="button button--small button--secondary" type="button" onClick={onClose}>
          Cancel
        </button>
      </p>
    </form>
  );
}

interface AnswerFieldProps {
  readonly id: string;
  readonly field: AnswerFieldSpec;
  readonly value: string;
  readonly error: string | undefined;
  readonly onChange: (value: string) => void;
}

/** One field, marked up as the server's `commerce/product_form.html` marks it up. */
function AnswerField({ id, field, value, error, onChange }: AnswerFieldProps) {
  const descriptionId = field.description !== '' ? `${id}-description` : undefined;
  const errorId = error !== undefined ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter((part) => part !== undefined).join(' ') || undefined;
  const state = {
    'aria-describedby': describedBy,
    'aria-invalid': error !== undefined || undefined,
    required: field.required,
  };
  const title = (
    <>
      {field.title}
      {field.required && (
        <span className="field__required" aria-hidden="true">
          *
        </span>
      )}
    </>
  );
  const help = descriptionId !== undefined && (
    <p className="field__description" id={descriptionId}>
      {field.description}
    </p>
  );
  const message = errorId !== undefined && (
    <p className="field__error" id={errorId}>
      {error}
    </p>
  );
  const className = error !== undefined ? 'field field--error' : 'field';
  if (field.type === 'radio') {
    return (
      <fieldset className={`${className} field--choices`} data-answer-field={field.id} aria-describedby={describedBy}>
        <legend className="field__label">{title}</legend>
        {help}
        {(field.options ?? []).map((option, index) => {
          const optionId = index === 0 ? id : `${id}-${index}`;
          return (
            <div className="field__choice" key={option}>
              <input
                id={optionId}
                type="radio"
                name={`${id}-choice`}
                value={option}
                checked={value === option}
                aria-invalid={state['aria-invalid']}
                required={field.required}
                onChange={() => onChange(option)}
              />
              <label htmlFor={optionId}>{option}</label>
            </div>
          );
        })}
        {message}
      </fieldset>
    );
  }
  const common = { className: 'field__control', id, value, ...state };
  return (
    <div className={className} data-answer-field={field.id}>
      <label className="field__label" htmlFor={id}>
        {title}
      </label>
      {help}
      {field.type === 'textarea' ? (
        <textarea {...common} rows={3} maxLength={field.maxLength} placeholder={field.placeholder || undefined} onChange={(event) => onChange(event.target.value)} />
      ) : field.type === 'select' ? (
        <select {...common} onChange={(event) => onChange(event.target.value)}>
          <option value="">{field.placeholder || 'Select an option'}</option>
          {(field.options ?? []).map((option) => (
            <option value={option} key={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={field.type === 'email' ? 'email' : 'text'}
          maxLength={field.maxLength}
          autoComplete={field.type === 'email' ? 'email' : 'off'}
          placeholder={field.placeholder || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {message}
    </div>
  );
}
