//! A gift card: bought as a line of an order, issued with a code, and spent at later
//! checkouts until its balance is used up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::code::{GiftCardCode, GiftCardCodeSource};
use crate::cart::{ShoppingCart, Timestamp};
use crate::catalog::Sku;
use crate::enums::ProductType;
use crate::forms::messages::{CHARACTER_LIMIT, email_invalid};
use crate::forms::validation::{is_valid_email, text_length};
use crate::money::Currency;

/// Who a gift card is for, as the buyer gave it on the gift card checkout page. Every part
/// is optional; a card without a recipient belongs to the buyer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GiftCardRecipient {
    #[serde(default)]
    pub name: String,
    /// Where the card may be sent; empty when the buyer will pass it on.
    #[serde(default)]
    pub email: String,
    /// The buyer's message to the recipient.
    #[serde(default)]
    pub message: String,
}

/// A message per field of the gift card form (`recipientName`, `recipientEmail`, `message`).
pub type RecipientFieldErrors = BTreeMap<&'static str, String>;

impl GiftCardRecipient {
    /// The longest name, in the UTF-16 units a browser's `maxlength` counts.
    pub const MAX_NAME: usize = 100;
    /// The longest message.
    pub const MAX_MESSAGE: usize = 500;

    /// The recipient as typed, trimmed; none when every part is empty. An email, when given,
    /// follows the forms' rule; names and messages over their limits are refused.
    pub fn parse(
        name: &str,
        email: &str,
        message: &str,
    ) -> Result<Option<Self>, RecipientFieldErrors> {
        let (name, email, message) = (name.trim(), email.trim(), message.trim());
        let mut errors = RecipientFieldErrors::new();
        if text_length(name) > Self::MAX_NAME {
            errors.insert("recipientName", CHARACTER_LIMIT.to_owned());
        }
        if !email.is_empty() && !is_valid_email(email) {
            errors.insert("recipientEmail", email_invalid());
        }
        if text_length(message) > Self::MAX_MESSAGE {
            errors.insert("message", CHARACTER_LIMIT.to_owned());
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let recipient = Self {
            name: name.to_owned(),
            email: email.to_owned(),
            message: message.to_owned(),
        };
        Ok((!recipient.is_empty()).then_some(recipient))
    }

    pub fn is_empty(&self) -> bool {
        self.name.is_empty() && self.email.is_empty() && self.message.is_empty()
    }
}

/// An issued gift card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftCard {
    pub code: GiftCardCode,
    /// What the card was worth when issued: the price of its unit, in minor units.
    pub initial_cents: i64,
    /// What is left to spend, never below zero.
    pub remaining_cents: i64,
    pub currency: Currency,
    /// The order that bought the card.
    pub order_id: String,
    /// The gift card variant bought.
    pub sku: Sku,
    pub recipient: Option<GiftCardRecipient>,
    pub created: Timestamp,
}

impl GiftCard {
    /// One card per unit of each gift card line of `cart`, each worth its unit's price, for
    /// the order `order_id`. Lines priced at nothing issue no card: a card worth nothing
    /// could pay for nothing.
    pub fn issue_for(
        cart: &ShoppingCart,
        order_id: &str,
        created: Timestamp,
        codes: &dyn GiftCardCodeSource,
    ) -> Vec<Self> {
        let currency = cart.subtotal_amount.currency;
        cart.entries
            .iter()
            .filter(|entry| entry.product_type == ProductType::GiftCard)
            .filter(|entry| entry.unit_price_cents > 0)
            .flat_map(|entry| {
                (0..entry.quantity).map(move |_| (entry.sku.clone(), entry.unit_price_cents, entry))
            })
            .map(|(sku, value, entry)| Self {
                code: codes.next_code(),
                initial_cents: value,
                remaining_cents: value,
                currency,
                order_id: order_id.to_owned(),
                sku,
                recipient: entry.gift_card_recipient.clone(),
                created,
            })
            .collect()
    }

