//! The browser's image loader (001 s3-s4 "Image", s8, s9): reads an image's configuration from its data attributes,
//! loads it lazily 200 px before the viewport (at once without an IntersectionObserver), at most 16 loads at a time on
//! desktop and 1 on a phone, asks the server for the width the image is drawn at, re-requests only when that width
//! grows, and places it in its box by fit, fill or none around its focal point. No framework: galleries, image blocks
//! and shapes all call it.

import { readImageConfig, type ImageConfig, type Size } from './image-config';
import { chooseWidth, drawnWidth, placement, variantUrl } from './image-sizing';

/** Added while an image loads, removed once it has (001 s4). */
export const LOADING_CLASS = 'loading';
/** How far outside the viewport a lazy image starts loading (001 s9). */
export const LAZY_MARGIN_PX = 200;
/** Loads at once on desktop and on a phone (001 s9). */
export const DESKTOP_CONCURRENCY = 16;
export const MOBILE_CONCURRENCY = 1;
/** Below this window width the device counts as a phone (001 s9 breakpoints: desktop from 800 px). */
export const DESKTOP_MIN_WIDTH = 800;

/** The errors of 001 s8, verbatim. */
export const NOT_AN_IMAGE_ELEMENT = 'Element is not a valid image element.';
export const INVALID_SOURCE = 'Invalid or missing image source.';
export const NO_PARENT_NODE = 'Image element has no parentNode.';
export const notAValidNode = (value: unknown) => `${String(value)} is not a valid node.`;

/** The image pixels loaded so far, per element. */
const LOADED_WIDTH_ATTRIBUTE = 'data-loaded-width';

interface NetworkInformation {
  readonly saveData?: boolean;
}

export interface ImageLoaderOptions {
  /** Loads at once; by default 16 on desktop and 1 on a phone. */
  readonly concurrency?: number;
}

export class ImageLoader {
  private readonly win: Window & typeof globalThis;
  private readonly concurrency: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly observer: IntersectionObserver | null;
  private readonly resizeObserver: ResizeObserver | null;

  constructor(win: Window & typeof globalThis, options: ImageLoaderOptions = {}) {
    this.win = win;
    this.concurrency =
      options.concurrency ?? (win.innerWidth < DESKTOP_MIN_WIDTH ? MOBILE_CONCURRENCY : DESKTOP_CONCURRENCY);
    this.observer =
      typeof win.IntersectionObserver === 'function'
        ? new win.IntersectionObserver((entries) => this.onIntersect(entries), {
            rootMargin: `${LAZY_MARGIN_PX}px`,
          })
        : null;
    this.resizeObserver =
      typeof win.ResizeObserver === 'function'
        ? new win.ResizeObserver((entries) => {
            for (const entry of entries) {
              for (const image of entry.target.querySelectorAll('img[data-src]')) void this.load(image);
            }
          })
        : null;
  }

  /** Loads `image` now, or when it nears the viewport when its load mode is lazy. */
  observe(image: unknown): void {
    const element = this.imageElement(image);
    const config = readImageConfig(element);
    if (config.load === 'manual') return;
    if (config.load === 'lazy' && this.observer !== null) {
      this.observer.observe(element);
      return;
    }
    void this.load(element);
  }

  /** Every image with `data-src` under `root`. */
  observeAll(root: unknown): void {
    if (!(root instanceof this.win.Node)) throw new Error(notAValidNode(root));
    const element = root as ParentNode;
    for (const image of element.querySelectorAll('img[data-src]')) this.observe(image);
  }

