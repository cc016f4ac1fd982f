//! Content blocks: what a block holds, by block type. Rendering lives in the HTTP adapter.

use serde::{Deserialize, Serialize};

use crate::enums::BlockType;
use crate::gallery::{GalleryOptions, VideoMode};
use crate::plugins::PluginBlockType;
use crate::site::{
    BlockId, CollectionId, DonationBlock, ItemId, MapLocation, MapStyle, MapUiOptions, MediaRef,
    SafeHtml,
};
use crate::widgets::TextEffect;

mod audio;
mod calendar;
mod embed;
mod follow;
mod markdown;
mod menu;
mod reservation;
mod shape;

pub use audio::{AudioBlock, AudioBlockError, AudioTrack, MAX_AUDIO_TRACKS};
pub use calendar::{
    CalendarBlock, CalendarDay, CalendarGrid, CalendarMonth, MAX_CALENDAR_MONTHS, YearMonth,
    YearMonthError, calendar_months,
};
pub use embed::{DEFAULT_EMBED_HEIGHT, EMBED_HEIGHTS, EmbedBlock, EmbedBlockError, EmbedSource};
pub use follow::{
    FOLLOW_BUTTON_ORIGIN, FOLLOW_BUTTON_SCRIPT, FOLLOW_BUTTON_SCRIPT_TIMEOUT_MS, FollowButtonBlock,
    FollowButtonError,
};
pub use markdown::{MarkdownBlock, markdown_html};
pub use menu::{MAX_MENU_TABS, MenuBlock, MenuBlockError, MenuItem, MenuSection, MenuTab};
pub use reservation::{
    COLUMN_LAYOUT_AT_MOST_PX, RESERVATION_ORIGIN, TableReservationBlock, TableReservationError,
    WIDE_THEME_ABOVE_PX,
};
pub use shape::{
    DropShadow, MAX_SHADOW_PX, ShadowLength, ShadowUnit, ShapeBlock, ShapeBlockError, ShapeName,
};

/// A block placed in a layout column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub id: BlockId,
    pub content: BlockContent,
}

impl Block {
    /// The specification's type of the block; none for a plugin's custom type.
    pub fn block_type(&self) -> Option<BlockType> {
        self.content.block_type()
    }

    /// The specification's type code (001 s3), or 0 for a plugin's custom type.
    pub fn type_code(&self) -> u16 {
        self.block_type().map_or(0, BlockType::code)
    }
}

