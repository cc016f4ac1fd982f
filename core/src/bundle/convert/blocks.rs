//! One block table (`type = "..."` plus that type's fields) into a [`Block`].

use crate::bundle::BundleError;
use crate::bundle::convert::text_effect::text_effect;
use crate::bundle::convert::widgets::{form, map, video_provider};
use crate::bundle::convert::{Converter, chosen_id, non_empty};
use crate::bundle::dto::*;
use crate::bundle::error::At;
use crate::bundle::text::markdown;
use crate::enums::BlockType;
use crate::gallery::{
    GalleryOptions, LightboxTheme, StripAlignment, Transition, VideoEmbed, parse_column_width,
};
use crate::plugins::PluginBlockType;
use crate::site::{
    AccordionItem, Alignment, Block, BlockContent, BlockId, ButtonPopup, ButtonSize, CollectionId,
    DonationBlock, GallerySlide, MarkdownBlock, MarqueeDirection, MarqueeProps, SafeHtml, Slug,
    SocialLink, SummaryDesign,
};
use crate::widgets::PopupKind;

/// The largest spacer, in base spacing units.
const MAX_SPACER_SIZE: u8 = 10;
/// The most items a summary block may list.
const MAX_SUMMARY_LIMIT: u8 = 30;

impl Converter {
    pub(crate) fn block(
        &mut self,
        at: &At,
        mut table: toml::Table,
        default_id: &str,
    ) -> Result<Block, BundleError> {
        let kind = match table.remove("type") {
            Some(toml::Value::String(kind)) => kind,
            Some(other) => {
                return Err(at.field("type").error(format!(
                    "expected a block type such as \"html\", found {}",
                    other.type_str()
                )));
            }
            None => return Err(at.field("type").error("missing; this field is required")),
        };
        let explicit_id = match table.remove("id") {
            None => None,
            Some(toml::Value::String(id)) => Some(id),
            Some(other) => {
                return Err(at
                    .field("id")
                    .error(format!("expected a string, found {}", other.type_str())));
            }
        };
        let id: BlockId = chosen_id(at.field("id"), explicit_id.as_deref(), default_id)?;
        self.origins.add_block(&id, at.file, &at.path)?;
        let fields = toml::Value::Table(table);
        let content = self.content(at, &kind, fields, &id)?;
        Ok(Block { id, content })
    }

