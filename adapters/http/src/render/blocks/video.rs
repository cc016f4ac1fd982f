//! The video block (spec 001 s4 "Video"): a first-party thumbnail with a labelled play button
//! over a frame of the default 56.3 % padding ratio. The provider's privacy-enhanced player is
//! only named in a data attribute, so no request reaches the provider until the visitor presses
//! play and the video island loads it. A URL that is no embeddable video shows a message.

use askama::Template;
use vitrine_core::gallery::{CUSTOM_THUMBNAIL_NEEDS_EMBED, VideoEmbed, VideoMode};
use vitrine_core::site::MediaRef;

use crate::render::image::ImageView;
use crate::render::scope::RenderScope;
use crate::render::urls;

#[derive(Debug, Template)]
#[template(path = "blocks/video.html", whitespace = "minimize")]
pub(crate) struct VideoBlock<'a> {
    pub(crate) href: &'a str,
    pub(crate) provider: &'a str,
    pub(crate) title: &'a str,
    pub(crate) thumbnail: Option<ImageView<'a>>,
    /// The player's address; none for an invalid embed.
    pub(crate) player: Option<String>,
    pub(crate) mode: &'static str,
    /// 001 s8: a custom thumbnail on a video that cannot be embedded.
    pub(crate) thumbnail_notice: Option<&'static str>,
}

impl<'a> VideoBlock<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        url: &'a str,
        provider: &'a str,
        title: &'a str,
        thumbnail: Option<&'a MediaRef>,
        mode: VideoMode,
    ) -> Self {
        let embed = VideoEmbed::from_url(url);
        Self {
            href: urls::safe_href(url),
            provider: provider.trim(),
            title: if title.trim().is_empty() {
                "Video"
            } else {
                title
            },
            // The button's text names the video, so the thumbnail itself is decorative.
            thumbnail: thumbnail.and_then(|media| scope.image_with_alt(media, "")),
            thumbnail_notice: (embed.is_none() && thumbnail.is_some())
                .then_some(CUSTOM_THUMBNAIL_NEEDS_EMBED),
            player: embed.map(|embed| embed.player_url()),
            mode: mode.name(),
        }
    }
}
