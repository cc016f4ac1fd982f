//! Checkout as a visitor's request makes it: refused at once for a payer that failed to pay
//! too often lately, and counted when it fails to pay (`card_testing.rs`).

use crate::cart::{CartToken, Timestamp};
use crate::checkout::card_testing::{AdmitError, Payer};
use crate::checkout::details::CheckoutForm;
use crate::checkout::order::{IdempotencyKey, Order};
use crate::checkout::payment::PaymentError;

use super::{CartService, CheckoutError};

/// Whether a checkout's failure is a failed payment: a card declined, or a gift-card code
/// that pays nothing (a script guessing codes fails the same way).
pub(crate) fn is_failed_payment(error: &CheckoutError) -> bool {
    match error {
        CheckoutError::Payment(PaymentError::Declined { .. }) => true,
        CheckoutError::Invalid(fields) => fields.contains_key("giftCardCode"),
        _ => false,
    }
}

impl CartService {
    /// Refuses `payer` before anything is tried when one of its parts failed to pay too
    /// often lately: the one gate of every checkout that can charge a card.
    pub(super) async fn admit_payer(
        &self,
        payer: &Payer,
        now: Timestamp,
    ) -> Result<(), CheckoutError> {
        match self.card_testing.admit(payer, now).await {
            Ok(()) => Ok(()),
            Err(AdmitError::Refused(refused)) => Err(CheckoutError::TooManyFailedPayments(refused)),
            Err(AdmitError::Repository(error)) => Err(error.into()),
        }
    }

    /// [`Self::checkout`] for `payer`: refused before anything is tried when one of the
    /// payer's parts failed to pay too often lately, and counted against each part when
    /// the payment fails.
    pub async fn checkout_as(
        &self,
        payer: &Payer,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<Order, CheckoutError> {
        self.admit_payer(payer, now).await?;
        let result = self.checkout(token, key, order_id, form, now).await;
        if let Err(error) = &result
            && is_failed_payment(error)
        {
            self.card_testing.record_failure(payer, now).await;
        }
        result
    }
}
