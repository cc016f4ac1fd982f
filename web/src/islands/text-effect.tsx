//! Text-effect island: plays the highlight the server drew behind the words (001 s3, s4, s9).
//! It plays once, on first visibility, no sooner than 250 ms after the island is ready; draw
//! starts undrawn (-1 for direction right, 1 otherwise), fade and fadeScale start invisible
//! (fadeScale at half size); a run takes the set duration scaled by the way left, between 0.2 and
//! 1 of it. New shape, animation or direction options re-run it. Under reduced motion the shape
//! stays drawn, as the server rendered it. Visibility, font and reflow events that reach the
//! island after it was taken down are dropped with the spec's warning (001 s8), as the marquee's
//! are. Plain DOM and the Web Animations API: no React.

import {
  MARQUEE_ENVIRONMENT_NOT_READY as ENVIRONMENT_NOT_READY,
  MARQUEE_NO_WINDOW as NO_WINDOW,
  TEXT_EFFECT_FADE_SCALE_FROM,
  TEXT_EFFECT_FIRST_PLAY_DELAY_MS,
  TEXT_EFFECT_MUTATION_DEBOUNCE_MS,
  TEXT_EFFECT_PATHS,
} from '../generated/widget-constants';
import type { IslandUnmount } from '../runtime/island-contract';
import {
  drawStartProgress,
  needsRerun,
  parseTextEffectOptions,
  scaledDurationS,
  type TextEffectOptions,
} from '../widgets/text-effect-rules';

export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';
/** Dispatched on the block element with new props in `detail` (the editor's live preview). */
export const OPTIONS_EVENT = 'vitrine:text-effect-options';

export type TextEffectState = 'waiting' | 'playing' | 'done' | 'static';

