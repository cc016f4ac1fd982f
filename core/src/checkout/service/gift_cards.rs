//! The gift card side of the cart service: issuing the cards an order buys, paying with a
//! card at checkout, and the gift card checkout page (`/checkout/giftcard`), which puts a
//! gift card and its recipient into the shopper's cart before the regular checkout.

use crate::cart::{CartState, CartToken, ShoppingCart, Timestamp};
use crate::catalog::Sku;
use crate::enums::{ItemStatus, ProductType};
use crate::gift_cards::{
    GiftCard, GiftCardCode, GiftCardPayment, GiftCardRecipient, GiftCardRefusal, GiftCardSendDate,
    RecipientFieldErrors, SEND_DATE_NEEDS_EMAIL, gift_card_lines_cents,
};
use crate::money::Currency;
use crate::ports::RepositoryError;
use crate::site::{ItemId, SafeHtml};

use super::{CartService, CartServiceError, CartUpdate, CheckoutError};
use crate::checkout::CheckoutFieldErrors;
use crate::checkout::follow_up::OrderFollowUp;
use crate::checkout::order::Order;

/// A gift card product as the gift card checkout page offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftCardOffer {
    pub website_id: String,
    pub item_id: ItemId,
    pub title: String,
    pub excerpt: SafeHtml,
    pub amounts: Vec<GiftCardAmount>,
    /// The amount the link or the shopper chose; none until one is chosen.
    pub chosen: Option<Sku>,
    pub currency: Currency,
}

/// One amount a gift card is sold in: a variant of the product.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftCardAmount {
    pub sku: Sku,
    /// The variant's option values ("€25"), or its SKU when it has none.
    pub label: String,
    pub price_cents: i64,
    pub sold_out: bool,
}

/// Why the gift card checkout page cannot offer a gift card.
#[derive(Debug, thiserror::Error)]
pub enum GiftCardOfferError {
    /// The link names another website than this one.
    #[error("website {0} is not this site")]
    UnknownWebsite(String),
    /// The link names no published gift card product of this site.
    #[error("item {0} is not a published gift card product")]
    NotAGiftCard(String),
    /// The product is not sold in the amount the link names.
    #[error("gift card {item} has no amount {sku}")]
    UnknownAmount { item: String, sku: String },
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// The gift card checkout form as posted, every field as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GiftCardForm {
    pub website_id: String,
    pub product_id: String,
    /// Empty until an amount is chosen.
    pub sku: String,
    pub recipient_name: String,
    pub recipient_email: String,
    pub message: String,
    /// The day to mail the card to the recipient (`YYYY-MM-DD`); empty mails it at once.
    pub send_on: String,
}

/// What the balance check page answers for a typed code. A code that is not shaped like one
/// and a code no card has get the same answer, so the page tells a guesser nothing about
/// which codes exist beyond what a checkout would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GiftCardBalance {
    /// The card's balance now, and what it was worth when issued.
    Found {
        code_last4: String,
        remaining_cents: i64,
        initial_cents: i64,
        currency: Currency,
    },
    Unknown,
}

/// What the balance check page reads for a code that no card has (our text).
pub const GIFT_CARD_UNKNOWN: &str =
    "We could not find a gift card with this code. Check the code and try again.";

