//! Stacked transitions (spec 001 s4 "Transitions", s5): the named ones, and the spec's error
//! for any other name.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Transition {
    #[default]
    Fade,
    KenBurns,
    NewSwipe,
    Scroll,
    Swipe,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Could not find transition named {0}")]
pub struct TransitionError(pub String);

impl Transition {
    pub fn parse(name: &str) -> Result<Self, TransitionError> {
        Ok(match name {
            "fade" => Self::Fade,
            "ken-burns" => Self::KenBurns,
            "new-swipe" => Self::NewSwipe,
            "scroll" => Self::Scroll,
            "swipe" => Self::Swipe,
            other => return Err(TransitionError(other.to_owned())),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Fade => "fade",
            Self::KenBurns => "ken-burns",
            Self::NewSwipe => "new-swipe",
            Self::Scroll => "scroll",
            Self::Swipe => "swipe",
        }
    }
}
