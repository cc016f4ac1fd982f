//! Human-readable relative times and file sizes (001 s9), with the core's buckets and units;
//! relative times speak the visitor's language through `Intl.RelativeTimeFormat`.

import { RELATIVE_TIME_REFRESH_MS } from '../generated/widget-constants';

export type RelativeBucket = 'justNow' | 'seconds' | 'aboutAMinute' | 'minutes' | 'aboutAnHour' | 'hours' | 'oneDay' | 'days';

export interface RelativeTime {
  readonly bucket: RelativeBucket;
  readonly count: number | null;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The bucket of an elapsed time in ms; a future time (a skewed clock) is 'just now'. */
export function relativeBucket(elapsedMs: number): RelativeTime {
  const s = Number.isFinite(elapsedMs) && elapsedMs > 0 ? Math.floor(elapsedMs / 1000) : 0;
  if (s < 5) return { bucket: 'justNow', count: null };
  if (s < MINUTE) return { bucket: 'seconds', count: s };
  if (s < 120) return { bucket: 'aboutAMinute', count: null };
  if (s < HOUR) return { bucket: 'minutes', count: Math.floor(s / MINUTE) };
  if (s < 7200) return { bucket: 'aboutAnHour', count: null };
  if (s < DAY) return { bucket: 'hours', count: Math.floor(s / HOUR) };
  if (s < 172_800) return { bucket: 'oneDay', count: 1 };
  return { bucket: 'days', count: Math.floor(s / DAY) };
}

const ENGLISH_PHRASES: Partial<Record<RelativeBucket, string>> = {
  justNow: 'just now',
  aboutAMinute: 'about a minute ago',
  aboutAnHour: 'about an hour ago',
};

/**
 * The bucket in words. English uses the core's phrases; other languages say the counted
 * buckets through Intl and "about a minute/hour" as one minute/hour, "just now" as now.
 */
export function formatRelative(time: RelativeTime, locale: string): string {
  const english = locale.toLowerCase().startsWith('en');
  const phrase = ENGLISH_PHRASES[time.bucket];
  if (english && phrase !== undefined) return phrase;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: english ? 'always' : 'auto' });
  switch (time.bucket) {
    case 'justNow':
      return format.format(0, 'second');
    case 'seconds':
      return format.format(-(time.count ?? 0), 'second');
    case 'aboutAMinute':
      return format.format(-1, 'minute');
    case 'minutes':
      return format.format(-(time.count ?? 0), 'minute');
    case 'aboutAnHour':
      return format.format(-1, 'hour');
    case 'hours':
      return format.format(-(time.count ?? 0), 'hour');
    case 'oneDay':
    case 'days':
      return format.format(-(time.count ?? 1), 'day');
  }
}

/**
 * How old a time may be and still be written relatively: past it the server's date stays, since
 * "400 days ago" reads worse than the date. Our choice; the spec's buckets end at "days".
 */
export const RELATIVE_TIME_MAX_AGE_MS = 30 * DAY * 1000;

/**
 * Keeps every `<time data-relative datetime="...">` under `root` written as a relative time,
 * refreshed every 5000 ms; returns a stop function. The server's text (an absolute date) stays
 * for readers without JavaScript, as the element's title, and for times older than
 * {@link RELATIVE_TIME_MAX_AGE_MS}.
 */
export function startRelativeTimes(root: ParentNode, locale: string, now: () => number = () => Date.now()): () => void {
  const update = (): void => {
    for (const element of root.querySelectorAll<HTMLTimeElement>('time[data-relative]')) {
      const then = Date.parse(element.dateTime);
      if (Number.isNaN(then)) continue;
      const elapsed = now() - then;
      if (!element.title) element.title = element.textContent ?? '';
      element.textContent = elapsed < RELATIVE_TIME_MAX_AGE_MS ? formatRelative(relativeBucket(elapsed), locale) : element.title;
    }
  };
  update();
  const timer = setInterval(update, RELATIVE_TIME_REFRESH_MS);
  return () => clearInterval(timer);
}

const FILE_SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** A size in base 1024, Bytes to YB, with up to two decimals, rounded half up as the core does. */
export function humanFileSize(bytes: number): string {
  const value = Math.max(0, Math.floor(Number.isFinite(bytes) ? bytes : 0));
  let unit = 0;
  let divisor = 1;
  while (unit + 1 < FILE_SIZE_UNITS.length && Math.floor(value / divisor) >= 1024) {
    divisor *= 1024;
    unit += 1;
  }
  // Work in BigInt so exact sizes (up to 2^53) round as the core's integer arithmetic does.
  const b = BigInt(value);
  const d = BigInt(divisor);
  const hundredths = (b / d) * 100n + ((b % d) * 100n + d / 2n) / d;
  const whole = hundredths / 100n;
  const fraction = Number(hundredths % 100n);
  const number = fraction === 0 ? `${whole}` : fraction % 10 === 0 ? `${whole}.${fraction / 10}` : `${whole}.${String(fraction).padStart(2, '0')}`;
  return `${number} ${FILE_SIZE_UNITS[unit]}`;
}
