//! Newsletter island (block type 51): the sign-up form's submission flow, with the block id as its form id.

import { mountFormFlow } from '../forms/mount';
import { NEWSLETTER_THANKS } from '../forms/messages';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const formId = (props as { formId?: unknown } | null)?.formId;
  if (typeof formId !== 'string' || formId === '') throw new Error('newsletter island: formId is required');
  return mountFormFlow({
    block: element,
    formId,
    fields: [{ id: 'email', type: 'email', title: 'Email address', required: true }],
    newsletter: true,
    success: (form) => {
      const success = form.ownerDocument.createElement('p');
      success.className = 'newsletter__success';
      success.hidden = true;
      success.textContent = NEWSLETTER_THANKS;
      form.append(success);
      return success;
    },
  });
}
