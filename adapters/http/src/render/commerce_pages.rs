//! The main content of the commerce pages (cart, checkout, order), rendered inside the site's
//! chrome like every page. Their content is one shopper's own, so they are never cached; the
//! cart's root element is where the cart island mounts (001 s2).

use askama::Template;
use vitrine_core::cart::texts::NOTHING_IN_CART;
use vitrine_core::cart::{MAX_LINE_QUANTITY, ShoppingCart, Timestamp};
use vitrine_core::catalog::FormAnswers;
/// Named by `payment.html`, which the checkout and donate pages share.
pub(crate) use vitrine_core::checkout::CANNOT_TAKE_PAYMENTS;
use vitrine_core::checkout::Order;
use vitrine_core::money::{Currency, FormatOptions, Locale, Money, format};

use super::gift_cards::{GiftCardMain, GiftCardPaidView, IssuedCardView, recipient_text};

/// Money as the shopper reads it.
pub(crate) fn money_text(cents: i64, currency: Currency) -> String {
    format(
        Money::new(cents, currency),
        &Locale::default(),
        FormatOptions::default(),
    )
}

/// One line of a cart or order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineView {
    /// What the cart's forms name this line by (see `LineId`).
    pub(crate) line_id: String,
    pub(crate) name: String,
    pub(crate) sku: String,
    pub(crate) quantity: u32,
    pub(crate) unit_price: String,
    pub(crate) total: String,
    /// Who a gift card line is for.
    pub(crate) note: Option<String>,
    /// The answers to the product's form: (question, answer).
    pub(crate) answers: Vec<(String, String)>,
    /// The page that edits the answers, on a cart that can still change.
    pub(crate) edit_href: Option<String>,
}

fn answer_pairs(answers: &FormAnswers) -> Vec<(String, String)> {
    answers
        .iter()
        .map(|answer| (answer.title.clone(), answer.value.clone()))
        .collect()
}

/// The no-JavaScript page that edits a line's answers.
pub(crate) fn edit_href(line_id: &str) -> String {
    let line: String = url::form_urlencoded::byte_serialize(line_id.as_bytes()).collect();
    format!("/cart/form?line={line}")
}

/// A coupon on the cart, with why it no longer applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CouponView {
    pub(crate) code: String,
    pub(crate) invalid_reason: Option<String>,
}

/// One row of the totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TotalView {
    pub(crate) label: &'static str,
    pub(crate) text: String,
    pub(crate) grand: bool,
}

fn totals(
    currency: Currency,
    subtotal: i64,
    discount: i64,
    shipping: i64,
    tax: i64,
    grand: i64,
) -> Vec<TotalView> {
    let row = |label, cents, grand| TotalView {
        label,
        text: money_text(cents, currency),
        grand,
    };
    vec![
        row("Subtotal", subtotal, false),
        row("Discount", discount, false),
        row("Shipping", shipping, false),
        row("Tax", tax, false),
        row("Total", grand, true),
    ]
}

/// The cart's lines, coupons, totals and warnings; editable on the cart page, read-only in
/// the checkout's summary.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/cart_summary.html", whitespace = "minimize")]
pub(crate) struct CartSummary {
    pub(crate) editable: bool,
    pub(crate) nothing_in_cart: &'static str,
    pub(crate) max_quantity: u32,
    pub(crate) lines: Vec<LineView>,
    pub(crate) coupons: Vec<CouponView>,
    pub(crate) totals: Vec<TotalView>,
    pub(crate) warnings: Vec<String>,
}

impl askama::filters::HtmlSafe for CartSummary {}

