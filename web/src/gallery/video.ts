//! Video overlays (spec 001 s4 "Video"): the server's thumbnail and play button stay until the
//! visitor presses play (click, Enter or Space); then the provider's privacy-enhanced player
//! fades in over one second. Showing one video returns every other one on the page to its
//! overlay. Play and pause reach the players by postMessage. No request goes to a provider
//! before play: the player's address waits in a data attribute.

export const VIDEO_FADE_MS = 1000;
export const VIMEO_BASIC_UNSUPPORTED = 'Vimeo Basic accounts are unsupported.';
export type VideoMode = 'none' | 'fit' | 'fill';

const PROVIDER_ORIGINS: Record<string, string> = {
  YouTube: 'https://www.youtube-nocookie.com',
  Vimeo: 'https://player.vimeo.com',
};

/** The message a provider's player takes to play or pause. */
export function playerCommand(provider: string, command: 'play' | 'pause'): string | null {
  if (provider === 'YouTube') return JSON.stringify({ event: 'command', func: command === 'play' ? 'playVideo' : 'pauseVideo', args: [] });
  if (provider === 'Vimeo') return JSON.stringify({ method: command });
  return null;
}

/** The page-wide event a video sends when it plays or goes back to its overlay; autoplay listens. */
export const VIDEO_EVENT = 'vitrine:video';
export interface VideoEventDetail {
  state: 'play' | 'reset';
  frame: HTMLElement;
}

/** One video frame the page shows. */
export class VideoOverlay {
  private player: HTMLIFrameElement | null = null;
  /** The notice shown after the frame when the player refuses control. */
  private notice: HTMLElement | null = null;
  private readonly link: HTMLAnchorElement;
  private readonly onKey = (event: KeyboardEvent) => {
    if (event.key === ' ' || event.key === 'Spacebar') {
      event.preventDefault();
      this.show();
    }
  };
  private readonly onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    this.show();
  };

  constructor(
    readonly frame: HTMLElement,
    private readonly registry: VideoRegistry,
  ) {
    const link = frame.querySelector<HTMLAnchorElement>('.video__link');
    if (!link || !frame.dataset.playerUrl) throw new Error('VideoLoader not found');
    this.link = link;
    link.setAttribute('role', 'button');
    link.addEventListener('click', this.onClick);
    link.addEventListener('keydown', this.onKey);
    registry.add(this);
  }

  get shown(): boolean {
    return this.player !== null;
  }

  get provider(): string {
    return this.frame.dataset.provider ?? '';
  }

  /** Replaces the overlay with the player, fading it in, and resets every other video. */
  show(): void {
    if (this.player) return;
    this.registry.showing(this);
    const player = this.frame.ownerDocument.createElement('iframe');
    player.className = 'video__player';
    player.src = this.frame.dataset.playerUrl ?? '';
    player.title = this.link.textContent?.trim() || 'Video player';
    player.allow = 'autoplay; fullscreen; picture-in-picture; encrypted-media';
    player.allowFullscreen = true;
    player.referrerPolicy = 'strict-origin-when-cross-origin';
    this.player = player;
    this.link.hidden = true;
    this.frame.append(player);
    // The next frame starts the one-second fade from the stylesheet's transparent start.
    requestAnimationFrame(() => requestAnimationFrame(() => player.classList.add('is-shown')));
    player.focus();
    this.frame.dispatchEvent(new CustomEvent<VideoEventDetail>(VIDEO_EVENT, { bubbles: true, detail: { state: 'play', frame: this.frame } }));
  }

  /** Back to the thumbnail and play button; the player is removed, which stops it. */
  reset(): void {
    if (!this.player) return;
    const hadFocus = this.frame.contains(this.frame.ownerDocument.activeElement);
    this.player.remove();
    this.player = null;
    this.link.hidden = false;
    this.notice?.remove();
    this.notice = null;
    if (hadFocus) this.link.focus();
    this.frame.dispatchEvent(new CustomEvent<VideoEventDetail>(VIDEO_EVENT, { bubbles: true, detail: { state: 'reset', frame: this.frame } }));
  }

  /** Asks the player to play or pause, by postMessage to the provider's origin only. */
  command(command: 'play' | 'pause'): void {
    const message = playerCommand(this.provider, command);
    const origin = PROVIDER_ORIGINS[this.provider];
    if (message && origin) this.player?.contentWindow?.postMessage(message, origin);
  }

  /** 001 s4: changing the mode reloads the video. */
  setMode(mode: VideoMode): void {
    const figure = this.frame.closest('.video');
    figure?.classList.remove('video--none', 'video--fit', 'video--fill');
    figure?.classList.add(`video--${mode}`);
    this.frame.dataset.mode = mode;
    if (this.player) {
      const src = this.player.src;
      this.player.src = 'about:blank';
      this.player.src = src;
    }
  }

  /** A message from this video's player: Vimeo refuses control of Basic accounts' videos. */
  handleMessage(event: MessageEvent): void {
    if (!this.player || event.source === null || event.source !== this.player.contentWindow) return;
    if (event.origin !== PROVIDER_ORIGINS.Vimeo || this.provider !== 'Vimeo') return;
    let data: unknown = event.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        return;
      }
    }
    if (typeof data === 'object' && data !== null && (data as { event?: unknown }).event === 'error' && !this.notice) {
      const notice = this.frame.ownerDocument.createElement('p');
      notice.className = 'video__notice';
      notice.setAttribute('role', 'alert');
      notice.textContent = VIMEO_BASIC_UNSUPPORTED;
      this.frame.after(notice);
      this.notice = notice;
    }
  }

  destroy(): void {
    this.reset();
    this.link.removeEventListener('click', this.onClick);
    this.link.removeEventListener('keydown', this.onKey);
    this.link.removeAttribute('role');
    this.registry.remove(this);
  }
}

/** Every video of the page, so that showing one resets the others. */
export class VideoRegistry {
  private readonly videos = new Set<VideoOverlay>();
  private readonly onMessage = (event: MessageEvent) => this.videos.forEach((video) => video.handleMessage(event));

  constructor(private readonly win: Window) {}

  add(video: VideoOverlay): void {
    if (this.videos.size === 0) this.win.addEventListener('message', this.onMessage);
    this.videos.add(video);
  }

  remove(video: VideoOverlay): void {
    this.videos.delete(video);
    if (this.videos.size === 0) this.win.removeEventListener('message', this.onMessage);
  }

  showing(current: VideoOverlay): void {
    this.videos.forEach((video) => {
      if (video !== current) video.reset();
    });
  }
}

/** The one registry of the page, shared by the video and gallery islands' chunks. */
export function pageVideos(win: Window): VideoRegistry {
  const holder = win as unknown as { __vitrineVideos?: VideoRegistry };
  holder.__vitrineVideos ??= new VideoRegistry(win);
  return holder.__vitrineVideos;
}
