//! The audio block: its title, and each track as a native `<audio controls>` player that
//! fetches nothing until played (`preload="none"`). The audio island adds the device's media
//! controls (the Media Session API) and plays the next track when one ends.

use askama::Template;
use serde::Serialize;
use vitrine_core::site::AudioBlock;

#[derive(Debug, Template)]
#[template(path = "blocks/audio.html", whitespace = "minimize")]
pub(crate) struct AudioView<'a> {
    pub(crate) id: &'a str,
    pub(crate) title: &'a str,
    pub(crate) artist: Option<&'a str>,
    pub(crate) tracks: Vec<TrackView<'a>>,
}

#[derive(Debug)]
pub(crate) struct TrackView<'a> {
    pub(crate) number: usize,
    pub(crate) title: &'a str,
    pub(crate) file: &'a str,
    pub(crate) content_type: &'static str,
}

/// The audio island's props: what the device's media controls show.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AudioProps<'a> {
    album: &'a str,
    artist: &'a str,
}

impl<'a> AudioView<'a> {
    pub(crate) fn new(id: &'a str, block: &'a AudioBlock) -> Self {
        Self {
            id,
            title: &block.title,
            artist: block
                .artist
                .as_deref()
                .filter(|artist| !artist.trim().is_empty()),
            tracks: block
                .tracks
                .iter()
                .take(vitrine_core::site::MAX_AUDIO_TRACKS)
                .enumerate()
                .map(|(index, track)| TrackView {
                    number: index + 1,
                    title: &track.title,
                    file: &track.file,
                    content_type: content_type(&track.file),
                })
                .collect(),
        }
    }

    pub(crate) fn props(&self) -> AudioProps<'a> {
        AudioProps {
            album: self.title,
            artist: self.artist.unwrap_or_default(),
        }
    }
}

/// The `type` of a track's `<source>`, from its extension, so a browser skips what it cannot play.
fn content_type(file: &str) -> &'static str {
    match file.rsplit_once('.').map(|(_, extension)| extension) {
        Some("ogg") => "audio/ogg",
        Some("wav") => "audio/wav",
        _ => "audio/mpeg",
    }
}
