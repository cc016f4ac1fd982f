//! The audio block's playlist: which track follows which, and what the device's media controls
//! (the Media Session API) show for the one playing.

export interface AudioProps {
  readonly album: string;
  readonly artist: string;
}

export function parseAudioProps(raw: unknown): AudioProps {
  if (typeof raw !== 'object' || raw === null) throw new Error('Vitrine: the audio block\'s props are not an object.');
  const props = raw as Record<string, unknown>;
  const album = props['album'];
  if (typeof album !== 'string' || album.trim() === '') throw new Error('Vitrine: the audio block has no title.');
  const artist = typeof props['artist'] === 'string' ? props['artist'] : '';
  return { album, artist };
}

/** The track after `index`, or none after the last: a playlist plays through once. */
export function nextTrack(index: number, count: number): number | undefined {
  return index + 1 < count ? index + 1 : undefined;
}

/** The track before `index`; the first restarts itself. */
export function previousTrack(index: number): number {
  return Math.max(0, index - 1);
}

/** The metadata of the track playing, as `MediaMetadata` takes it. */
export function trackMetadata(props: AudioProps, title: string): { title: string; artist: string; album: string } {
  return { title, artist: props.artist, album: props.album };
}
