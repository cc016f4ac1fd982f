//! The census form-render event (spec 000 s7: `POST /api/census/form-render` with formId, visitorCookie and page fields), sent once when a form island mounts; failures are swallowed.

export const FORM_RENDER_URL = '/api/census/form-render';

/** The value of cookie `name` in a `document.cookie` string, if set. */
export function cookieValue(cookies: string, name: string): string | undefined {
  for (const pair of cookies.split(';')) {
    const [key, ...rest] = pair.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export function formRenderEvent(
  formId: string,
  page: { readonly cookies: string; readonly path: string; readonly title: string; readonly collectionId: string },
): Record<string, string> {
  const event: Record<string, string> = {
    formId,
    pagePath: page.path,
    pageTitle: page.title,
    collectionId: page.collectionId,
  };
  // The visitor cookie exists only when the visitor allows tracking; without it none is sent.
  const visitorCookie = cookieValue(page.cookies, 'ss_cvr');
  if (visitorCookie !== undefined) event['visitorCookie'] = visitorCookie;
  return event;
}
