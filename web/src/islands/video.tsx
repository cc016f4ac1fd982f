//! Video block island (block type 32): plays the video in place of its server-rendered overlay.
//! Plain DOM, no React: the block's markup is already complete.

import { VideoOverlay, pageVideos } from '../gallery/video';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement): IslandUnmount {
  const frame = element.querySelector<HTMLElement>('[data-video]');
  if (!frame) throw new Error('VideoLoader not found');
  const video = new VideoOverlay(frame, pageVideos(window));
  return () => video.destroy();
}