impl CartSummary {
    pub(crate) fn new(cart: &ShoppingCart, editable: bool) -> Self {
        let currency = cart.subtotal_amount.currency;
        let editable = editable && !cart.is_purchased;
        Self {
            editable,
            nothing_in_cart: NOTHING_IN_CART,
            max_quantity: MAX_LINE_QUANTITY,
            lines: cart
                .entries
                .iter()
                .map(|entry| {
                    let line_id = entry.line_id().to_string();
                    LineView {
                        edit_href: (editable && entry.answers.is_some())
                            .then(|| edit_href(&line_id)),
                        line_id,
                        name: entry.product_name.clone(),
                        sku: entry.sku.as_str().to_owned(),
                        quantity: entry.quantity,
                        unit_price: money_text(entry.unit_price_cents, currency),
                        total: money_text(entry.line_total_cents(), currency),
                        answers: entry.answers.as_ref().map(answer_pairs).unwrap_or_default(),
                        note: entry
                            .gift_card_recipient
                            .as_ref()
                            .and_then(recipient_text)
                            .map(|to| match entry.gift_card_send_on {
                                Some(day) => format!("For {to}, mailed on {}", day.text()),
                                None => format!("For {to}"),
                            }),
                    }
                })
                .collect(),
            coupons: cart
                .coupons
                .iter()
                .map(|applied| {
                    let code = &applied.coupon.code;
                    CouponView {
                        code: code.as_str().to_owned(),
                        invalid_reason: cart
                            .invalid_coupons
                            .iter()
                            .find(|invalid| &invalid.code == code)
                            .map(|invalid| invalid.reason.message().to_owned()),
                    }
                })
                .collect(),
            totals: totals(
                currency,
                cart.subtotal_cents,
                cart.discount_cents,
                cart.shipping_cost_cents,
                cart.tax_cents,
                cart.grand_total_cents,
            ),
            warnings: cart
                .warnings
                .iter()
                .map(|warning| warning.message.clone())
                .collect(),
        }
    }
}

/// One shipping option to choose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OptionView {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) selected: bool,
}

pub(crate) fn option_views(cart: &ShoppingCart) -> Vec<OptionView> {
    let selected = cart
        .selected_shipping_option
        .as_ref()
        .map(|option| option.id.as_str());
    cart.shipping_options
        .iter()
        .map(|option| OptionView {
            id: option.id.clone(),
            name: format!(
                "{} ({})",
                option.name,
                money_text(
                    option.cost_cents(cart.shipped_weight_thousandths()),
                    cart.subtotal_amount.currency
                )
            ),
            selected: selected == Some(option.id.as_str()),
        })
        .collect()
}

/// The cart page's shipping location and option forms (no JavaScript needed).
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/shipping.html", whitespace = "minimize")]
pub(crate) struct ShippingForms {
    pub(crate) prefix: &'static str,
    pub(crate) country: String,
    pub(crate) region: String,
    pub(crate) postal_code: String,
    pub(crate) options: Vec<OptionView>,
}

impl askama::filters::HtmlSafe for ShippingForms {}

impl ShippingForms {
    pub(crate) fn new(cart: &ShoppingCart) -> Self {
        let location = cart
            .shipping_location
            .clone()
            .unwrap_or_else(|| vitrine_core::cart::ShippingLocation::new("", "", ""));
        Self {
            prefix: "cart-location",
            country: location.country,
            region: location.region,
            postal_code: location.postal_code,
            options: option_views(cart),
        }
    }
}

/// The cart page (page types 205 and 200).
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/cart.html", whitespace = "minimize")]
pub(crate) struct CartMain {
    pub(crate) heading: &'static str,
    pub(crate) alert: Option<String>,
    pub(crate) summary: CartSummary,
    /// The cart can still change and has something in it.
    pub(crate) open: bool,
    pub(crate) requires_shipping: bool,
    pub(crate) shipping: ShippingForms,
}

impl CartMain {
    pub(crate) fn new(cart: &ShoppingCart, alert: Option<String>) -> Self {
        Self {
            heading: "Cart",
            alert,
            summary: CartSummary::new(cart, true),
            open: !cart.entries.is_empty() && !cart.is_purchased,
            requires_shipping: cart.requires_shipping,
            shipping: ShippingForms::new(cart),
        }
    }
}

/// One text input of the checkout form, with its error.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/field.html", whitespace = "minimize")]
pub(crate) struct FieldView {
    pub(crate) name: &'static str,
    pub(crate) label: &'static str,
    pub(crate) kind: &'static str,
    pub(crate) value: String,
    pub(crate) autocomplete: &'static str,
    pub(crate) inputmode: &'static str,
    pub(crate) required: bool,
    pub(crate) error: Option<String>,
}

impl askama::filters::HtmlSafe for FieldView {}

