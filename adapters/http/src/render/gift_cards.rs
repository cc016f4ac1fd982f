//! The gift card views: the gift card checkout page (`/checkout/giftcard`, page type 201),
//! and on the order pages the part a gift card paid and the cards the order issued, whose
//! codes the buyer needs.

use askama::Template;
use vitrine_core::checkout::{GiftCardAmount, GiftCardForm, GiftCardOffer, Order};
use vitrine_core::gift_cards::{GiftCard, GiftCardRecipient, RecipientFieldErrors};

use super::commerce_pages::{FieldView, money_text};
use super::markup::Markup;

/// The path of the gift card checkout page for a product, in an amount when one is given.
pub(crate) fn gift_card_checkout_href(
    website_id: &str,
    product_id: &str,
    sku: Option<&str>,
) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair("websiteId", website_id);
    query.append_pair("giftCardProductId", product_id);
    if let Some(sku) = sku {
        query.append_pair("sku", sku);
    }
    format!("/checkout/giftcard?{}", query.finish())
}

/// One amount to choose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AmountView {
    pub(crate) sku: String,
    pub(crate) label: String,
    pub(crate) checked: bool,
    pub(crate) sold_out: bool,
}

/// The gift card checkout page: the amount, who the card is for, and a message.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/gift_card.html", whitespace = "minimize")]
pub(crate) struct GiftCardMain {
    pub(crate) title: String,
    pub(crate) excerpt: Markup,
    pub(crate) website_id: String,
    pub(crate) product_id: String,
    pub(crate) amounts: Vec<AmountView>,
    pub(crate) amount_error: Option<String>,
    pub(crate) recipient_name: FieldView,
    pub(crate) recipient_email: FieldView,
    pub(crate) message: String,
    pub(crate) message_error: Option<String>,
    pub(crate) max_message: usize,
    /// The day to mail the card to the recipient; empty mails it with the order.
    pub(crate) send_on: FieldView,
    pub(crate) alert: Option<String>,
}

impl GiftCardMain {
    /// The page for `offer`, filled with what the buyer typed and the errors of the last
    /// attempt. The amount the offer (the link) chose is checked, else the one typed.
    pub(crate) fn new(
        offer: &GiftCardOffer,
        typed: &GiftCardForm,
        errors: &RecipientFieldErrors,
        alert: Option<String>,
    ) -> Self {
        let chosen = offer
            .chosen
            .as_ref()
            .map_or(typed.sku.as_str(), |sku| sku.as_str());
        let field = |view: FieldView, value: &str| FieldView {
            value: value.to_owned(),
            error: errors.get(view.name).cloned(),
            ..view
        };
        Self {
            title: offer.title.clone(),
            excerpt: Markup::sanitized(&offer.excerpt),
            website_id: offer.website_id.clone(),
            product_id: offer.item_id.as_str().to_owned(),
            amounts: offer
                .amounts
                .iter()
                .map(|amount| AmountView {
                    sku: amount.sku.as_str().to_owned(),
                    label: amount_label(offer, amount),
                    checked: amount.sku.as_str() == chosen,
                    sold_out: amount.sold_out,
                })
                .collect(),
            amount_error: errors.get("sku").cloned(),
            recipient_name: field(
                FieldView::text("recipientName", "Recipient’s name (optional)", "off").optional(),
                &typed.recipient_name,
            ),
            recipient_email: field(
                FieldView::text("recipientEmail", "Recipient’s email (optional)", "off")
                    .kind("email")
                    .optional(),
                &typed.recipient_email,
            ),
            message: typed.message.clone(),
            message_error: errors.get("message").cloned(),
            max_message: GiftCardRecipient::MAX_MESSAGE,
            send_on: field(
                FieldView::text("sendOn", "Send on (optional)", "off")
                    .kind("date")
                    .optional(),
                &typed.send_on,
            ),
            alert,
        }
    }
}

/// Who a card is for: "Bea (bea@example.com)", a name or an address alone, or none.
pub(crate) fn recipient_text(recipient: &GiftCardRecipient) -> Option<String> {
    match (recipient.name.as_str(), recipient.email.as_str()) {
        ("", "") => None,
        (only, "") | ("", only) => Some(only.to_owned()),
        (name, email) => Some(format!("{name} ({email})")),
    }
}

/// An amount reads as what the card is worth, in the currency the cart charges; the
/// variant's own label follows only when another amount has the same price (a card sold in
/// designs), so the choices can be told apart.
fn amount_label(offer: &GiftCardOffer, amount: &GiftCardAmount) -> String {
    let price = money_text(amount.price_cents, offer.currency);
    let shared = offer
        .amounts
        .iter()
        .filter(|other| other.price_cents == amount.price_cents)
        .count()
        > 1;
    if shared {
        format!("{price} — {}", amount.label)
    } else {
        price
    }
}

