//! Audio block island (block type 41): the native players stay as the server rendered them;
//! this plays one track at a time, moves on to the next when one ends, and tells the device's
//! media controls (lock screen, headset buttons) what is playing through the Media Session API
//! where the browser has it. Plain DOM, so its chunk loads no React.

import { nextTrack, parseAudioProps, previousTrack, trackMetadata } from '../blocks/audio-playlist';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  const props = parseAudioProps(rawProps);
  const tracks = [...element.querySelectorAll<HTMLElement>('[data-audio-track]')].flatMap((track) => {
    const player = track.querySelector('audio');
    const title = track.querySelector('.audio__track-title')?.textContent?.trim() ?? '';
    return player === null ? [] : [{ player, title }];
  });
  if (tracks.length === 0) throw new Error('Vitrine: the audio block has no tracks.');
  const win = element.ownerDocument.defaultView;
  const session = win?.navigator.mediaSession;
  let current = 0;

  const play = (index: number): void => {
    void tracks[index]?.player.play().catch(() => {
      // The browser refused to play without a gesture; the native controls remain.
    });
  };
  const describe = (index: number): void => {
    if (session === undefined || win === null || typeof win.MediaMetadata !== 'function') return;
    session.metadata = new win.MediaMetadata(trackMetadata(props, tracks[index]!.title));
    session.setActionHandler('play', () => play(current));
    session.setActionHandler('pause', () => tracks[current]!.player.pause());
    session.setActionHandler('previoustrack', () => play(previousTrack(current)));
    session.setActionHandler('nexttrack', () => {
      const next = nextTrack(current, tracks.length);
      if (next !== undefined) play(next);
    });
  };

  const listeners = tracks.map(({ player }, index) => {
    const onPlay = (): void => {
      current = index;
      // One track at a time: starting one pauses the others.
      for (const other of tracks) if (other.player !== player) other.player.pause();
      element.dataset['audioPlaying'] = String(index + 1);
      describe(index);
    };
    const onEnded = (): void => {
      const next = nextTrack(index, tracks.length);
      if (next !== undefined) play(next);
      else delete element.dataset['audioPlaying'];
    };
    player.addEventListener('play', onPlay);
    player.addEventListener('ended', onEnded);
    return { player, onPlay, onEnded };
  });

  return () => {
    for (const { player, onPlay, onEnded } of listeners) {
      player.removeEventListener('play', onPlay);
      player.removeEventListener('ended', onEnded);
    }
    if (session !== undefined) {
      for (const action of ['play', 'pause', 'previoustrack', 'nexttrack'] as const) session.setActionHandler(action, null);
    }
    delete element.dataset['audioPlaying'];
  };
}
