//! Saved cards and renewals through Stripe ([`RecurringPayments`]): a card is kept as a
//! PaymentMethod attached to a Customer (`POST /v1/payment_methods`, then `POST /v1/customers`
//! with it as the default), and a renewal is an off-session PaymentIntent on that customer
//! and method, created and confirmed in one call under the renewal's idempotency key. The
//! token the subscription keeps is `cus_...:pm_...`.
//!
//! A renewal that the bank wants the cardholder to confirm (3-D Secure off session) comes back
//! as a card error (`authentication_required`): it is a decline for dunning, whose mail asks
//! the shopper to update the card.

use async_trait::async_trait;
use serde::Deserialize;
use vitrine_core::checkout::{
    Payment, PaymentError, RecurringPayments, RenewalCharge, SaveCardRequest, SavedCard,
};

use super::StripeGateway;
use super::wire::{ChargeAnswer, read_charge};

/// The metadata key naming a renewal's idempotency key on its PaymentIntent: not the
/// checkout's, so that Stripe's webhooks about renewals are never taken for an order's.
pub(crate) const RENEWAL_KEY_METADATA: &str = "vitrine_renewal_key";

/// What a renewal's shopper reads when the bank wants to confirm an off-session payment
/// (our text).
pub const RENEWAL_NEEDS_CONFIRMATION: &str =
    "Your bank asks you to confirm this payment. Please update your card.";

#[derive(Debug, Deserialize)]
struct IdBody {
    id: String,
}

fn payment_method_form(request: &SaveCardRequest) -> String {
    let card = &request.card;
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("type", "card")
        .append_pair("card[number]", &card.number)
        .append_pair("card[exp_month]", &card.expiry_month.to_string())
        .append_pair("card[exp_year]", &card.expiry_year.to_string())
        .append_pair("card[cvc]", &card.cvc)
        .finish()
}

fn customer_form(email: &str, payment_method: &str) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("email", email)
        .append_pair("payment_method", payment_method)
        .append_pair("invoice_settings[default_payment_method]", payment_method)
        .finish()
}

fn renewal_form(charge: &RenewalCharge, customer: &str, payment_method: &str) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("amount", &charge.amount_minor.to_string())
        .append_pair("currency", &charge.currency.code().to_ascii_lowercase())
        .append_pair("customer", customer)
        .append_pair("payment_method", payment_method)
        .append_pair("payment_method_types[0]", "card")
        .append_pair("off_session", "true")
        .append_pair("confirm", "true")
        .append_pair("receipt_email", &charge.email)
        .append_pair("description", &charge.description)
        .append_pair(
            &format!("metadata[{RENEWAL_KEY_METADATA}]"),
            charge.key.as_str(),
        )
        .finish()
}

/// The id in a 200 answer of Stripe's; anything else is the failure it says.
pub(super) fn created_id(status: u16, body: &str, what: &str) -> Result<String, PaymentError> {
    if status == 200 {
        return serde_json::from_str::<IdBody>(body)
            .map(|created| created.id)
            .map_err(|_| PaymentError::Unavailable(format!("Stripe's {what} is unreadable")));
    }
    // A card Stripe refuses to keep reads as a decline, as at checkout.
    match read_charge(status, body) {
        Err(error) => Err(error),
        Ok(_) => Err(PaymentError::Unavailable(format!(
            "Stripe answered {status} creating a {what}"
        ))),
    }
}

#[async_trait]
impl RecurringPayments for StripeGateway {
    async fn save_card(&self, request: &SaveCardRequest) -> Result<SavedCard, PaymentError> {
        let key = request.key.as_str();
        let answer = self
            .post(
                self.url(&["payment_methods"])?,
                &format!("{key}-payment-method"),
                payment_method_form(request),
            )
            .await?;
        let payment_method = created_id(answer.status, &answer.body, "PaymentMethod")?;
        let answer = self
            .post(
                self.url(&["customers"])?,
                &format!("{key}-customer"),
                customer_form(&request.email, &payment_method),
            )
            .await?;
        let customer = created_id(answer.status, &answer.body, "Customer")?;
        Ok(SavedCard {
            token: format!("{customer}:{payment_method}"),
            last4: request.card.last4().to_owned(),
        })
    }

    async fn charge_saved(&self, charge: &RenewalCharge) -> Result<Payment, PaymentError> {
        let (customer, payment_method) = charge
            .payment_method
            .split_once(':')
            .filter(|(customer, method)| customer.starts_with("cus_") && method.starts_with("pm_"))
            .ok_or_else(|| {
                PaymentError::Unavailable(format!(
                    "{:?} is not a saved Stripe card",
                    charge.payment_method
                ))
            })?;
        let answer = self
            .post(
                self.url(&["payment_intents"])?,
                charge.key.as_str(),
                renewal_form(charge, customer, payment_method),
            )
            .await?;
        match read_charge(answer.status, &answer.body)? {
            ChargeAnswer::Succeeded { id } => Ok(Payment {
                id,
                amount_minor: charge.amount_minor,
                currency: charge.currency,
            }),
            ChargeAnswer::RequiresAction { id } => {
                self.abandon(&id).await;
                Err(PaymentError::Declined {
                    message: RENEWAL_NEEDS_CONFIRMATION.to_owned(),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::checkout::IdempotencyKey;
    use vitrine_core::money::Currency;

    #[test]
    fn a_renewal_is_an_off_session_intent_on_the_saved_customer_and_method() {
        let charge = RenewalCharge {
            key: IdempotencyKey::parse("renewal-order-1-subscription-p2").unwrap(),
            payment_method: "cus_1:pm_1".into(),
            amount_minor: 2500,
            currency: Currency::Eur,
            email: "a@example.com".into(),
            description: "1 × Club, renewal 2".into(),
        };
        let form = renewal_form(&charge, "cus_1", "pm_1");
        for pair in [
            "amount=2500",
            "currency=eur",
            "customer=cus_1",
            "payment_method=pm_1",
            "off_session=true",
            "confirm=true",
            "metadata%5Bvitrine_renewal_key%5D=renewal-order-1-subscription-p2",
        ] {
            assert!(form.contains(pair), "{pair} in {form}");
        }
        assert!(!form.contains("vitrine_idempotency_key"), "{form}");
    }
}
