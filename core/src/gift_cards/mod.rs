//! Gift cards: codes a person can type, the card an order issues per unit of a gift card
//! line, the rules for paying with one, and the mail that gives a card to its recipient on
//! the day the buyer chose. Cards are kept by the commerce store, because
//! issuing and spending them happen inside an order's transaction.

mod card;
mod code;
mod mail;
mod send_date;

pub use card::{
    GIFT_CARD_CODE_INVALID, GiftCard, GiftCardPayment, GiftCardRecipient, GiftCardRefusal,
    RecipientFieldErrors, gift_card_can_pay, gift_card_lines_cents,
};
pub use code::{GiftCardCode, GiftCardCodeSource, InvalidGiftCardCode, SequentialGiftCardCodes};
pub use mail::{GIFT_CARD_BALANCE_PATH, gift_card_mail};
pub use send_date::{
    GiftCardSendDate, MAX_DAYS_AHEAD, SEND_DATE_INVALID, SEND_DATE_NEEDS_EMAIL, SEND_DATE_PAST,
    SEND_DATE_TOO_LATE, SEND_HOUR_UTC,
};
