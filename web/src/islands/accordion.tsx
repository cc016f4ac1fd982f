//! Accordion island (block type 69): takes over the server's <details> items and applies the spec's toggle rules.

import {
  useCallback,
  useEffect,
  useId,
  useReducer,
  useRef,
  type Dispatch,
  type KeyboardEvent,
  type MouseEvent,
  type SyntheticEvent,
} from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import {
  accordionReducer,
  initialAccordionState,
  isAnimating,
  parseAccordionOptions,
  type AccordionAction,
  type AccordionOptions,
} from '../blocks/accordion-state';
import { readAccordionMarkup, type AccordionItemMarkup } from '../blocks/accordion-markup';
import { ACCORDION_ANIMATION_MS } from '../runtime/constants';
import type { IslandUnmount } from '../runtime/island-contract';

/** Class present on an item while it opens or closes, for the site stylesheet's transition. */
export const ANIMATING_CLASS = 'accordion-item--animating';

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const options = parseAccordionOptions(props);
  const markup = readAccordionMarkup(element);
  const root = createRoot(markup.container);
  // Synchronous, so the static items are never missing for a frame and errors surface here.
  flushSync(() => root.render(<Accordion items={markup.items} options={options} />));
  return () => {
    root.unmount();
    markup.restore();
  };
}

interface AccordionProps {
  readonly items: readonly AccordionItemMarkup[];
  readonly options: AccordionOptions;
}

function Accordion({ items, options }: AccordionProps) {
  const [state, dispatch] = useReducer(accordionReducer, undefined, () =>
    initialAccordionState(
      items.map((item) => item.open),
      options,
    ),
  );
  useAnimationEnds(state.nextAnimation, dispatch);
  const id = useId();

  return items.map((item, index) => (
    <AccordionItem
      key={index}
      item={item}
      titleId={`${id}-title-${index}`}
      bodyId={`${id}-body-${index}`}
      open={state.open[index] ?? false}
      animating={isAnimating(state, index)}
      onToggle={() => dispatch({ type: 'toggle', index })}
      onNativeToggle={(open) => dispatch({ type: 'set', index, open })}
    />
  ));
}

interface AccordionItemProps {
  readonly item: AccordionItemMarkup;
  readonly titleId: string;
  readonly bodyId: string;
  readonly open: boolean;
  readonly animating: boolean;
  readonly onToggle: () => void;
  readonly onNativeToggle: (open: boolean) => void;
}

function AccordionItem({ item, titleId, bodyId, open, animating, onToggle, onNativeToggle }: AccordionItemProps) {
  const adoptTitle = useAdoptedNodes(item.titleNodes);
  const adoptBody = useAdoptedNodes(item.bodyNodes);

  const onClick = (event: MouseEvent<HTMLElement>) => {
    // A link inside the title keeps working as a link.
    if (event.target instanceof Element && event.target.closest('a') !== null) return;
    event.preventDefault();
    onToggle();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    // Stops the browser's own activation, which would toggle the <details> a second time.
    event.preventDefault();
    onToggle();
  };
  // The browser may still open a <details> itself (find-in-page does); the state follows it.
  const onDetailsToggle = (event: SyntheticEvent<HTMLDetailsElement>) => onNativeToggle(event.currentTarget.open);

  const className = [item.details.className, animating ? ANIMATING_CLASS : ''].filter(Boolean).join(' ');
  return (
    <details className={className} open={open} onToggle={onDetailsToggle}>
      <summary
        ref={adoptTitle}
        id={titleId}
        className={item.summary.className}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={onClick}
        onKeyDown={onKeyDown}
      />
      <div ref={adoptBody} id={bodyId} className={item.body.className} />
    </details>
  );
}

/** A ref that moves the server's nodes into the element React rendered empty for them. */
function useAdoptedNodes(nodes: readonly Node[]) {
  return useCallback(
    (element: HTMLElement | null) => {
      if (element !== null) element.append(...nodes);
    },
    [nodes],
  );
}

/** Ends every animation a render started, ACCORDION_ANIMATION_MS after it started. */
function useAnimationEnds(nextAnimation: number, dispatch: Dispatch<AccordionAction>) {
  const seen = useRef(nextAnimation);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    for (let animation = seen.current; animation < nextAnimation; animation += 1) {
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        dispatch({ type: 'animation-end', animation });
      }, ACCORDION_ANIMATION_MS);
      timers.current.add(timer);
    }
    seen.current = nextAnimation;
  }, [nextAnimation, dispatch]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
}
