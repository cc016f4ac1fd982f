import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRAME_REFUSAL, REPLY_TIMEOUT_MS, createBridgeClient, safeBackUrl, timeoutMessage, type InfoReport } from './bridge-client';
import type { NativeAppMode } from './detection';
import { MAX_MESSAGE_BYTES, PLATFORM_NOT_IDENTIFIED, isValidId, nameNotFound, newRequestId, parseReply } from './envelope';
import { fakeApp } from './test-support';

const report: InfoReport = { pageType: 'Page', cartCount: 2, signedIn: false, locale: 'en-US', experiments: {} };

function client(mode: NativeAppMode, options: { inFrame?: boolean; navigate?: (url: string) => void } = {}) {
  return createBridgeClient({ window, mode, inFrame: options.inFrame ?? false, ...(options.navigate ? { navigate: options.navigate } : {}) });
}

describe('envelope', () => {
  it('generates ids of the agreed alphabet, different every time', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newRequestId(crypto)));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isValidId(id)).toBe(true);
  });

  it('accepts ids of 1 to 64 characters of A-Z a-z 0-9 _ - only', () => {
    expect(isValidId('a')).toBe(true);
    expect(isValidId('a'.repeat(64))).toBe(true);
    expect(isValidId('a'.repeat(65))).toBe(false);
    expect(isValidId('')).toBe(false);
    expect(isValidId('a b')).toBe(false);
    expect(isValidId(7)).toBe(false);
  });

  it('reads only well-formed replies of version 1', () => {
    expect(parseReply('{"v":1,"id":"x","ok":true,"result":{"a":1}}')).toEqual({ id: 'x', ok: true, result: { a: 1 } });
    expect(parseReply('{"v":1,"id":"x","ok":false,"error":"no"}')).toEqual({ id: 'x', ok: false, error: 'no' });
    expect(parseReply('{"v":1,"id":"x","ok":true,"result":[]}')).toBeUndefined();
    expect(parseReply('{"v":1,"id":"x","ok":false}')).toBeUndefined();
    expect(parseReply('{"v":"1","id":"x","ok":true,"result":{}}')).toBeUndefined();
    expect(parseReply({ v: 1, id: 'x', ok: true, result: {} })).toBeUndefined();
  });
});

describe('inside the app', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('posts a versioned envelope with a generated id and resolves with the reply of that id', async () => {
    const app = fakeApp();
    const bridge = client({ kind: 'app', handler: app });
    const answered = bridge.info(report);
    expect(app.posted).toHaveLength(1);
    const request = JSON.parse(app.posted[0]!) as Record<string, unknown>;
    expect(request).toEqual({ v: 1, id: expect.any(String), name: 'info', payload: report });
    expect(isValidId(request['id'])).toBe(true);
    app.reply(JSON.stringify({ v: 1, id: request['id'], ok: true, result: { ...report, cartCount: 2 } }));
    await expect(answered).resolves.toEqual(report);
  });

  it('gives each call its own id and settles each with its own reply', async () => {
    const app = fakeApp();
    const bridge = client({ kind: 'app', handler: app });
    const first = bridge.call('dismiss', {});
    const second = bridge.call('info', { ...report });
    const [a, b] = app.posted.map((message) => (JSON.parse(message) as { id: string }).id);
    expect(a).not.toBe(b);
    app.reply(JSON.stringify({ v: 1, id: b, ok: false, error: 'refused' }));
    app.reply(JSON.stringify({ v: 1, id: a, ok: true, result: {} }));
    await expect(first).resolves.toEqual({});
    await expect(second).rejects.toThrow('refused');
  });

  it('rejects with a clear error when the app does not answer in time', async () => {
    const app = fakeApp();
    const bridge = client({ kind: 'app', handler: app });
    const answered = bridge.dismiss();
    const settled = expect(answered).rejects.toThrow(timeoutMessage('dismiss', REPLY_TIMEOUT_MS));
    vi.advanceTimersByTime(REPLY_TIMEOUT_MS - 1);
    app.reply('{}');
    vi.advanceTimersByTime(1);
    await settled;
    expect(timeoutMessage('dismiss', REPLY_TIMEOUT_MS)).toBe('The app did not answer dismiss within 10 s.');
  });

  it('refuses an unknown name with the spec text and posts nothing', async () => {
    const app = fakeApp();
    await expect(client({ kind: 'app', handler: app }).call('share', {})).rejects.toThrow('[JS -> Native Bridge] share not found');
    expect(app.posted).toEqual([]);
  });

  it('refuses every call when the app cannot identify its platform', async () => {
    const app = fakeApp('windows');
    const bridge = client({ kind: 'app', handler: app });
    await expect(bridge.info(report)).rejects.toThrow(PLATFORM_NOT_IDENTIFIED);
    await expect(bridge.dismiss()).rejects.toThrow('mobile platform not correctly identified');
    expect(app.posted).toEqual([]);
  });

  it('refuses a message over the size limit before sending it', async () => {
    const app = fakeApp();
    const backUrl = `/${'a'.repeat(MAX_MESSAGE_BYTES)}`;
    await expect(client({ kind: 'app', handler: app }).dismiss({ backUrl })).rejects.toThrow(/over the limit of 16384/);
    expect(app.posted).toEqual([]);
  });

  it('refuses to run inside a frame, even with the app present', async () => {
    const app = fakeApp();
    const bridge = client({ kind: 'app', handler: app }, { inFrame: true });
    await expect(bridge.info(report)).rejects.toThrow(FRAME_REFUSAL);
    await expect(bridge.dismiss()).rejects.toThrow(FRAME_REFUSAL);
    expect(app.posted).toEqual([]);
  });

  it('stops listening and rejects waiting calls when closed', async () => {
    const app = fakeApp();
    const bridge = client({ kind: 'app', handler: app });
    const waiting = bridge.dismiss();
    bridge.close();
    await expect(waiting).rejects.toThrow(/closed before the app answered/);
  });
});

describe('outside the app', () => {
  it('resolves info to null and dismiss to false, and leaves the page alone', async () => {
    const navigate = vi.fn();
    const bridge = client({ kind: 'none' }, { navigate });
    await expect(bridge.info(report)).resolves.toBeNull();
    await expect(bridge.dismiss({ backUrl: '/shop' })).resolves.toBe(false);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('still names an unknown message as the app would', async () => {
    await expect(client({ kind: 'none' }).call('share', {})).rejects.toThrow(nameNotFound('share'));
  });

  it('on the mobile-app web platform, dismiss navigates to the back URL', async () => {
    const navigate = vi.fn();
    const bridge = client({ kind: 'web-platform' }, { navigate });
    await expect(bridge.dismiss({ backUrl: '/shop?x=1' })).resolves.toBe(true);
    expect(navigate).toHaveBeenCalledWith(new URL('/shop?x=1', window.location.href).href);
    await expect(bridge.info(report)).resolves.toBeNull();
  });

  it('follows only same-origin http(s) back URLs', () => {
    const here = 'https://shop.example/cart';
    expect(safeBackUrl('/shop', here)).toBe('https://shop.example/shop');
    expect(safeBackUrl(undefined, here)).toBe('/');
    expect(safeBackUrl('https://evil.example/', here)).toBe('/');
    expect(safeBackUrl('javascript:alert(1)', here)).toBe('/');
    expect(safeBackUrl('//evil.example/x', here)).toBe('/');
  });
});
