//! The main content of the site-user pages (sign in, sign up, confirm, password reset, the
//! account page and the member-access page), rendered inside the site's chrome. Every form
//! posts to a route outside `/api`, so the pages work without JavaScript; the same-origin
//! check guards those posts, and a signed-in user's forms also carry the session's XSRF
//! token. They show one visitor's state, so they are never cached.

use askama::Template;

/// What a people page shows inside `<main>`.
#[derive(Debug)]
pub(crate) enum PeopleMain {
    Form(FormMain),
    Account(AccountMain),
    // Boxed: it holds two forms besides its areas.
    MemberAccess(Box<MemberAccessMain>),
}

impl std::fmt::Display for PeopleMain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Form(main) => main.fmt(f),
            Self::Account(main) => main.fmt(f),
            Self::MemberAccess(main) => main.fmt(f),
        }
    }
}

impl PeopleMain {
    /// The islands its markup asks for.
    pub(crate) fn islands(&self) -> std::collections::BTreeSet<&'static str> {
        match self {
            Self::MemberAccess(main) if main.areas.iter().any(|area| area.yearly.is_some()) => {
                ["pricing-toggle"].into_iter().collect()
            }
            _ => std::collections::BTreeSet::new(),
        }
    }
}

/// A message above a form: `role="status"` for news, `role="alert"` for a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notice {
    pub(crate) text: String,
    pub(crate) is_error: bool,
}

impl Notice {
    pub(crate) fn info(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: false,
        }
    }

    pub(crate) fn error(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: true,
        }
    }
}

/// One input of a form.
#[derive(Debug, Clone)]
pub(crate) struct Input {
    pub(crate) name: &'static str,
    pub(crate) label: &'static str,
    /// `email`, `password` or `checkbox`.
    pub(crate) kind: &'static str,
    pub(crate) autocomplete: &'static str,
    pub(crate) value: String,
}

impl Input {
    pub(crate) fn email(value: &str) -> Self {
        Self {
            name: "email",
            label: "Email",
            kind: "email",
            autocomplete: "email",
            value: value.to_owned(),
        }
    }

    pub(crate) fn password(autocomplete: &'static str) -> Self {
        Self {
            name: "password",
            label: "Password",
            kind: "password",
            autocomplete,
            value: String::new(),
        }
    }

    pub(crate) fn remember_me() -> Self {
        Self {
            name: "rememberMe",
            label: "Keep me signed in for 30 days",
            kind: "checkbox",
            autocomplete: "off",
            value: "true".to_owned(),
        }
    }
}

/// A link under a form.
#[derive(Debug, Clone)]
pub(crate) struct Link {
    pub(crate) href: String,
    pub(crate) text: &'static str,
}

