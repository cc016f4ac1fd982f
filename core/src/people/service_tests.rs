//! The people service on the in-memory ports: mails land in the outbox, sessions in the store.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use super::*;
use crate::cart::Timestamp;
use crate::checkout::InMemoryCommerceStore;
use crate::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use crate::forms::{DeliveryOutbox, RateLimit, SiteLinks};

/// Secrets that differ on every call and are the same in every run.
#[derive(Default)]
struct CountingSecrets(AtomicU8);

impl SecretSource for CountingSecrets {
    fn secret(&self) -> Secret {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        let mut bytes = [n; 32];
        bytes[0] = n.wrapping_add(1);
        Secret(bytes)
    }
}

struct Harness {
    service: PeopleService,
    store: Arc<InMemoryPeopleStore>,
    outbox: Arc<MemoryFormStore>,
    orders: Arc<InMemoryCommerceStore>,
    contributions: Arc<crate::checkout::InMemoryContributionStore>,
}

const NOW: Timestamp = Timestamp(1_700_000_000_000);

async fn harness_with(limits: PeopleLimits) -> Harness {
    let store = Arc::new(InMemoryPeopleStore::new());
    let outbox = Arc::new(MemoryFormStore::new());
    let orders = Arc::new(InMemoryCommerceStore::new());
    let contributions = Arc::new(crate::checkout::InMemoryContributionStore::new());
    let service = PeopleService::new(
        PeoplePorts {
            store: store.clone(),
            outbox: outbox.clone(),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(CountingSecrets::default()),
            passwords: Arc::new(PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap()),
            records: PersonalRecords {
                orders: orders.clone(),
                newsletters: outbox.clone(),
                contributions: contributions.clone(),
            },
        },
        SiteLinks::new("https://shop.example"),
        limits,
    );
    Harness {
        service,
        store,
        outbox,
        orders,
        contributions,
    }
}

async fn harness() -> Harness {
    harness_with(PeopleLimits::default()).await
}

impl Harness {
    /// The mails enqueued so far, oldest first.
    async fn mails(&self) -> Vec<crate::forms::Mail> {
        let mut mails = Vec::new();
        for record in self.outbox.deliveries().await.unwrap() {
            mails.extend(self.outbox.mail_of(record.id).await.unwrap());
        }
        mails
    }

    /// The token in the last mail's link.
    async fn last_token(&self) -> String {
        let mail = self.mails().await.pop().expect("a mail was sent");
        let start = mail.text.find("token=").expect("the mail has a link") + 6;
        mail.text[start..start + 64].to_owned()
    }

    async fn signed_up_and_confirmed(&self, email: &str, password: &str) {
        self.service
            .sign_up(email, password, "client", NOW)
            .await
            .unwrap();
        let token = self.last_token().await;
        self.service.confirm_account(&token, NOW).await.unwrap();
    }
}

#[tokio::test]
async fn a_new_account_signs_in_only_once_its_address_is_confirmed() {
    let h = harness().await;
    h.service
        .sign_up("Ada@Example.com", "correct horse", "client", NOW)
        .await
        .unwrap();
    let mails = h.mails().await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "ada@example.com");
    assert!(
        mails[0]
            .text
            .contains("https://shop.example/account/confirm?token=")
    );
    let signed_in = h
        .service
        .sign_in(
            "ada@example.com",
            "correct horse",
            false,
            None,
            "client",
            NOW,
        )
        .await;
    assert!(
        matches!(signed_in, Err(SignInError::Unconfirmed)),
        "{signed_in:?}"
    );

    let token = h.last_token().await;
    h.service.confirm_account(&token, NOW).await.unwrap();
    let again = h.service.confirm_account(&token, NOW).await;
    assert!(
        matches!(again, Err(TokenError::InvalidOrExpired)),
        "the link works once"
    );

    let signed_in = h
        .service
        .sign_in(
            "ADA@example.com",
            "correct horse",
            true,
            None,
            "client",
            NOW,
        )
        .await
        .unwrap();
    assert!(signed_in.session.remember_me);
    assert_eq!(
        signed_in.session.expires_at,
        NOW.plus_seconds(REMEMBER_ME_SECONDS)
    );
    let viewer = h
        .service
        .viewer(signed_in.token.as_str(), NOW)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(viewer.account.email.as_str(), "ada@example.com");
}

