import { MAX_MESSAGE_BYTES, errorReply, messageBytes, okReply, parseRequest } from './envelope';

const report = { pageType: 'Page', cartCount: 1, signedIn: true, locale: 'en-GB', experiments: { b: '2', a: '1' } };

describe('the request envelope', () => {
  it('reads info and keeps only the five fields of the report, experiments sorted', () => {
    const parsed = parseRequest(JSON.stringify({ v: 1, id: 'x_1-Z', name: 'info', payload: { ...report, token: 'secret' } }));
    expect(parsed).toEqual({ ok: true, request: { id: 'x_1-Z', call: { name: 'info', info: { ...report, experiments: { a: '1', b: '2' } } } } });
  });

  it('reads dismiss with or without a back URL', () => {
    expect(parseRequest('{"v":1,"id":"d","name":"dismiss","payload":{}}')).toEqual({ ok: true, request: { id: 'd', call: { name: 'dismiss', backUrl: null } } });
    expect(parseRequest('{"v":1,"id":"d","name":"dismiss","payload":{"backUrl":"/a"}}')).toEqual({
      ok: true,
      request: { id: 'd', call: { name: 'dismiss', backUrl: '/a' } },
    });
  });

  it('checks the size before anything else, in bytes of UTF-8', () => {
    expect(messageBytes('é€😀')).toBe(2 + 3 + 4);
    const padded = `{"v":1,"id":"d","name":"dismiss","payload":{"backUrl":"${'€'.repeat(MAX_MESSAGE_BYTES / 3)}"}}`;
    expect(padded.length).toBeLessThan(MAX_MESSAGE_BYTES);
    const parsed = parseRequest(padded);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.rejected.id).toBeNull();
  });

  it('answers refusals once the id is known and drops them before', () => {
    const refused = (message: string) => {
      const parsed = parseRequest(message);
      return parsed.ok ? undefined : parsed.rejected;
    };
    expect(refused('[1]')?.id).toBeNull();
    expect(refused('{"v":1,"id":"","name":"info","payload":{}}')?.id).toBeNull();
    expect(refused('{"id":"a","name":"info","payload":{}}')).toEqual({ id: 'a', error: 'the bridge message version (missing) is not supported (expected 1)' });
    expect(refused('{"v":1,"id":"a","name":7,"payload":{}}')).toEqual({ id: 'a', error: 'the bridge message is not a JSON envelope: the name must be a string' });
    expect(refused('{"v":1,"id":"a","name":"Info","payload":{}}')?.error).toBe('[JS -> Native Bridge] Info not found');
    expect(refused(JSON.stringify({ v: 1, id: 'a', name: 'info', payload: { ...report, experiments: { a: 1 } } }))?.error).toBe(
      'the info payload is invalid: experiments must map names to variant strings',
    );
    expect(refused(JSON.stringify({ v: 1, id: 'a', name: 'info', payload: { ...report, signedIn: 'yes' } }))?.error).toBe(
      'the info payload is invalid: signedIn must be true or false',
    );
  });

  it('builds replies of the agreed shape', () => {
    expect(okReply('a', {})).toBe('{"v":1,"id":"a","ok":true,"result":{}}');
    expect(errorReply('a', 'no')).toBe('{"v":1,"id":"a","ok":false,"error":"no"}');
  });
});