  /**
   * Loads `image` at the width it is drawn at. Resolves `true` once a new source has loaded and `false` when nothing
   * needed loading (the loaded width is already enough, a load is in flight, or the source is missing, which is
   * warned about as 001 s5 says).
   */
  async load(image: unknown): Promise<boolean> {
    const element = this.imageElement(image);
    const config = readImageConfig(element);
    if (config.src === '') {
      console.warn(INVALID_SOURCE);
      return false;
    }
    const parent = element.parentNode;
    if (config.mode !== 'none' && parent === null) throw new Error(NO_PARENT_NODE);
    if (element.classList.contains(LOADING_CLASS) && !config.allowConcurrentLoads) return false;
    const box = this.box(element, config);
    this.place(element, config, box);
    const choice = chooseWidth(drawnWidth(box, config.dimensions, config.mode), config.dimensions, {
      devicePixelRatio: this.win.devicePixelRatio || 1,
      minDevicePixelRatio: config.minDevicePixelRatio,
      maxDevicePixelRatio: config.maxDevicePixelRatio,
      sizeAdjustment: config.sizeAdjustment,
      saveData: config.allowSaveData && this.savesData(),
    });
    const loaded = Number(element.getAttribute(LOADED_WIDTH_ATTRIBUTE) ?? 0);
    if (choice.pixels <= loaded && !config.forceUpdate) return false;
    const url =
      choice.width === null
        ? config.src
        : variantUrl(config.src, choice.width, config.sizeFormat, config.version);
    await this.slot();
    try {
      await this.fetchInto(element, url, config);
      element.setAttribute(LOADED_WIDTH_ATTRIBUTE, String(choice.pixels));
      return true;
    } finally {
      this.release();
    }
  }

  /** Stops observing everything. */
  disconnect(): void {
    this.observer?.disconnect();
    this.resizeObserver?.disconnect();
  }

  private imageElement(image: unknown): HTMLImageElement {
    if (!(image instanceof this.win.Node)) throw new Error(notAValidNode(image));
    if (!(image instanceof this.win.HTMLImageElement)) throw new Error(NOT_AN_IMAGE_ELEMENT);
    return image;
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      this.observer?.unobserve(entry.target);
      void this.load(entry.target);
    }
  }

  /** The box the image is drawn in: its parent's for fit and fill, its own otherwise. */
  private box(element: HTMLImageElement, config: ImageConfig): Size {
    const target = config.mode === 'none' ? element : (element.parentNode as Element);
    const rect = target.getBoundingClientRect();
    const width = rect.width || element.width || config.dimensions?.width || 0;
    const height =
      rect.height ||
      (config.dimensions ? (width * config.dimensions.height) / config.dimensions.width : element.height);
    return { width, height };
  }

  private place(element: HTMLImageElement, config: ImageConfig, box: Size): void {
    if (config.mode === 'none' || config.dimensions === null) return;
    if (config.stretch) {
      Object.assign(element.style, { width: '100%', height: '100%', objectFit: config.mode === 'fill' ? 'cover' : 'contain' });
      return;
    }
    const where = placement(box, config.dimensions, config.mode, config.focalPoint, config.alignment);
    Object.assign(element.style, {
      position: 'absolute',
      width: `${where.width}px`,
      height: `${where.height}px`,
      left: `${where.left}px`,
      top: `${where.top}px`,
    });
    if (this.resizeObserver !== null && element.parentNode instanceof this.win.Element) {
      this.resizeObserver.observe(element.parentNode);
    }
  }

  private savesData(): boolean {
    const connection = (this.win.navigator as Navigator & { connection?: NetworkInformation }).connection;
    if (connection?.saveData === true) return true;
    return typeof this.win.matchMedia === 'function' && this.win.matchMedia('(prefers-reduced-data: reduce)').matches;
  }

  private fetchInto(element: HTMLImageElement, url: string, config: ImageConfig): Promise<void> {
    element.classList.add(LOADING_CLASS);
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        element.classList.remove(LOADING_CLASS);
        element.removeEventListener('load', onLoad);
        element.removeEventListener('error', onError);
      };
      const onLoad = () => {
        done();
        resolve();
      };
      const onError = () => {
        done();
        reject(new Error(`The image ${url} could not be loaded.`));
      };
      if (config.useBackgroundImage && element.parentNode instanceof this.win.HTMLElement) {
        element.parentNode.style.backgroundImage = `url("${url}")`;
      }
      element.addEventListener('load', onLoad);
      element.addEventListener('error', onError);
      // The loader picks the width itself; the server's srcset would override the chosen source.
      element.removeAttribute('srcset');
      element.src = url;
    });
  }

  private slot(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
