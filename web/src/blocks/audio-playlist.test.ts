//! Tests of the audio block's playlist.

import { describe, expect, it } from 'vitest';

import { nextTrack, parseAudioProps, previousTrack, trackMetadata } from './audio-playlist';

describe('audio playlist', () => {
  it('plays through once and steps back to the first', () => {
    expect(nextTrack(0, 3)).toBe(1);
    expect(nextTrack(2, 3)).toBeUndefined();
    expect(previousTrack(2)).toBe(1);
    expect(previousTrack(0)).toBe(0);
  });

  it('gives the media controls the track, artist and album', () => {
    const props = parseAudioProps({ album: 'Kiln sounds', artist: 'Casa Barro' });
    expect(trackMetadata(props, 'The wheel')).toEqual({ title: 'The wheel', artist: 'Casa Barro', album: 'Kiln sounds' });
    expect(parseAudioProps({ album: 'Kiln sounds' }).artist).toBe('');
    expect(() => parseAudioProps({ album: ' ' })).toThrow('no title');
  });
});