    pub(super) fn content(
        &self,
        at: &At,
        kind: &str,
        fields: toml::Value,
        id: &BlockId,
    ) -> Result<BlockContent, BundleError> {
        Ok(match kind {
            "html" => {
                let dto: HtmlDto = at.deserialize(fields)?;
                BlockContent::Html {
                    html: SafeHtml::sanitize(&dto.html),
                }
            }
            "markdown" => {
                let dto: MarkdownDto = at.deserialize(fields)?;
                BlockContent::Markdown(MarkdownBlock {
                    markdown: dto.markdown,
                })
            }
            "heading" => {
                let dto: HeadingDto = at.deserialize(fields)?;
                if !(1..=6).contains(&dto.level) {
                    return Err(at
                        .field("level")
                        .error(format!("expected a level from 1 to 6, found {}", dto.level)));
                }
                non_empty(&at.field("text"), &dto.text)?;
                let text = escape(&dto.text);
                BlockContent::Html {
                    html: SafeHtml::sanitize(&format!("<h{0}>{text}</h{0}>", dto.level)),
                }
            }
            "image" => {
                let dto: ImageBlockDto = at.deserialize(fields)?;
                BlockContent::Image {
                    image: self.image(&dto.image, &at.field("image"))?,
                    caption: dto.caption,
                    link: dto.link,
                }
            }
            "button" => {
                let dto: ButtonDto = at.deserialize(fields)?;
                non_empty(&at.field("label"), &dto.label)?;
                BlockContent::Button {
                    label: dto.label,
                    href: dto.href,
                    size: match dto.size {
                        ButtonSizeDto::Small => ButtonSize::Small,
                        ButtonSizeDto::Medium => ButtonSize::Medium,
                        ButtonSizeDto::Large => ButtonSize::Large,
                    },
                    alignment: match dto.alignment {
                        AlignmentDto::Left => Alignment::Left,
                        AlignmentDto::Center => Alignment::Center,
                        AlignmentDto::Right => Alignment::Right,
                    },
                    new_window: dto.new_window,
                    tooltip: match dto.tooltip {
                        Some(tooltip) => {
                            non_empty(&at.field("tooltip"), &tooltip)?;
                            Some(tooltip)
                        }
                        None => None,
                    },
                    popup: dto.popup.map(|popup| button_popup(at, popup)).transpose()?,
                }
            }
            "quote" => {
                let dto: QuoteDto = at.deserialize(fields)?;
                non_empty(&at.field("text"), &dto.text)?;
                BlockContent::Quote {
                    text: dto.text,
                    source: dto.source,
                }
            }
            "spacer" => {
                let dto: SpacerDto = at.deserialize(fields)?;
                if !(1..=MAX_SPACER_SIZE).contains(&dto.size) {
                    return Err(at.field("size").error(format!(
                        "expected a size from 1 to {MAX_SPACER_SIZE}, found {}",
                        dto.size
                    )));
                }
                BlockContent::Spacer { size: dto.size }
            }
            "horizontal-rule" => {
                let _: NoFieldsDto = at.deserialize(fields)?;
                BlockContent::HorizontalRule
            }
            "member-area" => {
                let dto: MemberAreaBlockDto = at.deserialize(fields)?;
                let area = Slug::parse(&dto.area).map_err(|_| {
                    at.field("area").error(format!(
                        "expected the id of a member area in [[member_areas]], found '{}'",
                        dto.area
                    ))
                })?;
                BlockContent::MemberArea { area }
            }
            "language-switcher" => {
                let _: NoFieldsDto = at.deserialize(fields)?;
                BlockContent::LanguageSwitcher
            }
            "code" => {
                let dto: CodeDto = at.deserialize(fields)?;
                BlockContent::Code { code: dto.code }
            }
            "gallery" => self.gallery(at, at.deserialize(fields)?)?,
            "summary" => self.summary(at, at.deserialize(fields)?)?,
            "form" => form(at, at.deserialize(fields)?, id)?,
            "newsletter" => {
                let dto: NewsletterDto = at.deserialize(fields)?;
                non_empty(&at.field("title"), &dto.title)?;
                BlockContent::Newsletter {
                    title: dto.title,
                    description: dto.description,
                    button_label: dto.button_label,
                    placeholder: dto.placeholder,
                }
            }
            "donation" => {
                let dto: DonationDto = at.deserialize(fields)?;
                non_empty(&at.field("title"), &dto.title)?;
                non_empty(&at.field("button_label"), &dto.button_label)?;
                let block = DonationBlock {
                    title: dto.title,
                    description: dto.description,
                    button_label: dto.button_label,
                    suggested_amounts: dto.amounts,
                    minimum_amount: dto.minimum,
                    maximum_amount: dto.maximum,
                    thank_you: dto.thank_you,
                };
                block
                    .check_amounts()
                    .map_err(|error| at.field("amounts").error(error.to_string()))?;
                BlockContent::Donation(block)
            }
            "accordion" => {
                let dto: AccordionDto = at.deserialize(fields)?;
                let mut items = Vec::with_capacity(dto.items.len());
                for (index, item) in dto.items.into_iter().enumerate() {
                    non_empty(&at.field("items").index(index).field("title"), &item.title)?;
                    items.push(AccordionItem {
                        title: item.title,
                        body: markdown(&item.body),
                    });
                }
                BlockContent::Accordion {
                    items,
                    allow_multiple: dto.allow_multiple,
                    first_open: dto.first_open,
                }
            }
            "marquee" => {
                let dto: MarqueeDto = at.deserialize(fields)?;
                non_empty(&at.field("text"), &dto.text)?;
                marquee_numbers(at, &dto)?;
                let defaults = MarqueeProps::default();
                BlockContent::Marquee {
                    text: dto.text,
                    props: MarqueeProps {
                        wave_frequency: dto.wave_frequency.unwrap_or(defaults.wave_frequency),
                        wave_intensity: dto.wave_intensity.unwrap_or(defaults.wave_intensity),
                        animation_direction: match dto.direction {
                            Some(MarqueeDirectionDto::Left) => MarqueeDirection::Left,
                            Some(MarqueeDirectionDto::Right) => MarqueeDirection::Right,
                            None => defaults.animation_direction,
                        },
                        animation_speed: dto.speed.unwrap_or(defaults.animation_speed),
                        paused_on_hover: dto.paused_on_hover.unwrap_or(defaults.paused_on_hover),
                    },
                }
            }
            "text-effect" => text_effect(at, at.deserialize(fields)?)?,
            "map" => map(at, at.deserialize(fields)?)?,
            "video" => {
                let dto: VideoDto = at.deserialize(fields)?;
                let provider = match dto.provider {
                    Some(provider) => provider,
                    None => video_provider(&dto.url).ok_or_else(|| {
                        at.field("provider").error(
                            "missing; name the video's provider, or use a YouTube or Vimeo URL",
                        )
                    })?,
                };
                if !dto.url.starts_with("https://") {
                    return Err(at.field("url").error(format!(
                        "expected an https URL of the video, found '{}'",
                        dto.url
                    )));
                }
                BlockContent::Video {
                    url: dto.url,
                    provider,
                    title: dto.title,
                    thumbnail: self.optional_image(&dto.thumbnail, &at.field("thumbnail"))?,
                    mode: dto.mode,
                }
            }
            "product" => {
                let dto: ProductBlockDto = at.deserialize(fields)?;
                BlockContent::Product {
                    item: self.product_reference(&at.field("item"), &dto.item)?,
                }
            }
            "social-links" => {
                let dto: SocialLinksDto = at.deserialize(fields)?;
                BlockContent::SocialLinks {
                    links: dto
                        .links
                        .into_iter()
                        .map(|link| SocialLink {
                            service: link.service,
                            url: link.url,
                        })
                        .collect(),
                }
            }
            "plugin" => {
                let dto: PluginBlockDto = at.deserialize(fields)?;
                let block_type = match dto.block_type {
                    PluginTypeDto::Code(code) => BlockType::from_code(code)
                        .map(PluginBlockType::Spec)
                        .map_err(|_| {
                            at.field("block-type").error(format!(
                                "expected a block type code of the specification, such as 62 for chart, or the name of a custom type, found {code}"
                            ))
                        })?,
                    PluginTypeDto::Name(name) => PluginBlockType::from_name(&name)
                        .map_err(|error| at.field("block-type").error(error.to_string()))?,
                };
                BlockContent::Plugin {
                    block_type,
                    data: dto
                        .data
                        .unwrap_or(serde_json::Value::Object(Default::default())),
                }
            }
            other => {
                if let Some(content) = self.page_block(at, other, fields)? {
                    return Ok(content);
                }
                return Err(at.field("type").error(format!(
                    "expected one of {}, found '{other}'",
                    BLOCK_TYPES.join(", ")
                )));
            }
        })
    }

