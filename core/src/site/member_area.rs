//! Member areas (000 s1, s2; 001 s2, s3): a group of members-only pages that site users
//! enter free with an account or by buying a subscription product through the checkout.

use serde::{Deserialize, Serialize};

use crate::site::{CollectionId, ItemId, Slug};

/// One member area of the site bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberArea {
    /// The id an account's membership names.
    pub id: Slug,
    pub title: String,
    /// What members get, shown on the member-access page.
    pub description: String,
    pub access: MemberAreaAccess,
    /// The members-only collections the area opens, in the bundle's order.
    pub pages: Vec<CollectionId>,
}

/// How a site user becomes a member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum MemberAreaAccess {
    /// Free with a confirmed site-user account: joining is one step on the member-access page.
    Free,
    /// Paid: the account becomes a member when an order for one of these subscription
    /// products is placed with its confirmed address (the membership-confirmed page, type
    /// 208). The first is the monthly price and the second, if any, the yearly one, which
    /// the pricing toggle of 000 s4 flips between.
    Paid { plans: Vec<ItemId> },
}

impl MemberArea {
    /// The areas among `areas` that open the collection `id`.
    pub fn opening<'a>(
        areas: &'a [MemberArea],
        id: &'a CollectionId,
    ) -> impl Iterator<Item = &'a MemberArea> + 'a {
        areas.iter().filter(move |area| area.pages.contains(id))
    }

    pub fn is_free(&self) -> bool {
        self.access == MemberAreaAccess::Free
    }
}
