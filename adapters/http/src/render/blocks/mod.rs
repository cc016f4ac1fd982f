//! Blocks: each block of a layout becomes its wrapper `<div class="sqs-block ...">` around the
//! markup of its type. Every block type renders complete, working HTML without JavaScript;
//! interactive ones are also marked as islands that a script may enhance.

mod animated;
mod audio;
mod calendar;
mod donation;
mod embed;
mod follow;
mod gallery;
mod interactive;
mod listing;
mod media;
mod menu;
mod plugin;
mod reservation;
mod shape;
mod text;
mod video;

use std::fmt;

use askama::Template;
use serde::Serialize;
use vitrine_core::site::{Block, BlockContent, ButtonPopup};

use super::forms::{CaptchaWidget, FormView, NewsletterView};
use super::scope::RenderScope;

pub(crate) use animated::{MarqueeBlock, TextEffectView};
pub(crate) use audio::AudioView;
pub(crate) use calendar::CalendarView;
pub(crate) use donation::DonationBlockView;
pub(crate) use embed::{EmbedView, frame_origin};
pub(crate) use follow::FollowButtonView;
pub(crate) use gallery::GalleryBlock;
pub(crate) use interactive::AccordionBlock;
pub(crate) use listing::{ProductBlock, SummaryBlock};
pub(crate) use media::{ImageBlock, MapBlock};
pub(crate) use menu::MenuView;
pub(crate) use plugin::{PluginBlock, stylesheet_href, stylesheet_link};
pub(crate) use reservation::ReservationView;
pub(crate) use shape::ShapeView;
pub(crate) use text::{
    ButtonBlock, CodeBlock, HtmlBlock, LanguageSwitcherBlock, MemberAreaBlock, QuoteBlock,
    SocialLinkView, SocialLinksBlock, SpacerBlock, social_service_of,
};
pub(crate) use video::VideoBlock;

/// The island a block type mounts, if any; the names are the file names of the web client's
/// `src/islands/*.tsx`.
pub(crate) fn island_name(content: &BlockContent) -> Option<&'static str> {
    match content {
        BlockContent::Accordion { .. } => Some("accordion"),
        BlockContent::Gallery { .. } => Some("gallery"),
        BlockContent::Video { url, .. } => {
            vitrine_core::gallery::VideoEmbed::from_url(url).map(|_| "video")
        }
        BlockContent::Form(_) => Some("form"),
        BlockContent::Newsletter { .. } => Some("newsletter"),
        BlockContent::Button { tooltip, popup, .. } if tooltip.is_some() || popup.is_some() => {
            Some("button")
        }
        BlockContent::Marquee { .. } => Some("marquee"),
        BlockContent::TextEffect(_) => Some("text-effect"),
        BlockContent::Embed(embed) => frame_origin(embed).map(|_| "embed"),
        BlockContent::Audio(_) => Some("audio"),
        BlockContent::Menu(menu) if menu.tabs.len() > 1 => Some("menu"),
        BlockContent::TableReservation(_) => Some("reservation"),
        BlockContent::FollowButton(_) => Some("follow"),
        // The map is an island only on a site with a tile server, which the page alone does
        // not tell: its chunk is not preloaded, and loads when the block nears the viewport.
        BlockContent::Map { .. } => None,
        _ => None,
    }
}

/// The button island's props: the popup the button opens, if any (the tooltip is in the markup).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ButtonIslandProps<'a> {
    popup: Option<&'a ButtonPopup>,
}

/// A block with its wrapper.
#[derive(Debug, Template)]
#[template(path = "partials/block.html", whitespace = "minimize")]
pub(crate) struct BlockView<'a> {
    /// The class stem: `html` gives `html-block`.
    pub(crate) kind: &'static str,
    pub(crate) id: &'a str,
    /// The spec's block type code (001 s3).
    pub(crate) code: u16,
    pub(crate) island: Option<Island>,
    pub(crate) body: BlockBody<'a>,
}

super::markup::nested_templates!(BlockView);

/// The attributes that make a block an island.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Island {
    pub(crate) name: &'static str,
    /// JSON, escaped like any attribute value when written.
    pub(crate) props: String,
}

