//! Encodes request data: a query string for GET, a form-encoded or JSON body otherwise.

/** Data a caller sends: field name to value. Objects and arrays inside are sent as JSON text in forms. */
export type RequestData = Readonly<Record<string, unknown>>;

export type BodyFormat = 'form' | 'json';

export interface EncodedBody {
  readonly body: string;
  readonly contentType: string;
}

/** Form field value: strings as they are, absent values omitted, objects as JSON (as `widgetJSON` needs). */
function fieldValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function toSearchParams(data: RequestData): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(data)) {
    const text = fieldValue(value);
    if (text !== undefined) params.append(name, text);
  }
  return params;
}

/** Adds `data` to the query string of `url`, keeping its path, existing parameters and hash. */
export function appendQuery(url: string, data: RequestData | undefined): string {
  if (data === undefined) return url;
  const query = toSearchParams(data).toString();
  if (query === '') return url;
  const hashAt = url.indexOf('#');
  const path = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const joiner = path.includes('?') ? (path.endsWith('?') || path.endsWith('&') ? '' : '&') : '?';
  return `${path}${joiner}${query}${hash}`;
}

export function encodeBody(data: RequestData, format: BodyFormat): EncodedBody {
  if (format === 'json') {
    return { body: JSON.stringify(data), contentType: 'application/json; charset=utf-8' };
  }
  return {
    body: toSearchParams(data).toString(),
    contentType: 'application/x-www-form-urlencoded; charset=utf-8',
  };
}
