//! Which width to ask for and where the image sits in its box: pure rules, no DOM.

import { IMAGE_WIDTHS } from '../generated/images';
import type { Alignment, ImageMode, Point, Size, SizeFormat } from './image-config';

/** The URL of `path` at `width` pixels in `format`, with the content hash as `v=`; as the server builds it. */
export function variantUrl(path: string, width: number, format: SizeFormat, version: string | null): string {
  let url = `${path}?format=${width}w`;
  if (format === 'filename') {
    const dot = path.lastIndexOf('.');
    if (dot > path.lastIndexOf('/')) url = `${path.slice(0, dot)}-${width}w${path.slice(dot)}`;
  }
  return version === null ? url : `${url}${url.includes('?') ? '&' : '?'}v=${version}`;
}

/** The CSS pixels the image is drawn at in a box of `box`: the box's width, or wider when filling a taller box. */
export function drawnWidth(box: Size, image: Size | null, mode: ImageMode): number {
  if (image === null || mode === 'none') return box.width;
  const scaleX = box.width / image.width;
  const scaleY = box.height / image.height;
  const scale = mode === 'fill' ? Math.max(scaleX, scaleY) : Math.min(scaleX, scaleY);
  return image.width * scale;
}

export interface WidthChoice {
  /** The spec width to ask for, or `null` for the original (no spec width is both wide enough and narrower). */
  readonly width: number | null;
  /** The image pixels it brings, to compare with what is already loaded. */
  readonly pixels: number;
}

/**
 * The width to ask for when the image is drawn `drawn` CSS pixels wide on a screen of `devicePixelRatio`, within the
 * DPR bounds and scaled by the size adjustment. With Save-Data (or prefers-reduced-data) the ratio counts as 1 and the
 * widest spec width at or below the need is taken instead of the narrowest above it.
 */
export function chooseWidth(
  drawn: number,
  original: Size | null,
  options: {
    readonly devicePixelRatio: number;
    readonly minDevicePixelRatio: number;
    readonly maxDevicePixelRatio: number;
    readonly sizeAdjustment: number;
    readonly saveData: boolean;
  },
): WidthChoice {
  const ratio = options.saveData
    ? 1
    : Math.min(options.maxDevicePixelRatio, Math.max(options.minDevicePixelRatio, options.devicePixelRatio));
  const needed = Math.ceil(drawn * ratio * options.sizeAdjustment);
  const originalWidth = original?.width ?? Number.POSITIVE_INFINITY;
  const offered = [...IMAGE_WIDTHS].filter((w) => w < originalWidth).sort((a, b) => a - b);
  const fits = options.saveData
    ? offered.filter((w) => w <= needed).pop() ?? offered[0]
    : offered.find((w) => w >= needed);
  if (fits === undefined) return { width: null, pixels: originalWidth };
  return { width: fits, pixels: fits };
}

export interface Placement {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly top: number;
}

/**
 * Where an image of `image` sits in `box`: `fill` covers the box, keeping the focal point as near the middle as the
 * edges allow; `fit` shows all of it, placed by the alignment; `none` fills the width at its own ratio.
 */
export function placement(box: Size, image: Size, mode: ImageMode, focal: Point, align: Alignment): Placement {
  if (mode === 'none') {
    return { width: box.width, height: (box.width * image.height) / image.width, left: 0, top: 0 };
  }
  const scaleX = box.width / image.width;
  const scaleY = box.height / image.height;
  const scale = mode === 'fill' ? Math.max(scaleX, scaleY) : Math.min(scaleX, scaleY);
  const width = image.width * scale;
  const height = image.height * scale;
  if (mode === 'fill') {
    const clamp = (offset: number, overflow: number) => Math.min(0, Math.max(-overflow, offset));
    const left = clamp(box.width / 2 - focal.x * width, width - box.width);
    const top = clamp(box.height / 2 - focal.y * height, height - box.height);
    return { width, height, left, top };
  }
  const spareX = box.width - width;
  const spareY = box.height - height;
  const left = align === 'left' ? 0 : align === 'right' ? spareX : spareX / 2;
  const top = align === 'top' ? 0 : align === 'bottom' ? spareY : spareY / 2;
  return { width, height, left, top };
}
