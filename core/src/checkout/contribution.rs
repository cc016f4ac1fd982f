//! Contributions: what a donor gave through a donation page, the store port that keeps them
//! (one per idempotency key, so a double submit records and pays once), its in-memory
//! implementation, and the donation service the HTTP adapter calls.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::contribution_payment::{ContributionPayment, ContributionSettlement};
use super::contribution_receipt::{Organisation, contribution_receipt_mail};
use super::details::CheckoutFieldErrors;
use super::donation::{DonationCampaign, DonationForm};
use super::ledger::{
    MemoryPaymentLedger, PaymentLedger, PaymentUse, delegate_payment_ledger, give_back,
};
use super::order::IdempotencyKey;
use super::payment::{PaymentError, PaymentGateway, PaymentRequest};
use super::placed_between::PlacedBetween;
use crate::cart::Timestamp;
use crate::forms::Mail;
use crate::money::Currency;
use crate::ports::{RepositoryError, SiteRepository};

use crate::site::BlockContent;

/// A contribution made through a donation page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contribution {
    /// Chosen by the caller (adapters have randomness, the core does not); the confirmation
    /// page's address, so it must be hard to guess.
    pub id: String,
    pub idempotency_key: IdempotencyKey,
    /// The donation block it was given through, and that block's title at the time.
    pub donate_page_id: String,
    pub campaign_title: String,
    pub amount_minor: i64,
    pub currency: Currency,
    pub name: String,
    pub email: String,
    pub created: Timestamp,
    /// Where its payment stands: paid at once when the server charged the card, pending
    /// until the provider answers when the donor paid in the provider's own fields.
    pub payment: ContributionPayment,
}

impl Contribution {
    /// The payment gateway's id of the charge; empty until the contribution is paid.
    pub fn payment_id(&self) -> &str {
        match &self.payment {
            ContributionPayment::Paid { payment_id } => payment_id,
            ContributionPayment::Pending { .. } | ContributionPayment::Failed { .. } => "",
        }
    }
}

/// Why a contribution was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum RecordContributionError {
    /// The charge meant to pay for it was given back meanwhile (an earlier submit of the
    /// same form could not record it); nothing was recorded.
    #[error("payment {0} was refunded before the contribution could be recorded")]
    PaymentRefunded(String),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Where contributions are kept; a payment ledger too, since a contribution claims its
/// charge when it is recorded.
#[async_trait]
pub trait ContributionStore: PaymentLedger + Send + Sync {
    /// Records a contribution. One already recorded with the same idempotency key is
    /// returned as it was, and nothing changes. Otherwise the contribution claims its
    /// charge in the ledger with it; a charge claimed already (for a refund) answers
    /// `PaymentRefunded` and nothing is recorded.
    async fn record(
        &self,
        contribution: &Contribution,
    ) -> Result<Contribution, RecordContributionError> {
        self.record_with_receipt(contribution, None).await
    }

    /// [`Self::record`], enqueueing `receipt` in the delivery outbox (due at once) in the
    /// same transaction, only when this call records the contribution: a replay of its
    /// idempotency key and a refused contribution mail nothing.
    async fn record_with_receipt(
        &self,
        contribution: &Contribution,
        receipt: Option<&Mail>,
    ) -> Result<Contribution, RecordContributionError>;

    /// Keeps `contribution`, whose payment is pending on the provider's intent, unless one
    /// with its idempotency key exists, which is returned as it was. Nothing is claimed in
    /// the ledger: no money was taken yet.
    async fn open_pending(
        &self,
        contribution: &Contribution,
    ) -> Result<Contribution, RepositoryError>;

    /// Records `settlement` on the pending contribution `id` at `now`: a payment claims its
    /// charge in the ledger and enqueues `receipt` in the same transaction, a failure keeps
    /// its message. Only the call that moves the contribution off pending changes anything;
    /// the answer is the contribution as it is then and whether this call settled it (none
    /// for an unknown id). A charge claimed already for a refund answers `PaymentRefunded`
    /// and the contribution stays pending.
    async fn settle(
        &self,
        id: &str,
        settlement: &ContributionSettlement,
        receipt: Option<&Mail>,
        now: Timestamp,
    ) -> Result<Option<(Contribution, bool)>, RecordContributionError>;