impl FieldView {
    pub(crate) fn text(
        name: &'static str,
        label: &'static str,
        autocomplete: &'static str,
    ) -> Self {
        Self {
            name,
            label,
            kind: "text",
            value: String::new(),
            autocomplete,
            inputmode: "",
            required: true,
            error: None,
        }
    }

    pub(crate) fn kind(mut self, kind: &'static str) -> Self {
        self.kind = kind;
        self
    }

    pub(crate) fn inputmode(mut self, inputmode: &'static str) -> Self {
        self.inputmode = inputmode;
        self
    }

    pub(crate) fn optional(mut self) -> Self {
        self.required = false;
        self
    }
}

/// The checkout page (page type 201).
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/checkout.html", whitespace = "minimize")]
pub(crate) struct CheckoutMain {
    /// Where the form posts: the cart's checkout or a subscription's.
    pub(crate) action: String,
    pub(crate) submit_label: &'static str,
    /// A subscription's plan, shown with the summary.
    pub(crate) plan: Option<String>,
    pub(crate) reservation_seconds_left: Option<i64>,
    pub(crate) countdown_text: String,
    pub(crate) countdown_props: String,
    pub(crate) summary: CartSummary,
    pub(crate) idempotency_key: String,
    pub(crate) email: FieldView,
    pub(crate) requires_shipping: bool,
    pub(crate) address: Vec<FieldView>,
    pub(crate) shipping_options: Vec<OptionView>,
    pub(crate) shipping_error: Option<String>,
    pub(crate) payment_note: Option<&'static str>,
    pub(crate) payment: Vec<FieldView>,
    /// Test payments are on: the page wears the test mode ribbon.
    pub(crate) test_mode: bool,
    /// A payment is needed and the shop cannot take one: no card fields, no button.
    pub(crate) payments_off: bool,
    /// The gift card code field; none when a gift card cannot pay for this cart.
    pub(crate) gift_card: Option<FieldView>,
    /// The box that saves the shipping address, offered to a signed-in site user only:
    /// ticked when they saved one before.
    pub(crate) save_address: Option<bool>,
    pub(crate) alert: Option<String>,
    /// The payment provider's own card fields instead of the form's: the card is typed into
    /// them and never posted here.
    pub(crate) card_fields: Option<CardFieldsView>,
}

/// The payment provider's card fields on the checkout or donation page: its script, and the props of
/// the `card-payment` island that mounts them and confirms the payment.
#[derive(Debug, Clone)]
pub(crate) struct CardFieldsView {
    pub(crate) script_url: String,
    /// JSON: the publishable key, the amount and currency, and where to post the form.
    pub(crate) props: String,
    /// Shown until the island mounts the fields: without JavaScript it stays.
    pub(crate) unavailable_text: &'static str,
}

/// Whole seconds left of a checkout hold at `now`, rounded up so the countdown reads 1 until
/// the very end; none when nothing is held or the hold has ended.
pub(crate) fn hold_seconds_left(reserved_until: Option<Timestamp>, now: Timestamp) -> Option<i64> {
    let left = reserved_until?.millis().saturating_sub(now.millis());
    (left > 0).then(|| (left + 999) / 1000)
}

