//! `[[member_areas]]` of `site.toml` into the site's member areas, once every collection is
//! known: each area's pages must be members-only collections, its plans subscription
//! products, and every members-only collection must be opened by some area, or nobody
//! could ever see it.

use std::collections::BTreeSet;

use crate::bundle::BundleError;
use crate::bundle::convert::{Converter, non_empty};
use crate::bundle::dto::MemberAreaDto;
use crate::bundle::error::At;
use crate::bundle::files::SITE_FILE;
use crate::site::{
    Collection, Item, MEMBER_AREAS_NAVIGATION, MemberArea, MemberAreaAccess, MemberAreaLink,
    PermissionType, Slug,
};

/// A member area sells at most a monthly and a yearly plan: the two sides of the toggle.
const MAX_PLANS: usize = 2;

impl Converter {
    pub(crate) fn member_areas(
        &self,
        dtos: Vec<MemberAreaDto>,
        collections: &[Collection],
        items: &[Item],
    ) -> Result<Vec<MemberArea>, BundleError> {
        let root = At::root(SITE_FILE).field("member_areas");
        let mut areas = Vec::new();
        let mut ids = BTreeSet::new();
        for (index, dto) in dtos.into_iter().enumerate() {
            let at = root.index(index);
            let id = Slug::parse(&dto.id).map_err(|_| {
                at.field("id").error(format!(
                    "expected a slug of lowercase letters, digits and '-', found '{}'",
                    dto.id
                ))
            })?;
            if !ids.insert(id.clone()) {
                return Err(at
                    .field("id")
                    .error(format!("another member area has the id '{id}'")));
            }
            non_empty(&at.field("title"), &dto.title)?;
            let mut pages = Vec::new();
            for (page_index, slug) in dto.pages.iter().enumerate() {
                let at = at.field("pages").index(page_index);
                let collection = Slug::parse(slug)
                    .ok()
                    .and_then(|slug| collections.iter().find(|c| c.slug == slug))
                    .ok_or_else(|| {
                        at.error(format!(
                            "expected the slug of a collection in collections/, found '{slug}'"
                        ))
                    })?;
                if collection.permission_type != PermissionType::MembersOnly {
                    return Err(at.error(format!(
                        "collection '{slug}' must say permission = \"members-only\" to be in a member area"
                    )));
                }
                pages.push(collection.id.clone());
            }
            if pages.is_empty() {
                return Err(at.field("pages").error("expected at least one collection"));
            }
            if dto.plans.len() > MAX_PLANS {
                return Err(at
                    .field("plans")
                    .error("expected at most two plans: the monthly price and the yearly one"));
            }
            let mut plans = Vec::new();
            for (plan_index, path) in dto.plans.iter().enumerate() {
                let at = at.field("plans").index(plan_index);
                plans.push(self.subscription_plan(&at, path, items)?);
            }
            let access = if plans.is_empty() {
                MemberAreaAccess::Free
            } else {
                MemberAreaAccess::Paid { plans }
            };
            areas.push(MemberArea {
                id,
                title: dto.title,
                description: dto.description,
                access,
                pages,
            });
        }
        if let Some(orphan) = collections.iter().find(|collection| {
            collection.permission_type == PermissionType::MembersOnly
                && MemberArea::opening(&areas, &collection.id).next().is_none()
        }) {
            return Err(BundleError::file(
                SITE_FILE,
                format!(
                    "collection '{}' is members-only but no [[member_areas]] lists it in its pages",
                    orphan.slug
                ),
            ));
        }
        Ok(areas)
    }

    /// The item at `collection/item` that must be a product sold as a subscription.
    fn subscription_plan(
        &self,
        at: &At,
        path: &str,
        items: &[Item],
    ) -> Result<crate::site::ItemId, BundleError> {
        let found = path.split_once('/').and_then(|(collection, item)| {
            let key = (Slug::parse(collection).ok()?, Slug::parse(item).ok()?);
            self.known.items.get(&key).map(|(id, _)| id.clone())
        });
        let Some(id) = found else {
            return Err(at.error(format!(
                "expected 'collection/item' naming a product in the bundle, found '{path}'"
            )));
        };
        let sold_by_subscription = items.iter().any(|item| {
            item.id == id
                && item
                    .product
                    .as_ref()
                    .is_some_and(|product| product.subscription_plan.is_some())
        });
        if !sold_by_subscription {
            return Err(at.error(format!(
                "'{path}' must be a product sold as a subscription (with [product.subscription])"
            )));
        }
        Ok(id)
    }
}

/// `navigation._memberareas` of `site.toml` into links of the member-area navigation type:
/// each names a member area of the site and leads to its first page.
pub(crate) fn member_area_links(
    ids: Vec<String>,
    areas: &[MemberArea],
    collections: &[Collection],
) -> Result<Vec<MemberAreaLink>, BundleError> {
    let root = At::root(SITE_FILE)
        .field("navigation")
        .field(MEMBER_AREAS_NAVIGATION);
    ids.into_iter()
        .enumerate()
        .map(|(index, id)| {
            let area = areas
                .iter()
                .find(|area| area.id.as_str() == id)
                .ok_or_else(|| {
                    root.index(index).error(format!(
                        "expected the id of a member area in [[member_areas]], found '{id}'"
                    ))
                })?;
            // Every area lists at least one page, each a collection of the bundle.
            let first_page = area
                .pages
                .first()
                .and_then(|page| collections.iter().find(|c| &c.id == page))
                .ok_or_else(|| root.index(index).error("the member area has no page"))?;
            Ok(MemberAreaLink {
                area: area.id.clone(),
                title: area.title.clone(),
                href: first_page.path(),
            })
        })
        .collect()
}
