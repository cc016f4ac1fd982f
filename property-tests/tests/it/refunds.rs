//! Owners' refunds (whole, by amount, by units) and cancellations in random order, with a
//! gateway that sometimes refuses a refund or loses its answer, against the real aftercare
//! service, the in-memory store and the test gateway, and a tiny model of what was charged,
//! given back and restocked. After every step: the money given back never passes what was
//! charged, the service accepts exactly what the model accepts, and the stock is the units
//! refunded back.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use proptest::prelude::*;
use vitrine_core::cart::{CartState, CartToken, Purchasable, Stock, StoreRules, Timestamp};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{
    AftercareError, CardDetails, CommerceStore, IdempotencyKey, InMemoryCommerceStore, Order,
    OrderAftercareService, PartialRefund, Payment, PaymentError, PaymentGateway, PaymentRequest,
    RefundError, RefundLine, RefundRequest, TEST_CARD_SUCCEEDS, TestPaymentGateway,
};
use vitrine_core::enums::ProductType;
use vitrine_core::forms::SiteLinks;

const NOW: Timestamp = Timestamp(1_800_000_000_000);
const UNITS: u32 = 4;
const PRICE: i64 = 1_000;
const STOCK: u32 = 10;

#[derive(Debug, Clone)]
enum Step {
    Amount(i64),
    Units(u32),
    Everything,
    Cancel,
    /// The gateway refuses the next refund.
    RefuseNext,
    /// The gateway gives the next refund back but its answer is lost.
    LoseNextAnswer,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (1..=4_500_i64).prop_map(Step::Amount),
        3 => (1..=5_u32).prop_map(Step::Units),
        1 => Just(Step::Everything),
        1 => Just(Step::Cancel),
        1 => Just(Step::RefuseNext),
        1 => Just(Step::LoseNextAnswer),
    ]
}

/// The test gateway, able to refuse a refund or to make one and lose the answer. A refund
/// asked again under a key it made is answered with that refund, as a gateway does.
struct ScriptedGateway {
    inner: TestPaymentGateway,
    refuse: Mutex<bool>,
    lose: Mutex<bool>,
    made: Mutex<std::collections::BTreeSet<String>>,
}

impl ScriptedGateway {
    /// Whether the next new refund will be refused, and whether its answer will be lost.
    fn armed(&self) -> (bool, bool) {
        (*self.refuse.lock().unwrap(), *self.lose.lock().unwrap())
    }
}

#[async_trait]
impl PaymentGateway for ScriptedGateway {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        self.inner.charge(request).await
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        self.inner.refund(payment).await
    }

    async fn refund_part(&self, refund: &PartialRefund) -> Result<String, PaymentError> {
        if self.made.lock().unwrap().contains(&refund.key) {
            return self.inner.refund_part(refund).await;
        }
        if std::mem::take(&mut *self.refuse.lock().unwrap()) {
            return Err(PaymentError::Declined {
                message: "refused".into(),
            });
        }
        let made = self.inner.refund_part(refund).await?;
        self.made.lock().unwrap().insert(refund.key.clone());
        if std::mem::take(&mut *self.lose.lock().unwrap()) {
            return Err(PaymentError::OutcomeUnknown("timed out".into()));
        }
        Ok(made)
    }
}

/// What the owner has done so far, as a model.
#[derive(Debug, Default)]
struct Model {
    /// Counted against the charge: refunds made or whose answer was lost.
    counted: i64,
    /// Units refunded (made or awaiting their lost answer).
    units: u32,
    /// Units back in stock: those of refunds the gateway confirmed.
    restocked: u32,
    /// A refund whose answer was lost: amount and units, confirmed by the next call.
    lost: Option<(i64, u32)>,
    cancelled: bool,
}

impl Model {
    fn refundable(&self) -> i64 {
        UNITS as i64 * PRICE - self.counted
    }
}

async fn paid_order(store: &InMemoryCommerceStore, gateway: &ScriptedGateway) -> Order {
    let sku = Sku::parse("MUG").unwrap();
    store.set_stock(&sku, Stock::Limited(STOCK)).await.unwrap();
    let token = CartToken::parse("refunds-cart-0001").unwrap();
    let mut cart = CartState::new("cart", "site", NOW);
    let mug = Purchasable::new(
        "product",
        "Mug",
        ProductType::Service,
        sku,
        PRICE,
        Stock::Limited(STOCK),
    );
    cart.add_item(&mug, UNITS).unwrap();
    store.save_cart(&token, &cart).await.unwrap();
    let key = IdempotencyKey::parse("refunds-key-0001").unwrap();
    let mut order = Order::from_cart(
        &cart.price(&StoreRules::default(), NOW),
        "order-refunds",
        key.clone(),
        token,
        "ada@example.com",
        NOW,
    )
    .unwrap();
    let payment = gateway
        .charge(&PaymentRequest {
            key,
            amount_minor: order.grand_total_cents,
            currency: order.currency,
            card: CardDetails {
                number: TEST_CARD_SUCCEEDS.into(),
                expiry_month: 12,
                expiry_year: 2040,
                cvc: "123".into(),
            },
            email: order.email.clone(),
            description: "Mugs".into(),
        })
        .await
        .unwrap();
    order.payment_id = payment.id;
    store.place_order(&order, &[]).await.unwrap()
}

