//! The site's fixed texts in the browser: ICU MessageFormat messages the server wrote into the
//! page (in the page's language, `<html lang>`), parsed by FormatJS's parser and formatted by
//! `intl-messageformat`. The server's rule of 001 s5 is checked again here, since a message
//! may come from anywhere the page does: a plural's keys must be categories the locale has
//! (`Intl.PluralRules`, CLDR's rules, as ICU4X's on the server) or explicit `=N`, else an error.

import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';

/** A message that breaks the plural rule of 001 s5, naming the key and what the locale allows. */
export class PluralKeyError extends Error {
  constructor(
    readonly selector: string,
    readonly argument: string,
    readonly locale: string,
    readonly valid: readonly string[],
  ) {
    super(
      `The plural key "${selector}" for {${argument}} is not one ${locale} has: use ${valid.join(', ')} or an explicit =N.`,
    );
    this.name = 'PluralKeyError';
  }
}

/** The plural categories `locale` uses (cardinal, or ordinal for `selectordinal`). */
export function pluralKeys(locale: string, ordinal = false): string[] {
  return new Intl.PluralRules(locale, { type: ordinal ? 'ordinal' : 'cardinal' }).resolvedOptions()
    .pluralCategories as string[];
}

function isExplicit(selector: string): boolean {
  return /^=-?\d+$/.test(selector);
}

function checkElements(elements: MessageFormatElement[], locale: string): void {
  for (const element of elements) {
    if (element.type === TYPE.plural) {
      const valid = pluralKeys(locale, element.pluralType === 'ordinal');
      for (const [selector, option] of Object.entries(element.options)) {
        if (!isExplicit(selector) && !valid.includes(selector)) {
          throw new PluralKeyError(selector, element.value, locale, valid);
        }
        checkElements(option.value, locale);
      }
    } else if (element.type === TYPE.select) {
      for (const option of Object.values(element.options)) checkElements(option.value, locale);
    } else if (element.type === TYPE.tag) {
      checkElements(element.children, locale);
    }
  }
}

/**
 * Parses `message` for `locale` and checks its plurals; throws a syntax error from the parser
 * (which also requires `other`) or a {@link PluralKeyError}.
 */
export function checkMessage(message: string, locale: string): void {
  checkElements(parse(message, { requiresOtherClause: true }), locale);
}

/** `message` formatted for `locale` with `values`, after {@link checkMessage}. */
export function formatMessage(
  message: string,
  locale: string,
  values: Record<string, string | number>,
): string {
  checkMessage(message, locale);
  return String(new IntlMessageFormat(message, locale).format(values));
}
