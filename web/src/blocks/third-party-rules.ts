//! When the embed and table-reservation blocks may contact their third party: an embed loads on
//! the visitor's click, and a non-essential one offers that click only once cookies were
//! accepted; the reservation widget loads once cookies were accepted. Their props, checked.

import type { ConsentChoice } from '../consent/consent-state';

export type EmbedOffer = 'offer' | 'blocked';

/** Whether an embed offers its load button now ('offer') or waits for consent ('blocked'). */
export function embedOffer(consent: ConsentChoice | undefined, essential: boolean): EmbedOffer {
  return essential || consent === 'accepted' ? 'offer' : 'blocked';
}

export interface EmbedProps {
  readonly url: string;
  readonly title: string;
  readonly host: string;
  readonly height: number;
  readonly sandbox: string;
  readonly essential: boolean;
}

function record(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null) throw new Error(`Vitrine: the ${what} block's props are not an object.`);
  return raw as Record<string, unknown>;
}

function text(props: Record<string, unknown>, key: string, what: string): string {
  const value = props[key];
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`Vitrine: the ${what} block's ${key} is missing.`);
  return value;
}

export function parseEmbedProps(raw: unknown): EmbedProps {
  const props = record(raw, 'embed');
  const url = text(props, 'url', 'embed');
  // The server only ever sends an https address here; anything else is not framed.
  if (!url.startsWith('https://')) throw new Error(`Vitrine: the embed block's url is not https: ${url}`);
  const height = props['height'];
  if (typeof height !== 'number' || !Number.isInteger(height) || height < 1) {
    throw new Error('Vitrine: the embed block\'s height is not a whole number of pixels.');
  }
  return {
    url,
    title: text(props, 'title', 'embed'),
    host: text(props, 'host', 'embed'),
    height,
    sandbox: text(props, 'sandbox', 'embed'),
    essential: props['essential'] === true,
  };
}

/** The load button's label, which says who will be contacted. */
export function embedLoadLabel(props: Pick<EmbedProps, 'title' | 'host'>): string {
  return `Load ${props.title} from ${props.host}`;
}

export interface ReservationProps {
  readonly standardScript: string;
  readonly wideScript: string;
  readonly wideAbove: number;
}

export function parseReservationProps(raw: unknown): ReservationProps {
  const props = record(raw, 'table-reservation');
  const wideAbove = props['wideAbove'];
  if (typeof wideAbove !== 'number') throw new Error('Vitrine: the table-reservation block\'s wideAbove is missing.');
  return {
    standardScript: text(props, 'standardScript', 'table-reservation'),
    wideScript: text(props, 'wideScript', 'table-reservation'),
    wideAbove,
  };
}

/** The widget script for a container `width` CSS pixels wide: the wide theme above 850 px (000 s4). */
export function reservationScript(props: ReservationProps, width: number): string {
  return width > props.wideAbove ? props.wideScript : props.standardScript;
}
