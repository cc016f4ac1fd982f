//! Rows as both backends return them, and their conversion back into the core's site model.
//!
//! Every value read from storage passes through the core's constructors again (ids, slugs,
//! enumeration codes, layouts, sanitised HTML), so a row written by other means cannot smuggle
//! an invalid value past this edge: it becomes [`RepositoryError::Corrupt`] instead.

use serde::de::DeserializeOwned;
use serde_json::Value;
use sqlx::types::Json;
use vitrine_core::enums::{CollectionType, ItemStatus, ItemType};
use vitrine_core::ports::RepositoryError;
use vitrine_core::site::{
    Collection, CollectionId, Item, ItemId, MediaFile, Navigation, PermissionType, SafeHtml,
    SiteProfile, Slug, Website, WebsiteSettings,
};

/// The singleton website row.
#[derive(sqlx::FromRow)]
pub(crate) struct WebsiteRow {
    record: Json<Value>,
    settings: Json<Value>,
    navigation: Json<Value>,
}

impl WebsiteRow {
    pub(crate) fn into_profile(self) -> Result<SiteProfile, RepositoryError> {
        let settings = from_json::<WebsiteSettings>("the website settings", self.settings)?;
        Ok(SiteProfile {
            website: from_json::<Website>("the website record", self.record)?,
            header_footer: vitrine_core::header_footer::HeaderFooter::from_footer_text(
                &settings.footer_text,
            ),
            languages: vitrine_core::languages::SiteLanguages::of(
                &settings.locale,
                &settings.languages,
            ),
            settings,
            navigation: from_json::<Navigation>("the navigation", self.navigation)?,
        })
    }
}

/// One row of `collections`.
#[derive(sqlx::FromRow)]
pub(crate) struct CollectionRow {
    id: String,
    collection_type: i64,
    title: String,
    slug: String,
    description: String,
    permission_type: String,
    body: Json<Value>,
    seo: Json<Value>,
    enabled: bool,
}

impl CollectionRow {
    pub(crate) fn into_collection(self) -> Result<Collection, RepositoryError> {
        let what = format!("collection '{}'", self.id);
        Ok(Collection {
            collection_type: coded(&what, self.collection_type, CollectionType::from_code)?,
            slug: Slug::parse(self.slug).map_err(|e| corrupt(&what, e))?,
            permission_type: from_json::<PermissionType>(
                &what,
                Json(Value::String(self.permission_type)),
            )?,
            body: from_json(&format!("the body of {what}"), self.body)?,
            seo: from_json(&format!("the SEO of {what}"), self.seo)?,
            id: CollectionId::parse(self.id).map_err(|e| corrupt(&what, e))?,
            title: self.title,
            description: self.description,
            enabled: self.enabled,
        })
    }
}

/// One row of `items`.
#[derive(sqlx::FromRow)]
pub(crate) struct ItemRow {
    id: String,
    collection_id: String,
    slug: String,
    title: String,
    record_type: i64,
    status: i64,
    published_on: i64,
    position: i64,
    excerpt: String,
    body: Json<Value>,
    author: Option<String>,
    tags: Json<Value>,
    categories: Json<Value>,
    image: Option<Json<Value>>,
    seo: Json<Value>,
    product: Option<Json<Value>>,
}

impl ItemRow {
    pub(crate) fn into_item(self) -> Result<Item, RepositoryError> {
        let what = format!("item '{}'", self.id);
        Ok(Item {
            collection_id: CollectionId::parse(self.collection_id)
                .map_err(|e| corrupt(&what, e))?,
            slug: Slug::parse(self.slug).map_err(|e| corrupt(&what, e))?,
            record_type: coded(&what, self.record_type, ItemType::from_code)?,
            status: coded(&what, self.status, ItemStatus::from_code)?,
            position: u32::try_from(self.position).map_err(|e| corrupt(&what, e))?,
            excerpt: SafeHtml::sanitize(&self.excerpt),
            body: from_json(&format!("the body of {what}"), self.body)?,
            tags: from_json(&format!("the tags of {what}"), self.tags)?,
            categories: from_json(&format!("the categories of {what}"), self.categories)?,
            image: self
                .image
                .map(|image| from_json(&format!("the image of {what}"), image))
                .transpose()?,
            seo: from_json(&format!("the SEO of {what}"), self.seo)?,
            product: self
                .product
                .map(|product| from_json(&format!("the product of {what}"), product))
                .transpose()?,
            id: ItemId::parse(self.id).map_err(|e| corrupt(&what, e))?,
            title: self.title,
            published_on: self.published_on,
            author: self.author,
        })
    }
}

