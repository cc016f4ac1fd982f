//! The loader's pure rules: URLs as the server builds them (vectors generated from Rust), the width chosen for a box,
//! Save-Data, and placement by fit, fill and none around the focal point.

import { describe, expect, it } from 'vitest';
import { VARIANT_URL_VECTORS } from '../generated/images';
import { parseDimensions, parseFocalPoint, parseMode } from './image-config';
import { chooseWidth, drawnWidth, placement, variantUrl } from './image-sizing';

const desktop = { devicePixelRatio: 1, minDevicePixelRatio: 1, maxDevicePixelRatio: 3, sizeAdjustment: 1, saveData: false };

describe('variant URLs', () => {
  it.each(VARIANT_URL_VECTORS)('%s at %i in %s (%s) is %s', (path, width, format, version, url) => {
    expect(variantUrl(path, width, format, version)).toBe(url);
  });
});

describe('the width asked for', () => {
  const photo = { width: 4000, height: 3000 };

  it('is the narrowest spec width at least as wide as the drawn pixels', () => {
    expect(chooseWidth(320, photo, desktop)).toEqual({ width: 500, pixels: 500 });
    expect(chooseWidth(320, photo, { ...desktop, devicePixelRatio: 3 })).toEqual({ width: 1000, pixels: 1000 });
    expect(chooseWidth(100, photo, desktop).width).toBe(100);
  });

  it('is the original when no spec width is wide enough, and never wider than the original', () => {
    expect(chooseWidth(3000, photo, desktop)).toEqual({ width: null, pixels: 4000 });
    expect(chooseWidth(900, { width: 800, height: 600 }, desktop)).toEqual({ width: null, pixels: 800 });
    expect(chooseWidth(600, { width: 800, height: 600 }, desktop).width).toBe(750);
  });

  it('keeps the device pixel ratio within its bounds and scales by the size adjustment', () => {
    expect(chooseWidth(400, photo, { ...desktop, devicePixelRatio: 4, maxDevicePixelRatio: 2 }).width).toBe(1000);
    expect(chooseWidth(400, photo, { ...desktop, devicePixelRatio: 0.5, minDevicePixelRatio: 1 }).width).toBe(500);
    expect(chooseWidth(400, photo, { ...desktop, sizeAdjustment: 0.5 }).width).toBe(300);
  });

  it('with Save-Data, ignores the pixel ratio and takes the widest width at or below the need', () => {
    const saving = { ...desktop, devicePixelRatio: 3, saveData: true };
    expect(chooseWidth(400, photo, saving).width).toBe(300);
    expect(chooseWidth(400, photo, desktop).width).toBe(500);
    expect(chooseWidth(40, photo, saving).width).toBe(100);
  });

  it('counts the drawn width of a filled box by the taller side', () => {
    const box = { width: 300, height: 300 };
    expect(drawnWidth(box, { width: 400, height: 200 }, 'fill')).toBe(600);
    expect(drawnWidth(box, { width: 400, height: 200 }, 'fit')).toBe(300);
    expect(drawnWidth(box, null, 'fill')).toBe(300);
  });
});

describe('placement', () => {
  const box = { width: 200, height: 200 };
  const wide = { width: 400, height: 200 };

  it('fill covers the box and keeps the focal point near the middle, never leaving a gap', () => {
    expect(placement(box, wide, 'fill', { x: 0.5, y: 0.5 }, 'center')).toEqual({ width: 400, height: 200, left: -100, top: 0 });
    expect(placement(box, wide, 'fill', { x: 0.75, y: 0.5 }, 'center')).toEqual({ width: 400, height: 200, left: -200, top: 0 });
    expect(placement(box, wide, 'fill', { x: 0, y: 0.5 }, 'center').left).toBe(0);
    expect(placement(box, wide, 'fill', { x: 1, y: 0.5 }, 'center').left).toBe(-200);
  });

  it('fit shows it all, placed by the alignment', () => {
    expect(placement(box, wide, 'fit', { x: 0.5, y: 0.5 }, 'center')).toEqual({ width: 200, height: 100, left: 0, top: 50 });
    expect(placement(box, wide, 'fit', { x: 0.5, y: 0.5 }, 'top').top).toBe(0);
    expect(placement(box, wide, 'fit', { x: 0.5, y: 0.5 }, 'bottom').top).toBe(100);
  });

  it('none fills the width at the image ratio', () => {
    expect(placement(box, wide, 'none', { x: 0.5, y: 0.5 }, 'center')).toEqual({ width: 200, height: 100, left: 0, top: 0 });
  });
});

describe('configuration values', () => {
  it('reads dimensions, focal points and crop modes with their defaults', () => {
    expect(parseDimensions('1500x1000')).toEqual({ width: 1500, height: 1000 });
    expect(parseDimensions('0x10')).toBeNull();
    expect(parseDimensions('wide')).toBeNull();
    expect(parseFocalPoint('0.25,0.75')).toEqual({ x: 0.25, y: 0.75 });
    expect(parseFocalPoint('2,-1')).toEqual({ x: 1, y: 0 });
    expect(parseFocalPoint(null)).toEqual({ x: 0.5, y: 0.5 });
    expect(['cover', 'fill', 'content-fill'].map(parseMode)).toEqual(['fill', 'fill', 'fill']);
    expect(['contain', 'fit', 'content-fit'].map(parseMode)).toEqual(['fit', 'fit', 'fit']);
    expect(parseMode('stretch')).toBe('none');
  });
});