/// A page that is a heading, a notice and, usually, one form.
#[derive(Debug, Template)]
#[template(path = "people/form.html", whitespace = "minimize")]
pub(crate) struct FormMain {
    /// What the ids of its inputs start with, so two forms on one page never share one.
    pub(crate) id: &'static str,
    pub(crate) heading: &'static str,
    pub(crate) intro: Option<&'static str>,
    pub(crate) notice: Option<Notice>,
    /// Where the form posts; no form when none.
    pub(crate) action: Option<String>,
    pub(crate) inputs: Vec<Input>,
    pub(crate) hidden: Vec<(&'static str, String)>,
    pub(crate) submit: &'static str,
    pub(crate) links: Vec<Link>,
}

impl FormMain {
    /// A page with a notice and links, and no form.
    pub(crate) fn message(heading: &'static str, notice: Notice, links: Vec<Link>) -> Self {
        Self {
            id: "people",
            heading,
            intro: None,
            notice: Some(notice),
            action: None,
            inputs: Vec::new(),
            hidden: Vec::new(),
            submit: "",
            links,
        }
    }
}

/// One member area on the account page.
#[derive(Debug, Clone)]
pub(crate) struct MembershipView {
    pub(crate) title: String,
    /// Its pages: (address, title).
    pub(crate) pages: Vec<(String, String)>,
}

/// The signed-in site user's account page.
#[derive(Debug, Template)]
#[template(path = "people/account.html", whitespace = "minimize")]
pub(crate) struct AccountMain {
    pub(crate) notice: Option<Notice>,
    pub(crate) email: String,
    pub(crate) xsrf: String,
    pub(crate) memberships: Vec<MembershipView>,
    /// The newest orders placed with the account's address.
    pub(crate) orders: Vec<AccountOrderView>,
    /// The newest donations made with the account's addresses while it held them; the page
    /// has no donations section without one, as most shops take none.
    pub(crate) donations: Vec<AccountDonationView>,
    /// The subscriptions bought with the account's confirmed address; none when renewals
    /// are not wired.
    pub(crate) subscriptions: Vec<AccountSubscriptionView>,
    /// The newsletters the address receives; none when the site has no newsletter.
    pub(crate) newsletters: Vec<NewsletterView>,
    /// The lines of the shipping address saved at checkout; none when none is saved.
    pub(crate) saved_address: Option<Vec<String>>,
    pub(crate) paths: AccountPaths,
}

/// One order on the account page, linked with a signed order link as its mails are.
#[derive(Debug, Clone)]
pub(crate) struct AccountOrderView {
    pub(crate) id: String,
    pub(crate) href: String,
    pub(crate) placed: Option<super::dates::DisplayDate>,
    pub(crate) total: String,
    /// What was bought: "Tote × 2, Mug".
    pub(crate) items: String,
}

/// One donation made with the account's address, on the account page.
#[derive(Debug, Clone)]
pub(crate) struct AccountDonationView {
    /// The donation page's title when it was given.
    pub(crate) cause: String,
    pub(crate) given: Option<super::dates::DisplayDate>,
    pub(crate) amount: String,
}

/// One subscription bought with the account's address, on the account page: where it
/// stands, what it costs, when it renews, the buttons it allows now, and its signed page.
#[derive(Debug, Clone)]
pub(crate) struct AccountSubscriptionView {
    pub(crate) product: String,
    /// "Active", "Paused" ...
    pub(crate) status: &'static str,
    /// The price and the plan: "€25.00 · Every month, until cancelled".
    pub(crate) amount: String,
    pub(crate) next_renewal: Option<super::dates::DisplayDate>,
    pub(crate) actions: super::subscription_page::AllowedActions,
    /// Where its buttons post: `/account/subscriptions/{id}`, then the action.
    pub(crate) action_base: String,
    /// Its own page, signed as in its mails (a new card is saved there).
    pub(crate) manage_href: Option<String>,
}

/// One newsletter subscription on the account page, with its unsubscribe token (the page is
/// its holder's alone and never cached).
#[derive(Debug, Clone)]
pub(crate) struct NewsletterView {
    pub(crate) list: String,
    pub(crate) confirmed: bool,
    pub(crate) unsubscribe_token: String,
}

/// Where the account page's forms post.
#[derive(Debug, Clone)]
pub(crate) struct AccountPaths {
    pub(crate) sign_out: &'static str,
    pub(crate) export: &'static str,
    pub(crate) delete: &'static str,
    pub(crate) member_access: &'static str,
    /// Where a newsletter's unsubscribe button posts (the page a mail's link opens).
    pub(crate) unsubscribe: &'static str,
    /// Where the saved address's remove button posts.
    pub(crate) remove_address: &'static str,
}

/// One price of a paid area: a plan's product page and its price text.
#[derive(Debug, Clone)]
pub(crate) struct PriceView {
    pub(crate) text: String,
    pub(crate) href: String,
}

/// One member area on the member-access page.
#[derive(Debug, Clone)]
pub(crate) struct AreaView {
    pub(crate) id: String,
    pub(crate) title: String,
    pub(crate) description: String,
    pub(crate) is_member: bool,
    pub(crate) is_free: bool,
    pub(crate) monthly: Option<PriceView>,
    pub(crate) yearly: Option<PriceView>,
}

/// The member-access page (000 s2: root `#sqs-member-access-page-root`): sign in, sign up,
/// and join each member area, free or with the pricing toggle of 000 s4.
#[derive(Debug, Template)]
#[template(path = "people/member_access.html", whitespace = "minimize")]
pub(crate) struct MemberAccessMain {
    pub(crate) notice: Option<Notice>,
    pub(crate) areas: Vec<AreaView>,
    /// The session's XSRF token when signed in; none for an anonymous visitor, who is
    /// offered the sign-in and sign-up forms instead of the join buttons.
    pub(crate) xsrf: Option<String>,
    pub(crate) return_to: String,
    pub(crate) join_path: &'static str,
    pub(crate) sign_in: FormMain,
    pub(crate) sign_up: FormMain,
}