/// The data of each block type the runtime renders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum BlockContent {
    /// Rich text (headings, paragraphs, lists).
    Html {
        html: SafeHtml,
    },
    Image {
        image: MediaRef,
        caption: Option<String>,
        /// Where a click on the image leads.
        link: Option<String>,
    },
    Button {
        label: String,
        href: String,
        size: ButtonSize,
        alignment: Alignment,
        new_window: bool,
        /// A hint shown beside the button on hover and keyboard focus (001 s2 tooltip).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tooltip: Option<String>,
        /// A popup shown on click before the link is followed (001 s2 confirmation, alert and
        /// information popups); without JavaScript the link is followed directly.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        popup: Option<ButtonPopup>,
    },
    Quote {
        text: String,
        source: Option<String>,
    },
    Spacer {
        /// Height in multiples of the base spacing unit.
        size: u8,
    },
    HorizontalRule,
    Code {
        code: String,
    },
    Gallery {
        /// One of the designs of spec 001 s2 ("Gallery layouts").
        design: String,
        slides: Vec<GallerySlide>,
        lightbox: bool,
        autoplay: bool,
        /// Everything else a gallery may set; absent in data stored before it existed.
        #[serde(default)]
        options: GalleryOptions,
    },
    /// A list of another collection's items (summary v2).
    Summary {
        collection: CollectionId,
        title: Option<String>,
        design: SummaryDesign,
        limit: u8,
    },
    Form(FormBlock),
    Newsletter {
        title: String,
        description: String,
        button_label: String,
        placeholder: String,
    },
    Accordion {
        items: Vec<AccordionItem>,
        allow_multiple: bool,
        first_open: bool,
    },
    Marquee {
        text: String,
        props: MarqueeProps,
    },
    /// Words with an animated highlight drawn behind them (001 s3 text effect), inside a
    /// heading or a paragraph of plain text.
    TextEffect(TextEffectBlock),
    Map {
        location: MapLocation,
        style: MapStyle,
        /// The other UI options; sites stored before they existed read the defaults.
        #[serde(default)]
        options: MapUiOptions,
    },
    Video {
        url: String,
        provider: String,
        title: String,
        thumbnail: Option<MediaRef>,
        #[serde(default)]
        mode: VideoMode,
    },
    Product {
        item: ItemId,
    },
    SocialLinks {
        links: Vec<SocialLink>,
    },
    /// A donation button (type 52), leading to the donation page its id names.
    Donation(DonationBlock),
    /// The member-area block (000 s1): one member area's title, what its members get and how
    /// to join, with a link to the member-access page (the same for every visitor, so the
    /// page stays cacheable).
    MemberArea {
        area: super::Slug,
    },
    /// The language switcher as a block: the page in each of the site's published languages
    /// (the header has the same links); empty on a site with one language.
    LanguageSwitcher,
    Markdown(MarkdownBlock),
    Embed(EmbedBlock),
    Audio(AudioBlock),
    Shape(ShapeBlock),
    Menu(MenuBlock),
    Calendar(CalendarBlock),
    /// The booking service's table-reservation widget (OpenTable v2).
    TableReservation(TableReservationBlock),
    /// The follow button of a social account (001 s2, s3).
    FollowButton(FollowButtonBlock),
    /// A block of a type the platform does not render itself (chart, tour dates, or a custom
    /// type such as event summary), rendered by the WebAssembly plugin that claims the type,
    /// from data only that plugin interprets.
    Plugin {
        block_type: PluginBlockType,
        data: serde_json::Value,
    },
}

impl BlockContent {
    /// The specification's type of the block; none for a plugin's custom type.
    pub fn block_type(&self) -> Option<BlockType> {
        Some(match self {
            Self::Html { .. } => BlockType::Html,
            Self::Image { .. } => BlockType::Image,
            Self::Button { .. } => BlockType::Button,
            Self::Quote { .. } => BlockType::Quote,
            Self::Spacer { .. } => BlockType::Spacer,
            Self::HorizontalRule => BlockType::HorizontalRule,
            Self::Code { .. } => BlockType::Code,
            Self::Gallery { .. } => BlockType::Gallery,
            Self::Summary { .. } => BlockType::SummaryV2,
            Self::Form(_) => BlockType::Form,
            Self::Newsletter { .. } => BlockType::Newsletter,
            Self::Accordion { .. } => BlockType::Accordion,
            Self::Marquee { .. } => BlockType::Marquee,
            // The enumerations have no code of their own for it: a text effect is text.
            Self::TextEffect(_) => BlockType::Html,
            Self::Map { .. } => BlockType::Map,
            Self::Video { .. } => BlockType::Video,
            Self::Product { .. } => BlockType::Product,
            Self::SocialLinks { .. } => BlockType::SocialLinksV2,
            Self::Donation(_) => BlockType::Donation,
            // The enumerations have no code of their own for it: a language switcher is
            // navigation between the page's copies.
            Self::LanguageSwitcher => BlockType::Navigation,
            Self::MemberArea { .. } => BlockType::MemberArea,
            Self::Markdown(_) => BlockType::Markdown,
            Self::Embed(_) => BlockType::Embed,
            Self::Audio(_) => BlockType::Audio,
            Self::Shape(_) => BlockType::Shape,
            Self::Menu(_) => BlockType::Menu,
            Self::Calendar(_) => BlockType::Calendar,
            Self::TableReservation(_) => BlockType::OpenTableV2,
            // The enumerations have no follow button of their own; its script and account are
            // the platform's of the twitter block (6), as in the editor's block types.
            Self::FollowButton(_) => BlockType::Twitter,
            Self::Plugin {
                block_type: PluginBlockType::Spec(spec),
                ..
            } => *spec,
            Self::Plugin {
                block_type: PluginBlockType::Custom(_),
                ..
            } => return None,
        })
    }
}

