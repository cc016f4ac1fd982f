//! Tests of the runtime wiring: one runtime per page, islands mounted on ready, global destroy.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUNTIME_GLOBAL } from './constants';
import { startRuntime } from './runtime';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  const runtime = (window as unknown as Record<string, { lifecycle?: { destroy(): void } } | undefined>)[RUNTIME_GLOBAL];
  runtime?.lifecycle?.destroy();
  delete (window as unknown as Record<string, unknown>)[RUNTIME_GLOBAL];
  document.body.replaceChildren();
});

describe('runtime', () => {
  it('initialises, mounts islands, and is published on window', async () => {
    document.body.innerHTML = `<div id="b" data-island="accordion"></div>`;
    const mount = vi.fn(() => undefined);
    const runtime = startRuntime({ window, islandModules: { './islands/accordion.tsx': async () => ({ mount }) } });
    expect(runtime).toBeDefined();
    expect((window as unknown as Record<string, unknown>)[RUNTIME_GLOBAL]).toBe(runtime);
    expect(runtime!.lifecycle.state).toBe('initialised');
    await settle();
    expect(mount).toHaveBeenCalledTimes(1);
  });

  it('a second run of the common script warns and stops', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = startRuntime({ window, islandModules: {} });
    const second = startRuntime({ window, islandModules: {} });
    expect(first).toBeDefined();
    expect(second).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect((window as unknown as Record<string, unknown>)[RUNTIME_GLOBAL]).toBe(first);
  });

  it('global destroy unmounts islands and stops handling Escape until initialised again', async () => {
    document.body.innerHTML = `<div id="b" data-island="accordion"></div>`;
    const unmount = vi.fn();
    const runtime = startRuntime({
      window,
      islandModules: { './islands/accordion.tsx': async () => ({ mount: () => unmount }) },
    })!;
    await settle();
    const target = { close: vi.fn() };
    runtime.lifecycle.destroy();
    expect(unmount).toHaveBeenCalledTimes(1);
    runtime.escape.register(target);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(target.close).not.toHaveBeenCalled();
    runtime.lifecycle.init();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(target.close).toHaveBeenCalledTimes(1);
  });
});
