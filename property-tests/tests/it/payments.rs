//! Random interleavings of checkouts, retries of the same form, stock running out while a card
//! is being charged, restocking and refunds the gateway refuses, against the real cart
//! service, the in-memory store and the test gateway. After every step the money must add
//! up: every charge paid for exactly one order or was claimed for a refund, no order stands
//! on a charge that was given back, and a refund the gateway refused is listed for the owner.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use proptest::prelude::*;
use vitrine_core::cart::{CartToken, ShippingOption, ShippingRate, Stock, StoreRules, Timestamp};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::conformance::paid_checkout_form;
use vitrine_core::checkout::{
    CartService, CheckoutError, CommerceStore, IdempotencyKey, InMemoryCommerceStore, Payment,
    PaymentError, PaymentGateway, PaymentLedger, PaymentRequest, PlaceOrderError,
    TestPaymentGateway,
};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::conformance::fixture_site;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::ItemId;

const NOW: Timestamp = Timestamp(1_800_000_000_000);
const SHOPPERS: usize = 3;

#[derive(Debug, Clone)]
enum Step {
    /// A shopper submits the checkout form with one of their form keys.
    Submit {
        shopper: usize,
        key: usize,
    },
    /// During the next charge the owner sets the stock to none (as a re-import would).
    SellOutDuringNextCharge,
    Restock,
    /// The gateway refuses the next refund.
    RefundFailsNext,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0..SHOPPERS, 0..2usize).prop_map(|(shopper, key)| Step::Submit { shopper, key }),
        2 => Just(Step::SellOutDuringNextCharge),
        2 => Just(Step::Restock),
        1 => Just(Step::RefundFailsNext),
    ]
}

/// The test gateway, recording every charge it answered, and able to sell out the tote
/// while it charges or to refuse a refund.
struct ScriptedGateway {
    inner: TestPaymentGateway,
    store: Arc<InMemoryCommerceStore>,
    sell_out: Mutex<bool>,
    refuse_refund: Mutex<bool>,
    charged: Mutex<BTreeSet<String>>,
    refunded: Mutex<Vec<String>>,
}

#[async_trait]
impl PaymentGateway for ScriptedGateway {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        let sell_out = std::mem::take(&mut *self.sell_out.lock().unwrap());
        if sell_out {
            self.store
                .set_stock(&tote_sku(), Stock::Limited(0))
                .await
                .unwrap();
        }
        let payment = self.inner.charge(request).await?;
        self.charged.lock().unwrap().insert(payment.id.clone());
        Ok(payment)
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        if std::mem::take(&mut *self.refuse_refund.lock().unwrap()) {
            return Err(PaymentError::Unavailable("the refund timed out".into()));
        }
        self.refunded.lock().unwrap().push(payment.id.clone());
        Ok(())
    }
}

fn tote_sku() -> Sku {
    Sku::parse("TOTE-1").unwrap()
}

fn token(shopper: usize) -> CartToken {
    CartToken::parse(format!("payments-shopper-{shopper}")).unwrap()
}

fn key(shopper: usize, key: usize) -> IdempotencyKey {
    IdempotencyKey::parse(format!("payments-key-{shopper}-{key}")).unwrap()
}

async fn run(steps: Vec<Step>) -> Result<(), TestCaseError> {
    let site = MemorySiteRepository::new();
    site.replace_site(&fixture_site("Shop")).await.unwrap();
    let store = Arc::new(InMemoryCommerceStore::new());
    let gateway = Arc::new(ScriptedGateway {
        inner: TestPaymentGateway::new(),
        store: store.clone(),
        sell_out: Mutex::new(false),
        refuse_refund: Mutex::new(false),
        charged: Mutex::new(BTreeSet::new()),
        refunded: Mutex::new(Vec::new()),
    });
    let rules = StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        ..StoreRules::default()
    };
    let service =
        CartService::new(Arc::new(site), store.clone(), rules).with_payments(gateway.clone());
    let tote = ItemId::parse("tote").unwrap();
    for shopper in 0..SHOPPERS {
        service
            .add_item(&token(shopper), &tote, &tote_sku(), 1, NOW)
            .await
            .unwrap();
    }
    // Order id to (shopper, charge): a replay of a placed order's form answers it again.
    let mut placed: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for step in steps {
        match step {
            Step::Submit { shopper, key: n } => {
                let answer = service
                    .checkout(
                        &token(shopper),
                        key(shopper, n),
                        format!("order-{shopper}-{n}"),
                        &paid_checkout_form("ada@example.com"),
                        NOW,
                    )
                    .await;
                match answer {
                    Ok(order) => {
                        placed.insert(order.id, (shopper, order.payment_id));
                    }
                    Err(CheckoutError::Order(
                        PlaceOrderError::OutOfStock(_) | PlaceOrderError::AlreadyPurchased,
                    )) => {}
                    Err(other) => prop_assert!(false, "unexpected refusal: {other:?}"),
                }
            }
            Step::SellOutDuringNextCharge => *gateway.sell_out.lock().unwrap() = true,
            Step::Restock => store
                .set_stock(&tote_sku(), Stock::Limited(3))
                .await
                .unwrap(),
            Step::RefundFailsNext => *gateway.refuse_refund.lock().unwrap() = true,
        }
        check(&store, &gateway, &placed).await?;
    }
    Ok(())
}

async fn check(
    store: &InMemoryCommerceStore,
    gateway: &ScriptedGateway,
    placed: &BTreeMap<String, (usize, String)>,
) -> Result<(), TestCaseError> {
    let charged = gateway.charged.lock().unwrap().clone();
    let refunded = gateway.refunded.lock().unwrap().clone();
    let failed: BTreeSet<String> = store
        .failed_refunds()
        .await
        .unwrap()
        .into_iter()
        .map(|failed| failed.payment_id)
        .collect();
    let ordered: BTreeSet<String> = placed.values().map(|(_, id)| id.clone()).collect();
    let refunded_set: BTreeSet<String> = refunded.iter().cloned().collect();
    prop_assert_eq!(
        refunded.len(),
        refunded_set.len(),
        "a charge refunded twice"
    );
    prop_assert!(
        ordered.is_disjoint(&refunded_set),
        "an order stands on a refunded charge: {ordered:?} {refunded_set:?}"
    );
    prop_assert!(ordered.is_disjoint(&failed));
    let settled: BTreeSet<String> = ordered
        .iter()
        .chain(&refunded_set)
        .chain(&failed)
        .cloned()
        .collect();
    prop_assert_eq!(&settled, &charged, "a charge paid for nothing and was kept");
    let shoppers: BTreeSet<usize> = placed.values().map(|(shopper, _)| *shopper).collect();
    prop_assert_eq!(shoppers.len(), placed.len(), "a cart ordered twice");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn no_sequence_of_retries_orders_on_a_refunded_charge(
        steps in proptest::collection::vec(step(), 1..24)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(run(steps))?;
    }
}