#[tokio::test]
async fn signing_up_with_a_taken_address_answers_the_same_and_mails_the_owner() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    h.service
        .sign_up("ada@example.com", "another password", "client", NOW)
        .await
        .unwrap();
    let mail = h.mails().await.pop().unwrap();
    assert_eq!(mail.subject, "You already have an account");
    // The old password still works: nothing was overwritten.
    h.service
        .sign_in(
            "ada@example.com",
            "correct horse",
            false,
            None,
            "client",
            NOW,
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_are_the_same_refusal() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    for (email, password) in [
        ("ada@example.com", "wrong horse"),
        ("nobody@example.com", "correct horse"),
        ("not an address", "correct horse"),
    ] {
        let refused = h
            .service
            .sign_in(email, password, false, None, "client", NOW)
            .await;
        assert!(
            matches!(refused, Err(SignInError::InvalidCredentials)),
            "{email}: {refused:?}"
        );
    }
}

#[tokio::test]
async fn sign_in_attempts_are_limited_per_account_and_per_client() {
    let limits = PeopleLimits {
        sign_ins_per_account: RateLimit {
            max: 2,
            window_seconds: 60,
        },
        sign_ins_per_client: RateLimit {
            max: 3,
            window_seconds: 60,
        },
        ..PeopleLimits::default()
    };
    let h = harness_with(limits).await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    for _ in 0..2 {
        let _ = h
            .service
            .sign_in("ada@example.com", "guess", false, None, "a", NOW)
            .await;
    }
    // The right password from a new client is refused too: the account is the target.
    let locked = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "b", NOW)
        .await;
    assert!(matches!(locked, Err(SignInError::RateLimited(RetryAfter(after))) if after > 0));
    // Client "a" has one attempt left, on another account; then it is over its own limit.
    let _ = h
        .service
        .sign_in("bob@example.com", "guess", false, None, "a", NOW)
        .await;
    let over = h
        .service
        .sign_in("carol@example.com", "guess", false, None, "a", NOW)
        .await;
    assert!(matches!(over, Err(SignInError::RateLimited(_))), "{over:?}");
    // A minute later both limits have reset.
    h.service
        .sign_in(
            "ada@example.com",
            "correct horse",
            false,
            None,
            "a",
            NOW.plus_seconds(61),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn signing_in_again_rotates_the_session_and_everywhere_ends_them_all() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    let first = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "c", NOW)
        .await
        .unwrap();
    assert_eq!(
        first.session.expires_at,
        NOW.plus_seconds(BROWSER_SESSION_SECONDS)
    );
    let second = h
        .service
        .sign_in(
            "ada@example.com",
            "correct horse",
            false,
            Some(&first.token),
            "c",
            NOW,
        )
        .await
        .unwrap();
    assert_ne!(first.token, second.token);
    assert_ne!(first.session.xsrf_token, second.session.xsrf_token);
    assert!(
        h.service
            .viewer(first.token.as_str(), NOW)
            .await
            .unwrap()
            .is_none()
    );
    let elsewhere = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "d", NOW)
        .await
        .unwrap();
    let account = second.session.account.clone();
    assert_eq!(h.service.sign_out_everywhere(&account).await.unwrap(), 2);
    for token in [&second.token, &elsewhere.token] {
        assert!(
            h.service
                .viewer(token.as_str(), NOW)
                .await
                .unwrap()
                .is_none()
        );
    }
}

#[tokio::test]
async fn a_session_ends_at_its_expiry_and_on_sign_out() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    let signed_in = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "c", NOW)
        .await
        .unwrap();
    let token = signed_in.token.as_str();
    let end = NOW.plus_seconds(BROWSER_SESSION_SECONDS);
    assert!(
        h.service
            .viewer(token, Timestamp(end.0 - 1))
            .await
            .unwrap()
            .is_some()
    );
    assert!(h.service.viewer(token, end).await.unwrap().is_none());
    let again = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "c", NOW)
        .await
        .unwrap();
    h.service.sign_out(again.token.as_str()).await.unwrap();
    assert!(
        h.service
            .viewer(again.token.as_str(), NOW)
            .await
            .unwrap()
            .is_none()
    );
    assert!(h.service.viewer("garbage", NOW).await.unwrap().is_none());
}

