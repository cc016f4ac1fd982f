//! The clean-up of payments abandoned in the browser, run beside the server: every minute it
//! asks the cart service to end the orders, and the donation service the contributions, that
//! waited longer than [`ABANDONED_BROWSER_PAYMENT_SECONDS`] for their payer, so their stock
//! comes back and no contribution stays pending for ever. Each step is asked of the payment
//! provider and recorded once, so every server of a shop may run it, and a restarted one
//! simply picks up what is still waiting.

use std::sync::Arc;
use std::time::Duration;

use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::{ABANDONED_BROWSER_PAYMENT_SECONDS, CartService, DonationService};

/// How often the clean-up looks: a minute, small beside the half hour an order may wait.
const INTERVAL: Duration = Duration::from_secs(60);

/// Starts the clean-up when the shop takes payments in the browser; none otherwise.
pub fn spawn_cleanup(
    carts: Arc<CartService>,
    donations: Arc<DonationService>,
) -> Option<tokio::task::JoinHandle<()>> {
    carts.payments().browser_card_fields()?;
    tracing::info!(
        window_seconds = ABANDONED_BROWSER_PAYMENT_SECONDS,
        "payments abandoned in the browser are cancelled after their window"
    );
    Some(tokio::spawn(async move {
        let mut ticks = tokio::time::interval(INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            tick(&carts, &donations, crate::billing_cli::now()).await;
        }
    }))
}

