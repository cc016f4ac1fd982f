//! The image loader in a DOM: the spec's errors, the loading class, lazy loading 200 px early, immediate loading
//! without an IntersectionObserver, the queue of 16 (desktop) or 1 (phone), and re-requests only when the width grows.

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DESKTOP_CONCURRENCY,
  ImageLoader,
  LAZY_MARGIN_PX,
  LOADING_CLASS,
  MOBILE_CONCURRENCY,
  NO_PARENT_NODE,
  NOT_AN_IMAGE_ELEMENT,
  INVALID_SOURCE,
} from './image-loader';

type TestWindow = Window & typeof globalThis;

function image(attributes: Record<string, string>, boxWidth = 320): HTMLImageElement {
  const box = document.createElement('div');
  const element = document.createElement('img');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  box.append(element);
  document.body.append(box);
  const rect = { width: boxWidth, height: boxWidth / 2 } as DOMRect;
  box.getBoundingClientRect = () => rect;
  element.getBoundingClientRect = () => rect;
  return element;
}

/** Finishes the load of `element` as the browser would. */
function finish(element: HTMLImageElement): void {
  element.dispatchEvent(new Event('load'));
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A window without IntersectionObserver or ResizeObserver (as jsdom is), `innerWidth` wide. */
function plainWindow(innerWidth = 1280): TestWindow {
  return Object.assign(Object.create(window), { innerWidth, devicePixelRatio: 1 }) as TestWindow;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the errors of 001 s8', () => {
  const loader = new ImageLoader(window as TestWindow);

  it('refuses what is not a node, and a node that is not an image', async () => {
    await expect(loader.load('#photo')).rejects.toThrow('#photo is not a valid node.');
    await expect(loader.load(document.createElement('div'))).rejects.toThrow(NOT_AN_IMAGE_ELEMENT);
    expect(() => loader.observeAll(42)).toThrow('42 is not a valid node.');
  });

  it('warns about a missing source and loads nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const element = image({ 'data-image-dimensions': '800x600' });
    expect(await loader.load(element)).toBe(false);
    expect(warn).toHaveBeenCalledWith(INVALID_SOURCE);
    expect(element.getAttribute('src')).toBeNull();
  });

  it('needs a parent to fit or fill', async () => {
    const element = document.createElement('img');
    element.setAttribute('data-src', '/media/a.jpg');
    element.setAttribute('data-mode', 'fill');
    await expect(loader.load(element)).rejects.toThrow(NO_PARENT_NODE);
  });
});

describe('loading', () => {
  it('marks the image while it loads and asks for the width it is drawn at', async () => {
    const loader = new ImageLoader(plainWindow());
    const element = image({ 'data-src': '/media/a.jpg', 'data-image-dimensions': '4000x3000', srcset: 'x 1w' });
    const loaded = loader.load(element);
    await flush();
    expect(element.classList.contains(LOADING_CLASS)).toBe(true);
    expect(element.getAttribute('src')).toBe('/media/a.jpg?format=500w');
    expect(element.hasAttribute('srcset')).toBe(false);
    finish(element);
    expect(await loaded).toBe(true);
    expect(element.classList.contains(LOADING_CLASS)).toBe(false);
  });

  it('re-requests only when the needed width grows', async () => {
    const loader = new ImageLoader(plainWindow());
    const element = image({ 'data-src': '/media/a.jpg', 'data-image-dimensions': '4000x3000' }, 700);
    const first = loader.load(element);
    await flush();
    finish(element);
    await first;
    expect(element.getAttribute('src')).toBe('/media/a.jpg?format=750w');
    const rect = { width: 300, height: 150 } as DOMRect;
    element.getBoundingClientRect = () => rect;
    expect(await loader.load(element)).toBe(false);
    expect(element.getAttribute('src')).toBe('/media/a.jpg?format=750w');
    const wider = { width: 1400, height: 700 } as DOMRect;
    element.getBoundingClientRect = () => wider;
    const grown = loader.load(element);
    await flush();
    expect(element.getAttribute('src')).toBe('/media/a.jpg?format=1500w');
    finish(element);
    expect(await grown).toBe(true);
  });

  it('uses the file-name size format and the content hash when the attributes ask', async () => {
    const loader = new ImageLoader(plainWindow());
    const element = image({
      'data-src': '/media/a.jpg',
      'data-image-dimensions': '4000x3000',
      'data-size-format': 'filename',
      'data-image-version': 'abc',
    });
    void loader.load(element);
    await flush();
    expect(element.getAttribute('src')).toBe('/media/a-500w.jpg?v=abc');
  });

  it('fills its box around the focal point', async () => {
    const loader = new ImageLoader(plainWindow());
    const element = image({
      'data-src': '/media/a.jpg',
      'data-image-dimensions': '400x200',
      'data-mode': 'fill',
      'data-image-focal-point': '1,0.5',
    });
    const box = { width: 200, height: 200 } as DOMRect;
    (element.parentNode as HTMLElement).getBoundingClientRect = () => box;
    void loader.load(element);
    await flush();
    expect(element.style.width).toBe('400px');
    expect(element.style.left).toBe('-200px');
  });

  it('picks a smaller width under Save-Data unless the image opts out', async () => {
    // Defined on this window object alone: assigning would replace jsdom's shared navigator for later tests.
    const saving = Object.defineProperty(Object.assign(plainWindow(), { devicePixelRatio: 2 }), 'navigator', {
      value: { connection: { saveData: true } },
    });
    const loader = new ImageLoader(saving);
    const element = image({ 'data-src': '/media/a.jpg', 'data-image-dimensions': '4000x3000' });
    void loader.load(element);
    await flush();
    expect(element.getAttribute('src')).toBe('/media/a.jpg?format=300w');
    const opted = image({ 'data-src': '/media/b.jpg', 'data-image-dimensions': '4000x3000', 'data-allow-save-data': 'false' });
    void loader.load(opted);
    await flush();
    expect(opted.getAttribute('src')).toBe('/media/b.jpg?format=750w');
  });
});