/** The way left for a run from where the shape now is: 1 from nothing, 0 when in place. */
function distanceLeft(options: TextEffectOptions, progress: number): number {
  return options.animation === 'draw' ? Math.abs(progress) : 1 - progress;
}

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const win = element.ownerDocument.defaultView;
  // 001 s8 gives the marquee and text effects the same two errors; the core names them once.
  if (win === null) throw new Error(NO_WINDOW);
  const highlight = element.querySelector<HTMLElement>('[data-text-effect]');
  const svg = highlight?.querySelector<SVGSVGElement>('svg');
  if (!highlight || !svg) throw new Error('Vitrine: the text-effect block has no shape to play.');
  let options = parseTextEffectOptions(props);
  const reduced = typeof win.matchMedia === 'function' && win.matchMedia(REDUCED_MOTION_QUERY).matches;
  const canAnimate = typeof svg.animate === 'function';
  let animations: Animation[] = [];
  let played = false;
  let visible = false;
  let earliest = false;
  let redraws = 0;
  let live = true;
  /** Drops an event that arrives once the island is gone, with the spec's warning. */
  const whileLive =
    <A extends unknown[]>(handler: (...args: A) => void) =>
    (...args: A): void => {
      if (!live) {
        console.warn(ENVIRONMENT_NOT_READY);
        return;
      }
      handler(...args);
    };

  const setState = (state: TextEffectState): void => {
    element.dataset['textEffectState'] = state;
  };
  const paths = (): SVGPathElement[] => [...svg.querySelectorAll('path')];

  /** Where the running (or last) run has got to: draw progress, or fade opacity. */
  const currentProgress = (): number => {
    const animation = animations[0];
    if (animation === undefined) return options.animation === 'draw' ? drawStartProgress(options.direction) : 0;
    const fraction = Math.min(1, ((animation.currentTime as number | null) ?? 0) / (Number(animation.effect?.getTiming().duration) || 1));
    return options.animation === 'draw' ? drawStartProgress(options.direction) * (1 - fraction) : fraction;
  };

  const play = (from: number): void => {
    for (const animation of animations) animation.cancel();
    const ms = scaledDurationS(options.duration, distanceLeft(options, from)) * 1000;
    const timing: KeyframeAnimationOptions = { duration: ms, easing: 'ease-out', fill: 'forwards' };
    svg.style.opacity = '';
    if (options.animation === 'draw') {
      // pathLength="1": a dash of 1 and a gap of 1; an offset of -progress hides the stroke from
      // the side it comes from.
      animations = paths().map((path) => {
        path.style.strokeDasharray = '1 1';
        return path.animate([{ strokeDashoffset: `${-from}` }, { strokeDashoffset: '0' }], timing);
      });
    } else {
      const scale = options.animation === 'fadeScale';
      const start = scale ? TEXT_EFFECT_FADE_SCALE_FROM + (1 - TEXT_EFFECT_FADE_SCALE_FROM) * from : 1;
      animations = [
        svg.animate(
          [
            { opacity: from, transform: `scale(${start})` },
            { opacity: 1, transform: 'scale(1)' },
          ],
          timing,
        ),
      ];
    }
    setState('playing');
    void Promise.all(animations.map((animation) => animation.finished)).then(
      () => setState('done'),
      () => undefined,
    );
  };

  const maybePlay = (): void => {
    if (played || !visible || !earliest) return;
    played = true;
    play(options.animation === 'draw' ? drawStartProgress(options.direction) : 0);
  };

  /** Hides the shape as it will start, until it plays. */
  const hideForStart = (): void => {
    if (options.animation === 'draw') {
      for (const path of paths()) {
        path.style.strokeDasharray = '1 1';
        path.style.strokeDashoffset = `${-drawStartProgress(options.direction)}`;
      }
    } else {
      svg.style.opacity = '0';
    }
  };

  if (reduced || !canAnimate) {
    setState('static');
    return () => {
      delete element.dataset['textEffectState'];
    };
  }

  hideForStart();
  setState('waiting');
  const firstPlay = setTimeout(() => {
    earliest = true;
    maybePlay();
  }, TEXT_EFFECT_FIRST_PLAY_DELAY_MS);
  const observer =
    'IntersectionObserver' in win
      ? new win.IntersectionObserver(
          whileLive((entries: IntersectionObserverEntry[]) => {
            if (!entries.some((entry) => entry.isIntersecting)) return;
            visible = true;
            maybePlay();
          }),
          { threshold: 0.5 },
        )
      : undefined;
  if (observer) observer.observe(highlight);
  else visible = true;

  /** Lays the finished shape over the words again (fonts arrived, the text reflowed). */
  const redraw = whileLive((): void => {
    redraws += 1;
    element.dataset['textEffectRedraws'] = String(redraws);
    if (element.dataset['textEffectState'] === 'done') {
      for (const animation of animations) animation.commitStyles?.();
    }
  });
  void element.ownerDocument.fonts?.ready.then(() => redraw());
  let mutationTimer: ReturnType<typeof setTimeout> | undefined;
  const mutations = new win.MutationObserver(() => {
    if (mutationTimer !== undefined) clearTimeout(mutationTimer);
    mutationTimer = setTimeout(redraw, TEXT_EFFECT_MUTATION_DEBOUNCE_MS);
  });
  // The words only: the shape's own style changes are not a reflow.
  mutations.observe(highlight, { characterData: true, childList: true, subtree: false });

  const onOptions = (event: Event): void => {
    const next = parseTextEffectOptions((event as CustomEvent<unknown>).detail);
    const rerun = needsRerun(options, next);
    if (next.shape !== options.shape) {
      const doc = element.ownerDocument;
      for (const path of paths()) path.remove();
      for (const d of TEXT_EFFECT_PATHS[next.shape]) {
        const path = doc.createElementNS('http://www.w3.org/2000/svg', 'path');
        path.setAttribute('d', d);
        path.setAttribute('pathLength', '1');
        path.setAttribute('stroke-linecap', next.linecap);
        path.setAttribute('vector-effect', 'non-scaling-stroke');
        svg.append(path);
      }
      highlight.className = highlight.className.replace(/text-effect--[\w-]+/, `text-effect--${next.shape}`);
    }
    const from = currentProgress();
    options = next;
    if (!rerun || !played) {
      if (!played) hideForStart();
      return;
    }
    // A re-run starts over from nothing when the animation or direction changed; a new shape
    // alone carries on from where the last run had got to.
    play(options.animation === 'draw' ? drawStartProgress(options.direction) : from === 1 ? 0 : from);
  };
  element.addEventListener(OPTIONS_EVENT, onOptions);

  return () => {
    live = false;
    clearTimeout(firstPlay);
    if (mutationTimer !== undefined) clearTimeout(mutationTimer);
    observer?.disconnect();
    mutations.disconnect();
    element.removeEventListener(OPTIONS_EVENT, onOptions);
    for (const animation of animations) animation.cancel();
    for (const path of paths()) {
      path.style.strokeDasharray = '';
      path.style.strokeDashoffset = '';
    }
    svg.style.opacity = '';
    delete element.dataset['textEffectState'];
  };
}