#[tokio::test]
async fn a_password_reset_sets_the_new_password_and_ends_every_session() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    let before = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "c", NOW)
        .await
        .unwrap();
    let mails_before = h.mails().await.len();
    h.service
        .request_password_reset("nobody@example.com", "c", NOW)
        .await
        .unwrap();
    assert_eq!(
        h.mails().await.len(),
        mails_before,
        "no mail for an unknown address"
    );
    h.service
        .request_password_reset("ada@example.com", "c", NOW)
        .await
        .unwrap();
    let token = h.last_token().await;
    let short = h.service.reset_password(&token, "short", NOW).await;
    assert!(matches!(short, Err(TokenError::PasswordTooShort)));
    let late = h
        .service
        .reset_password(
            &token,
            "battery staple",
            NOW.plus_seconds(RESET_TOKEN_SECONDS),
        )
        .await;
    assert!(
        matches!(late, Err(TokenError::InvalidOrExpired)),
        "{late:?}"
    );

    h.service
        .request_password_reset("ada@example.com", "c", NOW)
        .await
        .unwrap();
    let token = h.last_token().await;
    h.service
        .reset_password(&token, "battery staple", NOW)
        .await
        .unwrap();
    assert!(
        h.service
            .viewer(before.token.as_str(), NOW)
            .await
            .unwrap()
            .is_none()
    );
    h.service
        .sign_in("ada@example.com", "battery staple", false, None, "c", NOW)
        .await
        .unwrap();
    let old = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "c", NOW)
        .await;
    assert!(matches!(old, Err(SignInError::InvalidCredentials)));
}

#[tokio::test]
async fn an_email_change_takes_effect_when_the_new_address_confirms_it() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    h.signed_up_and_confirmed("bob@example.com", "correct horse")
        .await;
    let ada = h
        .store
        .account_by_email(&EmailAddress::parse("ada@example.com").unwrap())
        .await
        .unwrap()
        .unwrap();
    h.service
        .request_email_change(&ada.id, "ada@new-home.com", "c", NOW)
        .await
        .unwrap();
    let mail = h.mails().await.pop().unwrap();
    assert_eq!(mail.to, "ada@new-home.com");
    let token = h.last_token().await;
    h.service.confirm_email_change(&token, NOW).await.unwrap();
    h.service
        .sign_in("ada@new-home.com", "correct horse", false, None, "c", NOW)
        .await
        .unwrap();

    h.service
        .request_email_change(&ada.id, "bob@example.com", "c", NOW)
        .await
        .unwrap();
    let token = h.last_token().await;
    let taken = h.service.confirm_email_change(&token, NOW).await;
    assert!(matches!(taken, Err(TokenError::EmailTaken)), "{taken:?}");
}

#[tokio::test]
async fn a_deleted_account_cannot_sign_in_and_its_sessions_end() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    let signed_in = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "c", NOW)
        .await
        .unwrap();
    let account = h
        .store
        .account(&signed_in.session.account)
        .await
        .unwrap()
        .unwrap();
    assert!(h.service.delete_account(&account).await.unwrap().account);
    assert!(
        h.service
            .viewer(signed_in.token.as_str(), NOW)
            .await
            .unwrap()
            .is_none()
    );
    let gone = h
        .service
        .sign_in("ada@example.com", "correct horse", false, None, "c", NOW)
        .await;
    assert!(matches!(gone, Err(SignInError::InvalidCredentials)));
}

#[tokio::test]
async fn sign_up_refuses_bad_input_before_anything_is_stored() {
    let h = harness().await;
    assert!(matches!(
        h.service.sign_up("nope", "correct horse", "c", NOW).await,
        Err(SignUpError::InvalidEmail)
    ));
    assert!(matches!(
        h.service
            .sign_up("ada@example.com", "short", "c", NOW)
            .await,
        Err(SignUpError::PasswordTooShort)
    ));
    assert!(matches!(
        h.service
            .sign_up(
                "ada@example.com",
                &"x".repeat(MAX_PASSWORD_BYTES + 1),
                "c",
                NOW
            )
            .await,
        Err(SignUpError::PasswordTooLong)
    ));
    assert!(h.mails().await.is_empty());
}

fn area(id: &str, access: crate::site::MemberAreaAccess) -> crate::site::MemberArea {
    crate::site::MemberArea {
        id: crate::site::Slug::parse(id).unwrap(),
        title: id.to_owned(),
        description: String::new(),
        access,
        pages: vec![],
    }
}

