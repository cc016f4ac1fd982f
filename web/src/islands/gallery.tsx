//! Gallery island (block type 8): takes over the server's gallery markup in any layout. Plain
//! DOM, no React: every layout is already complete HTML, so the island only adds behaviour.

import { GalleryController } from '../gallery/controller';
import { readGalleryProps } from '../gallery/props';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const root = element.querySelector<HTMLElement>('.gallery');
  if (!root) throw new Error('No root node');
  const controller = new GalleryController(root, readGalleryProps(props));
  return () => controller.destroy();
}