/// One run of the clean-up at `now`: the abandoned orders, then the abandoned donations.
/// Answers how many of each it looked at; a list that cannot be read is logged and left for
/// the next run.
async fn tick(carts: &CartService, donations: &DonationService, now: Timestamp) -> (usize, usize) {
    let orders = match carts.cancel_abandoned_browser_payments(now).await {
        Ok(ended) => ended,
        Err(error) => {
            tracing::error!(%error, "the abandoned browser payments could not be listed");
            0
        }
    };
    let contributions = match donations.cancel_abandoned_browser_donations(now).await {
        Ok(ended) => ended,
        Err(error) => {
            tracing::error!(%error, "the abandoned browser donations could not be listed");
            0
        }
    };
    if orders + contributions > 0 {
        tracing::info!(
            orders,
            contributions,
            "abandoned browser payments looked at"
        );
    }
    (orders, contributions)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use vitrine_core::cart::Timestamp;
    use vitrine_core::checkout::{
        BrowserDonation, CartService, ContributionPayment, ContributionStore, DonationForm,
        DonationRequest, DonationService, IdempotencyKey, Payer,
    };
    use vitrine_services::stripe_fake::{FAKE_PUBLISHABLE_KEY, FAKE_SECRET_KEY, FakeStripe};
    use vitrine_services::{StripeBrowser, StripeGateway, StripePublishableKey, StripeSecretKey};

    use super::*;

    // 2026-11-21T14:00:00Z
    const OPENED: Timestamp = Timestamp(1_795_269_600_000);

    struct Shop {
        carts: CartService,
        donations: DonationService,
        contributions: Arc<dyn ContributionStore>,
        outbox: Arc<dyn vitrine_core::forms::DeliveryOutbox>,
        fake: FakeStripe,
        _data: tempfile::TempDir,
    }

    /// The demo site, its orders and contributions on SQLite, paying through Stripe's fields
    /// on the local fake.
    async fn shop() -> Shop {
        let data = tempfile::tempdir().unwrap();
        let database = vitrine_sql::connect(&vitrine_sql::sqlite_url_for_data_dir(data.path()))
            .await
            .unwrap();
        database.migrate().await.unwrap();
        let repository = database.repository();
        crate::import::import_demo(repository.as_ref())
            .await
            .unwrap();
        let fake = FakeStripe::start().await;
        let gateway = Arc::new(
            StripeGateway::new(
                fake.base().clone(),
                StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
            )
            .with_browser(StripeBrowser {
                publishable_key: StripePublishableKey::parse(FAKE_PUBLISHABLE_KEY).unwrap(),
                script_url: fake.base().join("/v3/").unwrap(),
            }),
        );
        let contributions = database.contribution_store();
        let donations =
            DonationService::new(repository.clone(), contributions.clone(), gateway.clone())
                .with_receipts();
        let carts = CartService::new(
            repository,
            database.commerce_store(),
            vitrine_core::cart::StoreRules::default(),
        )
        .with_payments(gateway);
        Shop {
            carts,
            donations,
            contributions,
            outbox: database.delivery_outbox(),
            fake,
            _data: data,
        }
    }

    /// Ada's donation of €25.00 to the community kiln under `key`, opened at `at`: the id of
    /// its contribution and of its intent.
    async fn open(shop: &Shop, key: &str, at: Timestamp) -> (String, String) {
        let request = DonationRequest {
            donate_page_id: "community-kiln".into(),
            key: IdempotencyKey::parse(format!("{key:0>16}")).unwrap(),
            contribution_id: format!("contribution-{key}"),
            form: DonationForm {
                amount: "2500".into(),
                name: "Ada Donor".into(),
                email: "ada@example.com".into(),
                ..DonationForm::default()
            },
        };
        match shop
            .donations
            .open_browser_donation(&Payer::default(), request, at)
            .await
            .unwrap()
        {
            BrowserDonation::Confirm {
                contribution,
                intent,
            } => (contribution.id, intent.id),
            other => panic!("{other:?}"),
        }
    }

    async fn payment(shop: &Shop, id: &str) -> ContributionPayment {
        shop.contributions
            .contribution(id)
            .await
            .unwrap()
            .unwrap()
            .payment
    }

    /// The mails waiting in the shop's outbox: the receipts of the contributions paid.
    async fn receipts(shop: &Shop) -> usize {
        shop.outbox.deliveries().await.unwrap().len()
    }

    fn status(shop: &Shop, intent: &str) -> String {
        shop.fake
            .payment_intents()
            .into_iter()
            .find(|found| found.id == intent)
            .unwrap()
            .status
    }

    /// What was left before: a donor who closed the tab left the contribution pending for
    /// ever, its intent open. One tick after the window cancels it, settles one paid
    /// meanwhile, leaves a recent one alone, and a second server's tick changes nothing more.
    #[tokio::test]
    async fn a_tick_ends_the_donations_abandoned_in_the_browser_once() {
        let shop = shop().await;
        let window = ABANDONED_BROWSER_PAYMENT_SECONDS * 1000;
        let (abandoned, abandoned_intent) = open(&shop, "abandoned", OPENED).await;
        let (paid, paid_intent) = open(&shop, "paid", OPENED).await;
        let (recent, recent_intent) =
            open(&shop, "recent", Timestamp(OPENED.millis() + window)).await;
        // The donor of the second paid, and closed the tab before the return address.
        let secret = shop
            .fake
            .payment_intents()
            .into_iter()
            .find(|found| found.id == paid_intent)
            .unwrap()
            .client_secret;
        shop.fake
            .confirm_in_browser(
                &secret,
                vitrine_services::stripe_fake::cards::SUCCEEDS,
                "http://shop.test/back",
            )
            .await;

        // Two servers' ticks at once: each looks at both, and each contribution changes once.
        let later = Timestamp(OPENED.millis() + window + 1);
        let (one, other) = tokio::join!(
            tick(&shop.carts, &shop.donations, later),
            tick(&shop.carts, &shop.donations, later)
        );
        // Each counts what still waits when it lists: the first to list sees both old
        // donations; the other sees those the first has not ended yet, which may be none.
        // Never the recent one, which is not due.
        for (orders, contributions) in [one, other] {
            assert_eq!(orders, 0);
            assert!(contributions <= 2, "{contributions} listed");
        }
        assert_eq!(
            one.1.max(other.1),
            2,
            "the first to list sees both old donations, and the recent one still waits"
        );
        assert_eq!(
            payment(&shop, &abandoned).await,
            ContributionPayment::Failed {
                message: "The payment was cancelled and nothing was charged.".into()
            }
        );
        assert_eq!(status(&shop, &abandoned_intent), "canceled");
        assert_eq!(
            payment(&shop, &paid).await,
            ContributionPayment::Paid {
                payment_id: paid_intent.clone()
            }
        );
        assert_eq!(status(&shop, &paid_intent), "succeeded");
        assert_eq!(
            payment(&shop, &recent).await,
            ContributionPayment::Pending {
                intent_id: recent_intent.clone()
            }
        );
        assert_eq!(status(&shop, &recent_intent), "requires_payment_method");

        assert_eq!(receipts(&shop).await, 1, "the paid one's receipt, once");

        // A server restarted afterwards finds nothing left to end.
        assert_eq!(tick(&shop.carts, &shop.donations, later).await, (0, 0));
        assert_eq!(receipts(&shop).await, 1);
    }
}
