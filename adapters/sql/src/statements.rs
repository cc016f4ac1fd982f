//! The SQL both backends run. SQLite accepts PostgreSQL's `$1` placeholders, so one text per
//! statement serves both dialects; only the migrations differ.
//!
//! sqlx only accepts `&'static str` as safe SQL, so column lists are macros that `concat!`
//! splices into each statement at compile time.

macro_rules! collection_columns {
    () => {
        "id, collection_type, title, slug, description, permission_type, body, seo, enabled"
    };
}

macro_rules! item_columns {
    () => {
        "id, collection_id, slug, title, record_type, status, published_on, position, excerpt, \
         body, author, tags, categories, image, seo, product"
    };
}

/// Deleting in this order keeps every foreign key satisfied at each step.
pub(crate) const DELETE_SITE: [&str; 4] = [
    "DELETE FROM items",
    "DELETE FROM media",
    "DELETE FROM collections",
    "DELETE FROM website",
];

/// Counts replacements. The row is upserted inside the replacing transaction, so the revision
/// and the content it describes always change together.
pub(crate) const BUMP_REVISION: &str = "INSERT INTO site_revision (singleton, revision) VALUES (1, 1) \
     ON CONFLICT (singleton) DO UPDATE SET revision = site_revision.revision + 1";

pub(crate) const SELECT_REVISION: &str = "SELECT revision FROM site_revision WHERE singleton = 1";

pub(crate) const INSERT_WEBSITE: &str =
    "INSERT INTO website (singleton, id, record, settings, navigation) VALUES (1, $1, $2, $3, $4)";

pub(crate) const INSERT_COLLECTION: &str = concat!(
    "INSERT INTO collections (ordinal, ",
    collection_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
);

pub(crate) const INSERT_ITEM: &str = concat!(
    "INSERT INTO items (ordinal, ",
    item_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
);

pub(crate) const INSERT_MEDIA: &str =
    "INSERT INTO media (path, content_type, bytes) VALUES ($1, $2, $3)";

pub(crate) const COUNT_WEBSITES: &str = "SELECT COUNT(*) FROM website";

pub(crate) const SELECT_PROFILE: &str = "SELECT record, settings, navigation FROM website";

/// Two collections may share a slug when one is disabled; the first imported wins otherwise.
pub(crate) const SELECT_COLLECTION_BY_SLUG: &str = concat!(
    "SELECT ",
    collection_columns!(),
    " FROM collections WHERE slug = $1 AND enabled ORDER BY ordinal LIMIT 1"
);

pub(crate) const SELECT_COLLECTION_BY_ID: &str = concat!(
    "SELECT ",
    collection_columns!(),
    " FROM collections WHERE id = $1 AND enabled"
);

pub(crate) const SELECT_COLLECTIONS: &str = concat!(
    "SELECT ",
    collection_columns!(),
    " FROM collections WHERE enabled ORDER BY ordinal"
);

/// `$3` is the published status code.
pub(crate) const SELECT_ITEM_BY_SLUG: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM items WHERE collection_id = $1 AND slug = $2 AND status = $3 ORDER BY ordinal LIMIT 1"
);

/// `$2` is the published status code.
pub(crate) const SELECT_ITEM_BY_ID: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM items WHERE id = $1 AND status = $2"
);

/// `$2` is the published status code, `$3` the limit and `$4` the offset. The import order
/// breaks the remaining ties so that pages never overlap or skip an item.
pub(crate) const SELECT_ITEMS: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM items WHERE collection_id = $1 AND status = $2",
    " ORDER BY position ASC, published_on DESC, ordinal ASC LIMIT $3 OFFSET $4"
);

pub(crate) const SELECT_MEDIA: &str = "SELECT path, content_type, bytes FROM media WHERE path = $1";
