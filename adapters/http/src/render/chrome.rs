//! The site's chrome around every page: the header (skip link, logo, main navigation, the
//! owner's header content) and the footer (footer navigation, social links, the owner's footer
//! content), the owner's parts from the site's header and footer data.

use askama::Template;
use vitrine_core::languages::{Alternate, MessageCatalog};
use vitrine_core::pages::PageView;
use vitrine_core::people::{ACCOUNT_PAGE_PATH, SIGN_IN_PATH};
use vitrine_core::site::{MEMBER_AREA_NAVIGATION_TYPE, MEMBER_AREAS_NAVIGATION, NavLink};

use super::blocks::SocialLinkView;
use super::image::{ImageSizes, ImageView, Loading};
use super::markup::Markup;
use super::urls;

#[derive(Debug, Template)]
#[template(path = "partials/header.html", whitespace = "minimize")]
pub(crate) struct Header<'a> {
    pub(crate) site_title: &'a str,
    pub(crate) logo: Option<ImageView<'a>>,
    pub(crate) links: Vec<NavItem<'a>>,
    /// The owner's header content (001 s3), cleaned HTML; empty shows nothing.
    pub(crate) content: Markup,
    pub(crate) texts: &'a MessageCatalog,
    /// The page in every published language; empty when the site has one language.
    pub(crate) languages: Vec<Alternate>,
    /// The member-area navigation, when the site has one.
    pub(crate) member_nav: Option<MemberNav<'a>>,
}

super::markup::nested_templates!(Header);

/// The special navigation `_memberareas` (001 s3): a link of the member-area navigation type
/// per member area, then signing in, or the account page for a signed-in site user.
#[derive(Debug)]
pub(crate) struct MemberNav<'a> {
    pub(crate) name: &'static str,
    pub(crate) link_type: &'static str,
    pub(crate) links: Vec<NavItem<'a>>,
    pub(crate) account_href: String,
    /// The message key of the account link's text.
    pub(crate) account_text: &'static str,
}

impl<'a> MemberNav<'a> {
    /// A signed-in site user's pages are rendered for them alone, so the link can say who
    /// is looking; an anonymous visitor's page (shared by every anonymous visitor) offers
    /// signing in and coming back to it.
    fn new(view: &'a PageView) -> Option<Self> {
        let links = &view.profile.navigation.member_areas;
        if links.is_empty() {
            return None;
        }
        let (account_href, account_text) = if view.context.authenticated_account.is_some() {
            (ACCOUNT_PAGE_PATH.to_owned(), "header.account")
        } else {
            let back: String = url::form_urlencoded::byte_serialize(view.path.as_bytes()).collect();
            (format!("{SIGN_IN_PATH}?return={back}"), "header.signIn")
        };
        Some(Self {
            name: MEMBER_AREAS_NAVIGATION,
            link_type: MEMBER_AREA_NAVIGATION_TYPE,
            links: links
                .iter()
                .map(|link| NavItem {
                    title: &link.title,
                    href: urls::safe_href(&link.href),
                    current: current_marker(&link.href, &view.path),
                })
                .collect(),
            account_href,
            account_text,
        })
    }
}

/// One navigation entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NavItem<'a> {
    pub(crate) title: &'a str,
    pub(crate) href: &'a str,
    /// `page` for the page itself, `true` for the section an item page belongs to.
    pub(crate) current: Option<&'static str>,
}

