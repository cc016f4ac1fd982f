//! The text-effect block: `text` with the highlighted words between `[[` and `]]`, and the
//! effect's settings, each checked against the names of 001 s3.

use crate::bundle::BundleError;
use crate::bundle::convert::non_empty;
use crate::bundle::dto::{LinecapDto, MarqueeDirectionDto, TextEffectDto};
use crate::bundle::error::At;
use crate::site::{BlockContent, TextEffectBlock};
use crate::widgets::text_effect::checked_duration_s;
use crate::widgets::{
    TextEffect, TextEffectAnimation, TextEffectDirection, TextEffectLinecap, TextEffectShape,
};

pub(crate) fn text_effect(at: &At, dto: TextEffectDto) -> Result<BlockContent, BundleError> {
    let text_at = at.field("text");
    non_empty(&text_at, &dto.text)?;
    let (before, rest) = dto.text.split_once("[[").ok_or_else(|| {
        text_at.error("expected the highlighted words between [[ and ]], as in \"Made [[slowly]]\"")
    })?;
    let (highlight, after) = rest
        .split_once("]]")
        .ok_or_else(|| text_at.error("expected ]] after the highlighted words"))?;
    non_empty(&text_at, highlight)?;
    if after.contains("[[") || after.contains("]]") || highlight.contains("[[") {
        return Err(text_at.error("expected one highlighted part only"));
    }
    if let Some(level) = dto.level
        && !(1..=6).contains(&level)
    {
        return Err(at
            .field("level")
            .error(format!("expected a level from 1 to 6, found {level}")));
    }
    let defaults = TextEffect::default();
    let shape = match dto.shape.as_deref() {
        None => defaults.shape,
        Some(name) => TextEffectShape::from_name(name).ok_or_else(|| {
            at.field("shape").error(format!(
                "expected one of {}, found {name:?}",
                names(TextEffectShape::ALL.map(TextEffectShape::name))
            ))
        })?,
    };
    let animation = match dto.animation.as_deref() {
        None => defaults.animation,
        Some(name) => TextEffectAnimation::from_name(name).ok_or_else(|| {
            at.field("animation").error(format!(
                "expected one of {}, found {name:?}",
                names(TextEffectAnimation::ALL.map(TextEffectAnimation::name))
            ))
        })?,
    };
    let duration_s = match dto.duration {
        None => defaults.duration_s,
        Some(seconds) => checked_duration_s(seconds).ok_or_else(|| {
            at.field("duration").error(format!(
                "expected seconds above 0 and up to 10, found {seconds}"
            ))
        })?,
    };
    Ok(BlockContent::TextEffect(TextEffectBlock {
        before: before.to_owned(),
        highlight: highlight.to_owned(),
        after: after.to_owned(),
        level: dto.level,
        effect: TextEffect {
            shape,
            animation,
            direction: match dto.direction {
                None => defaults.direction,
                Some(MarqueeDirectionDto::Left) => TextEffectDirection::Left,
                Some(MarqueeDirectionDto::Right) => TextEffectDirection::Right,
            },
            linecap: match dto.linecap {
                None => defaults.linecap,
                Some(LinecapDto::Butt) => TextEffectLinecap::Butt,
                Some(LinecapDto::Round) => TextEffectLinecap::Round,
                Some(LinecapDto::Square) => TextEffectLinecap::Square,
            },
            duration_s,
        },
    }))
}

fn names<const N: usize>(names: [&str; N]) -> String {
    names.join(", ")
}
