//! Enumerations of the content model: blocks, collections, items and their statuses.

use super::macros::numeric_enum;

numeric_enum! {
    /// The kind of a content block (001 §3). Codes 15, 34 to 40 and 64 are not assigned.
    pub enum BlockType {
        Navigation = 1 => "navigation",
        Html = 2 => "html",
        Logo = 3 => "logo",
        Map = 4 => "map",
        Image = 5 => "image",
        Twitter = 6 => "twitter",
        Journal = 7 => "journal",
        Gallery = 8 => "gallery",
        Form = 9 => "form",
        Geo = 10 => "geo",
        Index = 11 => "index",
        CollectionLink = 12 => "collection link",
        Link = 13 => "link",
        TagCloud = 14 => "tag cloud",
        Comments = 16 => "comments",
        Folder = 17 => "folder",
        Menu = 18 => "menu",
        SocialLinks = 19 => "social links",
        Summary = 20 => "summary",
        Spacer = 21 => "spacer",
        Embed = 22 => "embed",
        Code = 23 => "code",
        Foursquare = 24 => "foursquare",
        Instagram = 25 => "instagram",
        Calendar = 26 => "calendar",
        PostsByAuthor = 27 => "posts by author",
        PostsByTag = 28 => "posts by tag",
        PostsByCategory = 29 => "posts by category",
        PostsByMonth = 30 => "posts by month",
        Quote = 31 => "quote",
        Video = 32 => "video",
        Search = 33 => "search",
        Audio = 41 => "audio",
        FiveHundredPx = 42 => "500px",
        Product = 43 => "product",
        Markdown = 44 => "markdown",
        Flickr = 45 => "flickr",
        Amazon = 46 => "amazon",
        HorizontalRule = 47 => "horizontal rule",
        SocialAccountLinks = 48 => "social account links",
        Rss = 49 => "rss",
        OpenTable = 50 => "opentable",
        Newsletter = 51 => "newsletter",
        Donation = 52 => "donation",
        Button = 53 => "button",
        SocialLinksV2 = 54 => "social links v2",
        SummaryV2 = 55 => "summary v2",
        SoundCloud = 56 => "soundcloud",
        EmailFooter = 57 => "email footer",
        InBrowserMessageLink = 58 => "in-browser message link",
        TourDates = 59 => "tour dates",
        Album = 60 => "album",
        Archive = 61 => "archive",
        Chart = 62 => "chart",
        Zola = 63 => "zola",
        Acuity = 65 => "acuity",
        OpenTableV2 = 66 => "opentable v2",
        MemberArea = 67 => "member area",
        Tock = 68 => "tock",
        Accordion = 69 => "accordion",
        Marquee = 70 => "marquee",
        Shape = 71 => "shape",
    }
}

numeric_enum! {
    /// The kind of a collection (001 §3). Code 9 is not assigned.
    pub enum CollectionType {
        Generic = 1 => "generic",
        Subscription = 2 => "subscription",
        Twitter = 3 => "twitter",
        Foursquare = 4 => "foursquare",
        Instagram = 5 => "instagram",
        GalleryBlock = 6 => "gallery block",
        TemplatePage = 7 => "template page",
        SplashPage = 8 => "splash page",
        Page = 10 => "page",
        FiveHundredPx = 11 => "500px",
        Flickr = 12 => "flickr",
        Products = 13 => "products",
        Mosaic = 14 => "mosaic",
        SlideGallery = 15 => "slide gallery",
        SlideAlbum = 16 => "slide album",
        SlideVideo = 17 => "slide video",
        AlbumBlock = 18 => "album block",
        Project = 19 => "project",
        SectionCatalog = 20 => "section catalog",
        PageCatalog = 21 => "page catalog",
        ItemCatalog = 22 => "item catalog",
        Portfolio = 23 => "portfolio",
        Lessons = 24 => "lessons",
    }
}

numeric_enum! {
    /// The kind of a content item (001 §3). The specification lists these and says others
    /// run "up to lesson 62" without showing them, so only the listed ones and `Lesson` exist.
    pub enum ItemType {
        Text = 1 => "text",
        Image = 2 => "image",
        Quote = 4 => "quote",
        Link = 5 => "link",
        Chat = 6 => "chat",
        Audio = 7 => "audio",
        Video = 8 => "video",
        Review = 10 => "review",
        StoreItem = 11 => "store item",
        Event = 12 => "event",
        Thread = 13 => "thread",
        Gallery = 14 => "gallery",
        Binary = 15 => "binary",
        DigitalGood = 18 => "digital good",
        Attachment = 19 => "attachment",
        ProseMirrorText = 22 => "prose-mirror text",
        Tweet = 50 => "tweet",
        Rss = 51 => "rss",
        Lesson = 62 => "lesson",
    }
}

numeric_enum! {
    /// The publication status of a content item (001 §3).
    pub enum ItemStatus {
        Published = 1 => "published",
        Scheduled = 2 => "scheduled",
        NeedsReview = 3 => "needs_review",
        Draft = 4 => "draft",
        Private = 5 => "private",
        Deleted = 6 => "deleted",
    }
}

impl ItemStatus {
    /// The workflow-state label of 000 §3: published is 'Available', scheduled is
    /// 'Scheduled', draft is 'Hidden' and any other state is 'Unsupported'.
    pub const fn workflow_label(self) -> &'static str {
        match self {
            Self::Published => "Available",
            Self::Scheduled => "Scheduled",
            Self::Draft => "Hidden",
            Self::NeedsReview | Self::Private | Self::Deleted => "Unsupported",
        }
    }
}
