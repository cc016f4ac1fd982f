//! Tests of the Escape-key close-target registry.

import { describe, expect, it, vi } from 'vitest';
import { createEscapeRegistry } from './escape-registry';

const escape = (init: KeyboardEventInit = {}) =>
  new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true, ...init });

describe('escape registry', () => {
  it('closes the topmost registered target first, then the next', () => {
    const registry = createEscapeRegistry();
    const closed: string[] = [];
    registry.register({ close: () => closed.push('dialog') });
    registry.register({ close: () => closed.push('lightbox') });
    expect(registry.handleKeydown(escape())).toBe(true);
    expect(closed).toEqual(['lightbox']);
    expect(registry.handleKeydown(escape())).toBe(true);
    expect(closed).toEqual(['lightbox', 'dialog']);
    expect(registry.size).toBe(0);
  });

  it('does not close a target that was unregistered', () => {
    const registry = createEscapeRegistry();
    const lower = { close: vi.fn() };
    const upper = { close: vi.fn() };
    registry.register(lower);
    const unregister = registry.register(upper);
    unregister();
    registry.handleKeydown(escape());
    expect(upper.close).not.toHaveBeenCalled();
    expect(lower.close).toHaveBeenCalledTimes(1);
  });

  it('does nothing with no target on a public page', () => {
    const registry = createEscapeRegistry();
    expect(registry.handleKeydown(escape())).toBe(false);
  });

  it('hands Escape with no target to the installed fallback, with the event (for Shift+Escape)', () => {
    const registry = createEscapeRegistry();
    const fallback = vi.fn();
    registry.setFallback(fallback);
    const event = escape({ shiftKey: true });
    registry.handleKeydown(event);
    expect(fallback).toHaveBeenCalledWith(event);
    registry.setFallback(undefined);
    registry.handleKeydown(escape());
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it('ignores other keys and events already handled', () => {
    const registry = createEscapeRegistry();
    const target = { close: vi.fn() };
    registry.register(target);
    registry.handleKeydown(new KeyboardEvent('keydown', { key: 'Enter' }));
    const handled = escape();
    handled.preventDefault();
    registry.handleKeydown(handled);
    expect(target.close).not.toHaveBeenCalled();
  });

  it('listens on the document and stops when asked', () => {
    const registry = createEscapeRegistry();
    const target = { close: vi.fn() };
    const stop = registry.listen(document);
    registry.register(target);
    const event = escape();
    document.body.dispatchEvent(event);
    expect(target.close).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
    stop();
    registry.register(target);
    document.body.dispatchEvent(escape());
    expect(target.close).toHaveBeenCalledTimes(1);
  });
});
