//! One gallery on the page: the layouts that move (slider, slideshow, carousel) get buttons,
//! arrow keys, swipes, autoplay with a pause control, a live counter and itemId history; every
//! layout with the lightbox on opens it on a click, Enter or Space on a slide.

import { Lightbox, type LightboxItem } from './lightbox';
import { itemIdOf, itemUrl, motionForbidden, type GalleryProps } from './props';
import {
  GALLERY,
  GalleryIndex,
  carouselControls,
  clampGroup,
  classifyTouch,
  cssAspectRatio,
  preloadWindow,
  slidesPerRowForWidth,
  stripScrollLeft,
  type IndexOutcome,
} from './rules';
import { VIDEO_EVENT, VideoOverlay, pageVideos, type VideoEventDetail } from './video';

export class GalleryController {
  private readonly doc: Document;
  private readonly win: Window;
  private readonly slides: HTMLElement[];
  private readonly track: HTMLElement | null;
  private readonly previous: HTMLButtonElement | null;
  private readonly next: HTMLButtonElement | null;
  private readonly autoplayButton: HTMLButtonElement | null;
  private readonly status: HTMLElement | null;
  private readonly pages: HTMLAnchorElement[];
  private readonly stacked: boolean;
  private readonly carousel: boolean;
  private perRow = 1;
  private index: GalleryIndex;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private autoplayTimer: ReturnType<typeof setTimeout> | undefined;
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;
  private autoplayOn: boolean;
  private pausedByUser = false;
  private pausedByPointer = false;
  private pausedByVideo = false;
  private lightbox: Lightbox | null = null;
  private readonly videos: VideoOverlay[] = [];
  private readonly cleanups: (() => void)[] = [];
  private touch: { x: number; y: number; at: number } | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly props: GalleryProps,
  ) {
    this.doc = root.ownerDocument;
    this.win = this.doc.defaultView!;
    this.slides = [...root.querySelectorAll<HTMLElement>('.gallery__slide')];
    if (this.slides.length === 0) throw new Error('No images');
    this.track = root.querySelector('.gallery__track');
    this.previous = root.querySelector('.gallery__nav--previous');
    this.next = root.querySelector('.gallery__nav--next');
    this.autoplayButton = root.querySelector('.gallery__autoplay');
    this.status = root.querySelector('.gallery__status');
    this.pages = [...root.querySelectorAll<HTMLAnchorElement>('.gallery__page')];
    this.carousel = props.layout === 'carousel';
    this.stacked = props.layout === 'slideshow' && (props.transition === 'fade' || props.transition === 'ken-burns');
    this.index = new GalleryIndex(this.slides.length, props.loop);
    const reducedMotion = this.win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    this.autoplayOn = props.autoplayMs !== null && !reducedMotion && !motionForbidden(this.win.location.search);

    this.applyStyleOptions();
    for (const frame of root.querySelectorAll<HTMLElement>('[data-video]')) this.videos.push(new VideoOverlay(frame, pageVideos(this.win)));
    if (props.lightbox) this.setUpLightbox();
    if (this.track) this.setUpNavigation();
    this.selectFromAddress();
  }

  destroy(): void {
    clearTimeout(this.settleTimer);
    clearTimeout(this.autoplayTimer);
    clearTimeout(this.resizeTimer);
    this.cleanups.forEach((cleanup) => cleanup());
    this.videos.forEach((video) => video.destroy());
    this.lightbox?.destroy();
    this.root.classList.remove('gallery--js', 'gallery--stacked', 'gallery--ken-burns');
    this.slides.forEach((slide) => slide.classList.remove('is-current'));
  }

  /** The slide (or, in a carousel, the group) shown. */
  get current(): number {
    return this.index.current;
  }

  private on<K extends keyof HTMLElementEventMap>(target: HTMLElement, type: K, listener: (event: HTMLElementEventMap[K]) => void, options?: AddEventListenerOptions): void {
    target.addEventListener(type, listener as EventListener, options);
    this.cleanups.push(() => target.removeEventListener(type, listener as EventListener, options));
  }

  /** Scrolls a thumbnail strip that overflows so the current thumbnail sits where `stripAlignment` says. */
  private alignThumbnail(current: number, animate: boolean): void {
    const item = this.pages[current]?.parentElement;
    const strip = item?.parentElement;
    if (!item || !strip || strip.scrollWidth <= strip.clientWidth) return;
    const left = stripScrollLeft(
      this.props.stripAlignment,
      { left: item.offsetLeft - strip.offsetLeft, width: item.offsetWidth },
      { width: strip.clientWidth, scrollWidth: strip.scrollWidth },
    );
    strip.scrollTo({ left, behavior: animate ? 'smooth' : 'auto' });
  }

  /** Options the server could not write as classes (no inline styles there) go in through the CSSOM. */
  private applyStyleOptions(): void {
    const style = this.root.style;
    style.setProperty('--gallery-gutter', `${this.props.gutter}px`);
    style.setProperty('--gallery-column-width', `${this.props.columnWidth}px`);
    style.setProperty('--gallery-row-height', `${this.props.rowHeight}px`);
    style.setProperty('--gallery-speed', `${this.props.speedMs}ms`);
    if (this.props.autoplayMs) style.setProperty('--gallery-autoplay', `${this.props.autoplayMs}ms`);
    if (this.props.layout === 'grid' || this.carousel) style.setProperty('--gallery-columns', String(this.props.slidesPerRow));
    const aspect = cssAspectRatio(this.props.aspectRatio);
    if (aspect) style.setProperty('--gallery-aspect', aspect);
  }

  private setUpNavigation(): void {
    this.root.classList.add('gallery--js');
    if (this.stacked) this.root.classList.add('gallery--stacked');
    if (this.props.transition === 'ken-burns') this.root.classList.add('gallery--ken-burns');
    if (this.previous) {
      this.previous.hidden = false;
      this.on(this.previous, 'click', () => this.move(-1, true));
    }
    if (this.next) {
      this.next.hidden = false;
      this.on(this.next, 'click', () => this.move(1, true));
    }
    this.on(this.root, 'keydown', (event) => {
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, select, iframe')) return;
      if (event.key === 'ArrowLeft') {
        event.preventDefault();
        this.move(-1, true);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        this.move(1, true);
      }
    });
    this.pages.forEach((page, at) =>
      this.on(page, 'click', (event) => {
        event.preventDefault();
        this.goTo(at, true);
      }),
    );
    this.on(this.track!, 'touchstart', (event) => {
      const touch = event.touches[0];
      this.touch = event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY, at: performance.now() } : null;
    }, { passive: true });
    this.on(this.track!, 'touchend', (event) => {
      const start = this.touch;
      const touch = event.changedTouches[0];
      this.touch = null;
      if (!start || !touch) return;
      const gesture = classifyTouch(touch.clientX - start.x, touch.clientY - start.y, performance.now() - start.at);
      if (gesture === 'swipeLeft') this.move(1, true);
      else if (gesture === 'swipeRight') this.move(-1, true);
    });
    if (this.props.layout === 'slideshow' && !this.props.lightbox) {
      // 001 s4 "Slideshow click": the half of the slide clicked chooses previous or next.
      this.on(this.track!, 'click', (event) => {
        const target = event.target as HTMLElement;
        const link = target.closest<HTMLAnchorElement>('.gallery__link');
        if (!link || link.closest('[data-click-through-url]')) return;
        event.preventDefault();
        const box = this.track!.getBoundingClientRect();
        this.move(event.clientX - box.left < box.width / 2 ? -1 : 1, true);
      });
    }
    if (this.carousel) {
      const onResize = () => {
        clearTimeout(this.resizeTimer);
        this.resizeTimer = setTimeout(() => this.layOutCarousel(), 100);
      };
      this.win.addEventListener('resize', onResize);
      this.cleanups.push(() => this.win.removeEventListener('resize', onResize));
      this.layOutCarousel();
    }
    this.setUpAutoplay();
    this.show(false);
  }

  /** 001 s4 "Carousel": rows shrink on narrow windows and the index counts groups. */
  private layOutCarousel(): void {
    this.perRow = slidesPerRowForWidth(this.props.slidesPerRow, this.win.innerWidth);
    this.root.style.setProperty('--gallery-columns', String(this.perRow));
    const groups = Math.max(1, Math.ceil(this.slides.length / this.perRow));
    const group = clampGroup(this.index.current, this.slides.length, this.perRow);
    this.index = new GalleryIndex(groups, false);
    this.index.goTo(group);
    this.index.settle();
    this.show(false);
  }

  private move(delta: number, byVisitor: boolean): IndexOutcome {
    const outcome = this.index.step(delta);
    if ('event' in outcome && outcome.event === 'moved') this.afterMove(byVisitor);
    return outcome;
  }

  goTo(at: number, byVisitor: boolean): void {
    const target = this.carousel ? clampGroup(Math.floor(at / this.perRow), this.slides.length, this.perRow) : at;
    const outcome = this.index.goTo(target);
    if ('event' in outcome && outcome.event === 'moved') this.afterMove(byVisitor);
  }

  private afterMove(byVisitor: boolean): void {
    const reduced = this.win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    this.show(!reduced);
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => this.index.settle(), reduced ? 0 : Math.min(this.props.speedMs, 600));
    if (this.props.history) this.writeHistory(byVisitor);
    this.scheduleAutoplay();
  }

  /** Brings the current slide or group into view and updates the controls, pager and counter. */
  private show(animate: boolean): void {
    const current = this.index.current;
    const first = this.carousel ? current * this.perRow : current;
    this.slides.forEach((slide, at) => {
      const shown = this.carousel ? at >= first && at < first + this.perRow : at === current;
      slide.classList.toggle('is-current', shown);
      slide.toggleAttribute('inert', this.stacked && !shown);
      if (!shown) this.pauseVideoIn(slide);
    });
    if (!this.stacked && this.track) {
      const slide = this.slides[first];
      if (slide) this.track.scrollTo({ left: slide.offsetLeft - this.track.offsetLeft, behavior: animate ? 'smooth' : 'auto' });
    }
    this.pages.forEach((page, at) => page.setAttribute('aria-current', String(at === current)));
    this.alignThumbnail(current, animate);
    for (const at of preloadWindow(current, this.slides.length, this.props.preload, this.props.loop, true)) {
      this.slides[at]?.querySelectorAll('img[loading="lazy"]').forEach((img) => ((img as HTMLImageElement).loading = 'eager'));
    }
    if (this.carousel) {
      const controls = carouselControls(current, this.slides.length, this.perRow);
      for (const button of [this.previous, this.next]) if (button) button.hidden = controls.hidden;
      if (this.previous) this.previous.disabled = controls.previousDisabled;
      if (this.next) this.next.disabled = controls.nextDisabled;
    } else {
      if (this.previous) this.previous.disabled = this.index.atBeginning;
      if (this.next) this.next.disabled = this.index.atEnd;
    }
    if (this.status) {
      const count = this.carousel ? Math.ceil(this.slides.length / this.perRow) : this.slides.length;
      this.status.textContent = `${this.carousel ? 'Group' : 'Slide'} ${current + 1} of ${count}`;
    }
  }

  /** 001 s4: video slides are made inactive when not current. */
  private pauseVideoIn(slide: HTMLElement): void {
    for (const video of this.videos) if (video.shown && slide.contains(video.frame)) video.command('pause');
  }

  private setUpAutoplay(): void {
    if (!this.autoplayOn || !this.autoplayButton) {
      this.root.dataset.autoplay = 'off';
      return;
    }
    const button = this.autoplayButton;
    button.hidden = false;
    this.on(button, 'click', () => {
      this.pausedByUser = !this.pausedByUser;
      button.setAttribute('aria-pressed', String(this.pausedByUser));
      button.textContent = this.pausedByUser ? 'Play slideshow' : 'Pause slideshow';
      this.scheduleAutoplay();
    });
    // 001 s4: hover and focus pause it on devices that are not phones.
    const pause = (paused: boolean) => () => {
      if (this.win.innerWidth <= GALLERY.mobileMaxWidthPx) return;
      this.pausedByPointer = paused;
      this.scheduleAutoplay();
    };
    this.on(this.root, 'mouseenter', pause(true));
    this.on(this.root, 'mouseleave', pause(false));
    this.on(this.root, 'focusin', pause(true));
    this.on(this.root, 'focusout', (event) => {
      if (!this.root.contains(event.relatedTarget as Node | null)) pause(false)();
    });
    const onVideo = (event: Event) => {
      this.pausedByVideo = (event as CustomEvent<VideoEventDetail>).detail.state === 'play';
      this.scheduleAutoplay();
    };
    this.doc.addEventListener(VIDEO_EVENT, onVideo);
    this.cleanups.push(() => this.doc.removeEventListener(VIDEO_EVENT, onVideo));
    this.scheduleAutoplay();
  }

  /** Whether autoplay is advancing right now; tests and styles read `data-autoplay`. */
  get autoplaying(): boolean {
    return this.autoplayOn && !this.pausedByUser && !this.pausedByPointer && !this.pausedByVideo;
  }

  private scheduleAutoplay(): void {
    clearTimeout(this.autoplayTimer);
    this.autoplayTimer = undefined;
    this.root.dataset.autoplay = !this.autoplayOn ? 'off' : this.autoplaying ? 'playing' : 'paused';
    if (!this.autoplaying) return;
    this.autoplayTimer = setTimeout(() => {
      this.index.settle();
      const outcome = this.move(1, false);
      // At the end of a gallery that does not loop, autoplay starts again from the first slide.
      if ('event' in outcome && outcome.event === 'reached-end') this.goTo(0, false);
      this.scheduleAutoplay();
    }, this.props.autoplayMs ?? GALLERY.autoplayTimeoutMs);
  }

  private slideIdAt(at: number): string {
    const slide = this.slides[at];
    return slide?.dataset.slideUrl ?? slide?.dataset.slideId ?? String(at);
  }

  /** 001 s2: the current slide's id goes into the address as itemId under the collection's url. */
  private writeHistory(byVisitor: boolean): void {
    const first = this.carousel ? this.index.current * this.perRow : this.index.current;
    const url = itemUrl(this.props.collectionUrl, this.slideIdAt(first));
    if (byVisitor) this.win.history.pushState({ gallery: this.root.id }, '', url);
    else this.win.history.replaceState({ gallery: this.root.id }, '', url);
  }

  /** On load (and on back and forward), an itemId of this gallery selects its slide. */
  private selectFromAddress(): void {
    const select = (opening: boolean) => {
      const id = itemIdOf(this.win.location.search) ?? this.win.location.hash.replace(/^#/, '');
      if (!id) return;
      const at = this.slides.findIndex((slide) => slide.dataset.slideId === id || slide.dataset.slideUrl === id || slide.id === id);
      if (at < 0) return;
      if (this.track) {
        this.index.settle();
        this.goTo(at, false);
        this.index.settle();
      } else if (opening && this.lightbox) {
        this.lightbox.open(at, this.slides[at]!.querySelector('a'));
      }
    };
    select(true);
    const onPop = () => select(false);
    this.win.addEventListener('popstate', onPop);
    this.cleanups.push(() => this.win.removeEventListener('popstate', onPop));
  }

  private setUpLightbox(): void {
    const items: LightboxItem[] = this.slides.map((slide) => {
      const img = slide.querySelector('img');
      const link = slide.querySelector<HTMLAnchorElement>('.gallery__link');
      const [width, height] = (link?.dataset.imageDimensions ?? '').split('x').map(Number);
      return {
        src: link?.dataset.fullSrc ?? img?.src ?? '',
        width: width || img?.width || 0,
        height: height || img?.height || 0,
        alt: img?.alt ?? '',
        caption: slide.querySelector('.gallery__caption')?.textContent?.trim() ?? '',
        video: slide.querySelector<HTMLElement>('[data-video]') ?? undefined,
      };
    });
    this.lightbox = new Lightbox(this.doc, items, {
      theme: this.props.lightboxTheme,
      onChange: (at) => {
        if (this.props.history) this.win.history.replaceState(null, '', itemUrl(this.props.collectionUrl, this.slideIdAt(at)));
      },
    });
    this.slides.forEach((slide, at) => {
      const link = slide.querySelector<HTMLAnchorElement>('.gallery__link');
      if (!link || slide.dataset.clickThroughUrl) return;
      const open = (event: Event) => {
        event.preventDefault();
        this.lightbox?.open(at, link);
      };
      this.on(link, 'click', (event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        open(event);
      });
      // Enter clicks a link by itself; Space needs this.
      this.on(link, 'keydown', (event) => {
        if (event.key === ' ' || event.key === 'Spacebar') open(event);
      });
    });
  }
}