impl<'a> Header<'a> {
    pub(crate) fn new(view: &'a PageView) -> Self {
        let settings = &view.profile.settings;
        // The logo links home, so its text alternative is the site's name, whatever the
        // image's own alt text says. It sits above the page content and is small, so it loads
        // at once without taking the content's first-image priority.
        // Drawn 3rem (48 px) tall at its own ratio.
        let logo = settings.logo.as_ref().and_then(|logo| {
            let drawn = (48 * u64::from(logo.width)).div_ceil(u64::from(logo.height.max(1)));
            let sizes = ImageSizes::Pixels(u32::try_from(drawn).unwrap_or(u32::MAX));
            ImageView::new(logo, &settings.site_title, Loading::Eager, sizes)
        });
        Self {
            site_title: &settings.site_title,
            logo,
            links: nav_items(&view.profile.navigation.main, &view.path),
            content: Markup::sanitized(&view.profile.header_footer.header),
            texts: &view.profile.languages.messages,
            languages: view.profile.languages.alternates(&view.path),
            member_nav: MemberNav::new(view),
        }
    }
}

#[derive(Debug, Template)]
#[template(path = "partials/footer.html", whitespace = "minimize")]
pub(crate) struct Footer<'a> {
    pub(crate) links: Vec<NavItem<'a>>,
    pub(crate) social: Vec<SocialLinkView<'a>>,
    /// The owner's footer content (001 s3), cleaned HTML; empty shows nothing.
    pub(crate) content: Markup,
    pub(crate) texts: &'a MessageCatalog,
    /// The mobile information bar, when the site has one.
    pub(crate) information_bar: Option<super::information_bar::InformationBarView<'a>>,
}

super::markup::nested_templates!(Footer);

impl<'a> Footer<'a> {
    /// The site model keeps social accounts among the footer links; links to a known social
    /// service are shown apart, as the site's social links.
    pub(crate) fn new(view: &'a PageView) -> Self {
        let (social, links): (Vec<&NavLink>, Vec<&NavLink>) = view
            .profile
            .navigation
            .footer
            .iter()
            .partition(|link| super::blocks::social_service_of(&link.href).is_some());
        Self {
            links: nav_items(links, &view.path),
            social: social
                .into_iter()
                .map(|link| {
                    let service = super::blocks::social_service_of(&link.href).unwrap_or_default();
                    let label = if link.title.trim().is_empty() {
                        service
                    } else {
                        &link.title
                    };
                    SocialLinkView::new(label, &link.href)
                })
                .collect(),
            content: Markup::sanitized(&view.profile.header_footer.footer),
            texts: &view.profile.languages.messages,
            information_bar: super::information_bar::InformationBarView::new(
                view.profile.settings.information_bar.as_ref(),
            ),
        }
    }
}

fn nav_items<'a>(
    links: impl IntoIterator<Item = &'a NavLink>,
    page_path: &str,
) -> Vec<NavItem<'a>> {
    links
        .into_iter()
        .map(|link| {
            let href = urls::safe_href(&link.href);
            NavItem {
                title: &link.title,
                href,
                current: current_marker(href, page_path),
            }
        })
        .collect()
}

/// `aria-current` for a navigation link on the page at `page_path`.
fn current_marker(href: &str, page_path: &str) -> Option<&'static str> {
    if !href.starts_with('/') {
        return None;
    }
    let href = href.split(['?', '#']).next().unwrap_or(href);
    let trimmed = |path: &str| -> String {
        let path = path.trim_end_matches('/');
        if path.is_empty() {
            "/".to_owned()
        } else {
            path.to_owned()
        }
    };
    let (href, page) = (trimmed(href), trimmed(page_path));
    if href == page {
        Some("page")
    } else if href != "/" && page.starts_with(&format!("{href}/")) {
        Some("true")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_page_and_its_section_are_marked() {
        assert_eq!(current_marker("/shop", "/shop"), Some("page"));
        assert_eq!(current_marker("/shop/", "/shop"), Some("page"));
        assert_eq!(current_marker("/", "/"), Some("page"));
        assert_eq!(current_marker("/shop", "/shop/tote"), Some("true"));
        assert_eq!(current_marker("/", "/shop"), None);
        assert_eq!(current_marker("/shopping", "/shop"), None);
        assert_eq!(current_marker("https://example.com/shop", "/shop"), None);
    }
}
