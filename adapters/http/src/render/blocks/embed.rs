//! The embed block: a sandboxed frame. A page of this site is framed in the HTML itself; a
//! third party's page is a placeholder with a link to it, which the embed island turns into
//! the frame when the visitor asks (and, for a non-essential service, has accepted cookies).

use askama::Template;
use serde::Serialize;
use vitrine_core::site::{EmbedBlock, EmbedSource};

/// What the framed page may do. Scripts, forms and popups are what embeds need; a page of this
/// site is framed without `allow-same-origin`, so it cannot reach into the page around it.
const FIRST_PARTY_SANDBOX: &str = "allow-scripts allow-forms allow-popups";
/// A third party's page runs in its own origin (the frame keeps it there), which it needs for
/// its own storage and calls.
const THIRD_PARTY_SANDBOX: &str =
    "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-same-origin";

#[derive(Debug, Template)]
#[template(path = "blocks/embed.html", whitespace = "minimize")]
pub(crate) struct EmbedView<'a> {
    pub(crate) url: &'a str,
    pub(crate) title: &'a str,
    /// One of a fixed set of height classes, since pages allow no inline style.
    pub(crate) height_class: u16,
    pub(crate) height: u16,
    /// The third party's host, or none for a page of this site.
    pub(crate) host: Option<&'a str>,
    pub(crate) sandbox: &'static str,
    pub(crate) essential: bool,
}

/// The embed island's props: what it frames and whether it must wait for consent.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EmbedProps<'a> {
    url: &'a str,
    title: &'a str,
    host: &'a str,
    height: u16,
    sandbox: &'static str,
    essential: bool,
}

impl<'a> EmbedView<'a> {
    /// The view, or `None` for data that does not pass the block's rules (stored by other means
    /// than an import): such a block renders nothing rather than a frame of anything.
    pub(crate) fn new(block: &'a EmbedBlock) -> Option<Self> {
        block.check().ok()?;
        let source = block.source().ok()?;
        let host = match source {
            EmbedSource::FirstParty => None,
            EmbedSource::ThirdParty { host, .. } => Some(host),
        };
        Some(Self {
            url: &block.url,
            title: &block.title,
            height_class: height_class(block.height),
            height: block.height,
            host,
            sandbox: if host.is_some() {
                THIRD_PARTY_SANDBOX
            } else {
                FIRST_PARTY_SANDBOX
            },
            essential: block.essential,
        })
    }

    /// The island's props, for a third party's page only: a page of this site needs none.
    pub(crate) fn props(&self) -> Option<EmbedProps<'a>> {
        Some(EmbedProps {
            url: self.url,
            title: self.title,
            host: self.host?,
            height: self.height,
            sandbox: self.sandbox,
            essential: self.essential,
        })
    }
}

/// The height class nearest below the block's height, in steps of 50 pixels.
fn height_class(height: u16) -> u16 {
    height / 50 * 50
}

/// The origins of the third-party frames on a page, for its Content-Security-Policy.
pub(crate) fn frame_origin(block: &EmbedBlock) -> Option<&str> {
    match block.source().ok()? {
        EmbedSource::ThirdParty { origin, .. } if block.check().is_ok() => Some(origin),
        _ => None,
    }
}
