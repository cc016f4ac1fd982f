//! Gift cards: codes a person can type, the card an order issues per unit of a gift card
//! line, and the rules for paying with one. Cards are kept by the commerce store, because
//! issuing and spending them happen inside an order's transaction.

mod card;
mod code;

pub use card::{
    GIFT_CARD_CODE_INVALID, GiftCard, GiftCardPayment, GiftCardRecipient, GiftCardRefusal,
    RecipientFieldErrors, gift_card_can_pay, gift_card_lines_cents,
};
pub use code::{GiftCardCode, GiftCardCodeSource, InvalidGiftCardCode, SequentialGiftCardCodes};
