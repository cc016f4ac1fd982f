import { bootstrapScript, fromChannel, newChannel, replyScript } from './bootstrap';

interface Handler {
  version: number;
  platform: string;
  provides: string[];
  consent: string | null;
  postMessage(message: string): void;
  subscribe(listener: (message: string) => void): () => void;
  receive(message: string): void;
}

/** Runs `script` against a window of our own, as the web view runs it in the page. */
function run(script: string, win: Record<string, unknown>): unknown {
  return new Function('window', 'setTimeout', script)(win, setTimeout);
}

function page(posted: string[] = []) {
  const win: Record<string, unknown> = { ReactNativeWebView: { postMessage: (m: string) => posted.push(m) } };
  win['top'] = win;
  win['self'] = win;
  return win;
}

const settings = { platform: 'ios', provides: ['cart'], consent: 'accepted' as const, channel: 'c0ffee:' };

describe('the bootstrap script', () => {
  it("installs the handler the site detects, with the app's declarations", () => {
    const win = page();
    run(bootstrapScript(settings), win);
    const handler = win['VitrineNativeApp'] as Handler;
    expect(handler).toMatchObject({ version: 1, platform: 'ios', provides: ['cart'], consent: 'accepted' });
    expect(Object.isFrozen(handler)).toBe(true);
    // A page script cannot swap the handler for one of its own.
    win['VitrineNativeApp'] = {};
    expect(win['VitrineNativeApp']).toBe(handler);
  });

  it('prefixes posts with the channel and hands replies to subscribers', () => {
    const posted: string[] = [];
    const win = page(posted);
    run(bootstrapScript(settings), win);
    const handler = win['VitrineNativeApp'] as Handler;
    handler.postMessage('{"v":1}');
    expect(posted).toEqual(['c0ffee:{"v":1}']);
    expect(fromChannel(posted[0]!, 'c0ffee:')).toEqual({ fromMainFrame: true, message: '{"v":1}' });
    expect(fromChannel('{"v":1}', 'c0ffee:').fromMainFrame).toBe(false);
    const heard: string[] = [];
    const stop = handler.subscribe((m) => heard.push(m));
    run(replyScript('{"v":1,"id":"a","ok":true,"result":{}}'), win);
    stop();
    run(replyScript('later'), win);
    expect(heard).toEqual(['{"v":1,"id":"a","ok":true,"result":{}}']);
  });

  it('does not install itself inside a frame', () => {
    const win = page();
    win['top'] = {};
    run(bootstrapScript(settings), win);
    expect(win['VitrineNativeApp']).toBeUndefined();
  });

  it('injects a reply only as a string, whatever it holds', () => {
    const hostile = '");window.pwned=1;("</script>\u2028';
    const win = page();
    run(bootstrapScript({ ...settings, platform: hostile }), win);
    const heard: string[] = [];
    (win['VitrineNativeApp'] as Handler).subscribe((m) => heard.push(m));
    run(replyScript(hostile), win);
    expect(heard).toEqual([hostile]);
    expect((win['VitrineNativeApp'] as Handler).platform).toBe(hostile);
    expect(win['pwned']).toBeUndefined();
    expect(replyScript(hostile)).not.toContain('</script>');
  });

  it('makes a new channel secret each time', () => {
    const a = newChannel();
    expect(a).toMatch(/^[0-9a-f]{32}:$/);
    expect(newChannel()).not.toBe(a);
  });
});