/// One row of `media`.
#[derive(sqlx::FromRow)]
pub(crate) struct MediaRow {
    path: String,
    content_type: String,
    bytes: Vec<u8>,
}

impl MediaRow {
    pub(crate) fn into_media_file(self) -> MediaFile {
        MediaFile {
            path: self.path,
            content_type: self.content_type,
            bytes: self.bytes,
        }
    }
}

/// The text a [`PermissionType`] is stored as: its serde name, so the column reads the same
/// as the JSON an export would contain.
pub(crate) fn permission_type_text(permission: PermissionType) -> String {
    match serde_json::to_value(permission) {
        Ok(Value::String(text)) => text,
        // The type serialises as a kebab-case string; anything else is a change in the core
        // that this adapter must follow, so fail loudly in tests rather than store garbage.
        other => unreachable!("PermissionType serialised as {other:?}"),
    }
}

/// Reads an enumeration stored as its numeric code.
fn coded<T, E: std::fmt::Display>(
    what: &str,
    code: i64,
    from_code: impl FnOnce(u16) -> Result<T, E>,
) -> Result<T, RepositoryError> {
    let code = u16::try_from(code).map_err(|e| corrupt(what, e))?;
    from_code(code).map_err(|e| corrupt(what, e))
}

fn from_json<T: DeserializeOwned>(what: &str, value: Json<Value>) -> Result<T, RepositoryError> {
    serde_json::from_value(value.0).map_err(|e| corrupt(what, e))
}

fn corrupt(what: &str, reason: impl std::fmt::Display) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collection_row(permission_type: &str, slug: &str) -> CollectionRow {
        CollectionRow {
            id: "home".into(),
            collection_type: i64::from(CollectionType::Page.code()),
            title: "Home".into(),
            slug: slug.into(),
            description: String::new(),
            permission_type: permission_type.into(),
            body: Json(serde_json::to_value(vitrine_core::site::Body::default()).unwrap()),
            seo: Json(serde_json::to_value(vitrine_core::site::Seo::default()).unwrap()),
            enabled: true,
        }
    }

    #[test]
    fn permission_types_are_stored_by_their_serde_name() {
        let text = permission_type_text(PermissionType::PasswordProtected);
        assert_eq!(text, "password-protected");
        let row = collection_row(&text, "home");
        let collection = row.into_collection().unwrap();
        assert_eq!(
            collection.permission_type,
            PermissionType::PasswordProtected
        );
    }

    #[test]
    fn an_invalid_stored_slug_is_reported_as_corrupt_naming_the_row() {
        let error = collection_row("public", "Not A Slug")
            .into_collection()
            .unwrap_err();
        let RepositoryError::Corrupt { what, reason } = error else {
            panic!("expected Corrupt, got {error:?}");
        };
        assert_eq!(what, "collection 'home'");
        assert!(reason.contains("lowercase"), "{reason}");
    }

    #[test]
    fn an_unknown_status_code_is_reported_as_corrupt() {
        let error = coded("item 'x'", 99, ItemStatus::from_code).unwrap_err();
        assert!(
            matches!(&error, RepositoryError::Corrupt { what, .. } if what == "item 'x'"),
            "{error:?}"
        );
        assert!(coded("item 'x'", -1, ItemStatus::from_code).is_err());
    }
}
