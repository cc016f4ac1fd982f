//! The main content of each kind of page: a layout page, a blog or shop, a post, a product,
//! and the not-found, error and lock pages.

use std::fmt;

use askama::Template;
use vitrine_core::pages::{PageContent, access};
use vitrine_core::site::Collection;

use super::items::{ItemListPage, PostPage, ProductPage};
use super::layout::LayoutView;
use super::scope::RenderScope;

/// What goes inside `<main>`.
#[derive(Debug)]
pub(crate) enum PageMain<'a> {
    Layout(LayoutPage<'a>),
    ItemList(ItemListPage<'a>),
    Post(PostPage<'a>),
    // Boxed: a product page carries much more than the other pages.
    Product(Box<ProductPage<'a>>),
    Status(StatusPage),
    Slide(super::slide_page::SlidePage<'a>),
    /// A cart, checkout or order page, rendered by its handler for one shopper.
    Commerce(&'a super::commerce_pages::CommerceMain),
}

impl<'a> PageMain<'a> {
    pub(crate) fn new(scope: &RenderScope<'a>) -> Self {
        match &scope.view.content {
            PageContent::Layout { collection } => Self::Layout(LayoutPage::new(scope, collection)),
            PageContent::ItemList { collection, items } => {
                Self::ItemList(ItemListPage::new(scope, collection, items))
            }
            PageContent::Item { collection, item } => match &item.product {
                Some(product) => {
                    Self::Product(Box::new(ProductPage::new(scope, collection, item, product)))
                }
                None => Self::Post(PostPage::new(scope, collection, item)),
            },
            PageContent::Slide {
                collection,
                page_path,
                slide,
            } => Self::Slide(super::slide_page::SlidePage::new(
                scope, collection, page_path, slide,
            )),
            PageContent::NotFound => Self::Status(StatusPage::not_found()),
            PageContent::Error => Self::Status(StatusPage::error()),
            PageContent::Locked { access, refusal } => Self::Status(StatusPage::locked(
                *access,
                &scope.view.path,
                refusal.as_deref(),
            )),
            // A commerce page's content belongs to one shopper and comes with the call that
            // renders it (`render_commerce_page`); without it there is nothing to show.
            PageContent::Commerce => Self::Status(StatusPage::error()),
        }
    }
}

impl fmt::Display for PageMain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Layout(page) => page.fmt(f),
            Self::ItemList(page) => page.fmt(f),
            Self::Post(page) => page.fmt(f),
            Self::Product(page) => page.fmt(f),
            Self::Status(page) => page.fmt(f),
            Self::Slide(page) => page.fmt(f),
            Self::Commerce(page) => page.fmt(f),
        }
    }
}

// Every variant is an escaped template of this module.
impl askama::filters::HtmlSafe for PageMain<'_> {}

/// A layout page: its title as the `h1` (unless its text has one) and its blocks.
#[derive(Debug, Template)]
#[template(path = "pages/layout.html", whitespace = "minimize")]
pub(crate) struct LayoutPage<'a> {
    pub(crate) heading: Option<&'a str>,
    /// The home page's `h1` is the site title, which the header already shows, so it is there
    /// for assistive technology only.
    pub(crate) heading_hidden: bool,
    pub(crate) layout: LayoutView<'a>,
}

impl<'a> LayoutPage<'a> {
    fn new(scope: &RenderScope<'a>, collection: &'a Collection) -> Self {
        let layout = LayoutView::new(scope, &collection.body.layout);
        let settings = &scope.view.profile.settings;
        let is_home = collection.id == settings.home_collection;
        let heading = if layout.has_main_heading() {
            None
        } else if is_home {
            Some(settings.site_title.as_str())
        } else {
            Some(collection.title.as_str())
        };
        Self {
            heading,
            heading_hidden: is_home,
            layout,
        }
    }
}

/// The not-found (page type 100), error (101), lock-screen (103) and member-area
/// access-denied (106) pages.
#[derive(Debug, Template)]
#[template(path = "pages/status.html", whitespace = "minimize")]
pub(crate) struct StatusPage {
    pub(crate) code: u16,
    pub(crate) heading: &'static str,
    pub(crate) text: &'static str,
    /// Where the page's button leads and what it says: home, or signing in.
    pub(crate) next: (String, &'static str),
    /// The lock screen's password form, in place of the button.
    pub(crate) password_form: Option<PasswordForm>,
}

/// The lock screen's form: it posts the password without JavaScript and comes back to the
/// locked page.
#[derive(Debug)]
pub(crate) struct PasswordForm {
    pub(crate) action: &'static str,
    pub(crate) return_to: String,
    /// Why the password just entered did not open the page.
    pub(crate) refusal: Option<String>,
}

impl StatusPage {
    fn home(code: u16, heading: &'static str, text: &'static str) -> Self {
        Self {
            code,
            heading,
            text,
            next: ("/".to_owned(), "Go to the home page"),
            password_form: None,
        }
    }

    pub(crate) fn not_found() -> Self {
        Self::home(
            404,
            "Page not found",
            "We couldn’t find the page you were looking for. It may have moved, or the address may have a typo.",
        )
    }

    /// The headings are the specification's; the sentences under them are ours. A visitor
    /// who has not signed in is offered the member-access page, which comes back to `path`.
    pub(crate) fn locked(decision: access::Access, path: &str, refusal: Option<&str>) -> Self {
        let member_access = format!(
            "{}?return={}",
            vitrine_core::people::MEMBER_ACCESS_PATH,
            query_component(path)
        );
        match decision {
            access::Access::SignInRequired => Self {
                next: (member_access, "Sign in or join"),
                ..Self::home(
                    403,
                    access::MEMBERS_ONLY_HEADING,
                    "Site members can see this page once they sign in.",
                )
            },
            access::Access::NotAMember => Self {
                next: (member_access, "See membership options"),
                ..Self::home(
                    403,
                    access::MEMBERS_ONLY_HEADING,
                    "Your account is not a member of the area this page belongs to.",
                )
            },
            // A media file is opened by the password of the page that shows it; its address
            // names no page to unlock, so the form is offered there.
            access::Access::LockScreen | access::Access::Allowed
                if path.starts_with(vitrine_core::site::MEDIA_PREFIX) =>
            {
                Self::home(
                    403,
                    access::LOCKED_HEADING,
                    "This file belongs to a page protected with a password. Enter the password on that page first.",
                )
            }
            access::Access::LockScreen | access::Access::Allowed => Self {
                password_form: Some(PasswordForm {
                    action: vitrine_core::pages::unlock::PAGE_PASSWORD_PATH,
                    return_to: path.to_owned(),
                    refusal: refusal.map(str::to_owned),
                }),
                ..Self::home(
                    403,
                    access::LOCKED_HEADING,
                    "This page is protected with a password. Enter it to see the page.",
                )
            },
        }
    }

    pub(crate) fn error() -> Self {
        Self::home(
            500,
            "Something went wrong",
            "We couldn’t show this page just now. Please try again in a moment.",
        )
    }
}

fn query_component(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}
