//! The scripts the app gives the web view. The bootstrap runs in the site's main frame before
//! any page script and installs `window.VitrineNativeApp`, the native message handler the site
//! detects (000 s1); the reply script hands one JSON reply to that handler's fixed `receive`.
//! Nothing the page sends is ever evaluated: the app injects only these two scripts, and a
//! reply enters the page as a JSON string literal.

export interface BootstrapSettings {
  /** `Platform.OS`: `android` or `ios`. */
  readonly platform: string;
  /** Parts of the page the app shows natively: `header`, `cart`. */
  readonly provides: readonly string[];
  /** The visitor's consent when the app asked for it itself, else null. */
  readonly consent: 'accepted' | 'declined' | null;
  /**
   * A secret per page load that prefixes every message the handler posts, so a frame from
   * another origin, which cannot read the handler's closure, cannot post as the page.
   */
  readonly channel: string;
}

/** A JSON value as a JavaScript expression that is safe inside any script. */
function literal(value: unknown): string {
  // JSON is valid JavaScript; escaping < keeps a `</script>` in a value inert as well.
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function bootstrapScript(settings: BootstrapSettings): string {
  return `(function () {
  if (window.top !== window.self || window.VitrineNativeApp) return;
  var listeners = [];
  var channel = ${literal(settings.channel)};
  var post = window.ReactNativeWebView && window.ReactNativeWebView.postMessage.bind(window.ReactNativeWebView);
  Object.defineProperty(window, 'VitrineNativeApp', {
    configurable: false,
    enumerable: false,
    writable: false,
    value: Object.freeze({
      version: 1,
      platform: ${literal(settings.platform)},
      provides: Object.freeze(${literal(settings.provides)}),
      consent: ${literal(settings.consent)},
      postMessage: function (message) {
        if (typeof message === 'string' && post) post(channel + message);
      },
      subscribe: function (listener) {
        listeners.push(listener);
        return function () {
          listeners = listeners.filter(function (l) { return l !== listener; });
        };
      },
      receive: function (message) {
        listeners.slice().forEach(function (listener) {
          try { listener(message); } catch (error) { setTimeout(function () { throw error; }); }
        });
      }
    })
  });
})();
true;`;
}

/** The only script the app injects after load: one reply, as a string, to the handler's `receive`. */
export function replyScript(reply: string): string {
  return `window.VitrineNativeApp && window.VitrineNativeApp.receive(${literal(reply)});\ntrue;`;
}

/** Splits a posted message into its channel check and the envelope. */
export function fromChannel(data: string, channel: string): { readonly fromMainFrame: boolean; readonly message: string } {
  return data.startsWith(channel) ? { fromMainFrame: true, message: data.slice(channel.length) } : { fromMainFrame: false, message: data };
}

/** A fresh channel secret: 32 hex digits. */
export function newChannel(random: () => number = Math.random): string {
  let channel = '';
  for (let i = 0; i < 32; i += 1) channel += Math.floor(random() * 16).toString(16);
  return `${channel}:`;
}