    async fn contribution(&self, id: &str) -> Result<Option<Contribution>, RepositoryError>;

    /// The contributions still pending on a provider's intent that were opened before
    /// `before`, oldest first, at most `limit`: the donations in the browser whose donors
    /// may have abandoned them.
    async fn pending_contributions_opened_before(
        &self,
        before: Timestamp,
        limit: u32,
    ) -> Result<Vec<Contribution>, RepositoryError>;

    async fn contribution_by_key(
        &self,
        key: &IdempotencyKey,
    ) -> Result<Option<Contribution>, RepositoryError>;

    /// The newest `limit` contributions given with `email` (compared without case) within
    /// `made`, newest first (ties by id, later first): those of one account's hold of the
    /// address, which its page lists and its export holds.
    async fn contributions_made_between(
        &self,
        email: &str,
        made: PlacedBetween,
        limit: u32,
    ) -> Result<Vec<Contribution>, RepositoryError>;

    /// Removes the donor's name and address from every contribution given with `email`
    /// (compared without case) within `made`, for account deletion: the amount, currency,
    /// date, campaign and payment id stay, so the organisation's books still add up. Answers
    /// how many contributions changed; an emptied address is nobody's, so it matches nothing.
    async fn erase_contributions_of(
        &self,
        email: &str,
        made: PlacedBetween,
    ) -> Result<u32, RepositoryError>;
}

/// The in-memory [`ContributionStore`], for tests and for running without a database. Its
/// payment ledger is its own, unless [`Self::with_ledger`] shares the commerce store's.
#[derive(Debug, Default)]
pub struct InMemoryContributionStore {
    contributions: Mutex<Vec<Contribution>>,
    ledger: Arc<MemoryPaymentLedger>,
    /// The receipts enqueued with contributions; there is no in-memory outbox worker.
    receipts: Mutex<Vec<Mail>>,
}

delegate_payment_ledger!(InMemoryContributionStore, ledger);

