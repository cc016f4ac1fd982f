//! The gallery island's parts that are not shared rules: props, itemId addresses, edge clicks,
//! player commands, and the video overlay's one-at-a-time rule in a DOM.

import { describe, expect, it } from 'vitest';

import { edgeClickAction } from './lightbox';
import { itemIdOf, itemUrl, motionForbidden, readGalleryProps } from './props';
import { VideoOverlay, VideoRegistry, playerCommand } from './video';

describe('gallery props', () => {
  it('refuses missing and undecodable data with the spec texts', () => {
    expect(() => readGalleryProps(null)).toThrow('Error evaluating gallery block data.');
    expect(() => readGalleryProps({ layout: 3 })).toThrow('Error decoding gallery block data.');
  });

  it('refuses an unknown transition with the spec text', () => {
    expect(() => readGalleryProps({ layout: 'slideshow', slidesPerRow: 1, transition: 'spin' })).toThrow('Could not find transition named spin');
  });

  it('writes itemId under the collection url with a trailing slash and reads it back', () => {
    expect(itemUrl('/gallery', 'kiln glow')).toBe('/gallery/?itemId=kiln%20glow');
    expect(itemUrl('/gallery/', 'a')).toBe('/gallery/?itemId=a');
    expect(itemIdOf('?x=1&itemId=kiln%20glow')).toBe('kiln glow');
    expect(motionForbidden('?nomotion=true')).toBe(true);
    expect(motionForbidden('?nomotion=false')).toBe(false);
  });
});

describe('lightbox edge clicks', () => {
  it('ignore the outer 2 % and otherwise choose by half', () => {
    expect(edgeClickAction(1, 100)).toBeNull();
    expect(edgeClickAction(99, 100)).toBeNull();
    expect(edgeClickAction(2, 100)).toBe('previous');
    expect(edgeClickAction(60, 100)).toBe('next');
    expect(edgeClickAction(10, 0)).toBeNull();
  });
});

describe('videos', () => {
  it('speak each provider player API', () => {
    expect(JSON.parse(playerCommand('YouTube', 'pause')!)).toEqual({ event: 'command', func: 'pauseVideo', args: [] });
    expect(JSON.parse(playerCommand('Vimeo', 'play')!)).toEqual({ method: 'play' });
    expect(playerCommand('Other', 'play')).toBeNull();
  });

  it('show one at a time and go back to their overlays', () => {
    document.body.innerHTML = ['a', 'b']
      .map((id) => `<div class="video__frame" id="${id}" data-video data-player-url="https://player.vimeo.com/video/1?dnt=1" data-provider="Vimeo"><a class="video__link" href="#">Play video: ${id}</a></div>`)
      .join('');
    const registry = new VideoRegistry(window);
    const [a, b] = ['a', 'b'].map((id) => new VideoOverlay(document.getElementById(id)!, registry));
    a!.frame.querySelector('a')!.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }));
    expect(a!.shown).toBe(true);
    expect(a!.frame.querySelector('iframe')!.src).toBe('https://player.vimeo.com/video/1?dnt=1');
    b!.show();
    expect(a!.shown).toBe(false);
    expect(a!.frame.querySelector('iframe')).toBeNull();
    expect(a!.frame.querySelector<HTMLElement>('.video__link')!.hidden).toBe(false);
  });

  it('say a Vimeo Basic video cannot be controlled only when its own Vimeo player says so', () => {
    document.body.innerHTML =
      '<div class="video__frame" id="v" data-video data-player-url="https://player.vimeo.com/video/1?dnt=1" data-provider="Vimeo"><a class="video__link" href="#">Play video</a></div>';
    const video = new VideoOverlay(document.getElementById('v')!, new VideoRegistry(window));
    video.show();
    const player = video.frame.querySelector('iframe')!.contentWindow;
    const error = JSON.stringify({ event: 'error', data: { method: 'play' } });
    const notice = () => document.querySelector('.video__notice');
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://evil.example', source: player, data: error }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://player.vimeo.com', source: window, data: error }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://player.vimeo.com', data: error }));
    expect(notice()).toBeNull();
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://player.vimeo.com', source: player, data: error }));
    window.dispatchEvent(new MessageEvent('message', { origin: 'https://player.vimeo.com', source: player, data: error }));
    expect(document.querySelectorAll('.video__notice')).toHaveLength(1);
    expect(notice()?.textContent).toBe('Vimeo Basic accounts are unsupported.');
    expect(notice()?.getAttribute('role')).toBe('alert');
    video.reset();
    expect(notice()).toBeNull();
  });

  it('without a player address there is no video loader', () => {
    document.body.innerHTML = '<div id="x"><a class="video__link" href="#">x</a></div>';
    expect(() => new VideoOverlay(document.getElementById('x')!, new VideoRegistry(window))).toThrow('VideoLoader not found');
  });
});