    /// How much of an order the card pays: as much as it holds, up to the order's total
    /// less the price of the order's own gift card lines, because a gift card does not buy
    /// gift cards (a stolen or nearly spent card cannot be turned into fresh codes). Zero
    /// when there is nothing to pay.
    pub fn amount_for(
        &self,
        currency: Currency,
        total_cents: i64,
        gift_card_lines_cents: i64,
    ) -> Result<i64, GiftCardRefusal> {
        if self.currency != currency {
            return Err(GiftCardRefusal::OtherCurrency {
                card: self.currency,
                order: currency,
            });
        }
        if self.remaining_cents <= 0 {
            return Err(GiftCardRefusal::UsedUp);
        }
        let payable = total_cents.saturating_sub(gift_card_lines_cents).max(0);
        if payable == 0 && gift_card_lines_cents > 0 {
            return Err(GiftCardRefusal::OnlyGiftCards);
        }
        Ok(self.remaining_cents.min(payable))
    }
}

/// The part of an order a gift card paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftCardPayment {
    pub code: GiftCardCode,
    pub amount_cents: i64,
}

/// The total of a cart's gift card lines, which no gift card may pay for.
pub fn gift_card_lines_cents(cart: &ShoppingCart) -> i64 {
    cart.entries
        .iter()
        .filter(|entry| entry.product_type == ProductType::GiftCard)
        .map(|entry| entry.line_total_cents())
        .fold(0, i64::saturating_add)
}

/// Whether a gift card could pay for anything in `cart`: something in it is not a gift card.
pub fn gift_card_can_pay(cart: &ShoppingCart) -> bool {
    cart.grand_total_cents > gift_card_lines_cents(cart)
}

/// Why a gift card cannot pay for an order (our texts; the specification shows none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GiftCardRefusal {
    /// The code has the right shape but no card has it.
    Unknown,
    /// The card's balance is spent.
    UsedUp,
    /// The card holds another currency than the order's.
    OtherCurrency { card: Currency, order: Currency },
    /// Everything left to pay is gift cards, which gift cards do not buy.
    OnlyGiftCards,
    /// Another order spent the card while this one was being placed.
    BalanceChanged,
}

/// What a shopper reads for a code that is not shaped like one.
pub const GIFT_CARD_CODE_INVALID: &str =
    "A gift card code has 16 letters and digits, such as ABCD-EFGH-JKMN-PQRS.";

