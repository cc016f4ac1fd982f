//! Joining member areas: a free area is joined in one step by a signed-in site user; a paid
//! one by an order for one of its subscription plans placed with the account's confirmed
//! address (then the membership-confirmed page, type 208, says so).
//!
//! A paid membership goes to the account the order's subscription belongs to: the buyer who
//! was signed in, or else the account holding the order's address once that address is
//! confirmed, so whoever signs up with someone else's address first gets nothing the
//! address's owner paid for. An order placed before its address had a confirmed account is
//! honoured when the address is confirmed. The subscription records its account, so the
//! account keeps it when its address changes.
//!
//! A paid membership lasts as long as a subscription paying for it: [`open_areas`] keeps a
//! paid area the account joined only while one of the account's subscriptions to one of the
//! area's plans is active or past due (see [`SubscriptionStatus::keeps_membership`]). The
//! membership itself stays recorded with the account, so resuming the subscription, or a new
//! one, opens the area again without joining anew.

use std::collections::BTreeSet;

use super::model::{Account, AccountId, EmailAddress};
use super::service::{PeopleService, Unavailable};
use super::store::AccountWriteError;
use crate::cart::Timestamp;
use crate::checkout::{Order, Subscription};
use crate::site::{Item, ItemId, MemberArea, MemberAreaAccess};

/// Why a site user could not join a member area.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// No area of the site has this id.
    #[error("This member area does not exist.")]
    UnknownArea,
    /// The area is joined by subscribing, not for free.
    #[error("This member area is joined by subscribing to one of its plans.")]
    Paid,
    /// The account was deleted meanwhile.
    #[error("Please sign in.")]
    UnknownAccount,
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

/// What an order did for the member areas of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderMembership<'a> {
    /// The order bought no plan of a paid area.
    NothingBought,
    /// The order bought these areas, but no confirmed account holds its address yet: the
    /// areas are joined when one does.
    AwaitingAccount(Vec<&'a MemberArea>),
    /// The account of the order's address is a member of these areas (joined now, or before
    /// by the same order, since joining again changes nothing).
    Joined(Vec<&'a MemberArea>),
}

impl OrderMembership<'_> {
    /// The areas the order bought, joined or not.
    pub fn areas(&self) -> &[&MemberArea] {
        match self {
            Self::NothingBought => &[],
            Self::AwaitingAccount(areas) | Self::Joined(areas) => areas,
        }
    }
}

/// The plan items among `plans` that `order` bought: those with a variant whose SKU one of the
/// order's lines names. `plans` are the items that paid areas name as plans.
pub fn plans_bought(order: &Order, plans: &[Item]) -> Vec<ItemId> {
    plans
        .iter()
        .filter(|plan| {
            plan.product.as_ref().is_some_and(|product| {
                product.variants.iter().any(|variant| {
                    order
                        .lines
                        .iter()
                        .any(|line| line.subscription_plan.is_some() && line.sku == variant.sku)
                })
            })
        })
        .map(|plan| plan.id.clone())
        .collect()
}

/// The ids of the areas among `areas` that the account `account`, which `joined` them, may
/// enter now: a free area it joined; a paid one it joined while one of `subscriptions` that
/// belongs to the account (whatever address it was bought with) is for a variant of one of
/// the area's plans (found among `plans`) and keeps its membership. A subscription of another
/// account, or of none yet, opens nothing, even when bought with the account's address. What
/// the gating check lets a signed-in site user see follows from these ids alone, so no path
/// needs a check of its own for a lapsed subscription.
pub fn open_areas(
    account: &str,
    joined: &[String],
    areas: &[MemberArea],
    plans: &[Item],
    subscriptions: &[Subscription],
) -> BTreeSet<String> {
    let paying = |plan_ids: &[ItemId]| {
        plans
            .iter()
            .filter(|plan| plan_ids.contains(&plan.id))
            .filter_map(|plan| plan.product.as_ref())
            .flat_map(|product| &product.variants)
            .any(|variant| {
                subscriptions.iter().any(|subscription| {
                    subscription.account.as_deref() == Some(account)
                        && subscription.sku == variant.sku
                        && subscription.status.keeps_membership()
                })
            })
    };
    areas
        .iter()
        .filter(|area| joined.iter().any(|id| id == area.id.as_str()))
        .filter(|area| match &area.access {
            MemberAreaAccess::Free => true,
            MemberAreaAccess::Paid { plans } => paying(plans),
        })
        .map(|area| area.id.as_str().to_owned())
        .collect()
}

