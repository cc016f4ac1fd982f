//! Reference test for money display: every vector the Rust formatter wrote (`cargo xtask codegen`)
//! must equal what `Intl.NumberFormat` prints, because ICU is the reference the formatter copies.

import { describe, expect, it } from 'vitest';

import { CURRENCIES, MONEY_LOCALES } from '../generated/currencies';

/** One formatted amount: minor units, whether a zero fraction is trimmed, and the Rust output. */
type MoneyCase = [amountMinor: number, trimZeroFraction: boolean, expected: string];

interface MoneyVectorGroup {
  currency: string;
  locale: string;
  fractionDigits: number;
  cases: MoneyCase[];
}

// Loaded through Vite's glob import, which needs no JSON module typing in tsconfig.
const loaded = import.meta.glob<MoneyVectorGroup[]>('../generated/money-vectors.json', {
  eager: true,
  import: 'default',
});
const groups: MoneyVectorGroup[] = Object.values(loaded)[0] ?? [];

// `trailingZeroDisplay` is newer than the ES2022 library typings this project compiles against.
type CurrencyFormatOptions = Intl.NumberFormatOptions & { trailingZeroDisplay: 'auto' | 'stripIfInteger' };

/** What `Intl` prints for an amount, with the currency's own fraction digits (2, or 0 for JPY). */
function intlFormat(group: MoneyVectorGroup, amountMinor: number, trimZeroFraction: boolean): string {
  const options: CurrencyFormatOptions = {
    style: 'currency',
    currency: group.currency,
    minimumFractionDigits: group.fractionDigits,
    maximumFractionDigits: group.fractionDigits,
    trailingZeroDisplay: trimZeroFraction ? 'stripIfInteger' : 'auto',
  };
  // The vectors stay far below 2^53 minor units, so the quotient is the nearest double to the
  // exact amount and rounds back to it at the currency's fraction digits.
  return new Intl.NumberFormat(group.locale, options).format(amountMinor / 10 ** group.fractionDigits);
}

/** Makes the no-break spaces visible in failure messages. */
const visible = (text: string) => text.replace(/\u00a0/g, '⍽').replace(/\u202f/g, '˽');

describe('money vectors', () => {
  it('cover every supported currency in every supported locale', () => {
    const covered = new Set(groups.map((group) => `${group.currency} ${group.locale}`));
    for (const currency of CURRENCIES) {
      for (const locale of MONEY_LOCALES) {
        expect(covered.has(`${currency.code} ${locale}`), `${currency.code} ${locale}`).toBe(true);
      }
    }
    expect(groups.length).toBe(CURRENCIES.length * MONEY_LOCALES.length);
  });

  describe.each(groups.map((group) => [`${group.currency} in ${group.locale}`, group] as const))('%s', (_, group) => {
    it('matches Intl.NumberFormat', () => {
      const actual = group.cases.map(([amount, trim]) => `${amount} ${trim}: ${visible(intlFormat(group, amount, trim))}`);
      const expected = group.cases.map(([amount, trim, shown]) => `${amount} ${trim}: ${visible(shown)}`);
      expect(expected).toEqual(actual);
    });
  });
});
