//! The delivery outbox: what must still reach the site owner (an email, a webhook), a
//! newsletter subscriber (a confirmation mail) or a shopper (the order confirmation, a review
//! request) after a submission is stored or an order placed. Entries are written in the same
//! transaction as the submission or the order, so neither is ever left without its
//! deliveries, and a worker sends them later, retrying with backoff.

use async_trait::async_trait;

use super::channels::Mail;
use super::submission::StoredSubmission;
use crate::checkout::Order;
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;
use crate::reviews::ReviewRequest;

/// Where one delivery goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeliveryKind {
    /// The submission by email to the site owner.
    OwnerEmail,
    /// The submission as a signed JSON POST to the owner's webhook.
    Webhook,
    /// The double opt-in mail with the confirmation link, to the subscriber.
    SubscriptionConfirmation,
    /// The order's lines and totals with a link to its page, to the shopper.
    OrderConfirmation,
    /// The link to review the order's products, to the shopper, some days after the order.
    ReviewRequest,
    /// A mail composed for a site user (address confirmation, password reset, email change),
    /// stored whole with the delivery.
    SiteUserMail,
}

impl DeliveryKind {
    /// The name stored in the outbox.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OwnerEmail => "owner_email",
            Self::Webhook => "webhook",
            Self::SubscriptionConfirmation => "confirmation_email",
            Self::OrderConfirmation => "order_confirmation_email",
            Self::ReviewRequest => "review_request_email",
            Self::SiteUserMail => "site_user_email",
        }
    }

    pub const ALL: [Self; 6] = [
        Self::OwnerEmail,
        Self::Webhook,
        Self::SubscriptionConfirmation,
        Self::OrderConfirmation,
        Self::ReviewRequest,
        Self::SiteUserMail,
    ];

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

/// What storing a submission leads to, decided by the service before the save: the
/// deliveries to enqueue and, for a new newsletter subscription, its tokens. Applied only when
/// the save stores a new row (not for a replay or an address already subscribed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FollowUp {
    pub deliveries: Vec<DeliveryKind>,
    pub tokens: Option<SubscriptionTokens>,
}

/// The secrets in a subscriber's links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionTokens {
    pub unsubscribe: String,
    /// Present while a double opt-in subscription waits for its confirmation.
    pub confirm: Option<String>,
}

/// A newsletter subscriber as the outbox and the subscription pages need them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscriber {
    pub submission_id: i64,
    /// The list: the newsletter block's form id.
    pub list: String,
    pub email: String,
    pub unsubscribe_token: String,
    pub confirm_token: Option<String>,
    pub confirmed: bool,
    pub unsubscribed: bool,
}

/// A delivery claimed by a worker, with what it needs to send it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueDelivery {
    pub id: i64,
    pub kind: DeliveryKind,
    /// Attempts made before this one.
    pub attempts: u32,
    pub subject: DeliverySubject,
}

/// What a delivery is about: a stored submission, a placed order, or a mail composed when it
/// was enqueued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliverySubject {
    Mail(Mail),
    Submission {
        submission: StoredSubmission,
        /// For a newsletter sign-up: the subscriber.
        subscriber: Option<Subscriber>,
    },
    Order {
        order: Box<Order>,
        /// For a review request's mail: the request made with the order.
        review_request: Option<ReviewRequest>,
    },
}

impl DueDelivery {
    /// The submission the delivery is about, when it is about one.
    pub fn submission(&self) -> Option<&StoredSubmission> {
        match &self.subject {
            DeliverySubject::Submission { submission, .. } => Some(submission),
            DeliverySubject::Order { .. } | DeliverySubject::Mail(_) => None,
        }
    }

    /// The newsletter subscriber the delivery is about, when it is about one.
    pub fn subscriber(&self) -> Option<&Subscriber> {
        match &self.subject {
            DeliverySubject::Submission { subscriber, .. } => subscriber.as_ref(),
            DeliverySubject::Order { .. } | DeliverySubject::Mail(_) => None,
        }
    }
}

/// Where a delivery stands, for owners and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryRecord {
    pub id: i64,
    /// The submission the delivery is about; none for an order's.
    pub submission_id: Option<i64>,
    /// The order the delivery is about; none for a submission's.
    pub order_id: Option<String>,
    pub kind: DeliveryKind,
    pub attempts: u32,
    pub next_attempt_ms: i64,
    pub delivered_ms: Option<i64>,
    pub failed: bool,
    pub last_error: Option<String>,
}

