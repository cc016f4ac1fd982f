//! Which file (and which field of it) each collection, item and block came from, so that a
//! broken whole-site rule, found on the assembled [`Site`](crate::site::Site), is reported
//! where the owner can fix it.

use std::collections::BTreeMap;

use crate::bundle::BundleError;
use crate::bundle::files::SITE_FILE;
use crate::site::{BlockId, CollectionId, ItemId, SiteError, SitePlace, SiteProblem};

#[derive(Debug, Default)]
pub(crate) struct Origins {
    collections: BTreeMap<CollectionId, String>,
    items: BTreeMap<ItemId, String>,
    /// Block id -> (file, dotted path of the block in it).
    blocks: BTreeMap<BlockId, (String, String)>,
}

impl Origins {
    pub fn add_collection(&mut self, id: &CollectionId, file: &str) -> Result<(), BundleError> {
        if let Some(first) = self.collections.insert(id.clone(), file.to_owned()) {
            return Err(BundleError::field(
                file,
                "id",
                format!("the collection id '{id}' is already used by {first}"),
            ));
        }
        Ok(())
    }

    /// Whether a block with this id is on some page of the bundle.
    pub fn has_block(&self, id: &BlockId) -> bool {
        self.blocks.contains_key(id)
    }

    pub fn add_item(&mut self, id: &ItemId, file: &str) -> Result<(), BundleError> {
        if let Some(first) = self.items.insert(id.clone(), file.to_owned()) {
            return Err(BundleError::field(
                file,
                "id",
                format!("the item id '{id}' is already used by {first}"),
            ));
        }
        Ok(())
    }

    pub fn add_block(&mut self, id: &BlockId, file: &str, path: &str) -> Result<(), BundleError> {
        if let Some((first_file, first_path)) = self.blocks.get(id) {
            return Err(BundleError::field(
                file,
                format!("{path}.id"),
                format!("the block id '{id}' is already used by {first_file} {first_path}"),
            ));
        }
        self.blocks
            .insert(id.clone(), (file.to_owned(), path.to_owned()));
        Ok(())
    }

    /// Translates a whole-site error into the file and field it came from.
    pub fn locate(&self, error: SiteError) -> BundleError {
        let message = error.problem.to_string();
        // Images are written as { src, alt } tables; a missing file is the `src`'s fault.
        let suffix = match error.problem {
            SiteProblem::MissingMedia(_) => ".src",
            _ => "",
        };
        let (file, field) = match &error.place {
            SitePlace::Settings(field) => {
                let field = match *field {
                    "home_collection" => "home",
                    other => other,
                };
                (SITE_FILE.to_owned(), format!("settings.{field}{suffix}"))
            }
            SitePlace::Navigation { menu, index } => (
                SITE_FILE.to_owned(),
                format!("navigation.{}[{index}].href", menu.name()),
            ),
            SitePlace::Collection { id, field } => {
                (self.collection_file(id), bundle_field(field, suffix))
            }
            SitePlace::Item { id, field } => (self.item_file(id), bundle_field(field, suffix)),
            SitePlace::Block { id, field } => match self.blocks.get(id) {
                Some((file, path)) if field.is_empty() => (file.clone(), path.clone()),
                Some((file, path)) => (file.clone(), format!("{path}.{field}{suffix}")),
                None => (format!("block '{id}'"), bundle_field(field, suffix)),
            },
            SitePlace::Media { path } => (path.trim_start_matches('/').to_owned(), String::new()),
        };
        if field.is_empty() {
            BundleError::file(file, message)
        } else {
            BundleError::field(file, field, message)
        }
    }

    fn collection_file(&self, id: &CollectionId) -> String {
        self.collections
            .get(id)
            .cloned()
            .unwrap_or_else(|| format!("collection '{id}'"))
    }

    fn item_file(&self, id: &ItemId) -> String {
        self.items
            .get(id)
            .cloned()
            .unwrap_or_else(|| format!("item '{id}'"))
    }
}

/// Model field names that have no field in the bundle (the slug is the file name, the
/// collection is the folder) map to the file as a whole.
fn bundle_field(field: &str, suffix: &str) -> String {
    match field {
        "" | "slug" | "collection_id" => String::new(),
        other => format!("{other}{suffix}"),
    }
}