impl GiftCardRefusal {
    /// The text shown beside the gift card field.
    pub fn message(&self) -> String {
        match self {
            Self::Unknown => "No gift card has this code. Check it and try again.".to_owned(),
            Self::UsedUp => "This gift card has no balance left.".to_owned(),
            Self::OtherCurrency { card, order } => format!(
                "This gift card is in {} and cannot pay for an order in {}.",
                card.code(),
                order.code()
            ),
            Self::OnlyGiftCards => "A gift card cannot pay for gift cards.".to_owned(),
            Self::BalanceChanged => "This gift card was used for another order while you were checking out. Please place your order again.".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartState, Purchasable, Stock, StoreRules};
    use crate::gift_cards::SequentialGiftCardCodes;

    const NOW: Timestamp = Timestamp(1_700_000_000_000);

    fn sku(text: &str) -> Sku {
        Sku::parse(text).unwrap()
    }

    fn item(code: &str, product_type: ProductType, price: i64) -> Purchasable {
        Purchasable::new(
            code.to_lowercase(),
            code,
            product_type,
            sku(code),
            price,
            Stock::Unlimited,
        )
    }

    fn card(remaining: i64, currency: Currency) -> GiftCard {
        GiftCard {
            code: SequentialGiftCardCodes::new().next_code(),
            initial_cents: 5_000,
            remaining_cents: remaining,
            currency,
            order_id: "order-1".into(),
            sku: sku("GIFT-50"),
            recipient: None,
            created: NOW,
        }
    }

    #[test]
    fn one_card_is_issued_per_unit_of_each_gift_card_line() {
        let mut cart = CartState::new("cart", "site", NOW);
        cart.add_item(&item("GIFT-25", ProductType::GiftCard, 2_500), 2)
            .unwrap();
        cart.add_item(&item("MUG", ProductType::Physical, 1_800), 3)
            .unwrap();
        cart.add_item(&item("GIFT-50", ProductType::GiftCard, 5_000), 1)
            .unwrap();
        let recipient = GiftCardRecipient::parse("Bea", "bea@example.com", "Happy birthday!")
            .unwrap()
            .unwrap();
        cart.set_gift_card_recipient(&sku("GIFT-50"), Some(recipient.clone()))
            .unwrap();
        let priced = cart.price(&StoreRules::default(), NOW);
        let cards = GiftCard::issue_for(&priced, "order-9", NOW, &SequentialGiftCardCodes::new());
        let summary: Vec<(&str, i64, bool)> = cards
            .iter()
            .map(|card| {
                (
                    card.sku.as_str(),
                    card.initial_cents,
                    card.recipient.is_some(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("GIFT-25", 2_500, false),
                ("GIFT-25", 2_500, false),
                ("GIFT-50", 5_000, true)
            ]
        );
        assert!(
            cards
                .iter()
                .all(|card| card.remaining_cents == card.initial_cents
                    && card.order_id == "order-9"
                    && card.currency == priced.subtotal_amount.currency)
        );
        assert_eq!(cards[2].recipient.as_ref(), Some(&recipient));
        let mut codes: Vec<_> = cards.iter().map(|card| card.code.clone()).collect();
        codes.dedup();
        assert_eq!(codes.len(), 3, "every card has its own code");
        assert_eq!(gift_card_lines_cents(&priced), 10_000);
        assert!(gift_card_can_pay(&priced), "the mugs");
    }

    #[test]
    fn a_card_pays_what_it_holds_up_to_what_is_not_a_gift_card() {
        let eur = Currency::Eur;
        assert_eq!(card(5_000, eur).amount_for(eur, 3_000, 0), Ok(3_000));
        assert_eq!(card(5_000, eur).amount_for(eur, 8_000, 0), Ok(5_000));
        assert_eq!(card(5_000, eur).amount_for(eur, 8_000, 2_500), Ok(5_000));
        assert_eq!(card(5_000, eur).amount_for(eur, 4_000, 2_500), Ok(1_500));
        assert_eq!(card(5_000, eur).amount_for(eur, 0, 0), Ok(0));
        assert_eq!(
            card(5_000, eur).amount_for(eur, 2_500, 2_500),
            Err(GiftCardRefusal::OnlyGiftCards)
        );
        assert_eq!(
            card(0, eur).amount_for(eur, 3_000, 0),
            Err(GiftCardRefusal::UsedUp)
        );
        let refusal = card(5_000, Currency::Gbp)
            .amount_for(eur, 3_000, 0)
            .unwrap_err();
        assert_eq!(
            refusal.message(),
            "This gift card is in GBP and cannot pay for an order in EUR."
        );
    }

    #[test]
    fn a_recipient_is_optional_and_checked_when_given() {
        assert_eq!(GiftCardRecipient::parse(" ", "", "\n"), Ok(None));
        let only_message = GiftCardRecipient::parse("", "", "Enjoy").unwrap().unwrap();
        assert_eq!(only_message.message, "Enjoy");
        let errors = GiftCardRecipient::parse(&"n".repeat(101), "not an email", &"m".repeat(501))
            .unwrap_err();
        assert_eq!(errors["recipientName"], CHARACTER_LIMIT);
        assert_eq!(errors["recipientEmail"], email_invalid());
        assert_eq!(errors["message"], CHARACTER_LIMIT);
        assert!(GiftCardRecipient::parse(&"n".repeat(100), "a@b.co", &"m".repeat(500)).is_ok());
    }
}
