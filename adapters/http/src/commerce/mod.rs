//! Commerce (`core/src/cart`, `checkout`, `gift_cards`, `reviews`): the cart API and its wire
//! format, product forms of cart lines, and the server-rendered cart, checkout, subscription,
//! membership-confirmed, donation, gift card, gift card balance and review pages, and
//! Stripe's webhook.

pub(crate) mod card_payment;
pub(crate) mod cart;
pub(crate) mod cart_form_page;
pub(crate) mod cart_forms;
pub(crate) mod cart_page;
pub(crate) mod cart_wire;
pub(crate) mod checkout_page;
pub(crate) mod donate_card_payment;
pub(crate) mod donate_page;
pub(crate) mod failed_refunds;
pub(crate) mod gift_card_balance;
pub(crate) mod gift_card_page;
pub(crate) mod membership_page;
pub(crate) mod order_aftercare;
pub(crate) mod order_page;
pub(crate) mod payer;
pub(crate) mod reviews;
pub(crate) mod reviews_page;
pub(crate) mod stripe_webhook;
pub(crate) mod subscribe_page;
pub(crate) mod subscription_manage;
