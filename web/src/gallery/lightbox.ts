//! The lightbox (spec 001 s4 "Lightbox", s9): a modal dialog over the page showing one slide at
//! a time. It is a native `<dialog>` opened with `showModal()`, so the page behind is inert and
//! focus stays inside; Tab wraps, Escape closes, and focus returns to the thumbnail that opened
//! it. The overlay fades in over 0.3 s to 0.95 and the content over 0.6 s (the stylesheet); it
//! loops on desktop but not on mobile, where the ends get the disabled mark; arrow keys are
//! throttled to 200 ms; edge clicks ignore a 2 % dead zone; the arrows fade after 500 ms of
//! stillness; pinch and double tap zoom on touch.

import { GALLERY, GalleryIndex, LIGHTBOX, classifyTouch } from './rules';
import { openOverlay, type OverlayHandle } from '../runtime/overlay-coordinator';
import { VideoOverlay, pageVideos } from './video';

export interface LightboxItem {
  src: string;
  width: number;
  height: number;
  alt: string;
  caption: string;
  /** The slide's server-rendered video frame, when it is a video slide. */
  video?: HTMLElement | undefined;
}

export interface LightboxOptions {
  theme: 'light' | 'dark';
  /** Called with the new index whenever the shown item changes (for itemId history). */
  onChange?: (index: number) => void;
  onClose?: (index: number) => void;
}

/** What a click at `x` on a stage `width` wide means: the outer 2 % on each side does nothing. */
export function edgeClickAction(x: number, width: number): 'previous' | 'next' | null {
  if (width <= 0) return null;
  const at = x / width;
  if (at < LIGHTBOX.edgeDeadZone || at > 1 - LIGHTBOX.edgeDeadZone) return null;
  return at < 0.5 ? 'previous' : 'next';
}

/** Whether the window is a phone's (001 s2: at most 432 px wide), where the lightbox does not loop. */
export function isMobileWidth(win: Window): boolean {
  return win.innerWidth <= GALLERY.mobileMaxWidthPx;
}


export class Lightbox {
  private readonly dialog: HTMLDialogElement;
  private readonly stage: HTMLElement;
  private readonly counter: HTMLElement;
  private readonly caption: HTMLElement;
  private readonly previousButton: HTMLButtonElement;
  private readonly nextButton: HTMLButtonElement;
  private index = new GalleryIndex(0, true);
  private opener: HTMLElement | null = null;
  private lastKeyAt = -Infinity;
  private stillTimer: ReturnType<typeof setTimeout> | undefined;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private overlay: OverlayHandle | undefined;
  private video: VideoOverlay | null = null;
  private zoom = 1;
  private lastTapAt = 0;
  private pinchStart: { distance: number; zoom: number } | null = null;

