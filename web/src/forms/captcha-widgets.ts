//! The captcha controller of spec 001: renders the provider's widget explicitly, once per container (marked rendered), and resets or destroys it.

/** What a solved or expired widget tells the page. */
export interface CaptchaCallbacks {
  /** The visitor solved the widget; the token is the response the server verifies. */
  readonly solved?: (token: string) => void;
  /** The token expired (or the provider errored): the widget must be solved again. */
  readonly expired?: () => void;
}

/** The parts of reCAPTCHA's, hCaptcha's and Turnstile's explicit-render APIs the controller uses. */
export interface ExplicitCaptchaApi {
  render(container: HTMLElement, params: Record<string, unknown>): unknown;
  reset(widget?: unknown): void;
  /** hCaptcha and Turnstile; reCAPTCHA has no way to remove a widget. */
  remove?(widget: unknown): void;
}

export type CaptchaProviderGlobals = Partial<Record<'grecaptcha' | 'hcaptcha' | 'turnstile', ExplicitCaptchaApi>>;

export type CaptchaSize = 'compact' | 'normal';

export const RENDER_ERROR = 'Error rendering captcha into node';
export const NOT_SET_UP = 'ReCaptcha has not been set up!';
export const DOCUMENT_DESTROYED = 'Document was destroyed';

/** The attribute that marks a container the controller rendered into. */
export const RENDERED_ATTRIBUTE = 'data-captcha-rendered';

/** Below this container width (px) the widget is compact (spec 001). */
export const COMPACT_BELOW_PX = 320;

const PROVIDERS: Record<string, keyof CaptchaProviderGlobals> = {
  recaptcha: 'grecaptcha',
  hcaptcha: 'hcaptcha',
  turnstile: 'turnstile',
};

/** Compact when the container is narrower than 320 px, otherwise normal. */
export function captchaSize(container: HTMLElement): CaptchaSize {
  return container.getBoundingClientRect().width < COMPACT_BELOW_PX ? 'compact' : 'normal';
}

interface Rendered {
  readonly api: ExplicitCaptchaApi;
  readonly widget: unknown;
}

export interface CaptchaControllerOptions {
  /** The document whose widgets are controlled; "destroyed" once it has no window (a removed frame). */
  readonly document?: Document;
  /** The provider globals; the window's by default. */
  readonly globals?: CaptchaProviderGlobals;
  /** Where render errors are logged; `console.error` by default. */
  readonly log?: (message: string) => void;
}

export class CaptchaController {
  readonly #document: Document;
  readonly #globals: CaptchaProviderGlobals | undefined;
  readonly #log: (message: string) => void;
  readonly #rendered = new WeakMap<HTMLElement, Rendered>();

  constructor(options: CaptchaControllerOptions = {}) {
    this.#document = options.document ?? document;
    this.#globals = options.globals;
    this.#log = options.log ?? ((message) => console.error(message));
  }

  /**
   * Renders the widget of the container's provider (`data-captcha-provider`, `data-sitekey`).
   * Resolves with the provider's widget id, or `undefined` after logging when the container is
   * missing or already rendered; rejects when no provider is loaded or the document is gone.
   */
  async render(container: HTMLElement | null | undefined, callbacks: CaptchaCallbacks = {}): Promise<unknown> {
    const api = this.#api(container);
    if (!container || !container.isConnected || container.hasAttribute(RENDERED_ATTRIBUTE) || this.#rendered.has(container)) {
      this.#log(RENDER_ERROR);
      return undefined;
    }
    let widget: unknown;
    try {
      widget = api.render(container, {
        sitekey: container.dataset['sitekey'] ?? '',
        size: captchaSize(container),
        callback: (token: string) => callbacks.solved?.(token),
        'expired-callback': () => callbacks.expired?.(),
        'error-callback': () => callbacks.expired?.(),
      });
    } catch {
      // The provider refuses a node it rendered into already (its own auto-render, say).
      this.#log(RENDER_ERROR);
      return undefined;
    }
    container.setAttribute(RENDERED_ATTRIBUTE, '');
    this.#rendered.set(container, { api, widget });
    return widget;
  }

  /** Whether the controller rendered into the container. */
  isRendered(container: HTMLElement): boolean {
    return this.#rendered.has(container);
  }

  /** Clears the widget's answer so it is solved again; false when the controller did not render it. */
  reset(container: HTMLElement): boolean {
    const rendered = this.#rendered.get(container);
    if (!rendered) return false;
    try {
      rendered.api.reset(rendered.widget);
    } catch {
      // A widget the provider failed to load has no answer to clear.
    }
    return true;
  }

  /** Removes the widget and the mark, so the container can be rendered into again. */
  destroy(container: HTMLElement): boolean {
    const rendered = this.#rendered.get(container);
    if (!rendered) return false;
    if (rendered.api.remove) rendered.api.remove(rendered.widget);
    else container.replaceChildren();
    container.removeAttribute(RENDERED_ATTRIBUTE);
    this.#rendered.delete(container);
    return true;
  }

  /** The loaded provider API for the container, or the spec's rejection. */
  #api(container: HTMLElement | null | undefined): ExplicitCaptchaApi {
    const view = this.#document.defaultView;
    if (!view) throw new Error(DOCUMENT_DESTROYED);
    const globals = this.#globals ?? (view as unknown as CaptchaProviderGlobals);
    const named = PROVIDERS[container?.dataset['captchaProvider'] ?? ''];
    const api = named ? globals[named] : Object.values(PROVIDERS).map((name) => globals[name]).find(Boolean);
    if (!api || typeof api.render !== 'function') throw new Error(NOT_SET_UP);
    return api;
  }
}