/// The paid areas among `areas` that one of the `bought` plan items is a plan of.
fn paid_areas_of<'a>(areas: &'a [MemberArea], bought: &[ItemId]) -> Vec<&'a MemberArea> {
    areas
        .iter()
        .filter(|area| match &area.access {
            MemberAreaAccess::Paid { plans } => plans.iter().any(|p| bought.contains(p)),
            MemberAreaAccess::Free => false,
        })
        .collect()
}

impl PeopleService {
    /// The account an order's subscription should belong to when none holds it yet: the
    /// buyer who was signed in (`buyer`), or else the account whose hold of the order's
    /// address `order_email` covers the moment it was `placed`
    /// ([`AccountStore::holder_at`](super::AccountStore::holder_at)): an account that
    /// confirms an address somebody else held before never claims that person's
    /// subscriptions. None when neither is known yet: an account that confirms the address
    /// later claims it then.
    pub async fn claimant_of_order(
        &self,
        buyer: Option<&AccountId>,
        order_email: &str,
        placed: Timestamp,
    ) -> Result<Option<Account>, Unavailable> {
        if let Some(buyer) = buyer
            && let Some(account) = self.store.account(buyer).await?
        {
            return Ok(Some(account));
        }
        let Ok(email) = EmailAddress::parse(order_email) else {
            return Ok(None);
        };
        let Some(holder) = self.store.holder_at(&email, placed).await? else {
            return Ok(None);
        };
        Ok(self.store.account(&holder).await?)
    }

    /// Grants the paid areas an order bought (`bought`: its plan items, from
    /// [`plans_bought`]) to `holder`, the account its subscription belongs to; none yet
    /// leaves them awaiting an account. Safe to repeat: a second call for the same order
    /// joins nothing new.
    pub async fn join_areas_of_order<'a>(
        &self,
        holder: Option<&Account>,
        areas: &'a [MemberArea],
        bought: &[ItemId],
    ) -> Result<OrderMembership<'a>, Unavailable> {
        let paid = paid_areas_of(areas, bought);
        if paid.is_empty() {
            return Ok(OrderMembership::NothingBought);
        }
        let Some(account) = holder else {
            return Ok(OrderMembership::AwaitingAccount(paid));
        };
        match self.add_areas(account, paid.iter().copied()).await {
            Ok(()) => Ok(OrderMembership::Joined(paid)),
            // Deleted meanwhile: what it paid for is nobody else's.
            Err(AccountWriteError::UnknownAccount) => Ok(OrderMembership::AwaitingAccount(paid)),
            Err(error) => Err(error.into()),
        }
    }

    /// The account `id` (after its address was confirmed, to join what it bought before).
    pub async fn account(&self, id: &AccountId) -> Result<Option<Account>, Unavailable> {
        Ok(self.store.account(id).await?)
    }

    /// Makes `account` a member of the free area `area_id` among `areas`. Joining again
    /// changes nothing.
    pub async fn join_free_area(
        &self,
        account: &Account,
        areas: &[MemberArea],
        area_id: &str,
    ) -> Result<(), JoinError> {
        let area = areas
            .iter()
            .find(|area| area.id.as_str() == area_id)
            .ok_or(JoinError::UnknownArea)?;
        if !area.is_free() {
            return Err(JoinError::Paid);
        }
        Ok(self.add_areas(account, [area]).await?)
    }

    /// Makes `account` a member of every paid area among `areas` that one of the `bought`
    /// products is a plan of; the areas joined (none when the order bought no plan).
    pub async fn join_paid_areas<'a>(
        &self,
        account: &Account,
        areas: &'a [MemberArea],
        bought: &[ItemId],
    ) -> Result<Vec<&'a MemberArea>, JoinError> {
        let joined = paid_areas_of(areas, bought);
        if !joined.is_empty() {
            self.add_areas(account, joined.iter().copied()).await?;
        }
        Ok(joined)
    }

    async fn add_areas(
        &self,
        account: &Account,
        areas: impl IntoIterator<Item = &MemberArea>,
    ) -> Result<(), AccountWriteError> {
        let mut member_areas = account.member_areas.clone();
        for area in areas {
            if !member_areas.iter().any(|known| known == area.id.as_str()) {
                member_areas.push(area.id.as_str().to_owned());
            }
        }
        if member_areas == account.member_areas {
            return Ok(());
        }
        self.store
            .set_member_areas(&account.id, &member_areas)
            .await
    }
}