#[tokio::test]
async fn a_free_area_is_joined_in_one_step_and_a_paid_one_only_by_its_plans() {
    use crate::site::{ItemId, MemberAreaAccess};
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    let email = EmailAddress::parse("ada@example.com").unwrap();
    let account = || async { h.store.account_by_email(&email).await.unwrap().unwrap() };
    let plan = ItemId::try_from("club-monthly".to_owned()).unwrap();
    let areas = [
        area("readers", MemberAreaAccess::Free),
        area(
            "club",
            MemberAreaAccess::Paid {
                plans: vec![plan.clone()],
            },
        ),
    ];
    assert!(matches!(
        h.service
            .join_free_area(&account().await, &areas, "club")
            .await,
        Err(JoinError::Paid)
    ));
    assert!(matches!(
        h.service
            .join_free_area(&account().await, &areas, "nope")
            .await,
        Err(JoinError::UnknownArea)
    ));
    assert!(account().await.member_areas.is_empty());
    for _ in 0..2 {
        h.service
            .join_free_area(&account().await, &areas, "readers")
            .await
            .unwrap();
    }
    assert_eq!(account().await.member_areas, ["readers"]);

    let other = ItemId::try_from("mug".to_owned()).unwrap();
    let joined = h
        .service
        .join_paid_areas(&account().await, &areas, &[other])
        .await
        .unwrap();
    assert!(joined.is_empty(), "an order without a plan joins nothing");
    let joined = h
        .service
        .join_paid_areas(&account().await, &areas, &[plan])
        .await
        .unwrap();
    assert_eq!(joined.len(), 1);
    assert_eq!(account().await.member_areas, ["readers", "club"]);
}

/// What an order of `email`'s, placed by `buyer` when signed in, joins: for the account it
/// would be claimed for.
async fn join_order<'a>(
    h: &Harness,
    buyer: Option<&AccountId>,
    email: &str,
    areas: &'a [crate::site::MemberArea],
    bought: &[crate::site::ItemId],
) -> OrderMembership<'a> {
    let holder = h
        .service
        .claimant_of_order(buyer, email, NOW)
        .await
        .unwrap();
    h.service
        .join_areas_of_order(holder.as_ref(), areas, bought)
        .await
        .unwrap()
}

fn club_areas(plan: &crate::site::ItemId) -> [crate::site::MemberArea; 2] {
    use crate::site::MemberAreaAccess;
    [
        area("readers", MemberAreaAccess::Free),
        area(
            "club",
            MemberAreaAccess::Paid {
                plans: vec![plan.clone()],
            },
        ),
    ]
}

#[tokio::test]
async fn an_order_for_a_plan_joins_only_the_confirmed_account_of_its_address_and_once() {
    use crate::site::ItemId;
    let h = harness().await;
    let plan = ItemId::try_from("club-monthly".to_owned()).unwrap();
    let areas = club_areas(&plan);
    let other = ItemId::try_from("mug".to_owned()).unwrap();
    let plans = std::slice::from_ref(&plan);
    assert_eq!(
        join_order(&h, None, "ada@example.com", &areas, &[other]).await,
        OrderMembership::NothingBought
    );
    let awaiting = join_order(&h, None, "ada@example.com", &areas, plans).await;
    assert_eq!(awaiting, OrderMembership::AwaitingAccount(vec![&areas[1]]));

    // Someone who signs up with the address but never confirms it gets nothing.
    h.service
        .sign_up("ada@example.com", "correct horse", "client", NOW)
        .await
        .unwrap();
    let email = EmailAddress::parse("ada@example.com").unwrap();
    let account = || async { h.store.account_by_email(&email).await.unwrap().unwrap() };
    assert!(matches!(
        join_order(&h, None, "Ada@Example.com", &areas, plans).await,
        OrderMembership::AwaitingAccount(_)
    ));
    assert_eq!(
        h.service
            .claimant_of_order(None, "Ada@Example.com", NOW)
            .await
            .unwrap(),
        None,
        "an unconfirmed account claims no subscription"
    );
    assert!(account().await.member_areas.is_empty());

    let token = h.last_token().await;
    h.service.confirm_account(&token, NOW).await.unwrap();
    for _ in 0..2 {
        let joined = join_order(&h, None, "Ada@Example.com", &areas, plans).await;
        assert_eq!(joined, OrderMembership::Joined(vec![&areas[1]]));
    }
    assert_eq!(account().await.member_areas, ["club"]);
}

