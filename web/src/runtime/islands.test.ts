//! Tests of the islands loader: discovery, load-on-presence, mount-once, lazy mounting and failure isolation.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChunkLoader, type ChunkImporter } from './chunk-loading';
import { islandSources, startIslands } from './islands';

function page(html: string): void {
  document.body.innerHTML = html;
}

function modules(spec: Record<string, ChunkImporter<unknown>>) {
  return createChunkLoader(
    islandSources(Object.fromEntries(Object.entries(spec).map(([name, importer]) => [`./islands/${name}.tsx`, importer]))),
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const state = (id: string) => document.getElementById(id)?.getAttribute('data-island-state');

afterEach(() => {
  document.body.replaceChildren();
});

describe('islands loader', () => {
  it('names chunks after the island file', () => {
    const importer = async () => ({});
    expect([...islandSources({ './islands/accordion.tsx': importer, './islands/menu-tabs.tsx': importer }).keys()]).toEqual([
      'accordion',
      'menu-tabs',
    ]);
  });

  it('loads a chunk only for island types on the page and mounts each block once with its props', async () => {
    page(`
      <div id="a1" data-island="accordion" data-island-props='{"allowMultiple":true}'>one</div>
      <div id="a2" data-island="accordion">two</div>`);
    const mount = vi.fn(() => undefined);
    const accordion = vi.fn(async () => ({ mount }));
    const gallery = vi.fn(async () => ({ mount }));
    const islands = startIslands({ root: document, chunks: modules({ accordion, gallery }) });
    await settle();
    islands.scan();
    await settle();
    expect(accordion).toHaveBeenCalledTimes(1);
    expect(gallery).not.toHaveBeenCalled();
    expect(mount).toHaveBeenCalledTimes(2);
    expect(mount).toHaveBeenCalledWith(document.getElementById('a1'), { allowMultiple: true });
    expect(mount).toHaveBeenCalledWith(document.getElementById('a2'), {});
    expect(state('a1')).toBe('mounted');
  });

  it('leaves the static markup and reports when a chunk fails, without stopping other islands', async () => {
    page(`<div id="bad" data-island="broken">static</div><div id="good" data-island="accordion">ok</div>`);
    const report = vi.fn();
    const mount = vi.fn(() => undefined);
    startIslands({
      root: document,
      chunks: modules({ broken: () => Promise.reject(new TypeError('Failed to fetch')), accordion: async () => ({ mount }) }),
      report,
    });
    await settle();
    expect(document.getElementById('bad')!.textContent).toBe('static');
    expect(state('bad')).toBe('failed');
    expect(state('good')).toBe('mounted');
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[1]).toMatchObject({ name: 'ChunkLoadError', chunk: 'broken' });
  });

  it('reports to console.error by default, and isolates a throwing mount and malformed props', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    page(`
      <div id="throws" data-island="accordion">a</div>
      <div id="props" data-island="accordion" data-island-props="{oops">b</div>
      <div id="fine" data-island="other">c</div>`);
    const mountOther = vi.fn(() => undefined);
    startIslands({
      root: document,
      chunks: modules({
        accordion: async () => ({
          mount: () => {
            throw new Error('bad markup');
          },
        }),
        other: async () => ({ mount: mountOther }),
      }),
    });
    await settle();
    expect(state('throws')).toBe('failed');
    expect(state('props')).toBe('failed');
    expect(state('fine')).toBe('mounted');
    expect(consoleError).toHaveBeenCalledTimes(2);
  });

  it('rejects a chunk that does not export mount()', async () => {
    page(`<div id="x" data-island="accordion"></div>`);
    const report = vi.fn();
    startIslands({ root: document, chunks: modules({ accordion: async () => ({ default: 1 }) }), report });
    await settle();
    expect(state('x')).toBe('failed');
  });

  it('mounts only when the block nears the viewport when IntersectionObserver exists', async () => {
    page(`<div id="lazy" data-island="accordion"></div>`);
    let callback: IntersectionObserverCallback | undefined;
    const observed: Element[] = [];
    const observer = {
      observe: (element: Element) => observed.push(element),
      unobserve: vi.fn(),
      disconnect: vi.fn(),
    };
    const FakeObserver = vi.fn(function (this: unknown, cb: IntersectionObserverCallback) {
      callback = cb;
      return observer;
    }) as unknown as typeof IntersectionObserver;
    const importer = vi.fn(async () => ({ mount: () => undefined }));
    startIslands({ root: document, chunks: modules({ accordion: importer }), IntersectionObserver: FakeObserver });
    await settle();
    expect(importer).not.toHaveBeenCalled();
    expect(state('lazy')).toBe('pending');
    const target = document.getElementById('lazy')!;
    expect(observed).toEqual([target]);
    callback!([{ isIntersecting: true, target } as unknown as IntersectionObserverEntry], observer as unknown as IntersectionObserver);
    await settle();
    expect(importer).toHaveBeenCalledTimes(1);
    expect(observer.unobserve).toHaveBeenCalledWith(target);
    expect(state('lazy')).toBe('mounted');
  });

  it('destroy unmounts every island, and a later scan mounts them again', async () => {
    page(`<div id="a" data-island="accordion"></div>`);
    const unmount = vi.fn();
    const mount = vi.fn(() => unmount);
    const islands = startIslands({ root: document, chunks: modules({ accordion: async () => ({ mount }) }) });
    await settle();
    islands.destroy();
    expect(unmount).toHaveBeenCalledTimes(1);
    expect(state('a')).toBeNull();
    islands.scan();
    await settle();
    expect(mount).toHaveBeenCalledTimes(2);
  });

  it('does not mount a block whose chunk arrives after destroy', async () => {
    page(`<div id="a" data-island="accordion"></div>`);
    let release!: (module: unknown) => void;
    const mount = vi.fn(() => undefined);
    const islands = startIslands({
      root: document,
      chunks: modules({ accordion: () => new Promise((resolve) => (release = resolve)) }),
    });
    islands.destroy();
    release({ mount });
    await settle();
    expect(mount).not.toHaveBeenCalled();
  });
});