describe('the queue', () => {
  async function inFlight(innerWidth: number): Promise<number> {
    const loader = new ImageLoader(plainWindow(innerWidth));
    const images = Array.from({ length: 20 }, (_, i) => image({ 'data-src': `/media/${i}.jpg` }));
    for (const element of images) void loader.load(element);
    await flush();
    return images.filter((element) => element.hasAttribute('src')).length;
  }

  it('runs 16 loads at once on desktop and 1 on a phone', async () => {
    expect(await inFlight(1280)).toBe(DESKTOP_CONCURRENCY);
    document.body.innerHTML = '';
    expect(await inFlight(375)).toBe(MOBILE_CONCURRENCY);
  });

  it('starts the next load when one finishes', async () => {
    const loader = new ImageLoader(plainWindow(375));
    const [a, b] = [image({ 'data-src': '/media/a.jpg' }), image({ 'data-src': '/media/b.jpg' })];
    void loader.load(a);
    void loader.load(b);
    await flush();
    expect(b.hasAttribute('src')).toBe(false);
    finish(a);
    await flush();
    expect(b.getAttribute('src')).toBe('/media/b.jpg?format=500w');
  });
});

describe('lazy loading', () => {
  it('waits for the image to come within 200 px of the viewport, then stops observing it', async () => {
    let callback: IntersectionObserverCallback = () => {};
    const options: IntersectionObserverInit[] = [];
    const unobserved: Element[] = [];
    class FakeObserver {
      constructor(cb: IntersectionObserverCallback, init: IntersectionObserverInit) {
        callback = cb;
        options.push(init);
      }
      observe() {}
      unobserve(target: Element) {
        unobserved.push(target);
      }
      disconnect() {}
    }
    const win = Object.assign(plainWindow(), { IntersectionObserver: FakeObserver }) as unknown as TestWindow;
    const loader = new ImageLoader(win);
    const element = image({ 'data-src': '/media/a.jpg' });
    loader.observe(element);
    await flush();
    expect(options[0]?.rootMargin).toBe(`${LAZY_MARGIN_PX}px`);
    expect(element.hasAttribute('src')).toBe(false);
    callback([{ isIntersecting: true, target: element } as unknown as IntersectionObserverEntry], {} as IntersectionObserver);
    await flush();
    expect(unobserved).toEqual([element]);
    expect(element.getAttribute('src')).toBe('/media/a.jpg?format=500w');
  });

  it('loads at once without an IntersectionObserver', async () => {
    const loader = new ImageLoader(plainWindow());
    const element = image({ 'data-src': '/media/a.jpg' });
    loader.observeAll(document.body);
    await flush();
    expect(element.getAttribute('src')).toBe('/media/a.jpg?format=500w');
  });
});