#[tokio::test]
async fn a_signed_in_buyer_claims_the_order_whatever_address_it_names() {
    use crate::site::ItemId;
    let h = harness().await;
    let plan = ItemId::try_from("club-monthly".to_owned()).unwrap();
    let areas = club_areas(&plan);
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    h.signed_up_and_confirmed("bo@example.com", "correct horse")
        .await;
    let by_email = |address: &str| {
        let email = EmailAddress::parse(address).unwrap();
        let store = h.store.clone();
        async move { store.account_by_email(&email).await.unwrap().unwrap() }
    };
    let ada = by_email("ada@example.com").await;

    let claimant = h
        .service
        .claimant_of_order(Some(&ada.id), "bo@example.com", NOW)
        .await
        .unwrap();
    assert_eq!(claimant.map(|account| account.id), Some(ada.id.clone()));
    let joined = join_order(
        &h,
        Some(&ada.id),
        "bo@example.com",
        &areas,
        std::slice::from_ref(&plan),
    )
    .await;
    assert_eq!(joined, OrderMembership::Joined(vec![&areas[1]]));
    assert_eq!(by_email("ada@example.com").await.member_areas, ["club"]);
    assert!(
        by_email("bo@example.com").await.member_areas.is_empty(),
        "the address's account did not buy it"
    );
}

fn london_address() -> crate::checkout::ShippingAddress {
    crate::checkout::ShippingAddress {
        name: "Ada Lovelace".into(),
        line1: "12 Analytical Row".into(),
        line2: String::new(),
        city: "London".into(),
        region: String::new(),
        postal_code: "SW1A 1AA".into(),
        country: "GB".into(),
    }
}

/// An order shipped to `email` and a newsletter subscription of the address.
async fn shopped_and_subscribed(h: &Harness, email: &str) -> crate::checkout::Order {
    use crate::checkout::CommerceStore;
    let mut order = crate::checkout::subscription_conformance::ordered(
        &*h.orders,
        1,
        None,
        crate::cart::Stock::Unlimited,
        1,
    )
    .await;
    order.email = email.into();
    order.shipping_address = Some(london_address());
    h.orders.place_order(&order, &[]).await.unwrap();
    use crate::checkout::ContributionStore;
    let donation = crate::checkout::Contribution {
        id: "contribution-1".into(),
        idempotency_key: crate::checkout::IdempotencyKey::parse("erasure-donation-1").unwrap(),
        donate_page_id: "kiln-fund".into(),
        campaign_title: "Support the community kiln".into(),
        amount_minor: 2_500,
        currency: crate::money::Currency::Eur,
        name: "Ada Lovelace".into(),
        email: email.into(),
        created: NOW,
        payment: crate::checkout::ContributionPayment::Paid {
            payment_id: "test_ch_erasure".into(),
        },
    };
    h.contributions.record(&donation).await.unwrap();
    let signup = crate::forms::outbox_conformance::newsletter_signup("letter", email, 1);
    crate::forms::outbox_conformance::store_one(&*h.outbox, 1, &signup).await;
    order
}

