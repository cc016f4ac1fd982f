//! The shape of each block type's fields (everything but `type` and `id`, which every block
//! shares and which are read before the rest).

use serde::Deserialize;

use crate::bundle::dto::ImageDto;

/// Every block type a bundle can use, as written in its `type` field.
pub(crate) const BLOCK_TYPES: [&str; 29] = [
    "html",
    "markdown",
    "heading",
    "image",
    "button",
    "quote",
    "spacer",
    "horizontal-rule",
    "code",
    "gallery",
    "summary",
    "form",
    "newsletter",
    "accordion",
    "marquee",
    "text-effect",
    "map",
    "video",
    "product",
    "social-links",
    "donation",
    "embed",
    "audio",
    "shape",
    "menu",
    "calendar",
    "table-reservation",
    "follow-button",
    "plugin",
];

/// A block a WebAssembly plugin renders: the specification's block type code it claims (62
/// for chart, 59 for tour dates) and the data only that plugin interprets.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct PluginBlockDto {
    pub block_type: PluginTypeDto,
    #[serde(default)]
    pub data: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HtmlDto {
    pub html: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MarkdownDto {
    pub markdown: String,
}

/// A heading, the most common text block, without writing HTML.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HeadingDto {
    pub text: String,
    #[serde(default = "default_heading_level")]
    pub level: u8,
}

