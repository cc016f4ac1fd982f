//! Marquee island (block type 70): runs the server's still text as a moving band (001 s3, s4,
//! s8, s9). It runs only while visible, never under reduced motion (and starts again when that
//! preference changes), pauses on hover only with pausedOnHover, and always has a visible pause
//! control (WCAG 2.2.2). The copies that fill the band are hidden from assistive technology and
//! cannot take focus. Plain DOM: no React for a band of text.

import {
  MARQUEE_ENVIRONMENT_NOT_READY,
  MARQUEE_NO_WINDOW,
  MARQUEE_RERENDER_DEBOUNCE_MS,
} from '../generated/widget-constants';
import type { IslandUnmount } from '../runtime/island-contract';
import {
  copiesNeeded,
  itemWidthPx,
  offsetPx,
  parseMarqueeOptions,
  regionRuns,
  waveOffsetPx,
  type MarqueeOptions,
} from '../widgets/marquee-rules';

export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Why the band is still, or that it runs: written to `data-marquee-state` for styles and tests. */
export type MarqueeState = 'running' | 'paused' | 'hovered' | 'offscreen' | 'reduced-motion' | 'too-narrow';

export function marqueeState(facts: {
  readonly visible: boolean;
  readonly reducedMotion: boolean;
  readonly hovered: boolean;
  readonly userPaused: boolean;
  readonly regionWidth: number;
  readonly options: MarqueeOptions;
}): MarqueeState {
  if (facts.reducedMotion) return 'reduced-motion';
  if (!regionRuns(facts.regionWidth)) return 'too-narrow';
  if (facts.userPaused) return 'paused';
  if (facts.options.pausedOnHover && facts.hovered) return 'hovered';
  if (!facts.visible) return 'offscreen';
  return 'running';
}

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const win = element.ownerDocument.defaultView;
  if (win === null) throw new Error(MARQUEE_NO_WINDOW);
  const doc = element.ownerDocument;
  const band = element.querySelector<HTMLElement>('[data-marquee]');
  const text = band?.querySelector<HTMLElement>('.marquee__text');
  if (!band || !text) throw new Error('Vitrine: the marquee block has no text to run.');
  const options = parseMarqueeOptions(props);
  let ready = false;

  // Events that arrive before the band is laid out are dropped with the spec's warning.
  const whenReady =
    <E,>(handler: (event: E) => void) =>
    (event: E): void => {
      if (!ready) {
        console.warn(MARQUEE_ENVIRONMENT_NOT_READY);
        return;
      }
      handler(event);
    };

  // The still band wraps its text over as many lines as it needs; the running band is one
  // line. Keeping the still band's height means nothing below moves as the island starts.
  band.style.minHeight = `${band.getBoundingClientRect().height}px`;
  const track = doc.createElement('div');
  track.className = 'marquee__track';
  text.classList.add('marquee__item');
  band.insertBefore(track, text);
  track.append(text);
  const control = doc.createElement('button');
  control.type = 'button';
  control.className = 'marquee__control';
  const controlLabel = doc.createElement('span');
  const controlTopic = doc.createElement('span');
  controlTopic.className = 'visually-hidden';
  controlTopic.textContent = ' the moving text';
  control.append(controlLabel, controlTopic);
  band.append(control);
  band.classList.add('marquee--enhanced');

  const reduced = typeof win.matchMedia === 'function' ? win.matchMedia(REDUCED_MOTION_QUERY) : undefined;
  const facts = {
    visible: true,
    reducedMotion: reduced?.matches ?? false,
    hovered: false,
    userPaused: false,
    regionWidth: 0,
    options,
  };
  let measured = 0;
  let elapsed = 0;
  let lastFrame: number | undefined;
  let frame: number | undefined;
  let state: MarqueeState | undefined;

  const copies = (): HTMLElement[] => [...track.querySelectorAll<HTMLElement>('[data-marquee-copy]')];

  /** Lays the band out again: measures the text, then fills the band with hidden copies. */
  const layout = (): void => {
    facts.regionWidth = band.clientWidth;
    for (const copy of copies()) copy.remove();
    text.style.minWidth = '';
    measured = text.scrollWidth;
    const width = itemWidthPx(measured);
    text.style.minWidth = `${width}px`;
    const count = copiesNeeded(facts.regionWidth, measured);
    for (let index = 1; index < count; index += 1) {
      const copy = text.cloneNode(true) as HTMLElement;
      copy.removeAttribute('id');
      copy.setAttribute('aria-hidden', 'true');
      copy.setAttribute('inert', '');
      copy.dataset['marqueeCopy'] = '';
      track.append(copy);
    }
    draw();
  };

  const draw = (): void => {
    track.style.transform = state === 'reduced-motion' || state === 'too-narrow' ? '' : `translateX(${offsetPx(options, measured, elapsed)}px)`;
    if (options.waveIntensity !== 0) {
      const width = itemWidthPx(measured);
      [text, ...copies()].forEach((item, index) => {
        const x = index * width + offsetPx(options, measured, elapsed) + width / 2;
        item.style.transform = state === 'reduced-motion' ? '' : `translateY(${waveOffsetPx(options, measured, x)}px)`;
      });
    }
  };

  const tick = (now: number): void => {
    frame = undefined;
    if (lastFrame !== undefined) elapsed += now - lastFrame;
    lastFrame = now;
    draw();
    if (state === 'running') frame = win.requestAnimationFrame(tick);
  };

  const update = (): void => {
    const next = marqueeState(facts);
    if (next === state) return;
    state = next;
    element.dataset['marqueeState'] = state;
    // Nothing moves under reduced motion or in a band too narrow to run: nothing to pause.
    control.hidden = state === 'reduced-motion' || state === 'too-narrow';
    controlLabel.textContent = facts.userPaused ? 'Play' : 'Pause';
    if (state === 'running') {
      lastFrame = undefined;
      if (frame === undefined) frame = win.requestAnimationFrame(tick);
    } else {
      if (frame !== undefined) win.cancelAnimationFrame(frame);
      frame = undefined;
      draw();
    }
  };

  const onControl = whenReady(() => {
    facts.userPaused = !facts.userPaused;
    controlLabel.textContent = facts.userPaused ? 'Play' : 'Pause';
    update();
  });
  const onEnter = whenReady(() => {
    facts.hovered = true;
    update();
  });
  const onLeave = whenReady(() => {
    facts.hovered = false;
    update();
  });
  const onMotionChange = whenReady((event: MediaQueryListEvent) => {
    facts.reducedMotion = event.matches;
    update();
  });
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  const onResize = whenReady(() => {
    if (resizeTimer !== undefined) clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      resizeTimer = undefined;
      layout();
      update();
    }, MARQUEE_RERENDER_DEBOUNCE_MS);
  });

  control.addEventListener('click', onControl);
  band.addEventListener('pointerenter', onEnter);
  band.addEventListener('pointerleave', onLeave);
  reduced?.addEventListener('change', onMotionChange);
  win.addEventListener('resize', onResize);
  const visibility =
    'IntersectionObserver' in win
      ? new win.IntersectionObserver((entries) => {
          for (const entry of entries) facts.visible = entry.isIntersecting;
          if (ready) update();
        })
      : undefined;
  visibility?.observe(band);

  layout();
  ready = true;
  update();

  return () => {
    ready = false;
    if (frame !== undefined) win.cancelAnimationFrame(frame);
    if (resizeTimer !== undefined) clearTimeout(resizeTimer);
    visibility?.disconnect();
    win.removeEventListener('resize', onResize);
    reduced?.removeEventListener('change', onMotionChange);
    band.removeEventListener('pointerenter', onEnter);
    band.removeEventListener('pointerleave', onLeave);
    for (const copy of copies()) copy.remove();
    text.classList.remove('marquee__item');
    text.style.minWidth = '';
    text.style.transform = '';
    band.insertBefore(text, track);
    track.remove();
    control.remove();
    band.classList.remove('marquee--enhanced');
    band.style.minHeight = '';
    delete element.dataset['marqueeState'];
  };
}