    fn gallery(&self, at: &At, dto: GalleryDto) -> Result<BlockContent, BundleError> {
        let options = gallery_options(at, &dto)?;
        let mut slides = Vec::with_capacity(dto.slides.len());
        for (index, slide) in dto.slides.into_iter().enumerate() {
            let slide_at = at.field("slides").index(index);
            let image = self.image(&slide.image, &slide_at.field("image"))?;
            // A slide's id appears in the address when history is on, so the default is
            // the image's file name, which reads well there.
            let default_id = image
                .path
                .rsplit('/')
                .next()
                .and_then(|name| name.split('.').next())
                .unwrap_or_default()
                .to_owned();
            if let Some(video) = &slide.video
                && VideoEmbed::from_url(video).is_none()
            {
                return Err(slide_at.field("video").error(format!(
                    "expected a YouTube or Vimeo video address over https, found '{video}'"
                )));
            }
            slides.push(GallerySlide {
                id: slide.id.unwrap_or(default_id),
                image,
                title: slide.title,
                caption: slide.caption,
                video: slide.video,
                link: slide.link,
            });
        }
        if slides.is_empty() {
            return Err(at.field("slides").error("expected at least one slide"));
        }
        Ok(BlockContent::Gallery {
            design: dto.design.name().to_owned(),
            slides,
            lightbox: dto.lightbox,
            autoplay: dto.autoplay,
            options,
        })
    }

    /// The id of the collection with this slug, which must list items.
    pub(super) fn listing_collection(
        &self,
        at: &At,
        slug: &str,
    ) -> Result<CollectionId, BundleError> {
        let found = Slug::parse(slug)
            .ok()
            .and_then(|slug| self.known.collections.get(&slug))
            .filter(|(_, kind)| kind.lists_items());
        let Some((collection, _)) = found else {
            let lists: Vec<String> = self
                .known
                .collections
                .iter()
                .filter(|(_, (_, kind))| kind.lists_items())
                .map(|(slug, _)| slug.to_string())
                .collect();
            return Err(at.error(format!(
                "expected the slug of a collection that lists items ({}), found '{slug}'",
                lists.join(", "),
            )));
        };
        Ok(collection.clone())
    }

    fn summary(&self, at: &At, dto: SummaryDto) -> Result<BlockContent, BundleError> {
        let collection = self.listing_collection(&at.field("collection"), &dto.collection)?;
        if !(1..=MAX_SUMMARY_LIMIT).contains(&dto.limit) {
            return Err(at.field("limit").error(format!(
                "expected a limit from 1 to {MAX_SUMMARY_LIMIT}, found {}",
                dto.limit
            )));
        }
        Ok(BlockContent::Summary {
            collection,
            title: dto.title,
            design: match dto.design {
                SummaryDesignDto::Grid => SummaryDesign::Grid,
                SummaryDesignDto::List => SummaryDesign::List,
                SummaryDesignDto::Carousel => SummaryDesign::Carousel,
                SummaryDesignDto::Wall => SummaryDesign::Wall,
            },
            limit: dto.limit,
        })
    }