impl From<AccountWriteError> for JoinError {
    fn from(error: AccountWriteError) -> Self {
        match error {
            AccountWriteError::UnknownAccount => Self::UnknownAccount,
            error => Self::Unavailable(error.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::SubscriptionStatus;
    use crate::checkout::subscription_conformance::fixture_subscription;
    use crate::ports::conformance::fixture_site;
    use crate::site::Slug;

    fn area(id: &str, access: MemberAreaAccess) -> MemberArea {
        MemberArea {
            id: Slug::parse(id).unwrap(),
            title: id.to_owned(),
            description: String::new(),
            access,
            pages: Vec::new(),
        }
    }

    /// The fixture's tote, the plan of the paid area `club`; the free area `readers`.
    fn site_areas() -> (Vec<MemberArea>, Vec<Item>) {
        let tote = fixture_site("Shop")
            .items
            .into_iter()
            .find(|item| item.id.as_str() == "tote")
            .expect("the fixture has the tote");
        let areas = vec![
            area("readers", MemberAreaAccess::Free),
            area(
                "club",
                MemberAreaAccess::Paid {
                    plans: vec![tote.id.clone()],
                },
            ),
        ];
        (areas, vec![tote])
    }

    /// A subscription of the account `account` to the plan (or to `sku`), standing at
    /// `status`.
    fn held_by(
        account: Option<&str>,
        sku: &crate::catalog::Sku,
        status: SubscriptionStatus,
    ) -> Subscription {
        Subscription {
            account: account.map(str::to_owned),
            ..fixture_subscription("ada@example.com", sku, status)
        }
    }

    fn open_with(joined: &[&str], statuses: &[SubscriptionStatus]) -> Vec<String> {
        let (areas, plans) = site_areas();
        let sku = &plans[0].product.as_ref().unwrap().variants[0].sku;
        let subscriptions: Vec<Subscription> = statuses
            .iter()
            .map(|status| held_by(Some("ada"), sku, *status))
            .collect();
        let joined: Vec<String> = joined.iter().map(|id| (*id).to_owned()).collect();
        open_areas("ada", &joined, &areas, &plans, &subscriptions)
            .into_iter()
            .collect()
    }

    #[test]
    fn a_paid_area_stays_open_while_its_subscription_is_active_or_past_due() {
        use SubscriptionStatus::*;
        let cases: [(&[SubscriptionStatus], &[&str]); 8] = [
            (&[Active], &["club", "readers"]),
            (&[PastDue], &["club", "readers"]),
            (&[Paused], &["readers"]),
            (&[Cancelled], &["readers"]),
            (&[Ended], &["readers"]),
            (&[], &["readers"]),
            // A new subscription after a cancelled one opens the area again.
            (&[Cancelled, Active], &["club", "readers"]),
            (&[Ended, Paused], &["readers"]),
        ];
        for (statuses, expected) in cases {
            assert_eq!(
                open_with(&["readers", "club"], statuses),
                expected,
                "{statuses:?}"
            );
        }
    }

    #[test]
    fn a_subscription_opens_no_area_the_account_did_not_join() {
        // Joining needs a confirmed account of the address; a live subscription alone is not
        // a membership, and a free area is open only to those who joined it.
        assert!(open_with(&[], &[SubscriptionStatus::Active]).is_empty());
        assert_eq!(
            open_with(&["club", "gone"], &[SubscriptionStatus::Active]),
            ["club"],
            "an area the site no longer has is not kept"
        );
    }

    #[test]
    fn only_a_subscription_to_one_of_the_areas_plans_counts() {
        let (areas, plans) = site_areas();
        let other = crate::catalog::Sku::parse("MUG-1").unwrap();
        let subscriptions = [held_by(Some("ada"), &other, SubscriptionStatus::Active)];
        assert!(open_areas("ada", &["club".to_owned()], &areas, &plans, &subscriptions).is_empty());
    }

    #[test]
    fn only_the_accounts_own_subscription_counts_whatever_its_address() {
        let (areas, plans) = site_areas();
        let sku = &plans[0].product.as_ref().unwrap().variants[0].sku;
        let joined = ["club".to_owned()];
        let open = |subscription: Subscription| {
            open_areas("ada", &joined, &areas, &plans, &[subscription])
                .into_iter()
                .collect::<Vec<_>>()
        };
        let bought_before_a_change = Subscription {
            email: "ada.old@example.com".into(),
            ..held_by(Some("ada"), sku, SubscriptionStatus::Active)
        };
        assert_eq!(open(bought_before_a_change), ["club"]);
        assert!(
            open(held_by(Some("bo"), sku, SubscriptionStatus::Active)).is_empty(),
            "another account's subscription with the same address"
        );
        assert!(
            open(held_by(None, sku, SubscriptionStatus::Active)).is_empty(),
            "a subscription no account has claimed yet"
        );
    }
}