async fn run(steps: Vec<Step>) -> Result<(), TestCaseError> {
    let store = Arc::new(InMemoryCommerceStore::new());
    let gateway = Arc::new(ScriptedGateway {
        inner: TestPaymentGateway::new(),
        refuse: Mutex::new(false),
        lose: Mutex::new(false),
        made: Mutex::new(Default::default()),
    });
    let order = paid_order(&store, &gateway).await;
    prop_assert_eq!(order.grand_total_cents, UNITS as i64 * PRICE);
    let service =
        OrderAftercareService::new(store.clone(), gateway.clone(), SiteLinks::new("https://s"));
    let mut model = Model::default();
    for step in steps {
        // A lost answer is asked again, under its key, before anything else the owner does;
        // the gateway answers it with the refund it made.
        let resumes = !matches!(step, Step::RefuseNext | Step::LoseNextAnswer);
        if resumes && let Some((_, units)) = model.lost.take() {
            model.restocked += units;
        }
        match step {
            Step::RefuseNext => *gateway.refuse.lock().unwrap() = true,
            Step::LoseNextAnswer => *gateway.lose.lock().unwrap() = true,
            Step::Cancel => {
                let (refuse, lose) = gateway.armed();
                let answer = service.cancel(&order.id, NOW).await;
                if model.cancelled {
                    prop_assert!(answer.is_err(), "cancelled twice");
                    continue;
                }
                let left = model.refundable();
                if left > 0 && refuse {
                    prop_assert!(matches!(answer, Err(AftercareError::Gateway(_))));
                    continue;
                }
                if left > 0 && lose {
                    prop_assert!(matches!(answer, Err(AftercareError::Gateway(_))));
                    model.counted += left;
                    model.lost = Some((left, UNITS - model.units));
                    model.units = UNITS;
                    continue;
                }
                prop_assert_eq!(answer.ok(), Some(left));
                model.counted += left;
                model.restocked += UNITS - model.units;
                model.units = UNITS;
                model.cancelled = true;
            }
            Step::Amount(_) | Step::Units(_) | Step::Everything => {
                let left_units = UNITS - model.units;
                let (request, expected) = match step {
                    Step::Amount(cents) => (
                        RefundRequest {
                            amount_cents: Some(cents),
                            lines: vec![],
                        },
                        (cents <= model.refundable()).then_some((cents, 0)),
                    ),
                    Step::Units(quantity) => (
                        RefundRequest {
                            amount_cents: None,
                            lines: vec![RefundLine {
                                sku: Sku::parse("MUG").unwrap(),
                                quantity,
                            }],
                        },
                        (quantity <= left_units).then(|| {
                            (
                                (i64::from(quantity) * PRICE).min(model.refundable()),
                                quantity,
                            )
                        }),
                    ),
                    _ => (
                        RefundRequest::everything(),
                        Some((model.refundable(), left_units)),
                    ),
                };
                let expected = expected.filter(|(cents, _)| *cents > 0 && model.refundable() > 0);
                let (refuse, lose) = gateway.armed();
                let answer = service.refund(&order.id, &request, NOW).await;
                let Some((cents, units)) = expected else {
                    prop_assert!(
                        matches!(answer, Err(AftercareError::Refund(_))),
                        "{step:?} should be refused: {answer:?}"
                    );
                    continue;
                };
                if refuse {
                    prop_assert!(matches!(answer, Err(AftercareError::Gateway(_))));
                    continue;
                }
                if lose {
                    prop_assert!(matches!(answer, Err(AftercareError::Gateway(_))));
                    model.counted += cents;
                    model.units += units;
                    model.lost = Some((cents, units));
                    continue;
                }
                let refund =
                    answer.map_err(|error| TestCaseError::fail(format!("{step:?}: {error}")))?;
                prop_assert_eq!(refund.amount_cents, cents);
                model.counted += cents;
                model.units += units;
                model.restocked += units;
            }
        }
        let given_back: i64 = gateway
            .inner
            .part_refunds()
            .iter()
            .map(|(_, amount)| amount)
            .sum();
        prop_assert!(
            given_back <= order.grand_total_cents,
            "gave back {given_back} of {}",
            order.grand_total_cents
        );
        let summary = service.summary(&order.id).await.unwrap();
        prop_assert_eq!(summary.refundable_cents, model.refundable());
        prop_assert_eq!(
            store.stock(&Sku::parse("MUG").unwrap()).await.unwrap(),
            Some(Stock::Limited(STOCK - UNITS + model.restocked))
        );
    }
    Ok(())
}

/// An amount or a unit count past what is left is refused by the rules, never sent.
#[test]
fn a_refund_past_the_charge_is_refused_before_the_gateway() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Arc::new(InMemoryCommerceStore::new());
        let gateway = Arc::new(ScriptedGateway {
            inner: TestPaymentGateway::new(),
            refuse: Mutex::new(false),
            lose: Mutex::new(false),
            made: Mutex::new(Default::default()),
        });
        let order = paid_order(&store, &gateway).await;
        let service =
            OrderAftercareService::new(store.clone(), gateway.clone(), SiteLinks::new("https://s"));
        let too_much = RefundRequest {
            amount_cents: Some(4_001),
            lines: vec![],
        };
        assert!(matches!(
            service.refund(&order.id, &too_much, NOW).await,
            Err(AftercareError::Refund(RefundError::AmountTooLarge {
                refundable: 4_000
            }))
        ));
        assert!(gateway.inner.part_refunds().is_empty());
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn partial_refunds_never_give_back_more_than_was_paid(
        steps in proptest::collection::vec(step(), 1..20)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(run(steps))?;
    }
}
