//! Gift cards in SQL: the statements the commerce store runs inside an order's transaction
//! (issuing the cards it buys, spending the card it pays with) and the row they read back.
//! One text serves both dialects.

use vitrine_core::cart::Timestamp;
use vitrine_core::catalog::Sku;
use vitrine_core::gift_cards::{GiftCard, GiftCardCode, GiftCardPayment, GiftCardRecipient};
use vitrine_core::money::Currency;
use vitrine_core::ports::RepositoryError;

/// Takes `$1` from the card `$2` when it holds that much in the order's currency `$3`. The
/// check and the decrement are one statement, so two orders can never both spend the same
/// balance: the second waits for the first's row lock (PostgreSQL) or write lock (SQLite)
/// and then finds the condition false.
pub(crate) const SPEND_GIFT_CARD: &str = "UPDATE gift_cards SET remaining_cents = remaining_cents - $1 \
     WHERE code = $2 AND currency = $3 AND remaining_cents >= $1";

pub(crate) const INSERT_GIFT_CARD: &str = "INSERT INTO gift_cards (code, order_id, position, sku, \
     currency, initial_cents, remaining_cents, recipient_name, recipient_email, message, created) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

macro_rules! gift_card_columns {
    () => {
        "code, order_id, sku, currency, initial_cents, remaining_cents, recipient_name, \
         recipient_email, message, created"
    };
}

pub(crate) const GIFT_CARD_BY_CODE: &str = concat!(
    "SELECT ",
    gift_card_columns!(),
    " FROM gift_cards WHERE code = $1"
);

pub(crate) const ORDER_GIFT_CARDS: &str = concat!(
    "SELECT ",
    gift_card_columns!(),
    " FROM gift_cards WHERE order_id = $1 ORDER BY position"
);

/// The gift cards the order `$order_id` issued, in issue order, read through `$pool`: what
/// the commerce store answers for an order and what the outbox's order mails list.
macro_rules! order_gift_cards {
    ($pool:expr, $order_id:expr) => {
        async {
            let rows: Vec<$crate::gift_cards::GiftCardRow> =
                sqlx::query_as($crate::gift_cards::ORDER_GIFT_CARDS)
                    .bind($order_id)
                    .fetch_all($pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "reading an order's gift cards",
                    ))?;
            rows.into_iter()
                .map($crate::gift_cards::GiftCardRow::into_gift_card)
                .collect::<Result<
                    Vec<vitrine_core::gift_cards::GiftCard>,
                    vitrine_core::ports::RepositoryError,
                >>()
        }
    };
}
pub(crate) use order_gift_cards;

/// A gift card as stored.
#[derive(sqlx::FromRow)]
pub(crate) struct GiftCardRow {
    code: String,
    order_id: String,
    sku: String,
    currency: String,
    initial_cents: i64,
    remaining_cents: i64,
    recipient_name: String,
    recipient_email: String,
    message: String,
    created: i64,
}

fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

impl GiftCardRow {
    pub(crate) fn into_gift_card(self) -> Result<GiftCard, RepositoryError> {
        let recipient = GiftCardRecipient {
            name: self.recipient_name,
            email: self.recipient_email,
            message: self.message,
        };
        Ok(GiftCard {
            code: GiftCardCode::parse(&self.code)
                .map_err(|error| corrupt("a gift card code", error))?,
            sku: Sku::parse(self.sku).map_err(|error| corrupt("a gift card's SKU", error))?,
            currency: Currency::from_code(&self.currency)
                .map_err(|error| corrupt("a gift card currency", error))?,
            order_id: self.order_id,
            initial_cents: self.initial_cents,
            remaining_cents: self.remaining_cents,
            recipient: (!recipient.is_empty()).then_some(recipient),
            created: Timestamp(self.created),
        })
    }
}

/// The gift card columns of an order: the card's code (empty without one) and the amount it
/// paid.
pub(crate) fn payment_columns(payment: Option<&GiftCardPayment>) -> (&str, i64) {
    payment.map_or(("", 0), |payment| {
        (payment.code.as_str(), payment.amount_cents)
    })
}

/// The gift card payment of a stored order, from its columns.
pub(crate) fn payment_from_columns(
    code: &str,
    amount_cents: i64,
) -> Result<Option<GiftCardPayment>, RepositoryError> {
    if code.is_empty() {
        return Ok(None);
    }
    let code =
        GiftCardCode::parse(code).map_err(|error| corrupt("an order's gift card code", error))?;
    Ok(Some(GiftCardPayment { code, amount_cents }))
}

/// The recipient columns of a card: all empty when it is the buyer's.
pub(crate) fn recipient_columns(card: &GiftCard) -> (&str, &str, &str) {
    card.recipient.as_ref().map_or(("", "", ""), |recipient| {
        (
            recipient.name.as_str(),
            recipient.email.as_str(),
            recipient.message.as_str(),
        )
    })
}
