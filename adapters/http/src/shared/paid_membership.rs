//! Paid member areas bought at checkout: the plans an order bought, read against the site's
//! member areas and their plan products, joined for the account the order's subscription
//! belongs to (the signed-in buyer, or else the account whose hold of the order's address
//! covers the moment it was placed), which is recorded on the subscription. Checkout calls it when the payment succeeds (the
//! subscription checkout and the cart's, whichever placed a subscription), and the card
//! fields' checkout records its signed-in buyer already as it places the order, since the
//! provider's webhook may settle the payment without the buyer's browser: the webhook joins
//! as it records the payment. The
//! membership-confirmed page calls it again (so a store that failed at the first call is made
//! good on the next), and the people pages when an address is confirmed after its orders
//! were placed. Joining is idempotent, so every call after the first changes nothing. Whether a
//! paid membership is still open is read here too, from the account's subscriptions as they
//! stand now, so a change of the account's address keeps it.

use std::collections::BTreeSet;

use axum::http::HeaderMap;
use vitrine_core::checkout::{Order, Subscription};
use vitrine_core::people::{
    Account, AccountId, OrderMembership, Unavailable, open_areas, plans_bought,
};
use vitrine_core::site::{Item, MemberArea, MemberAreaAccess};

use crate::AppState;

/// What an order did for the site's member areas, with the areas it bought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PaidAreas {
    /// The order bought no plan of a paid area.
    None,
    /// Bought, but no confirmed account holds the order's address yet.
    AwaitingAccount(Vec<MemberArea>),
    /// The account of the order's address is a member of these.
    Joined(Vec<MemberArea>),
}

impl PaidAreas {
    pub(crate) fn is_none(&self) -> bool {
        matches!(self, Self::None)
    }
}

/// Joins the paid areas `order` bought for the account its subscription belongs to,
/// recording that account on the subscription first when none holds it yet: `buyer`, the
/// site user who was signed in when buying, or else the account that held the order's
/// address confirmed when the order was placed.
pub(crate) async fn join_areas_of_order(
    state: &AppState,
    order: &Order,
    buyer: Option<&AccountId>,
) -> Result<PaidAreas, Unavailable> {
    // Only an order with a subscription line can be a plan: most orders stop here, before
    // the site is read.
    let Some(started) = Subscription::start(order) else {
        return Ok(PaidAreas::None);
    };
    let holder = holder_of(state, order, &started.id, buyer).await?;
    let areas = site_areas(state).await?;
    let plans = plan_items(state, areas.iter()).await?;
    let bought = plans_bought(order, &plans);
    let outcome = state
        .people
        .join_areas_of_order(holder.as_ref(), &areas, &bought)
        .await?;
    let owned = |areas: &[&MemberArea]| areas.iter().map(|&area| area.clone()).collect();
    Ok(match outcome {
        OrderMembership::NothingBought => PaidAreas::None,
        OrderMembership::AwaitingAccount(areas) => PaidAreas::AwaitingAccount(owned(&areas)),
        OrderMembership::Joined(areas) => PaidAreas::Joined(owned(&areas)),
    })
}

/// Joins the paid areas bought by the order `order_id` once the provider's webhook reports it
/// paid, for the account its subscription belongs to: the buyer the card fields' checkout
/// recorded, or else the account that held the order's address when it was placed. The
/// buyer's return (or
/// the membership page) joins again, which changes nothing. A failure is logged and the
/// payment stands: those pages try again.
pub(crate) async fn join_areas_of_paid_order(state: &AppState, order_id: &str) {
    let order = match state.carts.store().order(order_id).await {
        Ok(Some(order)) => order,
        Ok(None) => return,
        Err(error) => {
            tracing::error!(%error, order = order_id, "reading a paid order to join its member areas failed");
            return;
        }
    };
    if let Err(error) = join_areas_of_order(state, &order, None).await {
        tracing::error!(%error, order = order_id, "joining the member areas of an order failed");
    }
}

/// Records the subscription `order` started with the site user signed in on `headers` (the
/// buyer's own request placing it), whatever address they typed; of two claims the first
/// stands, so a replayed form changes nothing. An order
/// without a subscription, or a buyer not signed in, records nothing here: the payment's
/// join and the membership page claim for the account that held the order's address. A
/// failure is logged and the order stands.
pub(crate) async fn record_buyer(state: &AppState, headers: &HeaderMap, order: &Order) {
    let Some(started) = Subscription::start(order) else {
        return;
    };
    let buyer = match crate::shared::viewer::viewer(state, headers).await {
        Ok(Some(viewer)) => viewer.account.id,
        Ok(None) => return,
        Err(error) => {
            tracing::warn!(%error, order = order.id, "reading the buyer's session failed");
            return;
        }
    };
    let claimed = state
        .carts
        .store()
        .claim_subscription(&started.id, buyer.as_str())
        .await;
    if let Err(error) = claimed {
        tracing::error!(%error, order = order.id, "recording a subscription's buyer failed");
    }
}

