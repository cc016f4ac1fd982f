import { describe, expect, it } from 'vitest';

import { checkMessage, formatMessage, PluralKeyError, pluralKeys } from './messages';

describe('fixed texts in ICU MessageFormat', () => {
  it('formats plurals, exact keys and numbers as the locale does', () => {
    const en = '{count, plural, =1 {one item} other {# items in cart}}';
    expect(formatMessage(en, 'en-US', { count: 1 })).toBe('one item');
    expect(formatMessage(en, 'en-US', { count: 1234 })).toBe('1,234 items in cart');
    const fr = '{count, plural, =1 {un article} one {# article dans le panier} other {# articles dans le panier}}';
    expect(formatMessage(fr, 'fr-FR', { count: 0 })).toBe('0 article dans le panier');
    expect(formatMessage(fr, 'fr-FR', { count: 1 })).toBe('un article');
    expect(formatMessage(fr, 'fr-FR', { count: 7 })).toBe('7 articles dans le panier');
  });

  it("refuses plural keys the locale does not have, but not explicit ones", () => {
    const polish = '{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}';
    expect(() => checkMessage(polish, 'pl')).not.toThrow();
    expect(() => checkMessage(polish, 'en-US')).toThrow(PluralKeyError);
    expect(() => checkMessage(polish, 'en-US')).toThrow(
      'The plural key "few" for {n} is not one en-US has: use one, other or an explicit =N.',
    );
    expect(() => checkMessage('{n, plural, =0 {none} =12 {dozen} other {#}}', 'ja')).not.toThrow();
    expect(() => checkMessage('{n, plural, one {#}}', 'fr')).toThrow();
    expect(() => checkMessage('{n, plural, one {#', 'fr')).toThrow();
  });

  it('checks plurals nested in selects and knows the ordinal rules', () => {
    expect(pluralKeys('en', true)).toEqual(expect.arrayContaining(['one', 'two', 'few', 'other']));
    expect(() =>
      checkMessage('{g, select, a {{n, plural, few {#} other {#}}} other {x}}', 'en'),
    ).toThrow(PluralKeyError);
    expect(() => checkMessage('{n, selectordinal, two {#nd} other {#th}}', 'en')).not.toThrow();
  });
});
