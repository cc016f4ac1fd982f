//! Mounting the form flow over a server-rendered form or newsletter block: the controller for the DOM, a small React root for the announced status messages.

import { flushSync } from 'react-dom';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { RequestClient } from '../runtime/request/client';
import { FORM_RENDER_URL, formRenderEvent } from './census';
import { controlForm, statusTexts } from './controller';
import type { FieldProps } from './model';
import { IDLE, type Post, type SubmitState } from './submission';

export interface MountOptions {
  readonly block: HTMLElement;
  readonly formId: string;
  readonly fields: readonly FieldProps[];
  readonly newsletter: boolean;
  /** Finds or makes the success element inside the form. */
  readonly success: (form: HTMLFormElement) => HTMLElement;
  /** Where to go after success instead of showing the message. */
  readonly successUrl?: string | undefined;
}

interface VitrineGlobal {
  readonly requests?: RequestClient;
  readonly pageContext?: { readonly collectionId?: unknown };
}

/** The request layer's POST, quiet (the island shows failures itself instead of the overlay). */
function postThroughRuntime(requests: RequestClient): Post {
  return async (url, data) => {
    const outcome = await requests.post(url, data ?? {}, { onFailure: () => {} });
    return outcome.ok ? { ok: true, data: outcome.data } : { ok: false, failure: { status: outcome.failure.status, body: outcome.failure.body } };
  };
}

export function mountFormFlow(options: MountOptions): () => void {
  const { block } = options;
  const form = block.querySelector<HTMLFormElement>('form');
  if (!form) throw new Error('form island: the block has no form');
  const vitrine = (window as unknown as { Vitrine?: VitrineGlobal }).Vitrine;
  if (!vitrine?.requests) throw new Error('form island: the runtime request layer is missing');
  const collectionId = typeof vitrine.pageContext?.collectionId === 'string' ? vitrine.pageContext.collectionId : '';

  const above = document.createElement('div');
  above.className = 'form__status-region';
  form.prepend(above);
  const below = document.createElement('div');
  below.className = 'form__status-region form__status-region--below';
  form.append(below);
  const root = createRoot(above);
  const render = (state: SubmitState) => {
    const texts = statusTexts(state, options.newsletter);
    flushSync(() =>
      root.render(
        <>
          <p className="form__status" role="alert" tabIndex={-1} hidden={texts.above === undefined}>
            {texts.above}
          </p>
          {createPortal(<p className="form__status form__status--below" hidden={texts.below === undefined}>{texts.below}</p>, below)}
        </>,
      ),
    );
  };
  render(IDLE);
  const release = controlForm({
    block,
    form,
    formId: options.formId,
    fields: options.fields,
    newsletter: options.newsletter,
    post: postThroughRuntime(vitrine.requests),
    success: options.success(form),
    collectionId,
    search: window.location.search,
    onState: render,
    successUrl: options.successUrl,
  });
  const event = formRenderEvent(options.formId, {
    cookies: document.cookie,
    path: window.location.pathname,
    title: document.title,
    collectionId,
  });
  void vitrine.requests.post(FORM_RENDER_URL, event, { format: 'json', onFailure: () => {} });
  return () => {
    release();
    root.unmount();
    above.remove();
    below.remove();
  };
}
