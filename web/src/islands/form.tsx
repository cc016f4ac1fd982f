//! Form island (block type 9): takes over the server's form and runs the spec's submission flow through the API calls.

import { mountFormFlow } from '../forms/mount';
import { parseFormProps } from '../forms/model';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const { formId, fields, successUrl } = parseFormProps(props);
  return mountFormFlow({
    block: element,
    formId,
    fields,
    successUrl,
    newsletter: false,
    success: (form) => {
      const success = form.querySelector<HTMLElement>('.form__success');
      if (!success) throw new Error('form island: the form has no success message');
      return success;
    },
  });
}