#[tokio::test]
async fn deleting_an_account_erases_its_orders_personal_fields_and_its_subscriptions() {
    use crate::checkout::CommerceStore;
    use crate::forms::NewsletterSubscriptions;
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    let order = shopped_and_subscribed(&h, "Ada@Example.com").await;
    let email = EmailAddress::parse("ada@example.com").unwrap();
    let account = h.store.account_by_email(&email).await.unwrap().unwrap();

    let erased = h.service.delete_account(&account).await.unwrap();

    assert_eq!(
        erased,
        Erased {
            account: true,
            orders: 1,
            subscriptions: 1,
            contributions: 1,
        }
    );
    use crate::checkout::ContributionStore;
    let donation = h
        .contributions
        .contribution("contribution-1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((donation.name.as_str(), donation.email.as_str()), ("", ""));
    assert_eq!((donation.amount_minor, donation.created), (2_500, NOW));
    let kept = h.orders.order(&order.id).await.unwrap().unwrap();
    assert_eq!(kept.email, "");
    assert_eq!(kept.grand_total_cents, order.grand_total_cents);
    assert_eq!(kept.shipping_address.unwrap().name, "");
    assert!(
        h.outbox
            .subscriptions_of("ada@example.com")
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        h.mails()
            .await
            .iter()
            .all(|mail| mail.to != "ada@example.com"),
        "the address's confirmation mail, never sent, is withdrawn"
    );
}

#[tokio::test]
async fn deleting_an_unconfirmed_account_leaves_the_addresss_orders_alone() {
    use crate::checkout::CommerceStore;
    let h = harness().await;
    h.service
        .sign_up("ada@example.com", "correct horse", "client", NOW)
        .await
        .unwrap();
    let order = shopped_and_subscribed(&h, "ada@example.com").await;
    let email = EmailAddress::parse("ada@example.com").unwrap();
    let account = h.store.account_by_email(&email).await.unwrap().unwrap();
    assert!(!account.is_confirmed());

    let erased = h.service.delete_account(&account).await.unwrap();

    assert_eq!(
        (
            erased.account,
            erased.orders,
            erased.subscriptions,
            erased.contributions
        ),
        (true, 0, 0, 0)
    );
    assert_eq!(h.orders.order(&order.id).await.unwrap(), Some(order));
}

#[tokio::test]
async fn a_saved_address_is_replaced_removed_and_never_saved_for_a_deleted_account() {
    let h = harness().await;
    h.signed_up_and_confirmed("ada@example.com", "correct horse")
        .await;
    let email = EmailAddress::parse("ada@example.com").unwrap();
    let account = h.store.account_by_email(&email).await.unwrap().unwrap();
    let address = london_address();
    h.service.save_address(&account.id, &address).await.unwrap();
    assert_eq!(
        h.service.saved_address(&account.id).await.unwrap(),
        Some(address.clone())
    );
    assert!(h.service.remove_address(&account.id).await.unwrap());
    assert_eq!(h.service.saved_address(&account.id).await.unwrap(), None);

    h.service.delete_account(&account).await.unwrap();
    h.service.save_address(&account.id, &address).await.unwrap();
    assert_eq!(h.service.saved_address(&account.id).await.unwrap(), None);
}

/// `ms` milliseconds after [`NOW`].
fn later(ms: i64) -> Timestamp {
    Timestamp(NOW.millis() + ms)
}

/// An order placed with `email` at `placed`, its id made from `n`.
async fn ordered_with(
    h: &Harness,
    n: usize,
    email: &str,
    placed: Timestamp,
) -> crate::checkout::Order {
    use crate::checkout::CommerceStore;
    let mut order = crate::checkout::subscription_conformance::ordered(
        &*h.orders,
        n,
        None,
        crate::cart::Stock::Unlimited,
        1,
    )
    .await;
    order.email = email.into();
    order.created = placed;
    order.shipping_address = Some(london_address());
    h.orders.place_order(&order, &[]).await.unwrap();
    order
}

impl Harness {
    /// Moves the account of `from` to `to` through the mailed link, followed at `at`.
    async fn moved(&self, from: &str, to: &str, at: Timestamp) -> Account {
        let account = self.account_of(from).await;
        self.service
            .request_email_change(&account.id, to, "client", at)
            .await
            .unwrap();
        let token = self.last_token().await;
        self.service.confirm_email_change(&token, at).await.unwrap();
        self.store.account(&account.id).await.unwrap().unwrap()
    }

    /// The account of `email`.
    async fn account_of(&self, email: &str) -> Account {
        self.store
            .account_by_email(&EmailAddress::parse(email).unwrap())
            .await
            .unwrap()
            .unwrap()
    }

    /// Signs up with `email` and follows the confirmation link at `at`.
    async fn confirmed_at(&self, email: &str, at: Timestamp) -> Account {
        self.service
            .sign_up(email, "correct horse", "client", at)
            .await
            .unwrap();
        let token = self.last_token().await;
        self.service.confirm_account(&token, at).await.unwrap();
        self.account_of(email).await
    }

    /// The ids of `account`'s orders, newest first.
    async fn orders_of(&self, account: &Account) -> Vec<String> {
        self.service
            .orders_of(account, 50)
            .await
            .unwrap()
            .into_iter()
            .map(|order| order.id)
            .collect()
    }
}

#[tokio::test]
async fn deleting_an_account_erases_the_orders_of_the_addresses_it_confirmed_before() {
    use crate::checkout::CommerceStore;
    let h = harness().await;
    h.confirmed_at("ada@example.com", NOW).await;
    let first = ordered_with(&h, 1, "Ada@Example.com", later(1)).await;
    h.moved("ada@example.com", "ada@work.example.com", later(2))
        .await;
    let second = ordered_with(&h, 2, "ada@work.example.com", later(3)).await;
    let ada = h
        .moved("ada@work.example.com", "ada@home.example.com", later(4))
        .await;
    // A queued mail to an earlier address, which the account's owner may no longer read.
    h.outbox
        .enqueue_mail(
            &crate::forms::Mail {
                to: "ada@work.example.com".into(),
                subject: "Your order".into(),
                text: "Thank you".into(),
                html: None,
                list_unsubscribe: None,
            },
            NOW.millis(),
        )
        .await
        .unwrap();
    // Somebody else's order under an address Ada never had.
    let stranger = ordered_with(&h, 3, "bo@example.com", later(5)).await;
    assert_eq!(
        h.service
            .address_holds(&ada)
            .await
            .unwrap()
            .iter()
            .map(|hold| hold.email.as_str())
            .collect::<Vec<_>>(),
        [
            "ada@home.example.com",
            "ada@work.example.com",
            "ada@example.com"
        ]
    );
    assert_eq!(
        h.orders_of(&ada).await,
        [second.id.clone(), first.id.clone()]
    );

    let erased = h.service.delete_account(&ada).await.unwrap();

    assert_eq!((erased.account, erased.orders), (true, 2));
    for order in [&first, &second] {
        let kept = h.orders.order(&order.id).await.unwrap().unwrap();
        assert_eq!(kept.email, "", "{}", order.id);
        assert_eq!(kept.shipping_address.unwrap().name, "");
        assert_eq!(kept.grand_total_cents, order.grand_total_cents);
    }
    assert_eq!(h.orders.order(&stranger.id).await.unwrap(), Some(stranger));
    assert!(
        h.mails()
            .await
            .iter()
            .all(|mail| !mail.to.starts_with("ada@")),
        "no mail to any of Ada's addresses is left to send"
    );
}

/// Ada orders with her address, moves away, and Bo takes the address and orders with it:
/// each sees their own order only, and Ada's export and erasure keep to hers.
#[tokio::test]
async fn an_address_taken_over_by_another_account_shows_each_only_their_own_orders() {
    use crate::checkout::CommerceStore;
    let h = harness().await;
    let guest = ordered_with(&h, 1, "ada@example.com", NOW).await;
    h.confirmed_at("ada@example.com", later(1)).await;
    let adas = ordered_with(&h, 2, "ada@example.com", later(2)).await;
    let ada = h
        .moved("ada@example.com", "ada@home.example.com", later(3))
        .await;
    let between = ordered_with(&h, 3, "ada@example.com", later(4)).await;
    let bo = h.confirmed_at("ada@example.com", later(5)).await;
    let bos = ordered_with(&h, 4, "ada@example.com", later(6)).await;

    assert_eq!(
        h.orders_of(&bo).await,
        [bos.id.clone(), between.id.clone()],
        "an order placed after Ada left and before Bo confirmed is Bo's"
    );
    assert_eq!(
        h.orders_of(&ada).await,
        [adas.id.clone(), guest.id.clone()],
        "the guest order placed before Ada signed up is still hers"
    );
    for (order, holder) in [(&guest, &ada), (&adas, &ada), (&between, &bo), (&bos, &bo)] {
        let claimant = h
            .service
            .claimant_of_order(None, "ada@example.com", order.created)
            .await
            .unwrap();
        assert_eq!(
            claimant.map(|account| account.id),
            Some(holder.id.clone()),
            "a subscription of {} is its holder's",
            order.id
        );
    }

    let erased = h.service.delete_account(&ada).await.unwrap();

    assert_eq!((erased.account, erased.orders), (true, 2));
    for order in [&guest, &adas] {
        assert_eq!(h.orders.order(&order.id).await.unwrap().unwrap().email, "");
    }
    for order in [&between, &bos] {
        assert_eq!(
            h.orders.order(&order.id).await.unwrap().as_ref(),
            Some(order),
            "Bo's orders stay whole"
        );
    }
    assert_eq!(h.orders_of(&bo).await, [bos.id.clone(), between.id.clone()]);
}

/// A donation of `email`'s, numbered `n`, made at `at`.
async fn donated_with(
    h: &Harness,
    n: usize,
    email: &str,
    at: Timestamp,
) -> crate::checkout::Contribution {
    use crate::checkout::ContributionStore;
    let id = format!("donation-{n}");
    let donation = crate::checkout::Contribution {
        email: email.into(),
        created: at,
        ..crate::checkout::contribution_conformance::contribution(&id, &id, 1_000)
    };
    h.contributions.record(&donation).await.unwrap()
}

/// Ada gives with her address (once as a guest), moves away, and Bo takes the address and
/// gives with it: each sees only the donations made while they held it, Bo's deletion erases
/// his own, and Ada's, though Bo holds the address now, still erases hers.
#[tokio::test]
async fn an_address_taken_over_by_another_account_shows_and_erases_each_only_their_own_donations() {
    use crate::checkout::ContributionStore;
    let h = harness().await;
    let guest = donated_with(&h, 1, "ada@example.com", NOW).await;
    h.confirmed_at("ada@example.com", later(1)).await;
    let adas = donated_with(&h, 2, "Ada@Example.com", later(2)).await;
    let ada = h
        .moved("ada@example.com", "ada@home.example.com", later(3))
        .await;
    let between = donated_with(&h, 3, "ada@example.com", later(4)).await;
    let bo = h.confirmed_at("ada@example.com", later(5)).await;
    let bos = donated_with(&h, 4, "ada@example.com", later(6)).await;
    let ids = |account: Account| {
        let service = &h.service;
        async move {
            service
                .contributions_of(&account, 50)
                .await
                .unwrap()
                .into_iter()
                .map(|given| given.id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        ids(bo.clone()).await,
        [bos.id.clone(), between.id.clone()],
        "a donation made after Ada left and before Bo confirmed is Bo's"
    );
    assert_eq!(ids(ada.clone()).await, [adas.id.clone(), guest.id.clone()]);
    let donor_of = |given: &crate::checkout::Contribution| {
        let id = given.id.clone();
        let contributions = h.contributions.clone();
        async move {
            let kept = contributions.contribution(&id).await.unwrap().unwrap();
            (kept.name, kept.email)
        }
    };

    let erased = h.service.delete_account(&bo).await.unwrap();

    assert_eq!((erased.account, erased.contributions), (true, 2));
    for given in [&between, &bos] {
        assert_eq!(donor_of(given).await, (String::new(), String::new()));
    }
    for given in [&guest, &adas] {
        assert_eq!(
            donor_of(given).await,
            (given.name.clone(), given.email.clone()),
            "the later holder never erases the earlier holder's donations"
        );
    }
    assert_eq!(ids(ada.clone()).await, [adas.id.clone(), guest.id.clone()]);

    let erased = h.service.delete_account(&ada).await.unwrap();

    assert_eq!((erased.account, erased.contributions), (true, 2));
    for given in [&guest, &adas] {
        assert_eq!(donor_of(given).await, (String::new(), String::new()));
    }
}

/// Bo deleting the account of an address Ada held before erases Bo's orders, and neither
/// Ada's orders nor what she kept under her own current address.
#[tokio::test]
async fn the_later_holder_of_an_address_erases_only_its_own_orders() {
    use crate::checkout::CommerceStore;
    let h = harness().await;
    h.confirmed_at("ada@example.com", NOW).await;
    let adas = ordered_with(&h, 1, "ada@example.com", later(1)).await;
    let ada = h
        .moved("ada@example.com", "ada@home.example.com", later(2))
        .await;
    let bo = h.confirmed_at("ada@example.com", later(3)).await;
    let bos = ordered_with(&h, 2, "ada@example.com", later(4)).await;

    let erased = h.service.delete_account(&bo).await.unwrap();

    assert_eq!((erased.account, erased.orders), (true, 1));
    assert_eq!(h.orders.order(&bos.id).await.unwrap().unwrap().email, "");
    assert_eq!(h.orders.order(&adas.id).await.unwrap(), Some(adas.clone()));
    assert_eq!(h.orders_of(&ada).await, std::slice::from_ref(&adas.id));
}

/// Once another account has confirmed Ada's earlier address, the records kept under it
/// without a time (its newsletters, the mails waiting for it) are that account's: Ada's
/// deletion leaves them, and erases only the orders of her span.
#[tokio::test]
async fn an_earlier_address_somebody_else_confirmed_since_keeps_its_newsletters_and_mails() {
    use crate::checkout::CommerceStore;
    use crate::forms::NewsletterSubscriptions;
    let h = harness().await;
    h.confirmed_at("ada@example.com", NOW).await;
    let ada = h
        .moved("ada@example.com", "ada@home.example.com", later(1))
        .await;
    h.confirmed_at("ada@example.com", later(2)).await;
    let theirs = ordered_with(&h, 1, "ada@example.com", later(3)).await;
    let signup =
        crate::forms::outbox_conformance::newsletter_signup("letter", "ada@example.com", 1);
    crate::forms::outbox_conformance::store_one(&*h.outbox, 1, &signup).await;
    let to_the_address = |mails: Vec<crate::forms::Mail>| {
        mails
            .iter()
            .filter(|mail| mail.to == "ada@example.com")
            .count()
    };
    let waiting = to_the_address(h.mails().await);
    assert!(waiting > 0);

    let erased = h.service.delete_account(&ada).await.unwrap();

    assert_eq!(
        (erased.account, erased.orders, erased.subscriptions),
        (true, 0, 0)
    );
    assert_eq!(h.orders.order(&theirs.id).await.unwrap(), Some(theirs));
    assert_eq!(
        h.outbox
            .subscriptions_of("ada@example.com")
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        to_the_address(h.mails().await),
        waiting,
        "the mails to the new holder still go out"
    );
}
