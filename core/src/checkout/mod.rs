//! Checkout: entry from the cart, orders, and the commerce store port through which an
//! order is placed atomically (stock never oversold, a double submit ordering once, gift
//! cards issued and spent in the same transaction).

mod details;
mod entry;
mod memory;
mod order;
mod payment;
mod service;
mod store;

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;

pub use details::{
    CARD_CVC_INVALID, CARD_EXPIRY_INVALID, CARD_NUMBER_INVALID, COUNTRY_INVALID, CheckoutDetails,
    CheckoutFieldErrors, CheckoutForm, CheckoutNeeds, SHIPPING_OPTION_REQUIRED, ShippingAddress,
};
pub use entry::{CheckoutEntryRefusal, SESSION_EXPIRED_ALERT, enter_checkout, held_message};
pub use memory::InMemoryCommerceStore;
pub use order::{
    CouponLimit, IdempotencyKey, InvalidIdempotencyKey, Order, OrderLine, PlaceOrderError,
};
pub use payment::{
    CardDetails, DECLINED_MESSAGE, Payment, PaymentError, PaymentGateway, PaymentRequest,
    TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS, TestPaymentGateway,
};
pub use service::{
    AMOUNT_REQUIRED, AddGiftCardError, CartService, CartServiceError, CartUpdate, CheckoutError,
    DEFAULT_HOLD_SECONDS, EnterCheckoutError, GiftCardAmount, GiftCardForm, GiftCardOffer,
    GiftCardOfferError, OTHER_RECIPIENT,
};
pub use store::{CommerceStore, HoldStockError};

#[cfg(test)]
mod tests {
    use super::InMemoryCommerceStore;

    crate::commerce_store_conformance!(InMemoryCommerceStore::new());
}