/// The durable queue of deliveries.
#[async_trait]
pub trait DeliveryOutbox: Send + Sync {
    /// Claims up to `limit` deliveries due at `now_ms`, oldest first, by moving their next
    /// attempt to `now_ms + lease_ms`: another worker does not get them meanwhile, and a
    /// worker that dies while sending leaves them to be retried when the lease ends.
    async fn claim_due(
        &self,
        now_ms: i64,
        lease_ms: i64,
        limit: u32,
    ) -> Result<Vec<DueDelivery>, RepositoryError>;

    async fn mark_delivered(&self, id: i64, now_ms: i64) -> Result<(), RepositoryError>;

    /// Records a failed attempt; the delivery is tried again at `next_attempt_ms`.
    async fn schedule_retry(
        &self,
        id: i64,
        attempts: u32,
        next_attempt_ms: i64,
        error: &str,
    ) -> Result<(), RepositoryError>;

    /// Records the last failed attempt; the delivery is not tried again.
    async fn give_up(&self, id: i64, attempts: u32, error: &str) -> Result<(), RepositoryError>;

    /// Every delivery, oldest first.
    async fn deliveries(&self) -> Result<Vec<DeliveryRecord>, RepositoryError>;

    /// Enqueues `mail`, composed whole, due at once ([`DeliveryKind::SiteUserMail`]).
    async fn enqueue_mail(&self, mail: &Mail, now_ms: i64) -> Result<(), RepositoryError>;

    /// The mail of a delivery enqueued with [`Self::enqueue_mail`], for tests and owners.
    async fn mail_of(&self, id: i64) -> Result<Option<Mail>, RepositoryError>;

    /// Withdraws every composed mail to `email` (compared without case) that has not been
    /// sent, so it never is: what erasing the address asks of the outbox. Mails already sent
    /// stay recorded; an empty address is nobody's. Answers how many were withdrawn.
    async fn withdraw_mails_to(&self, email: &str) -> Result<u32, RepositoryError>;
}

/// What following a confirmation or unsubscribe link did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenOutcome {
    Done,
    /// Confirmed or unsubscribed before: the same answer, nothing changes.
    AlreadyDone,
    Unknown,
}

/// Newsletter subscriptions as their links change them.
#[async_trait]
pub trait NewsletterSubscriptions: Send + Sync {
    /// The subscriber a confirmation or unsubscribe token belongs to.
    async fn subscriber_by_token(&self, token: &str)
    -> Result<Option<Subscriber>, RepositoryError>;

    /// The subscriptions of `email` (compared without case) that have not ended, oldest
    /// first: a site user's account page lists them, each with its unsubscribe button.
    async fn subscriptions_of(&self, email: &str) -> Result<Vec<Subscriber>, RepositoryError>;

    /// The owner's table: the page `query` asks for of every subscriber, ended subscriptions
    /// too, whose address or list contains its search, newest first, with how many match.
    async fn subscriber_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<Subscriber>, RepositoryError>;

    /// Confirms the subscription of `confirm_token` and, in the same transaction, enqueues
    /// `deliveries` (the owner hears of a double opt-in subscriber once confirmed).
    async fn confirm(
        &self,
        confirm_token: &str,
        deliveries: &[DeliveryKind],
        now: i64,
    ) -> Result<TokenOutcome, RepositoryError>;

    /// Ends the subscription of `unsubscribe_token`. The row stays for the owner's records,
    /// but no longer counts as a subscription, so the address may sign up again.
    async fn unsubscribe(
        &self,
        unsubscribe_token: &str,
        now: i64,
    ) -> Result<TokenOutcome, RepositoryError>;

    /// Ends and erases every subscription of `email` (compared without case), live or
    /// ended, in one transaction: the subscriber rows go, with their tokens, so the address
    /// may sign up again. The sign-up submissions stay, as every form submission does: they
    /// are the site owner's records. Answers how many subscriptions were erased.
    async fn erase_subscriptions_of(&self, email: &str) -> Result<u32, RepositoryError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_their_stored_names() {
        for kind in DeliveryKind::ALL {
            assert_eq!(DeliveryKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(DeliveryKind::parse("pigeon"), None);
    }
}
