//! Tests of reading and restoring the server's accordion markup.

import { afterEach, describe, expect, it } from 'vitest';
import { AccordionMarkupError, readAccordionMarkup } from './accordion-markup';

function block(inner: string): HTMLElement {
  const element = document.createElement('div');
  element.setAttribute('data-island', 'accordion');
  element.innerHTML = inner;
  document.body.append(element);
  return element;
}

const item = (title: string, body: string, open = false) =>
  `<details class="accordion-item"${open ? ' open' : ''}><summary class="accordion-item__title">${title}</summary><div class="accordion-item__body">${body}</div></details>`;

afterEach(() => document.body.replaceChildren());

describe('accordion markup', () => {
  it('reads items, their content nodes and open flags', () => {
    const markup = readAccordionMarkup(block(`\n ${item('One', '<p>1</p>', true)} ${item('Two', '<p>2</p>')}\n`));
    expect(markup.items.map((i) => i.open)).toEqual([true, false]);
    expect(markup.items.map((i) => i.titleNodes.map((n) => n.textContent).join(''))).toEqual(['One', 'Two']);
    expect((markup.items[0]!.bodyNodes[0] as HTMLElement).outerHTML).toBe('<p>1</p>');
  });

  it('uses the items’ own parent as the container, inside a wrapper too', () => {
    const element = block(`<div class="wrapper">${item('One', '1')}</div>`);
    expect(readAccordionMarkup(element).container.className).toBe('wrapper');
  });

  it('skips the items of an accordion nested in a body', () => {
    const nested = `<div data-island="accordion">${item('Inner', 'i')}</div>`;
    const markup = readAccordionMarkup(block(item('Outer', nested)));
    expect(markup.items).toHaveLength(1);
  });

  it('rejects markup without items, with stray content beside them, or with incomplete items', () => {
    expect(() => readAccordionMarkup(block('<p>no items</p>'))).toThrow(AccordionMarkupError);
    expect(() => readAccordionMarkup(block(`${item('One', '1')}<p>stray</p>`))).toThrow(AccordionMarkupError);
    expect(() => readAccordionMarkup(block('<details class="accordion-item"><summary>x</summary></details>'))).toThrow(
      AccordionMarkupError,
    );
  });

  it('restores the original markup with its content nodes', () => {
    const element = block(item('One', '<p>1</p>'));
    const before = element.innerHTML;
    const markup = readAccordionMarkup(element);
    const paragraph = markup.items[0]!.bodyNodes[0]!;
    element.replaceChildren();
    document.body.append(paragraph);
    markup.restore();
    expect(element.innerHTML).toBe(before);
    expect(element.querySelector('p')).toBe(paragraph);
  });
});