    /// `<collection>/<item>` naming a product.
    fn product_reference(
        &self,
        at: &At,
        reference: &str,
    ) -> Result<crate::site::ItemId, BundleError> {
        let found = reference
            .split_once('/')
            .and_then(|(collection, item)| {
                Some((Slug::parse(collection).ok()?, Slug::parse(item).ok()?))
            })
            .and_then(|key| self.known.items.get(&key))
            .filter(|(_, is_product)| *is_product);
        match found {
            Some((id, _)) => Ok(id.clone()),
            None => Err(at.error(format!(
                "expected '<collection>/<item>' naming a product, such as 'shop/mug', \
                 found '{reference}'"
            ))),
        }
    }
}

/// Escapes text placed into generated HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The gallery's options (001 s3), each refused with the spec's rule when it cannot be used.
fn gallery_options(at: &At, dto: &GalleryDto) -> Result<GalleryOptions, BundleError> {
    let column_width = match &dto.column_width {
        None => None,
        Some(toml::Value::Integer(n)) => Some(
            parse_column_width(&n.to_string())
                .map_err(|e| at.field("columnWidth").error(e.to_string()))?,
        ),
        Some(toml::Value::String(text)) => Some(
            parse_column_width(text).map_err(|e| at.field("columnWidth").error(e.to_string()))?,
        ),
        Some(other) => {
            return Err(at.field("columnWidth").error(format!(
                "columnWidth must be a number greater than 0, found {other}"
            )));
        }
    };
    let aspect_ratio = match &dto.aspect_ratio {
        None => None,
        Some(toml::Value::String(auto)) if auto.eq_ignore_ascii_case("auto") => None,
        Some(toml::Value::Integer(n)) if (1..=400).contains(n) => u16::try_from(*n).ok(),
        Some(other) => {
            return Err(at.field("imageAspectRatio").error(format!(
                "expected Auto or a width-over-height percentage from 1 to 400, found {other}"
            )));
        }
    };
    let lightbox_theme = match dto.lightbox_theme.as_deref() {
        None | Some("dark") => LightboxTheme::Dark,
        Some("light") => LightboxTheme::Light,
        Some(other) => {
            return Err(at
                .field("lightboxTheme")
                .error(format!("expected light or dark, found '{other}'")));
        }
    };
    let transition = match dto.transition.as_deref() {
        None => Transition::default(),
        Some(name) => {
            Transition::parse(name).map_err(|e| at.field("transition").error(e.to_string()))?
        }
    };
    let strip_alignment = match dto.strip_alignment.as_deref() {
        None => StripAlignment::default(),
        Some(value) => StripAlignment::parse(value)
            .map_err(|e| at.field("active-alignment").error(e.to_string()))?,
    };
    let options = GalleryOptions {
        slides_per_row: dto.slides_per_row,
        column_width,
        gutter: dto.gutter,
        row_height: dto.row_height,
        aspect_ratio,
        lightbox_theme,
        autoplay_duration: dto.autoplay_duration,
        transition,
        looping: dto.looping,
        history: dto.history,
        strip_alignment,
    };
    options.validate().map_err(|e| at.error(e.to_string()))?;
    Ok(options)
}

/// A marquee's numbers: the speed is a positive factor up to 10, the wave's frequency and
/// intensity are between 0 and 10, so a typo cannot stand the band still or fling it off.
fn marquee_numbers(at: &At, dto: &MarqueeDto) -> Result<(), BundleError> {
    let checks = [
        ("speed", dto.speed, false),
        ("wave_frequency", dto.wave_frequency, true),
        ("wave_intensity", dto.wave_intensity, true),
    ];
    for (name, value, zero_allowed) in checks {
        let Some(value) = value else { continue };
        let low_ok = if zero_allowed {
            value >= 0.0
        } else {
            value > 0.0
        };
        if !(value.is_finite() && low_ok && value <= 10.0) {
            let range = if zero_allowed { "from 0" } else { "above 0" };
            return Err(at
                .field(name)
                .error(format!("expected a number {range} up to 10, found {value}")));
        }
    }
    Ok(())
}

/// The popup a button opens, with a title and a message to say.
fn button_popup(at: &At, dto: ButtonPopupDto) -> Result<ButtonPopup, BundleError> {
    let at = at.field("popup");
    non_empty(&at.field("title"), &dto.title)?;
    non_empty(&at.field("message"), &dto.message)?;
    Ok(ButtonPopup {
        kind: match dto.kind {
            PopupKindDto::Confirmation => PopupKind::Confirmation,
            PopupKindDto::Alert => PopupKind::Alert,
            PopupKindDto::Information => PopupKind::Information,
        },
        title: dto.title,
        message: dto.message,
        timer_ms: dto.timer,
    })
}
