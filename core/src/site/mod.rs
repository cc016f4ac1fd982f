//! The site model: the website, its settings and navigation, collections, items, layouts,
//! blocks and media, and [`Site`], the whole of one site as imported from a bundle.

mod blocks;
mod content;
mod donation_block;
mod html;
mod ids;
mod image_widths;
mod index;
mod information_bar;
mod layout;
mod map;
mod media;
mod member_area;
mod page_password;
mod validation;
mod website;

pub use blocks::{
    AccordionItem, Alignment, AudioBlock, AudioBlockError, AudioTrack, Block, BlockContent,
    ButtonPopup, ButtonSize, COLUMN_LAYOUT_AT_MOST_PX, CalendarBlock, CalendarDay, CalendarGrid,
    CalendarMonth, DEFAULT_EMBED_HEIGHT, DropShadow, EMBED_HEIGHTS, EmbedBlock, EmbedBlockError,
    EmbedSource, FOLLOW_BUTTON_ORIGIN, FOLLOW_BUTTON_SCRIPT, FOLLOW_BUTTON_SCRIPT_TIMEOUT_MS,
    FollowButtonBlock, FollowButtonError, FormBlock, FormField, FormFieldType, GallerySlide,
    MAX_AUDIO_TRACKS, MAX_CALENDAR_MONTHS, MAX_MENU_TABS, MAX_SHADOW_PX, MarkdownBlock,
    MarqueeDirection, MarqueeProps, MenuBlock, MenuBlockError, MenuItem, MenuSection, MenuTab,
    RESERVATION_ORIGIN, ShadowLength, ShadowUnit, ShapeBlock, ShapeBlockError, ShapeName,
    SocialLink, SummaryDesign, TableReservationBlock, TableReservationError, TextEffectBlock,
    WIDE_THEME_ABOVE_PX, YearMonth, YearMonthError, calendar_months, markdown_html,
};
pub use content::{Collection, Item, PermissionType, Seo};
pub use donation_block::{DonationBlock, DonationBlockError, MAX_SUGGESTED_AMOUNTS};
pub use html::SafeHtml;
pub(crate) use ids::is_opaque_token;
pub use ids::{BlockId, CollectionId, IdError, ItemId, Slug, WebsiteId};
pub use image_widths::{IMAGE_WIDTHS, ImageWidth, SizeFormat, split_filename_variant, variant_url};
pub use information_bar::{InformationBar, InformationBarError, MAX_INFORMATION_BAR_TEXT};
pub use layout::{Body, Column, GRID_COLUMNS, Layout, LayoutError, MAX_BLOCKS_PER_LAYOUT, Row};
pub use map::{MapLocation, MapLocationError, MapLocationInput, MapStyle, MapUiOptions};
pub use media::{MEDIA_PREFIX, MediaFile, MediaRef, content_hash};
pub use member_area::{MemberArea, MemberAreaAccess};
pub use page_password::PagePassword;
pub use validation::{
    MAX_CATEGORY_LEN, MAX_ITEMS_PER_COLLECTION, MAX_PRODUCTS_PER_COLLECTION, MAX_TAG_LEN, Menu,
    SiteError, SitePlace, SiteProblem,
};
pub use website::{
    CookieBannerLook, CookieSettings, HIDDEN_NAVIGATION, MEMBER_AREA_NAVIGATION_TYPE,
    MEMBER_AREAS_NAVIGATION, MemberAreaLink, NavLink, Navigation, PopupContent,
    PopupOverlaySettings, StoreSettings, TemplateInfo, Website, WebsiteSettings,
};

/// One whole site: what an import writes and what a repository serves.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub website: Website,
    pub settings: WebsiteSettings,
    pub navigation: Navigation,
    pub collections: Vec<Collection>,
    pub items: Vec<Item>,
    pub media: Vec<MediaFile>,
}

/// The parts of a site every page needs, whatever its content.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteProfile {
    pub website: Website,
    pub settings: WebsiteSettings,
    pub navigation: Navigation,
    /// The header and footer every page shows: the owner's when set, else the settings'
    /// footer text ([`crate::header_footer::HeaderFooter::from_footer_text`]).
    pub header_footer: crate::header_footer::HeaderFooter,
    /// The published languages and the one the page is in
    /// ([`crate::languages::SiteLanguages::of`] the settings until the page service narrows it).
    pub languages: crate::languages::SiteLanguages,
}