/// The popup a button opens: only a confirm answer follows the button's link, so an alert
/// leads on after "OK" and an information popup only informs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ButtonPopup {
    pub kind: crate::widgets::PopupKind,
    pub title: String,
    pub message: String,
    /// Hides the popup by itself after this many milliseconds (an information popup hides
    /// after 2000 ms without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timer_ms: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ButtonSize {
    Small,
    Medium,
    Large,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Alignment {
    Left,
    Center,
    Right,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GallerySlide {
    pub id: String,
    /// The picture, or a video slide's thumbnail.
    pub image: MediaRef,
    pub title: Option<String>,
    pub caption: Option<String>,
    /// A video slide's address (YouTube or Vimeo); the image is then its thumbnail.
    #[serde(default)]
    pub video: Option<String>,
    /// Where a click on the slide leads instead of the lightbox (a click-through url).
    #[serde(default)]
    pub link: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummaryDesign {
    Grid,
    List,
    Carousel,
    Wall,
}

/// A form block: the fields a visitor fills in. Issue-level behaviour (validation, submission)
/// lives in the forms module; this is what the page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormBlock {
    pub form_id: String,
    pub title: Option<String>,
    pub fields: Vec<FormField>,
    pub submit_label: String,
    pub post_submit_message: SafeHtml,
    /// Where the visitor goes after a successful submission instead of seeing the message
    /// (checked by `forms::success_url`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_url: Option<String>,
}

/// One field of a form, with the editable properties of spec 001 s3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormField {
    pub id: String,
    pub field_type: FormFieldType,
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub placeholder: String,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub options: Vec<String>,
    pub max_length: Option<u32>,
}

/// The form field types of spec 001 s3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormFieldType {
    Text,
    Textarea,
    Email,
    Number,
    Website,
    Currency,
    Password,
    Twitter,
    Date,
    Time,
    Name,
    Address,
    Phone,
    Section,
    Radio,
    Checkbox,
    Select,
    Likert,
    Hidden,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccordionItem {
    pub title: String,
    pub body: SafeHtml,
}

/// Marquee props of spec 001 s3, with their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarqueeProps {
    pub wave_frequency: f64,
    pub wave_intensity: f64,
    pub animation_direction: MarqueeDirection,
    pub animation_speed: f64,
    pub paused_on_hover: bool,
}

impl Default for MarqueeProps {
    fn default() -> Self {
        Self {
            wave_frequency: 1.0,
            wave_intensity: 0.0,
            animation_direction: MarqueeDirection::Left,
            animation_speed: 1.0,
            paused_on_hover: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarqueeDirection {
    Left,
    Right,
}

/// A text-effect block: `before`, then the highlighted words, then `after`, as a heading of
/// `level` (1 to 6) or, without one, a paragraph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextEffectBlock {
    pub before: String,
    pub highlight: String,
    pub after: String,
    pub level: Option<u8>,
    pub effect: TextEffect,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SocialLink {
    pub service: String,
    pub url: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_know_their_spec_type_codes() {
        let block = BlockContent::Accordion {
            items: vec![],
            allow_multiple: false,
            first_open: true,
        };
        assert_eq!(block.block_type().map(BlockType::code), Some(69));
        assert_eq!(
            BlockContent::HorizontalRule
                .block_type()
                .map(BlockType::code),
            Some(47)
        );
        let custom = BlockContent::Plugin {
            block_type: PluginBlockType::Custom("event summary".to_owned()),
            data: serde_json::Value::Null,
        };
        assert_eq!(custom.block_type(), None);
    }
}
