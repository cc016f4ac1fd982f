//! Tests of the page lifecycle: ready signal, run-once initialisers, late registration, destroy.

import { describe, expect, it, vi } from 'vitest';
import { createPageLifecycle, whenDocumentReady } from './lifecycle';

describe('page lifecycle', () => {
  it('starts not initialised and runs nothing before the ready signal', () => {
    const lifecycle = createPageLifecycle();
    const initialiser = vi.fn();
    lifecycle.register(initialiser);
    expect(lifecycle.state).toBe('not-initialised');
    expect(initialiser).not.toHaveBeenCalled();
  });

  it('runs each registered initialiser once when ready is signalled, however often it is signalled', () => {
    const lifecycle = createPageLifecycle();
    const first = vi.fn();
    const second = vi.fn();
    lifecycle.register(first);
    lifecycle.register(second);
    lifecycle.init();
    lifecycle.init();
    expect(lifecycle.state).toBe('initialised');
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('runs an initialiser registered after initialisation at once', () => {
    const lifecycle = createPageLifecycle();
    lifecycle.init();
    const late = vi.fn();
    lifecycle.register(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('runs an initialiser registered by another initialiser at once, and only once', () => {
    const lifecycle = createPageLifecycle();
    const nested = vi.fn();
    lifecycle.register(() => {
      lifecycle.register(nested);
    });
    lifecycle.init();
    expect(nested).toHaveBeenCalledTimes(1);
  });

  it('destroy runs destructors newest first and returns to not initialised', () => {
    const lifecycle = createPageLifecycle();
    const order: string[] = [];
    lifecycle.register(() => () => order.push('first'));
    lifecycle.register(() => () => order.push('second'));
    lifecycle.init();
    lifecycle.destroy();
    expect(order).toEqual(['second', 'first']);
    expect(lifecycle.state).toBe('not-initialised');
  });

  it('runs the initialisers again after destroy and a new ready signal', () => {
    const lifecycle = createPageLifecycle();
    const initialiser = vi.fn();
    lifecycle.register(initialiser);
    lifecycle.init();
    lifecycle.destroy();
    lifecycle.init();
    expect(initialiser).toHaveBeenCalledTimes(2);
  });

  it('keeps going when an initialiser or destructor throws, and reports the error', () => {
    const onError = vi.fn();
    const lifecycle = createPageLifecycle(onError);
    const healthy = vi.fn();
    lifecycle.register(() => {
      throw new Error('broken block');
    });
    lifecycle.register(() => () => {
      throw new Error('broken teardown');
    });
    lifecycle.register(healthy);
    lifecycle.init();
    lifecycle.destroy();
    expect(healthy).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledTimes(2);
  });

  it('unregistering runs the destructor of an initialiser that ran', () => {
    const lifecycle = createPageLifecycle();
    const destructor = vi.fn();
    const unregister = lifecycle.register(() => destructor);
    lifecycle.init();
    unregister();
    expect(destructor).toHaveBeenCalledTimes(1);
    lifecycle.destroy();
    expect(destructor).toHaveBeenCalledTimes(1);
  });
});

describe('whenDocumentReady', () => {
  it('signals at once when the document has been parsed', () => {
    const signal = vi.fn();
    whenDocumentReady(document, signal);
    expect(document.readyState).not.toBe('loading');
    expect(signal).toHaveBeenCalledTimes(1);
  });

  it('waits for DOMContentLoaded while the document is loading', () => {
    const loading = document.implementation.createHTMLDocument('loading');
    Object.defineProperty(loading, 'readyState', { value: 'loading' });
    const signal = vi.fn();
    whenDocumentReady(loading, signal);
    expect(signal).not.toHaveBeenCalled();
    loading.dispatchEvent(new Event('DOMContentLoaded'));
    loading.dispatchEvent(new Event('DOMContentLoaded'));
    expect(signal).toHaveBeenCalledTimes(1);
  });
});