/// A card an order issued, as its buyer reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IssuedCardView {
    /// The whole code, or "ending" and its last 4 once it was shown.
    pub(crate) code: String,
    pub(crate) value: String,
    pub(crate) balance: String,
    pub(crate) recipient: Option<String>,
    pub(crate) message: Option<String>,
}

impl IssuedCardView {
    pub(crate) fn new(card: &GiftCard, whole_code: bool) -> Self {
        let recipient = card.recipient.as_ref();
        Self {
            code: if whole_code {
                card.code.to_string()
            } else {
                format!("ending {}", card.code.last4())
            },
            value: money_text(card.initial_cents, card.currency),
            balance: money_text(card.remaining_cents, card.currency),
            recipient: recipient.and_then(recipient_text),
            message: recipient
                .map(|recipient| recipient.message.clone())
                .filter(|message| !message.is_empty()),
        }
    }
}

/// The part of an order a gift card paid, and the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GiftCardPaidView {
    pub(crate) label: String,
    pub(crate) amount: String,
    pub(crate) rest_label: &'static str,
    pub(crate) rest: String,
}

impl GiftCardPaidView {
    pub(crate) fn new(order: &Order) -> Option<Self> {
        let payment = order.gift_card_payment.as_ref()?;
        let rest = order.rest_due_cents();
        Some(Self {
            label: format!("Gift card ending {}", payment.code.last4()),
            amount: format!("−{}", money_text(payment.amount_cents, order.currency)),
            rest_label: if rest > 0 {
                "Rest, charged to your card"
            } else {
                "Rest due"
            },
            rest: money_text(rest, order.currency),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::catalog::Sku;
    use vitrine_core::money::Currency;
    use vitrine_core::site::{ItemId, SafeHtml};

    #[test]
    fn amounts_read_as_prices_and_name_their_variant_only_when_prices_repeat() {
        let amount = |sku: &str, label: &str, price_cents| GiftCardAmount {
            sku: Sku::parse(sku).unwrap(),
            label: label.into(),
            price_cents,
            sold_out: false,
        };
        let offer = GiftCardOffer {
            website_id: "site".into(),
            item_id: ItemId::parse("gift").unwrap(),
            title: "Gift card".into(),
            excerpt: SafeHtml::sanitize(""),
            amounts: vec![
                amount("G-25", "€25", 2_500),
                amount("G-50-BLUE", "Blue", 5_000),
                amount("G-50-RED", "Red", 5_000),
            ],
            chosen: None,
            currency: Currency::Eur,
        };
        let labels: Vec<String> = offer
            .amounts
            .iter()
            .map(|amount| amount_label(&offer, amount))
            .collect();
        assert_eq!(labels, ["€25.00", "€50.00 — Blue", "€50.00 — Red"]);
    }

    #[test]
    fn the_checkout_link_encodes_its_parameters() {
        assert_eq!(
            gift_card_checkout_href("site", "gift", None),
            "/checkout/giftcard?websiteId=site&giftCardProductId=gift"
        );
        assert_eq!(
            gift_card_checkout_href("a b", "gift&x", Some("G/25")),
            "/checkout/giftcard?websiteId=a+b&giftCardProductId=gift%26x&sku=G%2F25"
        );
    }
}

/// The gift card balance check page (`/gift-cards/balance`): a code in, its balance out.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/gift_card_balance.html", whitespace = "minimize")]
pub(crate) struct GiftCardBalanceMain {
    pub(crate) code: FieldView,
    /// The answer to the last check: the balance, or that no card has the code.
    pub(crate) answer: Option<BalanceAnswer>,
}

/// What a check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BalanceAnswer {
    Found {
        last4: String,
        balance: String,
        value: String,
    },
    Unknown(&'static str),
}

impl GiftCardBalanceMain {
    /// The form, empty or answering `balance`. The code typed is never written back into the
    /// page: a shared screen or the browser's history keeps the last 4 characters at most.
    pub(crate) fn new(balance: Option<&vitrine_core::checkout::GiftCardBalance>) -> Self {
        use vitrine_core::checkout::{GIFT_CARD_UNKNOWN, GiftCardBalance};
        let answer = balance.map(|balance| match balance {
            GiftCardBalance::Found {
                code_last4,
                remaining_cents,
                initial_cents,
                currency,
            } => BalanceAnswer::Found {
                last4: code_last4.clone(),
                balance: money_text(*remaining_cents, *currency),
                value: money_text(*initial_cents, *currency),
            },
            GiftCardBalance::Unknown => BalanceAnswer::Unknown(GIFT_CARD_UNKNOWN),
        });
        Self {
            code: FieldView::text("code", "Gift card code", "off"),
            answer,
        }
    }
}