  constructor(
    private readonly doc: Document,
    private readonly items: readonly LightboxItem[],
    private readonly options: LightboxOptions,
  ) {
    const dialog = doc.createElement('dialog');
    dialog.className = `lightbox lightbox--${options.theme}`;
    dialog.setAttribute('aria-label', 'Picture viewer');
    dialog.setAttribute('aria-roledescription', 'lightbox');
    dialog.innerHTML =
      '<p class="lightbox__counter" aria-live="polite" aria-atomic="true"></p>' +
      '<div class="lightbox__stage"></div>' +
      '<p class="lightbox__caption"></p>' +
      '<button type="button" class="lightbox__arrow lightbox__arrow--previous" aria-label="Previous picture"><span aria-hidden="true">&#8249;</span></button>' +
      '<button type="button" class="lightbox__arrow lightbox__arrow--next" aria-label="Next picture"><span aria-hidden="true">&#8250;</span></button>' +
      '<button type="button" class="lightbox__close" aria-label="Close"><span aria-hidden="true">&#215;</span></button>';
    this.dialog = dialog;
    this.stage = dialog.querySelector('.lightbox__stage')!;
    this.counter = dialog.querySelector('.lightbox__counter')!;
    this.caption = dialog.querySelector('.lightbox__caption')!;
    this.previousButton = dialog.querySelector('.lightbox__arrow--previous')!;
    this.nextButton = dialog.querySelector('.lightbox__arrow--next')!;
    this.previousButton.addEventListener('click', () => this.step(-1));
    this.nextButton.addEventListener('click', () => this.step(1));
    dialog.querySelector('.lightbox__close')!.addEventListener('click', () => this.close());
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      this.close();
    });
    dialog.addEventListener('keydown', (event) => this.onKeydown(event));
    dialog.addEventListener('pointermove', () => this.wake());
    dialog.addEventListener('focusin', () => this.wake());
    this.stage.addEventListener('click', (event) => this.onStageClick(event));
    this.stage.addEventListener('touchstart', (event) => this.onTouchStart(event), { passive: true });
    this.stage.addEventListener('touchmove', (event) => this.onTouchMove(event), { passive: false });
    this.stage.addEventListener('touchend', (event) => this.onTouchEnd(event));
    doc.body.append(dialog);
  }

  get isOpen(): boolean {
    return this.dialog.open;
  }

  get currentIndex(): number {
    return this.index.current;
  }

  open(at: number, opener: HTMLElement | null): void {
    clearTimeout(this.closeTimer);
    const win = this.doc.defaultView!;
    // 001 s4: the lightbox loops on desktop, not on mobile.
    this.index = new GalleryIndex(this.items.length, !isMobileWidth(win));
    this.index.goTo(at);
    this.index.settle();
    this.opener = opener;
    this.overlay?.release();
    // Through the page's overlay coordinator: a more important overlay (consent, a popup)
    // suspends the lightbox, Escape reaches it through the registry, the page behind is inert.
    this.overlay = openOverlay(win, {
      layer: 'lightbox',
      modal: true,
      element: this.dialog,
      show: () => {
        if (!this.dialog.open) this.dialog.showModal();
        this.render();
        this.dialog.querySelector<HTMLElement>('.lightbox__close')!.focus();
        win.requestAnimationFrame(() => this.dialog.classList.add('is-open'));
        this.wake();
      },
      suspend: () => {
        this.dialog.classList.remove('is-open');
        if (this.dialog.open) this.dialog.close();
      },
      dismiss: () => this.close(),
    });
  }

  /** Fades out (0.3 s), then closes and gives focus back to the opening thumbnail. */
  close(): void {
    if (!this.dialog.open || this.closeTimer !== undefined) return;
    this.video?.destroy();
    this.video = null;
    this.dialog.classList.remove('is-open');
    const reduced = this.doc.defaultView?.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const finish = () => {
      this.closeTimer = undefined;
      this.dialog.close();
      this.overlay?.release();
      this.overlay = undefined;
      this.stage.replaceChildren();
      this.opener?.focus();
      this.options.onClose?.(this.index.current);
    };
    if (reduced) finish();
    else this.closeTimer = setTimeout(finish, LIGHTBOX.overlayFadeMs);
  }

  destroy(): void {
    clearTimeout(this.stillTimer);
    clearTimeout(this.closeTimer);
    this.overlay?.release();
    this.video?.destroy();
    if (this.dialog.open) this.dialog.close();
    this.dialog.remove();
  }

  step(delta: number): void {
    const outcome = this.index.step(delta);
    this.index.settle();
    if ('event' in outcome && outcome.event === 'moved') {
      this.render();
      this.options.onChange?.(this.index.current);
    }
  }

  private render(): void {
    const item = this.items[this.index.current];
    if (!item) return;
    this.video?.destroy();
    this.video = null;
    this.zoom = 1;
    if (item.video) {
      const frame = item.video.cloneNode(true) as HTMLElement;
      frame.querySelector('.video__player')?.remove();
      frame.querySelector<HTMLElement>('.video__link')?.removeAttribute('hidden');
      this.stage.replaceChildren(frame);
      this.video = new VideoOverlay(frame, pageVideos(this.doc.defaultView!));
    } else {
      const img = this.doc.createElement('img');
      img.src = item.src;
      img.alt = item.alt;
      img.width = item.width;
      img.height = item.height;
      img.decoding = 'async';
      this.stage.replaceChildren(img);
    }
    this.counter.textContent = `${this.index.current + 1} of ${this.items.length}`;
    this.caption.textContent = item.caption;
    this.caption.hidden = item.caption === '';
    this.previousButton.disabled = this.index.atBeginning;
    this.nextButton.disabled = this.index.atEnd;
    this.previousButton.classList.toggle('is-disabled', this.index.atBeginning);
    this.nextButton.classList.toggle('is-disabled', this.index.atEnd);
    const single = this.items.length < 2;
    this.previousButton.hidden = single;
    this.nextButton.hidden = single;
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      const now = performance.now();
      if (now - this.lastKeyAt < LIGHTBOX.keyThrottleMs) return;
      this.lastKeyAt = now;
      this.step(event.key === 'ArrowLeft' ? -1 : 1);
    } else if (event.key === 'Tab') {
      this.trapTab(event);
    }
  }

  /** Keeps Tab inside the dialog: past the last control it comes back to the first. */
  private trapTab(event: KeyboardEvent): void {
    const focusable = [...this.dialog.querySelectorAll<HTMLElement>('button, a[href], iframe, [tabindex="0"]')].filter(
      (el) => !el.hidden && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0,
    );
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = this.doc.activeElement;
    if (event.shiftKey && (active === first || !this.dialog.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !this.dialog.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  private onStageClick(event: MouseEvent): void {
    if (event.target !== this.stage) return;
    const box = this.stage.getBoundingClientRect();
    const action = edgeClickAction(event.clientX - box.left, box.width);
    if (action) this.step(action === 'previous' ? -1 : 1);
  }

  /** Arrows show on movement or focus and fade after 500 ms of stillness. */
  private wake(): void {
    this.dialog.classList.remove('is-still');
    clearTimeout(this.stillTimer);
    this.stillTimer = setTimeout(() => this.dialog.classList.add('is-still'), LIGHTBOX.arrowFadeMs);
  }

  private touchStart: { x: number; y: number; at: number } | null = null;

  private onTouchStart(event: TouchEvent): void {
    const [a, b] = [event.touches[0], event.touches[1]];
    if (a && b) {
      this.pinchStart = { distance: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY), zoom: this.zoom };
      this.touchStart = null;
    } else if (a) {
      this.touchStart = { x: a.clientX, y: a.clientY, at: performance.now() };
    }
  }

  private onTouchMove(event: TouchEvent): void {
    const [a, b] = [event.touches[0], event.touches[1]];
    if (a && b && this.pinchStart) {
      event.preventDefault();
      const distance = Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
      this.setZoom((this.pinchStart.zoom * distance) / Math.max(1, this.pinchStart.distance));
    }
  }

  private onTouchEnd(event: TouchEvent): void {
    if (event.touches.length > 0) return;
    this.pinchStart = null;
    const start = this.touchStart;
    this.touchStart = null;
    const touch = event.changedTouches[0];
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    const now = performance.now();
    const gesture = classifyTouch(dx, dy, now - start.at);
    if (gesture === 'tap') {
      // Two taps within 300 ms toggle a double-size zoom.
      if (now - this.lastTapAt < 300) {
        this.setZoom(this.zoom > 1 ? 1 : 2);
        this.lastTapAt = 0;
      } else this.lastTapAt = now;
      return;
    }
    if (this.zoom > 1) return;
    if (gesture === 'swipeLeft') this.step(1);
    else if (gesture === 'swipeRight') this.step(-1);
  }

  private setZoom(zoom: number): void {
    this.zoom = Math.min(4, Math.max(1, zoom));
    const img = this.stage.querySelector('img');
    if (img) img.style.transform = this.zoom === 1 ? '' : `scale(${this.zoom})`;
    this.stage.dataset.zoom = this.zoom.toFixed(2);
  }
}
