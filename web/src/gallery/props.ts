//! The gallery island's props, as the server writes them (`GalleryIslandProps` in the HTTP
//! adapter: the core's resolved options plus the lightbox flag and the collection's url).

import { parseTransition, type TransitionName } from './rules';

export interface GalleryProps {
  layout: string;
  slidesPerRow: number;
  columnWidth: number;
  gutter: number;
  rowHeight: number;
  aspectRatio: number | null;
  autoplayMs: number | null;
  speedMs: number;
  preload: number;
  transition: TransitionName;
  loop: boolean;
  history: boolean;
  lightboxTheme: 'light' | 'dark';
  stripAlignment: 'start' | 'middle' | 'end';
  lightbox: boolean;
  collectionUrl: string;
}

/** 001 s8: gallery data that is missing or not an object is refused with the spec's text. */
export function readGalleryProps(raw: unknown): GalleryProps {
  if (typeof raw !== 'object' || raw === null) throw new Error('Error evaluating gallery block data.');
  const props = raw as Partial<GalleryProps>;
  if (typeof props.layout !== 'string' || typeof props.slidesPerRow !== 'number') throw new Error('Error decoding gallery block data.');
  return {
    layout: props.layout,
    slidesPerRow: props.slidesPerRow,
    columnWidth: props.columnWidth ?? 250,
    gutter: props.gutter ?? 0,
    rowHeight: props.rowHeight ?? 250,
    aspectRatio: props.aspectRatio ?? null,
    autoplayMs: props.autoplayMs ?? null,
    speedMs: props.speedMs ?? 1000,
    preload: props.preload ?? 1,
    transition: parseTransition(props.transition ?? 'fade'),
    loop: props.loop ?? true,
    history: props.history ?? false,
    lightboxTheme: props.lightboxTheme === 'light' ? 'light' : 'dark',
    stripAlignment: props.stripAlignment ?? 'middle',
    lightbox: props.lightbox ?? false,
    collectionUrl: props.collectionUrl ?? '/',
  };
}

/** 001 s2: the address with `itemId` under the collection's full url (trailing slash added). */
export function itemUrl(collectionUrl: string, itemId: string, hash = ''): string {
  const base = collectionUrl.endsWith('/') ? collectionUrl : `${collectionUrl}/`;
  return `${base}?itemId=${encodeURIComponent(itemId)}${hash}`;
}

/** The `itemId` of an address, if any. */
export function itemIdOf(search: string): string | null {
  return new URLSearchParams(search).get('itemId');
}

/** 001 s2: `nomotion=true` in the address switches autoplay off. */
export function motionForbidden(search: string): boolean {
  return new URLSearchParams(search).get('nomotion') === 'true';
}
