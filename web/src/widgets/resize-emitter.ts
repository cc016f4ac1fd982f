//! The resize emitter (001 s4, s5, s9): turns a window's resize events into `resize:start` when
//! its size moves by more than a threshold (on one axis when an axis is set), and `resize:end`
//! once no resize came for a time-out. Widgets listen to the two instead of to every resize.

/** 001 s9: resize:end follows 300 ms without resizing unless set otherwise. */
export const RESIZE_DEFAULT_TIMEOUT_MS = 300;
/** 001 s9: by default any change of size counts. */
export const RESIZE_DEFAULT_THRESHOLD_PX = 0;

export const RESIZE_START = 'resize:start';
export const RESIZE_END = 'resize:end';

export type ResizeAxis = 'x' | 'y';

export interface ResizeEmitterOptions {
  /** Only this axis counts; both when absent. */
  readonly axis?: ResizeAxis;
  /** A change of more than this many pixels starts a resize. */
  readonly threshold?: number;
  readonly timeoutMs?: number;
}

export interface ResizeEmitter extends EventTarget {
  /** True between resize:start and resize:end. */
  readonly resizing: boolean;
  /** Stops listening to the window. */
  destroy(): void;
}

/** 001 s5: the axis must be x or y and the threshold a number. */
export function checkResizeOptions(options: ResizeEmitterOptions): Required<Omit<ResizeEmitterOptions, 'axis'>> & { axis?: ResizeAxis } {
  const { axis, threshold = RESIZE_DEFAULT_THRESHOLD_PX, timeoutMs = RESIZE_DEFAULT_TIMEOUT_MS } = options;
  if (axis !== undefined && axis !== 'x' && axis !== 'y') throw new Error(`The resize axis must be x or y, not ${String(axis)}.`);
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) throw new Error('The resize threshold must be a number.');
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0) throw new Error('The resize time-out must be a number of milliseconds.');
  return axis === undefined ? { threshold, timeoutMs } : { axis, threshold, timeoutMs };
}

/** Whether a change from `from` to `to` moves by more than `threshold` on the axes that count. */
export function movedBeyond(
  from: { readonly width: number; readonly height: number },
  to: { readonly width: number; readonly height: number },
  threshold: number,
  axis?: ResizeAxis,
): boolean {
  const dx = Math.abs(to.width - from.width);
  const dy = Math.abs(to.height - from.height);
  if (axis === 'x') return dx > threshold;
  if (axis === 'y') return dy > threshold;
  return dx > threshold || dy > threshold;
}

export function createResizeEmitter(win: Window, options: ResizeEmitterOptions = {}): ResizeEmitter {
  const { axis, threshold, timeoutMs } = checkResizeOptions(options);
  const target = new EventTarget();
  const size = () => ({ width: win.innerWidth, height: win.innerHeight });
  let settled = size();
  let resizing = false;
  let quiet: ReturnType<typeof setTimeout> | undefined;

  const onResize = (): void => {
    if (!resizing) {
      if (!movedBeyond(settled, size(), threshold, axis)) return;
      resizing = true;
      target.dispatchEvent(new Event(RESIZE_START));
    }
    if (quiet !== undefined) clearTimeout(quiet);
    quiet = setTimeout(() => {
      quiet = undefined;
      resizing = false;
      settled = size();
      target.dispatchEvent(new Event(RESIZE_END));
    }, timeoutMs);
  };
  win.addEventListener('resize', onResize);

  // A getter, so `resizing` is read when asked (Object.assign would copy its first value).
  return Object.defineProperties(target, {
    resizing: { get: () => resizing },
    destroy: {
      value: () => {
        win.removeEventListener('resize', onResize);
        if (quiet !== undefined) clearTimeout(quiet);
      },
    },
  }) as ResizeEmitter;
}