/// "m:ss", what the countdown shows.
pub(crate) fn countdown_text(seconds: i64) -> String {
    let seconds = seconds.max(0);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// The order pages: confirmed (202), received (207) and status (211).
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/order.html", whitespace = "minimize")]
pub(crate) struct OrderMain {
    pub(crate) heading: &'static str,
    pub(crate) lead: String,
    pub(crate) order_id: String,
    pub(crate) lines: Vec<LineView>,
    pub(crate) totals: Vec<TotalView>,
    pub(crate) grand_total: String,
    pub(crate) gift_card_paid: Option<GiftCardPaidView>,
    /// The cards the order bought, with their codes in full or by their last 4.
    pub(crate) issued_cards: Vec<IssuedCardView>,
    /// Whether the codes are shown in full (the first confirmation view only).
    pub(crate) codes_shown: bool,
}

impl OrderMain {
    /// The page of `order`, its gift card codes in full when `show_codes`.
    pub(crate) fn new(
        order: &Order,
        heading: &'static str,
        lead: String,
        show_codes: bool,
    ) -> Self {
        let currency = order.currency;
        Self {
            heading,
            lead,
            order_id: order.id.clone(),
            lines: order
                .lines
                .iter()
                .map(|line| LineView {
                    line_id: line.sku.as_str().to_owned(),
                    name: line.product_name.clone(),
                    sku: line.sku.as_str().to_owned(),
                    quantity: line.quantity,
                    unit_price: money_text(line.unit_price_cents, currency),
                    total: money_text(line.unit_price_cents * i64::from(line.quantity), currency),
                    answers: answer_pairs(&line.answers),
                    edit_href: None,
                    note: None,
                })
                .collect(),
            totals: totals(
                currency,
                order.subtotal_cents,
                order.discount_cents,
                order.shipping_cost_cents,
                order.tax_cents,
                order.grand_total_cents,
            ),
            grand_total: money_text(order.grand_total_cents, currency),
            gift_card_paid: GiftCardPaidView::new(order),
            issued_cards: order
                .gift_cards
                .iter()
                .map(|card| IssuedCardView::new(card, show_codes))
                .collect(),
            codes_shown: show_codes,
        }
    }
}

/// A commerce page that only has something to say: the checkout alert of 000 s8, a refusal.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/notice.html", whitespace = "minimize")]
pub(crate) struct NoticeMain {
    pub(crate) heading: &'static str,
    pub(crate) text: String,
    pub(crate) link_href: &'static str,
    pub(crate) link_text: &'static str,
}

/// What goes inside `<main>` on a commerce page.
#[derive(Debug)]
pub(crate) enum CommerceMain {
    Cart(Box<CartMain>),
    Checkout(Box<CheckoutMain>),
    Order(Box<OrderMain>),
    GiftCard(Box<GiftCardMain>),
    /// The gift card balance check.
    GiftCardBalance(Box<super::gift_cards::GiftCardBalanceMain>),
    Notice(NoticeMain),
    Donate(Box<super::donate_pages::DonateMain>),
    Contribution(Box<super::donate_pages::ContributionMain>),
    Subscription(Box<super::subscription_page::SubscriptionMain>),
    /// A subscription's own page, opened by the signed link in its mails.
    SubscriptionManage(Box<super::subscription_page::SubscriptionManageMain>),
    /// The membership-confirmed page (208).
    Membership(Box<super::membership_page::MembershipMain>),
    /// A product form on a page of its own (`render/product_form.rs`).
    LineForm(Box<super::product_form::LineFormMain>),
    /// The site search (page type 102), chrome and all like a commerce page.
    Search(Box<super::search_page::SearchMain>),
    /// A site-user page: sign in, sign up, reset, the account or member-access page.
    People(Box<super::people_pages::PeopleMain>),
}

impl CommerceMain {
    /// The islands its markup asks for.
    pub(crate) fn islands(&self) -> std::collections::BTreeSet<&'static str> {
        match self {
            Self::Cart(main) if main.open || !main.summary.lines.is_empty() => {
                ["cart"].into_iter().collect()
            }
            Self::Checkout(main) => {
                let countdown = main.reservation_seconds_left.map(|_| "hold-countdown");
                let card_fields = main.card_fields.as_ref().map(|_| "card-payment");
                countdown.into_iter().chain(card_fields).collect()
            }
            Self::Donate(main) if main.card_fields.is_some() => {
                ["card-payment"].into_iter().collect()
            }
            Self::People(main) => main.islands(),
            _ => std::collections::BTreeSet::new(),
        }
    }
}

impl std::fmt::Display for CommerceMain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cart(main) => main.fmt(f),
            Self::Checkout(main) => main.fmt(f),
            Self::Order(main) => main.fmt(f),
            Self::GiftCard(main) => main.fmt(f),
            Self::GiftCardBalance(main) => main.fmt(f),
            Self::Notice(main) => main.fmt(f),
            Self::Donate(main) => main.fmt(f),
            Self::Contribution(main) => main.fmt(f),
            Self::Subscription(main) => main.fmt(f),
            Self::Membership(main) => main.fmt(f),
            Self::SubscriptionManage(main) => main.fmt(f),
            Self::LineForm(main) => main.fmt(f),
            Self::Search(main) => main.fmt(f),
            Self::People(main) => main.fmt(f),
        }
    }
}