/// Why a gift card was not put into the cart.
#[derive(Debug, thiserror::Error)]
pub enum AddGiftCardError {
    #[error(transparent)]
    Offer(#[from] GiftCardOfferError),
    /// Fields of the form are missing or wrong; a message per field (`sku` for the amount).
    #[error("the gift card form has errors: {0:?}")]
    Invalid(RecipientFieldErrors),
    #[error(transparent)]
    Cart(#[from] CartServiceError),
}

/// Message when no amount was chosen (our text).
pub const GIFT_CARD_AMOUNT_REQUIRED: &str = "Choose an amount.";
/// Message when the cart holds the same gift card for another recipient (our text): every
/// unit of a cart line goes to one recipient.
pub const OTHER_RECIPIENT: &str = "Your cart already holds this gift card for someone else. Check that one out first, or choose another amount.";

impl CartService {
    /// What placing `order` (priced as `cart`) leads to: the order's mails as configured and,
    /// when gift card mails are on, the mails giving its cards to their recipients, from the
    /// shop named by the site's title.
    pub(super) async fn follow_up(
        &self,
        order: &Order,
        cart: &ShoppingCart,
    ) -> Result<OrderFollowUp, RepositoryError> {
        let follow_up = OrderFollowUp::new(order, cart, self.order_mails);
        let Some(links) = &self.gift_card_mail_links else {
            return Ok(follow_up);
        };
        if order.gift_cards.is_empty() {
            return Ok(follow_up);
        }
        let shop_name = self
            .site
            .profile()
            .await?
            .map(|profile| profile.settings.site_title)
            .unwrap_or_default();
        Ok(follow_up.with_gift_card_mails(order, cart, &shop_name, links))
    }

    /// The balance of the gift card whose code the visitor typed, however they typed it
    /// (spaces, dashes and case do not matter); unknown for anything that is not a card's code.
    /// Guessing is bounded by the rate limit on the page, not here.
    pub async fn gift_card_balance(&self, typed: &str) -> Result<GiftCardBalance, RepositoryError> {
        let Ok(code) = GiftCardCode::parse(typed) else {
            return Ok(GiftCardBalance::Unknown);
        };
        Ok(match self.store.gift_card(&code).await? {
            Some(card) => GiftCardBalance::Found {
                code_last4: card.code.last4().to_owned(),
                remaining_cents: card.remaining_cents,
                initial_cents: card.initial_cents,
                currency: card.currency,
            },
            None => GiftCardBalance::Unknown,
        })
    }

    /// The cards `cart` buys, for the order `order_id`, with codes from the configured
    /// source.
    pub(super) fn issue_gift_cards(
        &self,
        cart: &ShoppingCart,
        order_id: &str,
        now: Timestamp,
    ) -> Result<Vec<GiftCard>, RepositoryError> {
        let buys_cards = cart
            .entries
            .iter()
            .any(|entry| entry.product_type == ProductType::GiftCard);
        if !buys_cards {
            return Ok(Vec::new());
        }
        let codes = self.gift_card_codes.as_deref().ok_or_else(|| {
            RepositoryError::Unavailable("no source of gift card codes is configured".into())
        })?;
        Ok(GiftCard::issue_for(cart, order_id, now, codes))
    }

    /// What the gift card `code` pays of `cart`'s total: none without a code or when there
    /// is nothing to pay; a field error when the card cannot pay.
    pub(super) async fn gift_card_payment(
        &self,
        code: Option<&GiftCardCode>,
        cart: &ShoppingCart,
    ) -> Result<Option<GiftCardPayment>, CheckoutError> {
        let Some(code) = code else {
            return Ok(None);
        };
        let refused = |refusal: GiftCardRefusal| {
            CheckoutError::Invalid(CheckoutFieldErrors::from([(
                "giftCardCode",
                refusal.message(),
            )]))
        };
        let card = self
            .store
            .gift_card(code)
            .await?
            .ok_or_else(|| refused(GiftCardRefusal::Unknown))?;
        let amount = card
            .amount_for(
                cart.subtotal_amount.currency,
                cart.grand_total_cents,
                gift_card_lines_cents(cart),
            )
            .map_err(refused)?;
        Ok((amount > 0).then_some(GiftCardPayment {
            code: card.code,
            amount_cents: amount,
        }))
    }

    /// The gift card product `product_id` of the website `website_id`, in the amount `sku`
    /// when one is given: what `/checkout/giftcard` shows.
    pub async fn gift_card_offer(
        &self,
        website_id: &str,
        product_id: &str,
        sku: Option<&str>,
    ) -> Result<GiftCardOffer, GiftCardOfferError> {
        let this_site = self.website_id().await?;
        if this_site.is_empty() || website_id != this_site {
            return Err(GiftCardOfferError::UnknownWebsite(website_id.to_owned()));
        }
        let not_a_gift_card = || GiftCardOfferError::NotAGiftCard(product_id.to_owned());
        let item_id = ItemId::parse(product_id).map_err(|_| not_a_gift_card())?;
        let item = self
            .site
            .item(&item_id)
            .await?
            .filter(|item| item.status == ItemStatus::Published)
            .ok_or_else(not_a_gift_card)?;
        let product = item
            .product
            .as_ref()
            .filter(|product| product.product_type == ProductType::GiftCard)
            .ok_or_else(not_a_gift_card)?;
        let amounts: Vec<GiftCardAmount> = product
            .variants
            .iter()
            .map(|variant| GiftCardAmount {
                sku: variant.sku.clone(),
                label: if variant.option_values.is_empty() {
                    variant.sku.as_str().to_owned()
                } else {
                    variant
                        .option_values
                        .iter()
                        .map(|option| option.value.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                },
                price_cents: variant.effective_price(),
                sold_out: product.variant_sold_out(variant),
            })
            .collect();
        let chosen = match sku {
            None => None,
            Some(sku) => Some(
                amounts
                    .iter()
                    .map(|amount| &amount.sku)
                    .find(|known| known.as_str() == sku)
                    .cloned()
                    .ok_or_else(|| GiftCardOfferError::UnknownAmount {
                        item: product_id.to_owned(),
                        sku: sku.to_owned(),
                    })?,
            ),
        };
        Ok(GiftCardOffer {
            website_id: this_site,
            title: item.title.clone(),
            excerpt: item.excerpt.clone(),
            item_id: item.id,
            amounts,
            chosen,
            currency: self.rules.currency,
        })
    }

    /// Puts one gift card of the chosen amount, for the recipient of the form, into the cart
    /// under `token` (creating the cart when there is none), ready for the regular checkout.
    pub async fn add_gift_card(
        &self,
        token: &CartToken,
        form: &GiftCardForm,
        now: Timestamp,
    ) -> Result<CartUpdate, AddGiftCardError> {
        let sku = Some(form.sku.as_str()).filter(|sku| !sku.is_empty());
        let offer = self
            .gift_card_offer(&form.website_id, &form.product_id, sku)
            .await?;
        let recipient =
            GiftCardRecipient::parse(&form.recipient_name, &form.recipient_email, &form.message);
        let mut errors = recipient.clone().err().unwrap_or_default();
        if offer.chosen.is_none() {
            errors.insert("sku", GIFT_CARD_AMOUNT_REQUIRED.to_owned());
        }
        // A day to send on needs an address to send to.
        let send_on = if !form.send_on.trim().is_empty() && form.recipient_email.trim().is_empty() {
            Err(SEND_DATE_NEEDS_EMAIL)
        } else {
            GiftCardSendDate::parse(&form.send_on, now)
        };
        let send_on = send_on.unwrap_or_else(|message| {
            errors.insert("sendOn", message.to_owned());
            None
        });
        let (Ok(recipient), Some(sku), true) =
            (recipient, offer.chosen, !errors.contains_key("sendOn"))
        else {
            return Err(AddGiftCardError::Invalid(errors));
        };
        let (purchasable, _form) = self.purchasable(&offer.item_id, &sku).await?;
        let mut cart = match self
            .store
            .load_cart(token)
            .await
            .map_err(CartServiceError::from)?
        {
            Some(cart) => cart,
            None => CartState::new(token.as_str(), offer.website_id.as_str(), now),
        };
        let other_recipient = cart.entries.iter().any(|entry| {
            entry.sku == sku
                && (entry.gift_card_recipient != recipient || entry.gift_card_send_on != send_on)
        });
        if other_recipient {
            return Err(AddGiftCardError::Invalid(RecipientFieldErrors::from([(
                "sku",
                OTHER_RECIPIENT.to_owned(),
            )])));
        }
        let warnings = cart
            .add_item(&purchasable, 1)
            .map_err(CartServiceError::from)?;
        cart.set_gift_card_delivery(&sku, recipient, send_on)
            .map_err(CartServiceError::from)?;
        Ok(self.save(token, cart, warnings, now).await?)
    }
}
