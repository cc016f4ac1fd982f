//! The audio block (type 41): a playlist of the site's own audio files, played with the
//! browser's native controls.

use serde::{Deserialize, Serialize};

use crate::site::MEDIA_PREFIX;

/// The most tracks one audio block lists.
pub const MAX_AUDIO_TRACKS: usize = 60;

/// An audio block: its title (the album or programme) and its tracks in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AudioBlock {
    pub title: String,
    /// Who made the tracks, shown under the title and given to the device's media controls.
    pub artist: Option<String>,
    pub tracks: Vec<AudioTrack>,
}

/// One track: a media file of the site and its title.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AudioTrack {
    pub title: String,
    /// A site path under `/media/` of an audio file.
    pub file: String,
}

/// Why an audio block was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AudioBlockError {
    #[error("an audio block needs at least one track")]
    NoTracks,
    #[error("an audio block lists at most {MAX_AUDIO_TRACKS} tracks, found {0}")]
    TooManyTracks(usize),
    #[error("track {index} needs a title")]
    UntitledTrack { index: usize },
    #[error("track {index} must be a media file under /media/, found '{file}'")]
    NotMedia { index: usize, file: String },
}

impl AudioBlock {
    pub fn check(&self) -> Result<(), AudioBlockError> {
        if self.tracks.is_empty() {
            return Err(AudioBlockError::NoTracks);
        }
        if self.tracks.len() > MAX_AUDIO_TRACKS {
            return Err(AudioBlockError::TooManyTracks(self.tracks.len()));
        }
        for (index, track) in self.tracks.iter().enumerate() {
            if track.title.trim().is_empty() {
                return Err(AudioBlockError::UntitledTrack { index });
            }
            if !track.file.starts_with(MEDIA_PREFIX) {
                return Err(AudioBlockError::NotMedia {
                    index,
                    file: track.file.clone(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracks(count: usize) -> AudioBlock {
        AudioBlock {
            title: "Studio sounds".into(),
            artist: None,
            tracks: (0..count)
                .map(|index| AudioTrack {
                    title: format!("Track {index}"),
                    file: format!("/media/track-{index}.mp3"),
                })
                .collect(),
        }
    }

    #[test]
    fn sixty_tracks_are_allowed_and_the_sixty_first_is_refused() {
        assert_eq!(tracks(60).check(), Ok(()));
        assert_eq!(
            tracks(61).check().unwrap_err().to_string(),
            "an audio block lists at most 60 tracks, found 61"
        );
        assert_eq!(tracks(0).check(), Err(AudioBlockError::NoTracks));
    }

    #[test]
    fn tracks_are_titled_media_files() {
        let mut block = tracks(2);
        block.tracks[1].file = "https://cdn.example/a.mp3".into();
        assert_eq!(
            block.check().unwrap_err().to_string(),
            "track 1 must be a media file under /media/, found 'https://cdn.example/a.mp3'"
        );
        block.tracks[0].title = String::new();
        assert_eq!(
            block.check(),
            Err(AudioBlockError::UntitledTrack { index: 0 })
        );
    }
}
