//! The conformance suite every [`ReviewStore`] must pass: the in-memory one, SQLite and
//! PostgreSQL run the same assertions through [`review_store_conformance!`].

use super::model::{Review, ReviewRequest, ReviewRequestToken, ReviewableItem, StarRating};
use super::store::{AddReviewError, ReviewStore};
use crate::cart::{CartToken, Timestamp};
use crate::catalog::Sku;
use crate::checkout::{IdempotencyKey, Order, OrderLine};
use crate::money::Currency;
use crate::owners::tables::{TABLE_PAGE_SIZE, TableQuery};

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! review_store_conformance {
    ($make:expr) => {
        $crate::review_store_conformance!(@tests $make;
            a_saved_request_reads_back_whole,
            an_unknown_request_is_none,
            one_review_per_purchase,
            reviews_and_summaries_cover_the_given_skus_newest_first,
            hidden_reviews_leave_the_product_pages_and_replies_read_back,
            the_owners_review_table_is_paged_and_searched,
        );

        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn concurrent_reviews_of_one_purchase_store_one() {
            let store = ::std::sync::Arc::new($make);
            let mut tasks = Vec::new();
            for n in 0..8 {
                let store = store.clone();
                tasks.push(tokio::spawn(async move {
                    $crate::reviews::conformance::review_the_same_purchase(&*store, n).await
                }));
            }
            let mut outcomes = Vec::new();
            for task in tasks {
                outcomes.push(task.await.expect("a reviewer task panicked"));
            }
            $crate::reviews::conformance::exactly_one_review(&*store, outcomes).await;
        }
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::reviews::conformance::$name(&store).await;
            }
        )*
    };
}

fn sku(text: &str) -> Sku {
    Sku::parse(text).expect("fixture SKUs are valid")
}

/// A token of the valid shape, distinct per `n`.
pub fn fixture_token(n: u32) -> ReviewRequestToken {
    ReviewRequestToken::parse(format!("review-token-{n:08}")).expect("fixture tokens are valid")
}

/// An order of two mugs and a bowl.
pub fn fixture_order(id: &str) -> Order {
    let line = |code: &str, name: &str| OrderLine {
        sku: sku(code),
        product_name: name.into(),
        quantity: 1,
        unit_price_cents: 1_000,
        subscription_plan: None,
        answers: Default::default(),
    };
    Order {
        id: id.into(),
        idempotency_key: IdempotencyKey::parse(format!("key-{id}-0000")).expect("valid key"),
        cart_token: CartToken::parse("cart-token-0000000001").expect("valid token"),
        email: "ada@example.com".into(),
        lines: vec![
            line("MUG-1", "Mug"),
            line("MUG-1", "Mug"),
            line("BOWL-1", "Bowl"),
        ],
        coupon_codes: vec![],
        subtotal_cents: 3_000,
        discount_cents: 0,
        shipping_cost_cents: 0,
        tax_cents: 0,
        grand_total_cents: 3_000,
        currency: Currency::Eur,
        created: Timestamp(1),
        shipping_address: None,
        payment_id: String::new(),
        payment_key: String::new(),
        payment_status: crate::checkout::PaymentStatus::Paid,
        gift_cards: Vec::new(),
        gift_card_payment: None,
    }
}

fn request(n: u32, order_id: &str) -> ReviewRequest {
    ReviewRequest {
        token: fixture_token(n),
        order_id: order_id.into(),
        author_name: "Ada".into(),
        items: vec![
            ReviewableItem {
                sku: sku("MUG-1"),
                product_name: "Mug".into(),
            },
            ReviewableItem {
                sku: sku("BOWL-1"),
                product_name: "Bowl \"blue\" & ünïcode".into(),
            },
        ],
        created: Timestamp(1_000),
        expires_at: Timestamp(2_000_000),
    }
}

fn review(id: &str, order_id: &str, code: &str, stars: u8, created: i64) -> Review {
    Review {
        id: id.into(),
        order_id: order_id.into(),
        sku: sku(code),
        product_name: "Mug".into(),
        rating: StarRating::new(stars).expect("fixture ratings are valid"),
        title: "Good".into(),
        body: "Line one\nline two, with 'quotes'".into(),
        author_name: "Ada".into(),
        created: Timestamp(created),
        hidden: false,
        reply: None,
    }
}

pub async fn a_saved_request_reads_back_whole(store: &impl ReviewStore) {
    let saved = request(1, "order-1");
    store.save_request(&saved).await.expect("saving a request");
    assert_eq!(
        store.request(&saved.token).await.expect("reading"),
        Some(saved)
    );
}

pub async fn an_unknown_request_is_none(store: &impl ReviewStore) {
    assert_eq!(
        store.request(&fixture_token(9)).await.expect("reading"),
        None
    );
}

pub async fn one_review_per_purchase(store: &impl ReviewStore) {
    store
        .add_review(&review("r1", "order-1", "MUG-1", 4, 10))
        .await
        .expect("first review");
    let second = store
        .add_review(&review("r2", "order-1", "MUG-1", 5, 11))
        .await;
    assert!(
        matches!(second, Err(AddReviewError::AlreadyReviewed)),
        "{second:?}"
    );
    // The same product from another order is another purchase.
    store
        .add_review(&review("r3", "order-2", "MUG-1", 2, 12))
        .await
        .expect("other order");
    assert_eq!(
        store.reviewed_skus("order-1").await.expect("reviewed"),
        vec![sku("MUG-1")]
    );
    assert!(
        store
            .reviewed_skus("order-3")
            .await
            .expect("reviewed")
            .is_empty()
    );
}