fn default_heading_level() -> u8 {
    2
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImageBlockDto {
    pub image: ImageDto,
    pub caption: Option<String>,
    pub link: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ButtonDto {
    pub label: String,
    pub href: String,
    #[serde(default)]
    pub size: ButtonSizeDto,
    #[serde(default)]
    pub alignment: AlignmentDto,
    #[serde(default)]
    pub new_window: bool,
    pub tooltip: Option<String>,
    pub popup: Option<ButtonPopupDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ButtonPopupDto {
    pub kind: PopupKindDto,
    pub title: String,
    pub message: String,
    pub timer: Option<u32>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum PopupKindDto {
    Confirmation,
    Alert,
    Information,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ButtonSizeDto {
    Small,
    #[default]
    Medium,
    Large,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum AlignmentDto {
    #[default]
    Left,
    Center,
    Right,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QuoteDto {
    pub text: String,
    pub source: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpacerDto {
    #[serde(default = "default_spacer_size")]
    pub size: u8,
}

fn default_spacer_size() -> u8 {
    1
}

/// The member-area block: the member area it shows, by id.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MemberAreaBlockDto {
    pub area: String,
}

/// A block with no fields of its own (the horizontal rule).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoFieldsDto {}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CodeDto {
    pub code: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GalleryDto {
    #[serde(default)]
    pub design: GalleryDesignDto,
    pub slides: Vec<SlideDto>,
    #[serde(default = "lightbox_by_default")]
    pub lightbox: bool,
    #[serde(default)]
    pub autoplay: bool,
    /// Seconds between slides.
    #[serde(rename = "autoplay-duration")]
    pub autoplay_duration: Option<u32>,
    #[serde(rename = "slidesPerRow")]
    pub slides_per_row: Option<u8>,
    /// A number, or a string read as an integer (001 s5).
    #[serde(rename = "columnWidth")]
    pub column_width: Option<toml::Value>,
    pub gutter: Option<u16>,
    #[serde(rename = "rowHeight")]
    pub row_height: Option<u16>,
    /// Width over height in percent, or "Auto".
    #[serde(rename = "imageAspectRatio")]
    pub aspect_ratio: Option<toml::Value>,
    #[serde(rename = "lightboxTheme")]
    pub lightbox_theme: Option<String>,
    pub transition: Option<String>,
    #[serde(rename = "loop")]
    pub looping: Option<bool>,
    #[serde(default)]
    pub history: bool,
    #[serde(rename = "active-alignment")]
    pub strip_alignment: Option<String>,
}

fn lightbox_by_default() -> bool {
    true
}

/// The gallery designs of spec 001 s2 "Gallery layouts".
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum GalleryDesignDto {
    Stacked,
    Slider,
    Slideshow,
    #[default]
    Grid,
    Autogrid,
    Autocolumns,
    Autorows,
    Carousel,
    List,
}

impl GalleryDesignDto {
    pub fn name(self) -> &'static str {
        match self {
            Self::Stacked => "stacked",
            Self::Slider => "slider",
            Self::Slideshow => "slideshow",
            Self::Grid => "grid",
            Self::Autogrid => "autogrid",
            Self::Autocolumns => "autocolumns",
            Self::Autorows => "autorows",
            Self::Carousel => "carousel",
            Self::List => "list",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SlideDto {
    pub id: Option<String>,
    pub image: ImageDto,
    pub title: Option<String>,
    pub caption: Option<String>,
    /// A YouTube or Vimeo address: the slide is a video, the image its thumbnail.
    pub video: Option<String>,
    /// A click-through url.
    pub link: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SummaryDto {
    /// The slug of a blog or shop collection.
    pub collection: String,
    pub title: Option<String>,
    #[serde(default)]
    pub design: SummaryDesignDto,
    #[serde(default = "default_summary_limit")]
    pub limit: u8,
}

fn default_summary_limit() -> u8 {
    3
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum SummaryDesignDto {
    #[default]
    Grid,
    List,
    Carousel,
    Wall,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FormDto {
    pub form_id: Option<String>,
    pub title: Option<String>,
    pub fields: Vec<FormFieldDto>,
    #[serde(default = "default_submit_label")]
    pub submit_label: String,
    /// Markdown shown after a successful submission.
    pub post_submit_message: Option<String>,
    /// A site path or http(s) URL to go to after a successful submission instead.
    pub success_url: Option<String>,
}

fn default_submit_label() -> String {
    "Submit".to_owned()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FormFieldDto {
    pub id: Option<String>,
    #[serde(rename = "type")]
    pub field_type: FormFieldTypeDto,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum FormFieldTypeDto {
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewsletterDto {
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_newsletter_button")]
    pub button_label: String,
    #[serde(default = "default_newsletter_placeholder")]
    pub placeholder: String,
}

/// A donation block: amounts in minor units of the store's currency.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DonationDto {
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default = "default_donation_button")]
    pub button_label: String,
    #[serde(default)]
    pub amounts: Vec<i64>,
    #[serde(default = "default_donation_minimum")]
    pub minimum: i64,
    #[serde(default = "default_donation_maximum")]
    pub maximum: i64,
    #[serde(default = "default_donation_thank_you")]
    pub thank_you: String,
}

fn default_donation_button() -> String {
    "Donate".to_owned()
}

/// 1.00 in a currency with cents.
fn default_donation_minimum() -> i64 {
    100
}

/// 10,000.00 in a currency with cents.
fn default_donation_maximum() -> i64 {
    1_000_000
}

fn default_donation_thank_you() -> String {
    "Your support means a great deal to us.".to_owned()
}

fn default_newsletter_button() -> String {
    "Sign Up".to_owned()
}

fn default_newsletter_placeholder() -> String {
    "Email Address".to_owned()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AccordionDto {
    pub items: Vec<AccordionItemDto>,
    #[serde(default)]
    pub allow_multiple: bool,
    #[serde(default)]
    pub first_open: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AccordionItemDto {
    pub title: String,
    /// Markdown.
    pub body: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MarqueeDto {
    pub text: String,
    pub wave_frequency: Option<f64>,
    pub wave_intensity: Option<f64>,
    pub direction: Option<MarqueeDirectionDto>,
    pub speed: Option<f64>,
    pub paused_on_hover: Option<bool>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MarqueeDirectionDto {
    Left,
    Right,
}

/// Words with an animated highlight: `text` holds them with the highlighted part between
/// `[[` and `]]`, as in `"Made [[slowly]], by hand"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TextEffectDto {
    pub text: String,
    pub level: Option<u8>,
    pub shape: Option<String>,
    pub animation: Option<String>,
    pub direction: Option<MarqueeDirectionDto>,
    pub linecap: Option<LinecapDto>,
    pub duration: Option<f64>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum LinecapDto {
    Butt,
    Round,
    Square,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MapDto {
    pub lat: Option<f64>,
    pub lng: Option<f64>,
    pub marker_lat: Option<f64>,
    pub marker_lng: Option<f64>,
    pub zoom: Option<u8>,
    #[serde(default)]
    pub address_title: String,
    #[serde(default)]
    pub address_line1: String,
    #[serde(default)]
    pub address_line2: String,
    #[serde(default)]
    pub address_country: String,
    #[serde(default)]
    pub style: MapStyleDto,
    pub show_labels: Option<bool>,
    pub show_terrain: Option<bool>,
    pub draggable: Option<bool>,
    pub scrollwheel: Option<bool>,
    pub show_controls: Option<bool>,
    pub disable_default_ui: Option<bool>,
    pub marker_draggable: Option<bool>,
    pub link_on_click: Option<bool>,
}

/// The map styles of spec 001 s3.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MapStyleDto {
    #[default]
    Original,
    Grayscale,
    Satellite,
    MinimalDark,
    MinimalLight,
    MinimalBlue,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct VideoDto {
    pub url: String,
    pub provider: Option<String>,
    pub title: String,
    pub thumbnail: Option<ImageDto>,
    /// none, fit or fill (001 s5); fit when absent.
    #[serde(default)]
    pub mode: crate::gallery::VideoMode,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProductBlockDto {
    /// `<collection slug>/<item slug>` of a product.
    pub item: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SocialLinksDto {
    pub links: Vec<SocialLinkDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SocialLinkDto {
    pub service: String,
    pub url: String,
}

/// `block-type` of a plugin block: the specification's code (62) or a type's name, custom
/// (`"event summary"`) or the specification's (`"chart"`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum PluginTypeDto {
    Code(u16),
    Name(String),
}