/// The account the subscription `id` of `order` belongs to: the one recorded, or the one it
/// is claimed for now; none while neither is known.
async fn holder_of(
    state: &AppState,
    order: &Order,
    id: &str,
    buyer: Option<&AccountId>,
) -> Result<Option<Account>, Unavailable> {
    let store = state.carts.store();
    let recorded = store.subscription(id).await?.and_then(|s| s.account);
    let holder = match recorded {
        Some(holder) => Some(holder),
        None => match state
            .people
            .claimant_of_order(buyer, &order.email, order.created)
            .await?
        {
            // Of two claims at once the first stands, so the answer names the holder.
            Some(claimant) => store.claim_subscription(id, claimant.id.as_str()).await?,
            None => None,
        },
    };
    match holder.as_deref().and_then(AccountId::parse) {
        Some(holder) => state.people.account(&holder).await,
        None => Ok(None),
    }
}

/// The site's member areas.
async fn site_areas(state: &AppState) -> Result<Vec<MemberArea>, Unavailable> {
    Ok(state
        .pages
        .profile()
        .await
        .map_err(|error| Unavailable(error.to_string()))?
        .settings
        .member_areas)
}

/// The plan products of the paid ones among `areas`.
async fn plan_items(
    state: &AppState,
    areas: impl Iterator<Item = &MemberArea>,
) -> Result<Vec<Item>, Unavailable> {
    let mut plans = Vec::new();
    for area in areas {
        if let MemberAreaAccess::Paid { plans: ids } = &area.access {
            for id in ids {
                if let Some(item) = state.repository.item(id).await? {
                    plans.push(item);
                }
            }
        }
    }
    Ok(plans)
}

/// The ids of the member areas `account` may enter now ([`open_areas`]): those it joined,
/// less the paid ones no live subscription of the account pays for any more, whatever
/// address it was bought with. Its subscriptions are read only when it joined a paid area.
/// When the site or a store cannot be read the account enters none, so gated content stays
/// hidden (it fails closed).
pub(crate) async fn open_member_areas(state: &AppState, account: &Account) -> BTreeSet<String> {
    if account.member_areas.is_empty() {
        return BTreeSet::new();
    }
    match try_open_member_areas(state, account).await {
        Ok(open) => open,
        Err(error) => {
            tracing::warn!(%error, "reading an account's memberships failed; none is open");
            BTreeSet::new()
        }
    }
}

async fn try_open_member_areas(
    state: &AppState,
    account: &Account,
) -> Result<BTreeSet<String>, Unavailable> {
    let areas = site_areas(state).await?;
    let joined_paid = areas.iter().filter(|area| {
        !area.is_free() && account.member_areas.iter().any(|id| id == area.id.as_str())
    });
    let plans = plan_items(state, joined_paid).await?;
    let subscriptions = if plans.is_empty() {
        Vec::new()
    } else {
        state
            .carts
            .store()
            .subscriptions_of_account(account.id.as_str())
            .await?
    };
    Ok(open_areas(
        account.id.as_str(),
        &account.member_areas,
        &areas,
        &plans,
        &subscriptions,
    ))
}

/// How many of an address's newest orders are looked at when it is confirmed.
const ORDERS_AT_CONFIRMATION: u32 = 100;

/// Joins the areas bought by orders placed with the address of `account` before it was
/// confirmed (or before the account moved to it), within its hold of the address: those
/// placed while another account held it are that account's. A failure is logged and changes
/// nothing else: the buyer's membership page tries again.
pub(crate) async fn join_areas_of_earlier_orders(state: &AppState, account: &AccountId) {
    if let Err(error) = try_join_earlier(state, account).await {
        tracing::error!(%error, "joining the member areas of an address's orders failed");
    }
}

async fn try_join_earlier(state: &AppState, account: &AccountId) -> Result<(), Unavailable> {
    let Some(account) = state.people.account(account).await? else {
        return Ok(());
    };
    let holds = state.people.address_holds(&account).await?;
    let Some(current) = holds.iter().find(|hold| hold.is_current()) else {
        return Ok(());
    };
    let orders = state
        .carts
        .store()
        .orders_placed_between(
            current.email.as_str(),
            current.placed,
            ORDERS_AT_CONFIRMATION,
        )
        .await?;
    for order in &orders {
        join_areas_of_order(state, order, None).await?;
    }
    Ok(())
}
