//! The hold's countdown reads m:ss, counts down from the server's figure and never goes below 0.

import { describe, expect, it } from 'vitest';
import { countdownText, parseSeconds, secondsLeft } from './countdown';

describe('countdown', () => {
  it.each([
    [600, '10:00'],
    [545, '9:05'],
    [59, '0:59'],
    [0.2, '0:01'],
    [0, '0:00'],
    [-5, '0:00'],
  ])('%s seconds read %s', (seconds, text) => {
    expect(countdownText(seconds)).toBe(text);
  });

  it('counts down from when the page got its figure', () => {
    expect(secondsLeft(90, 1_000, 1_000)).toBe(90);
    expect(secondsLeft(90, 1_000, 31_500)).toBe(60);
    expect(secondsLeft(90, 1_000, 200_000)).toBe(0);
  });

  it('reads only a non-negative number of seconds from the props', () => {
    expect(parseSeconds({ seconds: 600 })).toBe(600);
    expect(parseSeconds({ seconds: '600' })).toBeUndefined();
    expect(parseSeconds({ seconds: -1 })).toBeUndefined();
    expect(parseSeconds(null)).toBeUndefined();
  });
});