pub async fn reviews_and_summaries_cover_the_given_skus_newest_first(store: &impl ReviewStore) {
    store
        .add_review(&review("r1", "o1", "MUG-S", 5, 10))
        .await
        .expect("r1");
    store
        .add_review(&review("r2", "o2", "MUG-L", 4, 30))
        .await
        .expect("r2");
    store
        .add_review(&review("r3", "o3", "MUG-L", 4, 20))
        .await
        .expect("r3");
    store
        .add_review(&review("r4", "o4", "BOWL", 1, 40))
        .await
        .expect("r4");
    let mug = [sku("MUG-S"), sku("MUG-L")];
    let found = store.reviews_for(&mug, 10).await.expect("reviews");
    let ids: Vec<&str> = found.iter().map(|review| review.id.as_str()).collect();
    assert_eq!(ids, ["r2", "r3", "r1"]);
    assert_eq!(found[0], review("r2", "o2", "MUG-L", 4, 30));
    assert_eq!(store.reviews_for(&mug, 1).await.expect("limited").len(), 1);
    let summary = store.summary_for(&mug).await.expect("summary");
    assert_eq!((summary.count(), summary.total_stars()), (3, 13));
    assert_eq!(
        store
            .summary_for(&[sku("NONE")])
            .await
            .expect("empty")
            .count(),
        0
    );
    assert!(
        store
            .reviews_for(&[], 10)
            .await
            .expect("no skus")
            .is_empty()
    );
}

/// One of several reviewers of the same purchase racing each other.
pub async fn review_the_same_purchase(
    store: &impl ReviewStore,
    n: i64,
) -> Result<(), AddReviewError> {
    store
        .add_review(&review(&format!("r{n}"), "order-1", "MUG-1", 5, n))
        .await
}

pub async fn exactly_one_review(
    store: &impl ReviewStore,
    outcomes: Vec<Result<(), AddReviewError>>,
) {
    let mut stored = 0;
    for outcome in outcomes {
        match outcome {
            Ok(()) => stored += 1,
            Err(AddReviewError::AlreadyReviewed) => {}
            Err(other) => panic!("unexpected failure: {other}"),
        }
    }
    assert_eq!(stored, 1);
    assert_eq!(
        store
            .summary_for(&[sku("MUG-1")])
            .await
            .expect("summary")
            .count(),
        1
    );
}

/// Hiding takes a review off the product pages and out of the summary, approving puts it
/// back; the owner's reply reads back with the review, and removing it leaves none.
pub async fn hidden_reviews_leave_the_product_pages_and_replies_read_back(
    store: &impl ReviewStore,
) {
    store
        .add_review(&review("r1", "o1", "MUG-1", 5, 10))
        .await
        .expect("r1");
    store
        .add_review(&review("r2", "o2", "MUG-1", 1, 20))
        .await
        .expect("r2");
    let mug = [sku("MUG-1")];
    assert!(store.set_hidden("r2", true).await.expect("hiding"));
    let shown = store.reviews_for(&mug, 10).await.expect("reviews");
    assert_eq!(
        shown.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["r1"]
    );
    assert_eq!(store.summary_for(&mug).await.expect("summary").count(), 1);

    assert!(store.set_hidden("r2", false).await.expect("approving"));
    assert_eq!(store.summary_for(&mug).await.expect("summary").count(), 2);
    assert!(!store.set_hidden("nope", true).await.expect("unknown"));

    let reply = "Thank you, \"Ada\" — we're glad";
    assert!(store.set_reply("r1", Some(reply)).await.expect("replying"));
    let shown = store.reviews_for(&mug, 10).await.expect("reviews");
    let r1 = shown.iter().find(|r| r.id == "r1").expect("r1 shown");
    assert_eq!(r1.reply.as_deref(), Some(reply));
    assert!(!r1.hidden);
    assert!(store.set_reply("r1", None).await.expect("removing"));
    let page = store
        .review_page(&TableQuery::page(None, 1).unwrap())
        .await
        .expect("page");
    assert!(page.rows.iter().all(|r| r.reply.is_none()));
    assert!(!store.set_reply("nope", Some("x")).await.expect("unknown"));
}

/// The owner's table holds hidden reviews too, newest first, searched in the product, SKU,
/// author, title and text.
pub async fn the_owners_review_table_is_paged_and_searched(store: &impl ReviewStore) {
    for n in 0..30i64 {
        let mut added = review(&format!("r{n:02}"), &format!("o{n}"), "MUG-1", 4, 100 + n);
        if n == 3 {
            added.author_name = "Grace Hopper".into();
        }
        if n == 4 {
            added.sku = sku("BOWL-9");
        }
        store.add_review(&added).await.expect("adding");
    }
    store.set_hidden("r29", true).await.expect("hiding");
    let first = store
        .review_page(&TableQuery::page(None, 1).unwrap())
        .await
        .expect("page 1");
    assert_eq!(first.total, 30);
    assert_eq!(first.rows.len(), TABLE_PAGE_SIZE as usize);
    assert_eq!(first.rows[0].id, "r29");
    assert!(first.rows[0].hidden);
    let second = store
        .review_page(&TableQuery::page(None, 2).unwrap())
        .await
        .expect("page 2");
    assert_eq!(
        second
            .rows
            .iter()
            .map(|r| r.id.as_str())
            .collect::<Vec<_>>(),
        ["r04", "r03", "r02", "r01", "r00"]
    );
    let search = |text: &'static str| async move {
        store
            .review_page(&TableQuery::page(Some(text), 1).unwrap())
            .await
            .expect("search")
    };
    assert_eq!(search("grace").await.rows[0].id, "r03");
    assert_eq!(search("bowl-9").await.rows[0].id, "r04");
    assert_eq!(search("LINE TWO").await.total, 30);
    assert_eq!(search("%").await.total, 0);
}
