//! Where a tooltip goes (001 s9): beside its anchor, flipped at the edges, inside the margins.

import { TOOLTIP_CURSOR_OFFSET_PX, TOOLTIP_EDGE_MARGIN_PX, TOOLTIP_WIDTH_PX } from '../generated/widget-constants';

export function tooltipWidthPx(viewportWidth: number): number {
  return Math.max(0, Math.min(TOOLTIP_WIDTH_PX, viewportWidth - 2 * TOOLTIP_EDGE_MARGIN_PX));
}

function placeOnAxis(anchor: number, viewport: number, size: number): number {
  const at = Number.isFinite(anchor) ? anchor : 0;
  const low = TOOLTIP_EDGE_MARGIN_PX;
  const high = viewport - TOOLTIP_EDGE_MARGIN_PX - size;
  const after = at + TOOLTIP_CURSOR_OFFSET_PX;
  const wanted = after <= high ? after : at - TOOLTIP_CURSOR_OFFSET_PX - size;
  return high < low ? low : Math.min(high, Math.max(low, wanted));
}

/** The top-left corner for an anchor point in a viewport, for a tooltip this tall. */
export function tooltipPosition(anchor: readonly [number, number], viewport: readonly [number, number], height: number): [number, number] {
  return [placeOnAxis(anchor[0], viewport[0], tooltipWidthPx(viewport[0])), placeOnAxis(anchor[1], viewport[1], Math.max(0, height))];
}
