//! Text-like blocks: rich text, buttons, quotes, spacers, code and social links.

use askama::Template;
use vitrine_core::site::{Alignment, ButtonSize, SafeHtml, SocialLink};

use crate::render::markup::Markup;
use crate::render::urls;

#[derive(Debug, Template)]
#[template(path = "blocks/html.html", whitespace = "minimize")]
pub(crate) struct HtmlBlock {
    pub(crate) html: Markup,
}

impl HtmlBlock {
    pub(crate) fn new(html: &SafeHtml) -> Self {
        Self {
            html: Markup::sanitized(html),
        }
    }
}

#[derive(Debug, Template)]
#[template(path = "blocks/button.html", whitespace = "minimize")]
pub(crate) struct ButtonBlock<'a> {
    pub(crate) label: &'a str,
    pub(crate) href: &'a str,
    pub(crate) size: &'static str,
    pub(crate) alignment: &'static str,
    pub(crate) new_window: bool,
    /// The tooltip's text and the id that ties it to the button (`aria-describedby`), so the
    /// hint is read without JavaScript too.
    pub(crate) tooltip: Option<(&'a str, String)>,
}

impl<'a> ButtonBlock<'a> {
    pub(crate) fn new(
        label: &'a str,
        href: &'a str,
        size: ButtonSize,
        alignment: Alignment,
        new_window: bool,
    ) -> Self {
        Self {
            label,
            href: urls::safe_href(href),
            size: match size {
                ButtonSize::Small => "small",
                ButtonSize::Medium => "medium",
                ButtonSize::Large => "large",
            },
            alignment: alignment_class(alignment),
            new_window,
            tooltip: None,
        }
    }
}

pub(crate) fn alignment_class(alignment: Alignment) -> &'static str {
    match alignment {
        Alignment::Left => "left",
        Alignment::Center => "center",
        Alignment::Right => "right",
    }
}

#[derive(Debug, Template)]
#[template(path = "blocks/quote.html", whitespace = "minimize")]
pub(crate) struct QuoteBlock<'a> {
    pub(crate) text: &'a str,
    pub(crate) source: Option<&'a str>,
}

/// Empty vertical space; its height is one of a fixed set of classes, because the pages'
/// Content-Security-Policy allows no inline styles.
#[derive(Debug, Template)]
#[template(path = "blocks/spacer.html", whitespace = "minimize")]
pub(crate) struct SpacerBlock {
    pub(crate) size: u8,
}

impl SpacerBlock {
    /// The stylesheet has spacer classes for sizes 0 to 12 base units.
    pub(crate) const MAX_SIZE: u8 = 12;

    pub(crate) fn new(size: u8) -> Self {
        Self {
            size: size.min(Self::MAX_SIZE),
        }
    }
}

/// The language switcher block: the page in each published language, each named in itself,
/// the current one marked. A list rather than a second `nav` landmark, since the header's
/// switcher is the page's language navigation.
#[derive(Debug, Template)]
#[template(path = "blocks/language_switcher.html", whitespace = "minimize")]
pub(crate) struct LanguageSwitcherBlock<'a> {
    pub(crate) label: &'a str,
    pub(crate) languages: Vec<vitrine_core::languages::Alternate>,
}

impl<'a> LanguageSwitcherBlock<'a> {
    pub(crate) fn new(view: &'a vitrine_core::pages::PageView) -> Self {
        let languages = &view.profile.languages;
        Self {
            label: languages.messages.text("languages.label"),
            languages: languages.alternates(&view.path),
        }
    }
}

/// A code block shows its code as text: it is never run or inserted as markup.
#[derive(Debug, Template)]
#[template(path = "blocks/code.html", whitespace = "minimize")]
pub(crate) struct CodeBlock<'a> {
    pub(crate) code: &'a str,
}

#[derive(Debug, Template)]
#[template(path = "blocks/social_links.html", whitespace = "minimize")]
pub(crate) struct SocialLinksBlock<'a> {
    pub(crate) links: Vec<SocialLinkView<'a>>,
}

impl<'a> SocialLinksBlock<'a> {
    pub(crate) fn new(links: &'a [SocialLink]) -> Self {
        Self {
            links: links
                .iter()
                .map(|link| SocialLinkView::new(&link.service, &link.url))
                .collect(),
        }
    }
}

