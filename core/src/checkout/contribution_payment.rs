//! Where a contribution paid in the donor's browser stands. With the provider's own card
//! fields the server opens an intent for the contribution before the donor pays, so the
//! contribution is kept "payment pending" and settled only on the provider's word (the
//! return address after the bank's verification, or the provider's webhook). Either may come
//! first, and either may come twice: the rules here settle a contribution once, so its
//! receipt mail and its `Donate` event go out once, and only for money that was taken. A
//! declined card settles nothing: the provider keeps the intent payable, and the donor may
//! confirm it again with another card; only a cancelled intent fails the contribution.

use super::browser_payment::IntentState;
use super::payment::Payment;
use crate::money::Currency;

/// The payment of a contribution made in the donor's browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContributionPayment {
    /// The provider's intent `intent_id` was opened for it; the donor has not paid yet, or
    /// the bank's verification is still open.
    Pending { intent_id: String },
    /// The money was taken by the charge `payment_id`.
    Paid { payment_id: String },
    /// Nothing was taken; `message` says why in the donor's words.
    Failed { message: String },
}

/// What one report of the provider does to a contribution's payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContributionSettlement {
    /// Nothing changes: the intent is still open, or the contribution was settled before
    /// (the webhook after the return address, a reloaded return address).
    Unchanged,
    /// The money was taken now: record the payment, mail the receipt and count the `Donate`.
    Paid(Payment),
    /// The payment failed now: record why, and show the donor the message.
    Failed { message: String },
    /// The report is about another intent, or the intent took another amount than the
    /// contribution's: nothing changes, and the owner has to look at it.
    Mismatch,
}

impl ContributionPayment {
    /// Whether the provider has answered for good.
    pub fn is_settled(&self) -> bool {
        !matches!(self, Self::Pending { .. })
    }

    /// What the provider's report on intent `intent_id`, in `state`, does to this payment of
    /// `amount_minor` in `currency`. A declined attempt leaves it pending, since the intent
    /// may still be paid with another card; a cancelled intent fails it. A settled payment
    /// never changes: a failed one stays failed (the donor starts a new attempt), and a paid
    /// one stays paid.
    pub fn settle(
        &self,
        intent_id: &str,
        amount_minor: i64,
        currency: Currency,
        state: &IntentState,
    ) -> ContributionSettlement {
        let Self::Pending { intent_id: opened } = self else {
            return ContributionSettlement::Unchanged;
        };
        if opened != intent_id {
            return ContributionSettlement::Mismatch;
        }
        match state {
            IntentState::Open | IntentState::Failed { .. } => ContributionSettlement::Unchanged,
            IntentState::Succeeded(payment)
                if payment.amount_minor != amount_minor || payment.currency != currency =>
            {
                ContributionSettlement::Mismatch
            }
            IntentState::Succeeded(payment) => ContributionSettlement::Paid(payment.clone()),
            IntentState::Canceled => ContributionSettlement::Failed {
                message: super::browser_payment::INTENT_CANCELLED.to_owned(),
            },
        }
    }

    /// This payment once `settlement` is recorded.
    pub fn after(&self, settlement: &ContributionSettlement) -> Self {
        match settlement {
            ContributionSettlement::Paid(payment) => Self::Paid {
                payment_id: payment.id.clone(),
            },
            ContributionSettlement::Failed { message } => Self::Failed {
                message: message.clone(),
            },
            ContributionSettlement::Unchanged | ContributionSettlement::Mismatch => self.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AMOUNT: i64 = 2_500;

    fn pending() -> ContributionPayment {
        ContributionPayment::Pending {
            intent_id: "pi_1".into(),
        }
    }

    fn payment(amount_minor: i64, currency: Currency) -> Payment {
        Payment {
            id: "ch_1".into(),
            amount_minor,
            currency,
        }
    }

    fn succeeded() -> IntentState {
        IntentState::Succeeded(payment(AMOUNT, Currency::Usd))
    }

    fn declined() -> IntentState {
        IntentState::Failed {
            message: "Your card was declined.".into(),
        }
    }

    fn settle(payment: &ContributionPayment, state: &IntentState) -> ContributionSettlement {
        payment.settle("pi_1", AMOUNT, Currency::Usd, state)
    }

    #[test]
    fn a_pending_contribution_stays_pending_while_its_intent_is_open() {
        let settlement = settle(&pending(), &IntentState::Open);
        assert_eq!(settlement, ContributionSettlement::Unchanged);
        assert_eq!(pending().after(&settlement), pending());
        assert!(!pending().is_settled());
    }

    #[test]
    fn a_pending_contribution_is_paid_by_its_intents_success() {
        let settlement = settle(&pending(), &succeeded());
        assert_eq!(
            settlement,
            ContributionSettlement::Paid(payment(AMOUNT, Currency::Usd))
        );
        let paid = pending().after(&settlement);
        assert_eq!(
            paid,
            ContributionPayment::Paid {
                payment_id: "ch_1".into()
            }
        );
        assert!(paid.is_settled());
    }

    /// A review found that a declined card failed the contribution, so the donor could not
    /// try another card on the same intent, as a shopper can: now the intent stays payable.
    #[test]
    fn a_declined_card_leaves_the_contribution_pending_for_another_card() {
        let settlement = settle(&pending(), &declined());
        assert_eq!(settlement, ContributionSettlement::Unchanged);
        assert_eq!(pending().after(&settlement), pending());
    }

    #[test]
    fn a_cancelled_intent_fails_the_contribution_once() {
        let settlement = settle(&pending(), &IntentState::Canceled);
        let failed = pending().after(&settlement);
        assert_eq!(
            failed,
            ContributionPayment::Failed {
                message: super::super::browser_payment::INTENT_CANCELLED.into()
            }
        );
        assert!(failed.is_settled());
        assert_eq!(
            settle(&failed, &IntentState::Canceled),
            ContributionSettlement::Unchanged
        );
    }

    #[test]
    fn a_settled_contribution_is_settled_only_once() {
        let paid = pending().after(&settle(&pending(), &succeeded()));
        // The webhook after the return address, or the return address reloaded.
        assert_eq!(
            settle(&paid, &succeeded()),
            ContributionSettlement::Unchanged
        );
        assert_eq!(
            settle(&paid, &declined()),
            ContributionSettlement::Unchanged
        );
        let failed = pending().after(&settle(&pending(), &IntentState::Canceled));
        assert_eq!(
            settle(&failed, &succeeded()),
            ContributionSettlement::Unchanged
        );
    }

    #[test]
    fn another_intent_or_another_amount_settles_nothing() {
        assert_eq!(
            pending().settle("pi_2", AMOUNT, Currency::Usd, &succeeded()),
            ContributionSettlement::Mismatch
        );
        let more = IntentState::Succeeded(payment(AMOUNT + 1, Currency::Usd));
        assert_eq!(settle(&pending(), &more), ContributionSettlement::Mismatch);
        let euros = IntentState::Succeeded(payment(AMOUNT, Currency::Eur));
        assert_eq!(settle(&pending(), &euros), ContributionSettlement::Mismatch);
        assert_eq!(
            pending().after(&ContributionSettlement::Mismatch),
            pending()
        );
    }
}