impl Island {
    fn new(name: &'static str, props: &impl Serialize) -> Self {
        Self {
            name,
            // Serialising a struct of plain fields cannot fail.
            props: serde_json::to_string(props).unwrap_or_else(|_| "{}".to_owned()),
        }
    }
}

/// The markup of one block type.
#[derive(Debug)]
pub(crate) enum BlockBody<'a> {
    Html(HtmlBlock),
    Image(ImageBlock<'a>),
    Button(ButtonBlock<'a>),
    Quote(QuoteBlock<'a>),
    Spacer(SpacerBlock),
    HorizontalRule,
    Code(CodeBlock<'a>),
    Gallery(GalleryBlock<'a>),
    Summary(SummaryBlock<'a>),
    Form(FormView<'a>),
    Newsletter(NewsletterView<'a>),
    Accordion(AccordionBlock<'a>),
    Marquee(MarqueeBlock<'a>),
    TextEffect(TextEffectView<'a>),
    Map(MapBlock<'a>),
    Video(VideoBlock<'a>),
    Product(ProductBlock<'a>),
    SocialLinks(SocialLinksBlock<'a>),
    Donation(DonationBlockView<'a>),
    LanguageSwitcher(LanguageSwitcherBlock<'a>),
    MemberArea(Option<MemberAreaBlock<'a>>),
    Embed(Option<EmbedView<'a>>),
    Audio(AudioView<'a>),
    Shape(Option<ShapeView<'a>>),
    Menu(MenuView<'a>),
    Calendar(CalendarView<'a>),
    Reservation(ReservationView<'a>),
    FollowButton(FollowButtonView<'a>),
    Plugin(PluginBlock),
}

impl fmt::Display for BlockBody<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Html(block) => block.fmt(f),
            Self::Image(block) => block.fmt(f),
            Self::Button(block) => block.fmt(f),
            Self::Quote(block) => block.fmt(f),
            Self::Spacer(block) => block.fmt(f),
            Self::HorizontalRule => f.write_str("<hr>"),
            Self::Code(block) => block.fmt(f),
            Self::Gallery(block) => block.fmt(f),
            Self::Summary(block) => block.fmt(f),
            Self::Form(block) => block.fmt(f),
            Self::Newsletter(block) => block.fmt(f),
            Self::Accordion(block) => block.fmt(f),
            Self::Marquee(block) => block.fmt(f),
            Self::TextEffect(block) => block.fmt(f),
            Self::Map(block) => block.fmt(f),
            Self::Video(block) => block.fmt(f),
            Self::Product(block) => block.fmt(f),
            Self::SocialLinks(block) => block.fmt(f),
            Self::Donation(block) => block.fmt(f),
            Self::LanguageSwitcher(block) => block.fmt(f),
            Self::MemberArea(Some(block)) => block.fmt(f),
            Self::MemberArea(None) | Self::Embed(None) | Self::Shape(None) => Ok(()),
            Self::Embed(Some(block)) => block.fmt(f),
            Self::Audio(block) => block.fmt(f),
            Self::Shape(Some(block)) => block.fmt(f),
            Self::Menu(block) => block.fmt(f),
            Self::Calendar(block) => block.fmt(f),
            Self::Reservation(block) => block.fmt(f),
            Self::FollowButton(block) => block.fmt(f),
            Self::Plugin(block) => block.fmt(f),
        }
    }
}

// Every variant is an escaped template of this module (or a literal `<hr>`).
impl askama::filters::HtmlSafe for BlockBody<'_> {}

/// The wrapper class stem of a block, after the platform's own class names.
fn kind(content: &BlockContent) -> &'static str {
    match content {
        BlockContent::Html { .. } => "html",
        BlockContent::Image { .. } => "image",
        BlockContent::Button { .. } => "button",
        BlockContent::Quote { .. } => "quote",
        BlockContent::Spacer { .. } => "spacer",
        BlockContent::HorizontalRule => "horizontalrule",
        BlockContent::Code { .. } => "code",
        BlockContent::Gallery { .. } => "gallery",
        BlockContent::Summary { .. } => "summary-v2",
        BlockContent::Form(_) => "form",
        BlockContent::Newsletter { .. } => "newsletter",
        BlockContent::Accordion { .. } => "accordion",
        BlockContent::Marquee { .. } => "marquee",
        BlockContent::TextEffect(_) => "text-effect",
        BlockContent::Map { .. } => "map",
        BlockContent::Video { .. } => "video",
        BlockContent::Product { .. } => "product",
        BlockContent::SocialLinks { .. } => "socialaccountlinks-v2",
        BlockContent::Donation(_) => "donation",
        BlockContent::LanguageSwitcher => "language-switcher",
        BlockContent::MemberArea { .. } => "member-area",
        BlockContent::Markdown(_) => "markdown",
        BlockContent::Embed(_) => "embed",
        BlockContent::Audio(_) => "audio",
        BlockContent::Shape(_) => "shape",
        BlockContent::Menu(_) => "menu",
        BlockContent::Calendar(_) => "calendar",
        BlockContent::TableReservation(_) => "opentable-v2",
        BlockContent::FollowButton(_) => "follow-button",
        BlockContent::Plugin { .. } => "plugin",
    }
}

pub(crate) fn block_view<'a>(scope: &RenderScope<'a>, block: &'a Block) -> BlockView<'a> {
    let id = block.id.as_str();
    let (body, island) = match &block.content {
        BlockContent::Html { html } => (BlockBody::Html(HtmlBlock::new(html)), None),
        BlockContent::Image {
            image,
            caption,
            link,
        } => (
            BlockBody::Image(ImageBlock::new(
                scope,
                image,
                caption.as_deref(),
                link.as_deref(),
            )),
            None,
        ),
        BlockContent::Button {
            label,
            href,
            size,
            alignment,
            new_window,
            tooltip,
            popup,
        } => {
            let button = ButtonBlock {
                tooltip: tooltip
                    .as_deref()
                    .map(|text| (text, format!("block-{id}-tooltip"))),
                ..ButtonBlock::new(label, href, *size, *alignment, *new_window)
            };
            let island = (tooltip.is_some() || popup.is_some()).then(|| {
                Island::new(
                    "button",
                    &ButtonIslandProps {
                        popup: popup.as_ref(),
                    },
                )
            });
            (BlockBody::Button(button), island)
        }
        BlockContent::Quote { text, source } => (
            BlockBody::Quote(QuoteBlock {
                text,
                source: source.as_deref(),
            }),
            None,
        ),
        BlockContent::Spacer { size } => (BlockBody::Spacer(SpacerBlock::new(*size)), None),
        BlockContent::HorizontalRule => (BlockBody::HorizontalRule, None),
        BlockContent::LanguageSwitcher => (
            BlockBody::LanguageSwitcher(LanguageSwitcherBlock::new(scope.view)),
            None,
        ),
        BlockContent::MemberArea { area } => (
            BlockBody::MemberArea(MemberAreaBlock::new(scope.view, id, area)),
            None,
        ),
        BlockContent::Code { code } => (BlockBody::Code(CodeBlock { code }), None),
        BlockContent::Gallery {
            design,
            slides,
            lightbox,
            autoplay,
            options,
        } => {
            let (gallery, props) =
                GalleryBlock::new(scope, id, design, slides, *lightbox, *autoplay, options);
            (
                BlockBody::Gallery(gallery),
                Some(Island::new("gallery", &props)),
            )
        }
        BlockContent::Summary { title, design, .. } => (
            BlockBody::Summary(SummaryBlock::new(
                scope,
                &block.id,
                title.as_deref(),
                *design,
            )),
            None,
        ),
        BlockContent::Form(form) => (
            BlockBody::Form(FormView {
                captcha: CaptchaWidget::new(scope.view.context.captcha_settings.as_ref()),
                ..FormView::new(id, form)
            }),
            Some(Island::new(
                "form",
                &super::forms::FormIslandProps::new(form),
            )),
        ),
        BlockContent::Newsletter {
            title,
            description,
            button_label,
            placeholder,
        } => (
            BlockBody::Newsletter(NewsletterView {
                id,
                title,
                description,
                button_label,
                placeholder,
                captcha: CaptchaWidget::new(scope.view.context.captcha_settings.as_ref()),
            }),
            Some(Island::new(
                "newsletter",
                &super::forms::NewsletterIslandProps { form_id: id },
            )),
        ),
        BlockContent::Accordion {
            items,
            allow_multiple,
            first_open,
        } => {
            let accordion = AccordionBlock::new(id, items, *allow_multiple, *first_open);
            let island = Island::new("accordion", &accordion.props());
            (BlockBody::Accordion(accordion), Some(island))
        }
        BlockContent::Marquee { text, props } => (
            BlockBody::Marquee(MarqueeBlock::new(text, props)),
            Some(Island::new("marquee", &MarqueeBlock::island_props(props))),
        ),
        BlockContent::TextEffect(effect) => (
            BlockBody::TextEffect(TextEffectView::new(effect)),
            Some(Island::new(
                "text-effect",
                &TextEffectView::island_props(effect),
            )),
        ),
        BlockContent::Map {
            location,
            style,
            options,
        } => {
            let map = MapBlock::new(location, *style, scope.map_tiles());
            let island = scope.map_tiles().map(|tiles| {
                Island::new("map", &map.island_props(location, *style, options, tiles))
            });
            (BlockBody::Map(map), island)
        }
        BlockContent::Video {
            url,
            provider,
            title,
            thumbnail,
            mode,
        } => {
            let video = VideoBlock::new(scope, url, provider, title, thumbnail.as_ref(), *mode);
            let island = video
                .player
                .is_some()
                .then(|| Island::new("video", &serde_json::json!({})));
            (BlockBody::Video(video), island)
        }
        BlockContent::Product { item } => {
            (BlockBody::Product(ProductBlock::new(scope, id, item)), None)
        }
        BlockContent::SocialLinks { links } => {
            (BlockBody::SocialLinks(SocialLinksBlock::new(links)), None)
        }
        BlockContent::Donation(donation) => (
            BlockBody::Donation(DonationBlockView::new(scope, id, donation)),
            None,
        ),
        BlockContent::Markdown(markdown) => {
            (BlockBody::Html(HtmlBlock::new(&markdown.html())), None)
        }
        BlockContent::Embed(embed) => {
            let view = EmbedView::new(embed);
            let island = view
                .as_ref()
                .and_then(EmbedView::props)
                .map(|props| Island::new("embed", &props));
            (BlockBody::Embed(view), island)
        }
        BlockContent::Audio(audio) => {
            let view = AudioView::new(id, audio);
            let island = Island::new("audio", &view.props());
            (BlockBody::Audio(view), Some(island))
        }
        BlockContent::Shape(shape) => (BlockBody::Shape(ShapeView::new(id, shape)), None),
        BlockContent::Menu(menu) => (
            BlockBody::Menu(MenuView::new(id, menu)),
            // One menu needs no tabs.
            (menu.tabs.len() > 1).then(|| Island::new("menu", &serde_json::json!({}))),
        ),
        BlockContent::Calendar(calendar) => (
            BlockBody::Calendar(CalendarView::new(scope, &block.id, calendar)),
            None,
        ),
        BlockContent::TableReservation(reservation) => (
            BlockBody::Reservation(ReservationView::new(reservation)),
            Some(Island::new(
                "reservation",
                &ReservationView::props(reservation),
            )),
        ),
        BlockContent::FollowButton(follow) => (
            BlockBody::FollowButton(FollowButtonView::new(follow)),
            Some(Island::new("follow", &FollowButtonView::props())),
        ),
        BlockContent::Plugin { block_type, data } => (
            BlockBody::Plugin(PluginBlock::new(scope, id, block_type, data)),
            None,
        ),
    };
    debug_assert!(
        island.as_ref().map(|island| island.name) == island_name(&block.content)
            || matches!(block.content, BlockContent::Map { .. })
    );
    BlockView {
        kind: kind(&block.content),
        id,
        code: block.type_code(),
        island,
        body,
    }
}