impl InMemoryContributionStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// The same store claiming charges in `ledger`.
    pub fn with_ledger(mut self, ledger: Arc<MemoryPaymentLedger>) -> Self {
        self.ledger = ledger;
        self
    }

    /// The receipts enqueued with the contributions recorded, in the order recorded.
    pub fn receipts(&self) -> Vec<Mail> {
        self.receipts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Contribution>> {
        // Every write is one push, so a poisoned lock still guards whole data.
        self.contributions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The contribution kept before under `contribution`'s idempotency key, if any; a taken id
/// under another key is refused, so no contribution is kept over another.
fn recorded_before(
    contributions: &[Contribution],
    contribution: &Contribution,
) -> Result<Option<Contribution>, RepositoryError> {
    if let Some(recorded) = contributions
        .iter()
        .find(|recorded| recorded.idempotency_key == contribution.idempotency_key)
    {
        return Ok(Some(recorded.clone()));
    }
    if contributions
        .iter()
        .any(|recorded| recorded.id == contribution.id)
    {
        return Err(RepositoryError::Rejected(format!(
            "contribution id {} is taken",
            contribution.id
        )));
    }
    Ok(None)
}

#[async_trait]
impl ContributionStore for InMemoryContributionStore {
    async fn record_with_receipt(
        &self,
        contribution: &Contribution,
        receipt: Option<&Mail>,
    ) -> Result<Contribution, RecordContributionError> {
        let mut contributions = self.lock();
        if let Some(recorded) = recorded_before(&contributions, contribution)? {
            return Ok(recorded);
        }
        let claimed = self.ledger.claim(
            contribution.payment_id(),
            &contribution.idempotency_key,
            PaymentUse::Contribution,
            contribution.created,
        );
        if !claimed {
            return Err(RecordContributionError::PaymentRefunded(
                contribution.payment_id().to_owned(),
            ));
        }
        contributions.push(contribution.clone());
        if let Some(receipt) = receipt {
            self.receipts
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(receipt.clone());
        }
        Ok(contribution.clone())
    }

    async fn open_pending(
        &self,
        contribution: &Contribution,
    ) -> Result<Contribution, RepositoryError> {
        let mut contributions = self.lock();
        if let Some(recorded) = recorded_before(&contributions, contribution)? {
            return Ok(recorded);
        }
        contributions.push(contribution.clone());
        Ok(contribution.clone())
    }

    async fn settle(
        &self,
        id: &str,
        settlement: &ContributionSettlement,
        receipt: Option<&Mail>,
        now: Timestamp,
    ) -> Result<Option<(Contribution, bool)>, RecordContributionError> {
        let mut contributions = self.lock();
        let Some(found) = contributions.iter_mut().find(|found| found.id == id) else {
            return Ok(None);
        };
        let settles = !found.payment.is_settled()
            && matches!(
                settlement,
                ContributionSettlement::Paid(_) | ContributionSettlement::Failed { .. }
            );
        if !settles {
            return Ok(Some((found.clone(), false)));
        }
        if let ContributionSettlement::Paid(payment) = settlement
            && !self.ledger.claim(
                &payment.id,
                &found.idempotency_key,
                PaymentUse::Contribution,
                now,
            )
        {
            return Err(RecordContributionError::PaymentRefunded(payment.id.clone()));
        }
        found.payment = found.payment.after(settlement);
        if let (ContributionSettlement::Paid(_), Some(receipt)) = (settlement, receipt) {
            self.receipts
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(receipt.clone());
        }
        Ok(Some((found.clone(), true)))
    }

    async fn contribution(&self, id: &str) -> Result<Option<Contribution>, RepositoryError> {
        Ok(self.lock().iter().find(|found| found.id == id).cloned())
    }

    async fn pending_contributions_opened_before(
        &self,
        before: Timestamp,
        limit: u32,
    ) -> Result<Vec<Contribution>, RepositoryError> {
        let mut pending: Vec<Contribution> = self
            .lock()
            .iter()
            .filter(|found| !found.payment.is_settled() && found.created < before)
            .cloned()
            .collect();
        pending.sort_by_key(|found| (found.created, found.id.clone()));
        pending.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(pending)
    }

    async fn contribution_by_key(
        &self,
        key: &IdempotencyKey,
    ) -> Result<Option<Contribution>, RepositoryError> {
        Ok(self
            .lock()
            .iter()
            .find(|found| &found.idempotency_key == key)
            .cloned())
    }

    async fn contributions_made_between(
        &self,
        email: &str,
        made: PlacedBetween,
        limit: u32,
    ) -> Result<Vec<Contribution>, RepositoryError> {
        let email = email.to_lowercase();
        let mut found: Vec<Contribution> = self
            .lock()
            .iter()
            .filter(|given| {
                !email.is_empty()
                    && given.email.to_lowercase() == email
                    && made.contains(given.created)
            })
            .cloned()
            .collect();
        found.sort_by(|a, b| (b.created, &b.id).cmp(&(a.created, &a.id)));
        found.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(found)
    }

    async fn erase_contributions_of(
        &self,
        email: &str,
        made: PlacedBetween,
    ) -> Result<u32, RepositoryError> {
        let email = email.to_lowercase();
        if email.is_empty() {
            return Ok(0);
        }
        let mut erased = 0;
        for contribution in self.lock().iter_mut() {
            if contribution.email.to_lowercase() == email && made.contains(contribution.created) {
                contribution.email.clear();
                contribution.name.clear();
                erased += 1;
            }
        }
        Ok(erased)
    }
}

/// Why a donation was not made.
#[derive(Debug, thiserror::Error)]
pub enum DonateError {
    /// No donation block has this id on a published page.
    #[error("no donation page {0}")]
    UnknownPage(String),
    /// Fields of the donation form are missing or wrong; a message per field.
    #[error("the donation form has errors: {0:?}")]
    Invalid(CheckoutFieldErrors),
    /// The gateway declined the card or could not be reached; nothing was charged.
    #[error(transparent)]
    Payment(#[from] PaymentError),
    /// The charge was given back before the contribution could be recorded (an earlier
    /// submit of the same form failed); the next submit charges anew.
    #[error("payment {0} was refunded before the contribution could be recorded")]
    PaymentRefunded(String),
    /// The donor failed to pay too often lately (`card_testing.rs`); nothing was tried.
    #[error(transparent)]
    TooManyFailedPayments(super::card_testing::PaymentAttemptRefused),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl From<RecordContributionError> for DonateError {
    fn from(error: RecordContributionError) -> Self {
        match error {
            RecordContributionError::PaymentRefunded(id) => Self::PaymentRefunded(id),
            RecordContributionError::Repository(error) => Self::Repository(error),
        }
    }
}

/// A donation to make: which page, the form as typed, and the ids the adapter chose.
#[derive(Debug, Clone)]
pub struct DonationRequest {
    pub donate_page_id: String,
    pub key: IdempotencyKey,
    pub contribution_id: String,
    pub form: DonationForm,
}

/// Donation pages and contributions over the published site, a payment gateway and the
/// contribution store. Contributions are taken in the store's currency (the site's store
/// settings), read with the page, so a re-imported site's currency shows at once.
pub struct DonationService {
    site: Arc<dyn SiteRepository>,
    pub(super) store: Arc<dyn ContributionStore>,
    pub(super) payments: Arc<dyn PaymentGateway>,
    /// Counts failed payments per visitor and address (`card_testing.rs`).
    pub(super) card_testing: super::card_testing::CardTestingGuard,
    /// Whether each contribution's receipt is mailed to its donor (a server that can send
    /// mail); off by default.
    receipts: bool,
}

/// What the payment provider shows for a donation to `title`, on the server's charge and the
/// browser's intent alike.
pub(super) fn payment_description(title: &str) -> String {
    format!("Donation: {title}")
}

impl DonationService {
    pub fn new(
        site: Arc<dyn SiteRepository>,
        store: Arc<dyn ContributionStore>,
        payments: Arc<dyn PaymentGateway>,
    ) -> Self {
        Self {
            site,
            store,
            payments,
            card_testing: Default::default(),
            receipts: false,
        }
    }

    /// The same service mailing every donor the receipt of their contribution
    /// ([`super::contribution_receipt_mail`]), enqueued with the contribution.
    pub fn with_receipts(mut self) -> Self {
        self.receipts = true;
        self
    }

    /// The same service counting failed payments with `guard`, as the cart service does.
    pub fn with_card_testing(mut self, guard: super::card_testing::CardTestingGuard) -> Self {
        self.card_testing = guard;
        self
    }

    /// [`Self::donate`] for `payer`: refused before anything is tried when the payer failed
    /// to pay too often lately, and counted when the card is declined.
    pub async fn donate_as(
        &self,
        payer: &super::card_testing::Payer,
        request: DonationRequest,
        now: Timestamp,
    ) -> Result<Contribution, DonateError> {
        self.admit(payer, now).await?;
        let result = self.donate(request, now).await;
        if let Err(DonateError::Payment(PaymentError::Declined { .. })) = &result {
            self.card_testing.record_failure(payer, now).await;
        }
        result
    }

    /// The donation page `donate_page_id`, which must exist to be given through.
    pub(super) async fn open_campaign(
        &self,
        donate_page_id: &str,
    ) -> Result<DonationCampaign, DonateError> {
        self.campaign(donate_page_id)
            .await?
            .ok_or_else(|| DonateError::UnknownPage(donate_page_id.to_owned()))
    }

    /// Refuses a payer who failed to pay too often lately, before the gateway is asked.
    pub(super) async fn admit(
        &self,
        payer: &super::card_testing::Payer,
        now: Timestamp,
    ) -> Result<(), DonateError> {
        use super::card_testing::AdmitError;
        match self.card_testing.admit(payer, now).await {
            Ok(()) => Ok(()),
            Err(AdmitError::Refused(refused)) => Err(DonateError::TooManyFailedPayments(refused)),
            Err(AdmitError::Repository(error)) => Err(error.into()),
        }
    }

    /// The receipt of `contribution` when receipts are mailed.
    pub(super) async fn receipt(
        &self,
        contribution: &Contribution,
    ) -> Result<Option<Mail>, RepositoryError> {
        if !self.receipts {
            return Ok(None);
        }
        let organisation = self
            .site
            .profile()
            .await?
            .map(|profile| Organisation::of(&profile.settings))
            .unwrap_or_default();
        Ok(Some(contribution_receipt_mail(contribution, &organisation)))
    }

    pub fn payments(&self) -> &Arc<dyn PaymentGateway> {
        &self.payments
    }

    /// The donation page a donation block on a published page offers; none for any other id.
    /// Blocks are looked up in the bodies of enabled collections, where pages' blocks live.
    pub async fn campaign(
        &self,
        donate_page_id: &str,
    ) -> Result<Option<DonationCampaign>, RepositoryError> {
        let currency = self
            .site
            .profile()
            .await?
            .map(|profile| profile.settings.store.selected_currency)
            .unwrap_or_default();
        let collections = self.site.collections().await?;
        Ok(collections
            .iter()
            .filter(|collection| collection.enabled)
            .flat_map(|collection| collection.body.layout.blocks())
            .find_map(|block| match &block.content {
                BlockContent::Donation(donation) if block.id.as_str() == donate_page_id => Some(
                    DonationCampaign::from_block(donate_page_id, donation, currency),
                ),
                _ => None,
            }))
    }

    pub async fn contribution(&self, id: &str) -> Result<Option<Contribution>, RepositoryError> {
        self.store.contribution(id).await
    }

    /// Takes a contribution: the form is checked against the page, the amount charged with
    /// `key` as the payment's idempotency key, and the contribution recorded. The same key
    /// again (a double click) answers the first contribution and charges nothing more. When
    /// the contribution cannot be recorded after the charge, the charge is refunded.
    pub async fn donate(
        &self,
        request: DonationRequest,
        now: Timestamp,
    ) -> Result<Contribution, DonateError> {
        if let Some(recorded) = self.store.contribution_by_key(&request.key).await? {
            return Ok(recorded);
        }
        let campaign = self.open_campaign(&request.donate_page_id).await?;
        let details = request
            .form
            .check(&campaign, now)
            .map_err(DonateError::Invalid)?;
        let refunded = self.store.refunded_attempts(&request.key).await?;
        let payment = self
            .payments
            .charge(&PaymentRequest {
                key: request.key.attempt(refunded),
                amount_minor: details.amount_minor,
                currency: campaign.currency,
                card: details.card,
                email: details.email.clone(),
                description: payment_description(&campaign.title),
            })
            .await?;
        let contribution = Contribution {
            id: request.contribution_id,
            idempotency_key: request.key,
            donate_page_id: campaign.id,
            campaign_title: campaign.title,
            amount_minor: details.amount_minor,
            currency: campaign.currency,
            name: details.name,
            email: details.email,
            created: now,
            payment: ContributionPayment::Paid {
                payment_id: payment.id.clone(),
            },
        };
        let receipt = self.receipt(&contribution).await?;
        match self
            .store
            .record_with_receipt(&contribution, receipt.as_ref())
            .await
        {
            Ok(recorded) => Ok(recorded),
            Err(error) => {
                // A second submit of the same form may have recorded the contribution this
                // charge belongs to; only a charge nothing records is given back.
                if let Ok(Some(recorded)) = self
                    .store
                    .contribution_by_key(&contribution.idempotency_key)
                    .await
                {
                    return Ok(recorded);
                }
                give_back(
                    &*self.store,
                    &*self.payments,
                    &payment,
                    &contribution.idempotency_key,
                    now,
                )
                .await;
                Err(error.into())
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::checkout::{TEST_CARD_DECLINED, TestPaymentGateway};
    use crate::ports::memory::MemorySiteRepository;
    use crate::site::{Block, BlockId, Collection, DonationBlock, Layout};

    // 2026-11-21T14:00:00Z
    pub(in crate::checkout) const NOW: Timestamp = Timestamp(1_795_269_600_000);

    async fn service() -> (DonationService, Arc<TestPaymentGateway>) {
        service_with(Arc::new(InMemoryContributionStore::new())).await
    }

    async fn service_with(
        store: Arc<dyn ContributionStore>,
    ) -> (DonationService, Arc<TestPaymentGateway>) {
        let gateway = Arc::new(TestPaymentGateway::new());
        (donation_service(store, gateway.clone()).await, gateway)
    }

    /// The donation service of a site with the `kiln-fund` donation page (euros), paying
    /// through `gateway`.
    pub(in crate::checkout) async fn donation_service(
        store: Arc<dyn ContributionStore>,
        gateway: Arc<dyn PaymentGateway>,
    ) -> DonationService {
        let mut site = crate::ports::conformance::fixture_site("Shop");
        site.settings.store.selected_currency = Currency::Eur;
        let donation = Block {
            id: BlockId::parse("kiln-fund").unwrap(),
            content: BlockContent::Donation(DonationBlock {
                title: "Support the community kiln".into(),
                description: "A second kiln for the neighbourhood.".into(),
                button_label: "Donate".into(),
                suggested_amounts: vec![1000, 2500],
                minimum_amount: 100,
                maximum_amount: 100_000,
                thank_you: "The kiln thanks you.".into(),
            }),
        };
        let page: &mut Collection = site
            .collections
            .iter_mut()
            .find(|collection| collection.enabled)
            .expect("the fixture site has an enabled collection");
        page.body.layout = Layout::stacked(vec![donation]).unwrap();
        let repository = MemorySiteRepository::new();
        repository.replace_site(&site).await.unwrap();
        DonationService::new(Arc::new(repository), store, gateway)
    }

    /// A contribution store whose database is away for the first record.
    #[derive(Default)]
    struct DownForTheFirstRecord {
        inner: InMemoryContributionStore,
        failed: std::sync::atomic::AtomicBool,
    }

    delegate_payment_ledger!(DownForTheFirstRecord, inner);

    #[async_trait]
    impl ContributionStore for DownForTheFirstRecord {
        async fn record_with_receipt(
            &self,
            contribution: &Contribution,
            receipt: Option<&Mail>,
        ) -> Result<Contribution, RecordContributionError> {
            if !self.failed.swap(true, std::sync::atomic::Ordering::SeqCst) {
                return Err(RepositoryError::Unavailable("connection reset".into()).into());
            }
            self.inner.record_with_receipt(contribution, receipt).await
        }

        async fn open_pending(
            &self,
            contribution: &Contribution,
        ) -> Result<Contribution, RepositoryError> {
            self.inner.open_pending(contribution).await
        }

        async fn settle(
            &self,
            id: &str,
            settlement: &ContributionSettlement,
            receipt: Option<&Mail>,
            now: Timestamp,
        ) -> Result<Option<(Contribution, bool)>, RecordContributionError> {
            self.inner.settle(id, settlement, receipt, now).await
        }

        async fn contribution(&self, id: &str) -> Result<Option<Contribution>, RepositoryError> {
            self.inner.contribution(id).await
        }

        async fn pending_contributions_opened_before(
            &self,
            before: Timestamp,
            limit: u32,
        ) -> Result<Vec<Contribution>, RepositoryError> {
            self.inner
                .pending_contributions_opened_before(before, limit)
                .await
        }

        async fn contribution_by_key(
            &self,
            key: &IdempotencyKey,
        ) -> Result<Option<Contribution>, RepositoryError> {
            self.inner.contribution_by_key(key).await
        }

        async fn contributions_made_between(
            &self,
            email: &str,
            made: PlacedBetween,
            limit: u32,
        ) -> Result<Vec<Contribution>, RepositoryError> {
            self.inner
                .contributions_made_between(email, made, limit)
                .await
        }

        async fn erase_contributions_of(
            &self,
            email: &str,
            made: PlacedBetween,
        ) -> Result<u32, RepositoryError> {
            self.inner.erase_contributions_of(email, made).await
        }
    }

    /// The hole a review found for donations: the charge of a donation that could not be
    /// recorded was refunded, and the same form again replayed the refunded charge and
    /// recorded the contribution on it. Now the retry pays anew.
    #[tokio::test]
    async fn a_retry_after_a_refund_pays_anew_and_never_records_on_the_refunded_charge() {
        let (service, gateway) = service_with(Arc::new(DownForTheFirstRecord::default())).await;
        let error = service
            .donate(request("k1", "c1", "4242424242424242"), NOW)
            .await
            .unwrap_err();
        assert!(matches!(error, DonateError::Repository(_)), "{error:?}");
        assert_eq!(gateway.refunded(), ["test_ch_00000000000000k1".to_owned()]);

        let contribution = service
            .donate(request("k1", "c1", "4242424242424242"), NOW)
            .await
            .expect("the retry records the contribution");

        assert_eq!(contribution.payment_id(), "test_ch_00000000000000k1-r1");
        assert_eq!(gateway.charge_count(), 2);
        assert!(
            !gateway
                .refunded()
                .iter()
                .any(|refunded| refunded == contribution.payment_id())
        );
    }

    pub(in crate::checkout) fn request(key: &str, id: &str, card: &str) -> DonationRequest {
        DonationRequest {
            donate_page_id: "kiln-fund".into(),
            key: IdempotencyKey::parse(format!("{key:0>16}")).unwrap(),
            contribution_id: id.into(),
            form: DonationForm {
                amount: "2500".into(),
                other_amount: String::new(),
                name: "Ada".into(),
                email: "ada@example.com".into(),
                card_number: card.into(),
                card_expiry: "12/30".into(),
                card_cvc: "123".into(),
            },
        }
    }

    #[tokio::test]
    async fn a_donation_page_is_a_donation_block_on_a_published_page() {
        let (service, _) = service().await;
        let campaign = service.campaign("kiln-fund").await.unwrap().unwrap();
        assert_eq!(campaign.title, "Support the community kiln");
        assert_eq!(campaign.currency, Currency::Eur);
        assert_eq!(service.campaign("nope").await.unwrap(), None);
        let error = service
            .donate(
                DonationRequest {
                    donate_page_id: "nope".into(),
                    ..request("k0", "c0", "4242424242424242")
                },
                NOW,
            )
            .await
            .unwrap_err();
        assert!(matches!(error, DonateError::UnknownPage(_)), "{error:?}");
    }

    #[tokio::test]
    async fn a_contribution_mails_its_receipt_once_and_a_declined_card_mails_none() {
        let store = Arc::new(InMemoryContributionStore::new());
        let (service, _) = service_with(store.clone()).await;
        let service = service.with_receipts();
        let declined = service
            .donate(request("k0", "c0", TEST_CARD_DECLINED), NOW)
            .await;
        assert!(declined.is_err());
        assert!(store.receipts().is_empty());
        let first = service
            .donate(request("k1", "c1", "4242424242424242"), NOW)
            .await
            .unwrap();
        service
            .donate(request("k1", "c2", "4242424242424242"), NOW)
            .await
            .unwrap();
        let receipts = store.receipts();
        assert_eq!(receipts.len(), 1, "a replay mails nothing more");
        assert_eq!(receipts[0].to, "ada@example.com");
        assert!(
            receipts[0].text.contains("Amount: €25.00"),
            "{}",
            receipts[0].text
        );
        assert!(receipts[0].text.contains("Date: 21 November 2026"));
        assert!(
            receipts[0]
                .text
                .contains(&format!("Receipt number: {}", first.id))
        );
        assert!(receipts[0].html.is_some());
    }

    #[tokio::test]
    async fn a_double_submit_pays_once_and_records_once() {
        let (service, gateway) = service().await;
        let (first, second) = tokio::join!(
            service.donate(request("k1", "c1", "4242424242424242"), NOW),
            service.donate(request("k1", "c2", "4242424242424242"), NOW),
        );
        let (first, second) = (first.unwrap(), second.unwrap());
        assert_eq!(first, second);
        assert_eq!(gateway.charge_count(), 1);
        assert_eq!(first.amount_minor, 2500);
        assert_eq!(first.campaign_title, "Support the community kiln");
        assert_eq!(
            service.contribution(&first.id).await.unwrap(),
            Some(first.clone())
        );
        let again = service
            .donate(request("k1", "c3", "4242424242424242"), NOW)
            .await
            .unwrap();
        assert_eq!(again.id, first.id);
        assert_eq!(gateway.charge_count(), 1);
        assert!(gateway.refunded().is_empty());
    }

    #[tokio::test]
    async fn a_declined_card_or_a_wrong_form_records_nothing() {
        let (service, gateway) = service().await;
        let error = service
            .donate(request("k1", "c1", TEST_CARD_DECLINED), NOW)
            .await
            .unwrap_err();
        assert!(
            matches!(error, DonateError::Payment(PaymentError::Declined { .. })),
            "{error:?}"
        );
        let mut wrong = request("k2", "c2", "4242424242424242");
        wrong.form.amount = "other".into();
        wrong.form.other_amount = "0.50".into();
        let DonateError::Invalid(errors) = service.donate(wrong, NOW).await.unwrap_err() else {
            panic!("an amount under the minimum is refused");
        };
        assert_eq!(errors["amount"], "Enter an amount from €1.00 to €1,000.00.");
        assert_eq!(gateway.charge_count(), 0);
        assert_eq!(service.contribution("c1").await.unwrap(), None);
        assert_eq!(service.contribution("c2").await.unwrap(), None);
    }
}
