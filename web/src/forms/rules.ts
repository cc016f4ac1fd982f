//! The validation rules of spec 000 s5 as pure functions, mirrored from the Rust core and tested against its generated vectors.

const LOCAL_SYMBOLS = ".!#$%&'*+/=?^_`{|}~-";

const isAsciiAlphanumeric = (c: string): boolean => /^[A-Za-z0-9]$/.test(c);

/** The email rule: 3 to 256 characters; local part, at sign, domain, dot, a final part of 2 to 4 letters or digits. */
export function isValidEmail(email: string): boolean {
  const length = [...email].length;
  if (length < 3 || length > 256) return false;
  const at = email.indexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  if (dot < 0) return false;
  const host = domain.slice(0, dot);
  const top = domain.slice(dot + 1);
  const localOk = local.length > 0 && [...local].every((c) => isAsciiAlphanumeric(c) || LOCAL_SYMBOLS.includes(c));
  const hostOk = host.length > 0 && [...host].every((c) => isAsciiAlphanumeric(c) || c === '.' || c === '-');
  const topOk = top.length >= 2 && top.length <= 4 && [...top].every(isAsciiAlphanumeric);
  return localOk && hostOk && topOk;
}

/** The US zip rule: exactly five ASCII digits. */
export function isValidUsZip(zip: string): boolean {
  return /^[0-9]{5}$/.test(zip);
}

/** Whether an address's country names the United States, the only case the zip rule applies to. */
export function namesUnitedStates(country: string): boolean {
  const normalized = country.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  return ['us', 'usa', 'unitedstates', 'unitedstatesofamerica'].includes(normalized);
}

/** The length browsers count for maxlength: UTF-16 code units, which is what `string.length` is. */
export function textLength(text: string): number {
  return text.length;
}

export function exceedsMaxLength(text: string, maxLength: number | undefined): boolean {
  return maxLength !== undefined && maxLength > 0 && textLength(text) > maxLength;
}

/** Reads data-max-length as the server does: a positive whole number, else no counter. */
export function parseMaxLength(dataMaxLength: string | null | undefined): number | undefined {
  const trimmed = (dataMaxLength ?? '').trim();
  if (!/^[0-9]+$/.test(trimmed)) return undefined;
  const max = Number(trimmed);
  return max > 0 && max <= 0xffffffff ? max : undefined;
}

/** The text-area counter 'count / max' and whether it is over, or undefined when there is no counter. */
export function counterText(text: string, dataMaxLength: string | null | undefined): { label: string; over: boolean } | undefined {
  const max = parseMaxLength(dataMaxLength);
  if (max === undefined) return undefined;
  const count = textLength(text);
  return { label: `${count} / ${max}`, over: count > max };
}
