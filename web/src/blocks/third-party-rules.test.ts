//! Tests of the embed and table-reservation rules.

import { describe, expect, it } from 'vitest';

import { embedLoadLabel, embedOffer, parseEmbedProps, parseReservationProps, reservationScript } from './third-party-rules';

const embed = {
  url: 'https://hours.example/embed',
  title: 'Opening hours',
  host: 'hours.example',
  height: 400,
  sandbox: 'allow-scripts',
  essential: false,
};

describe('embed rules', () => {
  it('offers a non-essential embed only after cookies were accepted, an essential one always', () => {
    expect(embedOffer(undefined, false)).toBe('blocked');
    expect(embedOffer('declined', false)).toBe('blocked');
    expect(embedOffer('accepted', false)).toBe('offer');
    expect(embedOffer(undefined, true)).toBe('offer');
    expect(embedOffer('declined', true)).toBe('offer');
  });

  it('reads its props and refuses what is not an https frame', () => {
    expect(parseEmbedProps(embed)).toEqual(embed);
    expect(() => parseEmbedProps({ ...embed, url: 'javascript:alert(1)' })).toThrow('is not https');
    expect(() => parseEmbedProps({ ...embed, height: '400' })).toThrow('height');
    expect(() => parseEmbedProps(null)).toThrow('not an object');
    expect(embedLoadLabel(embed)).toBe('Load Opening hours from hours.example');
  });
});

describe('reservation rules', () => {
  const props = parseReservationProps({ standardScript: 'https://s/standard', wideScript: 'https://s/wide', wideAbove: 850 });

  it('uses the wide theme above 850 px only', () => {
    expect(reservationScript(props, 851)).toBe('https://s/wide');
    expect(reservationScript(props, 850)).toBe('https://s/standard');
    expect(reservationScript(props, 320)).toBe('https://s/standard');
  });

  it('refuses props without scripts', () => {
    expect(() => parseReservationProps({ wideAbove: 850 })).toThrow('standardScript');
  });
});