/// A link to one of the site's social accounts, labelled with the service's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SocialLinkView<'a> {
    pub(crate) label: String,
    pub(crate) href: &'a str,
}

impl<'a> SocialLinkView<'a> {
    pub(crate) fn new(service: &str, url: &'a str) -> Self {
        Self {
            label: service_name(service),
            href: urls::safe_href(url),
        }
    }
}

/// Services a social link or footer link may point at: (key, host, name people know it by).
const SOCIAL_SERVICES: &[(&str, &str, &str)] = &[
    ("instagram", "instagram.com", "Instagram"),
    ("facebook", "facebook.com", "Facebook"),
    ("x", "x.com", "X"),
    ("twitter", "twitter.com", "Twitter"),
    ("pinterest", "pinterest.com", "Pinterest"),
    ("tiktok", "tiktok.com", "TikTok"),
    ("youtube", "youtube.com", "YouTube"),
    ("vimeo", "vimeo.com", "Vimeo"),
    ("linkedin", "linkedin.com", "LinkedIn"),
    ("threads", "threads.net", "Threads"),
    ("mastodon", "mastodon.social", "Mastodon"),
    ("bluesky", "bsky.app", "Bluesky"),
    ("etsy", "etsy.com", "Etsy"),
    ("behance", "behance.net", "Behance"),
    ("dribbble", "dribbble.com", "Dribbble"),
    ("github", "github.com", "GitHub"),
    ("spotify", "spotify.com", "Spotify"),
    ("soundcloud", "soundcloud.com", "SoundCloud"),
    ("tumblr", "tumblr.com", "Tumblr"),
];

/// The display name of a social service key ("instagram" reads "Instagram"); an unknown key is
/// shown as the owner wrote it.
fn service_name(service: &str) -> String {
    let key = service.trim().to_ascii_lowercase();
    SOCIAL_SERVICES
        .iter()
        .find(|(known, _, _)| *known == key)
        .map(|(_, _, name)| (*name).to_owned())
        .unwrap_or_else(|| service.trim().to_owned())
}

/// The social service an absolute URL belongs to, by its host (`www.` and other subdomains
/// included), for sorting footer links into social links.
pub(crate) fn social_service_of(url: &str) -> Option<&'static str> {
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#', ':']).next()?;
    SOCIAL_SERVICES.iter().find_map(|(_, domain, name)| {
        let matches = host == *domain || host.ends_with(&format!(".{domain}"));
        matches.then_some(*name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn social_links_are_recognised_by_host() {
        assert_eq!(
            social_service_of("https://www.instagram.com/studio"),
            Some("Instagram")
        );
        assert_eq!(social_service_of("https://x.com/studio"), Some("X"));
        assert_eq!(social_service_of("https://notinstagram.com/studio"), None);
        assert_eq!(social_service_of("/instagram"), None);
    }

    #[test]
    fn services_are_named_the_way_people_know_them() {
        assert_eq!(service_name("youtube"), "YouTube");
        assert_eq!(service_name(" Ravelry "), "Ravelry");
    }
}

/// The member-area block (000 s1): the area's title, what its members get, how to join, and
/// a link to the member-access page, which comes back to this page. It is the same for every
/// visitor, so the page that holds it stays in the shared cache.
#[derive(Debug, Template)]
#[template(path = "blocks/member_area.html", whitespace = "minimize")]
pub(crate) struct MemberAreaBlock<'a> {
    pub(crate) block_id: &'a str,
    pub(crate) title: &'a str,
    pub(crate) description: &'a str,
    pub(crate) access: &'static str,
    pub(crate) href: String,
}

impl<'a> MemberAreaBlock<'a> {
    /// None when the site has no such area (an import refuses that, so only a site changed
    /// since could).
    pub(crate) fn new(
        view: &'a vitrine_core::pages::PageView,
        block_id: &'a str,
        area: &vitrine_core::site::Slug,
    ) -> Option<Self> {
        let area = view
            .profile
            .settings
            .member_areas
            .iter()
            .find(|candidate| &candidate.id == area)?;
        let back: String = url::form_urlencoded::byte_serialize(view.path.as_bytes()).collect();
        Some(Self {
            block_id,
            title: &area.title,
            description: &area.description,
            access: if area.is_free() {
                "Free with a site account."
            } else {
                "Members join by subscribing to one of its plans."
            },
            href: format!("{}?return={back}", vitrine_core::people::MEMBER_ACCESS_PATH),
        })
    }
}
