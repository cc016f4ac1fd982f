//! Animated blocks: the marquee band and the text effect. Each renders still, complete HTML
//! that reads well without JavaScript and under reduced motion; the island adds the motion,
//! and the marquee's pause control with it (a band that does not move needs none).

use askama::Template;
use serde::Serialize;
use vitrine_core::site::{MarqueeDirection, MarqueeProps, TextEffectBlock};
use vitrine_core::widgets::text_effect::VIEW_BOX;

/// Marquee text in a band: the text once, still, until the island runs it.
#[derive(Debug, Template)]
#[template(path = "blocks/marquee.html", whitespace = "minimize")]
pub(crate) struct MarqueeBlock<'a> {
    pub(crate) text: &'a str,
    pub(crate) direction: &'static str,
}

/// The marquee island's props: the props of 001 s3 under their specification names.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MarqueeIslandProps {
    wave_frequency: f64,
    wave_intensity: f64,
    animation_direction: &'static str,
    animation_speed: f64,
    paused_on_hover: bool,
}

fn direction_name(direction: MarqueeDirection) -> &'static str {
    match direction {
        MarqueeDirection::Left => "left",
        MarqueeDirection::Right => "right",
    }
}

impl<'a> MarqueeBlock<'a> {
    pub(crate) fn new(text: &'a str, props: &MarqueeProps) -> Self {
        Self {
            text,
            direction: direction_name(props.animation_direction),
        }
    }

    pub(crate) fn island_props(props: &MarqueeProps) -> MarqueeIslandProps {
        MarqueeIslandProps {
            wave_frequency: props.wave_frequency,
            wave_intensity: props.wave_intensity,
            animation_direction: direction_name(props.animation_direction),
            animation_speed: props.animation_speed,
            paused_on_hover: props.paused_on_hover,
        }
    }
}

/// Words with a highlight drawn behind them. The shape is in the page as SVG, fully drawn, so
/// it shows without JavaScript; the island hides it until it first plays.
#[derive(Debug, Template)]
#[template(path = "blocks/text_effect.html", whitespace = "minimize")]
pub(crate) struct TextEffectView<'a> {
    pub(crate) tag: String,
    pub(crate) before: &'a str,
    pub(crate) highlight: &'a str,
    pub(crate) after: &'a str,
    pub(crate) shape: &'static str,
    pub(crate) animation: &'static str,
    pub(crate) linecap: &'static str,
    pub(crate) view_box: &'static str,
    pub(crate) paths: &'static [&'static str],
}

/// The text-effect island's props.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TextEffectIslandProps {
    shape: &'static str,
    animation: &'static str,
    direction: &'static str,
    linecap: &'static str,
    duration: f64,
}

impl<'a> TextEffectView<'a> {
    pub(crate) fn new(block: &'a TextEffectBlock) -> Self {
        let effect = &block.effect;
        Self {
            tag: block
                .level
                .map_or_else(|| "p".to_owned(), |level| format!("h{level}")),
            before: &block.before,
            highlight: &block.highlight,
            after: &block.after,
            shape: effect.shape.name(),
            animation: effect.animation.name(),
            linecap: effect.linecap.name(),
            view_box: VIEW_BOX,
            paths: effect.shape.paths(),
        }
    }

    pub(crate) fn island_props(block: &TextEffectBlock) -> TextEffectIslandProps {
        let effect = &block.effect;
        TextEffectIslandProps {
            shape: effect.shape.name(),
            animation: effect.animation.name(),
            direction: effect.direction.name(),
            linecap: effect.linecap.name(),
            duration: effect.duration_s,
        }
    }
}
