//! The one implementation of [`SiteRepository`](vitrine_core::ports::SiteRepository) that both
//! SQL backends share.
//!
//! The statements are the same for SQLite and PostgreSQL; only the pool type differs. Code
//! generic over `sqlx::Database` needs a dozen higher-ranked bounds repeated on every function
//! (and trips over `Send` inference inside `async_trait`), so a macro stamps the same method
//! bodies onto each backend's repository type instead. The macro expects a struct with a
//! `pool` field holding that backend's `sqlx::Pool`.

/// Implements `SiteRepository` for `$repository`, a struct with a `pool: sqlx::Pool<_>` field.
macro_rules! sql_site_repository {
    ($repository:ty) => {
        #[async_trait::async_trait]
        impl vitrine_core::ports::SiteRepository for $repository {
            async fn replace_site(
                &self,
                site: &vitrine_core::site::Site,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                use $crate::errors::repository_error;
                use $crate::statements as sql;
                use sqlx::types::Json;

                // Everything happens in one transaction: when any statement fails, the
                // transaction is dropped unfinished, which rolls it back, and the previous
                // site stays exactly as it was.
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(repository_error("starting to replace the site"))?;
                for statement in sql::DELETE_SITE {
                    sqlx::query(statement)
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("deleting the previous site"))?;
                }
                sqlx::query(sql::INSERT_WEBSITE)
                    .bind(site.website.id.as_str())
                    .bind(Json(&site.website))
                    .bind(Json(&site.settings))
                    .bind(Json(&site.navigation))
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("writing the website"))?;
                for (index, collection) in site.collections.iter().enumerate() {
                    sqlx::query(sql::INSERT_COLLECTION)
                        .bind($crate::repository::ordinal(index))
                        .bind(collection.id.as_str())
                        .bind(i64::from(collection.collection_type.code()))
                        .bind(collection.title.as_str())
                        .bind(collection.slug.as_str())
                        .bind(collection.description.as_str())
                        .bind($crate::rows::permission_type_text(collection.permission_type))
                        .bind(Json(&collection.body))
                        .bind(Json(&collection.seo))
                        .bind(collection.enabled)
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("writing a collection"))?;
                }
                for (index, item) in site.items.iter().enumerate() {
                    sqlx::query(sql::INSERT_ITEM)
                        .bind($crate::repository::ordinal(index))
                        .bind(item.id.as_str())
                        .bind(item.collection_id.as_str())
                        .bind(item.slug.as_str())
                        .bind(item.title.as_str())
                        .bind(i64::from(item.record_type.code()))
                        .bind(i64::from(item.status.code()))
                        .bind(item.published_on)
                        .bind(i64::from(item.position))
                        .bind(item.excerpt.as_str())
                        .bind(Json(&item.body))
                        .bind(item.author.as_deref())
                        .bind(Json(&item.tags))
                        .bind(Json(&item.categories))
                        .bind(item.image.as_ref().map(Json))
                        .bind(Json(&item.seo))
                        .bind(item.product.as_ref().map(Json))
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("writing an item"))?;
                }
                for file in &site.media {
                    sqlx::query(sql::INSERT_MEDIA)
                        .bind(file.path.as_str())
                        .bind(file.content_type.as_str())
                        .bind(file.bytes.as_slice())
                        .execute(&mut *tx)
                        .await
                        .map_err(repository_error("writing a media file"))?;
                }
                sqlx::query(sql::BUMP_REVISION)
                    .execute(&mut *tx)
                    .await
                    .map_err(repository_error("counting the new revision"))?;
                tx.commit()
                    .await
                    .map_err(repository_error("committing the new site"))
            }

            async fn revision(&self) -> Result<u64, vitrine_core::ports::RepositoryError> {
                let revision: Option<i64> =
                    sqlx::query_scalar($crate::statements::SELECT_REVISION)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading the site revision"))?;
                // The column never holds a negative number; 0 means nothing imported yet.
                Ok(revision.map_or(0, |revision| revision.unsigned_abs()))
            }

            async fn is_empty(&self) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let count: i64 = sqlx::query_scalar($crate::statements::COUNT_WEBSITES)
                    .fetch_one(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("checking for a site"))?;
                Ok(count == 0)
            }

            async fn profile(
                &self,
            ) -> Result<Option<vitrine_core::site::SiteProfile>, vitrine_core::ports::RepositoryError>
            {
                sqlx::query_as::<_, $crate::rows::WebsiteRow>($crate::statements::SELECT_PROFILE)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("reading the website"))?
                    .map($crate::rows::WebsiteRow::into_profile)
                    .transpose()
            }

            async fn collection_by_slug(
                &self,
                slug: &vitrine_core::site::Slug,
            ) -> Result<Option<vitrine_core::site::Collection>, vitrine_core::ports::RepositoryError>
            {
                sqlx::query_as::<_, $crate::rows::CollectionRow>(
                    $crate::statements::SELECT_COLLECTION_BY_SLUG,
                )
                .bind(slug.as_str())
                .fetch_optional(&self.pool)
                .await
                .map_err($crate::errors::repository_error("reading a collection"))?
                .map($crate::rows::CollectionRow::into_collection)
                .transpose()
            }

            async fn collection(
                &self,
                id: &vitrine_core::site::CollectionId,
            ) -> Result<Option<vitrine_core::site::Collection>, vitrine_core::ports::RepositoryError>
            {
                sqlx::query_as::<_, $crate::rows::CollectionRow>(
                    $crate::statements::SELECT_COLLECTION_BY_ID,
                )
                .bind(id.as_str())
                .fetch_optional(&self.pool)
                .await
                .map_err($crate::errors::repository_error("reading a collection"))?
                .map($crate::rows::CollectionRow::into_collection)
                .transpose()
            }

            async fn collections(
                &self,
            ) -> Result<Vec<vitrine_core::site::Collection>, vitrine_core::ports::RepositoryError>
            {
                sqlx::query_as::<_, $crate::rows::CollectionRow>(
                    $crate::statements::SELECT_COLLECTIONS,
                )
                .fetch_all(&self.pool)
                .await
                .map_err($crate::errors::repository_error("listing the collections"))?
                .into_iter()
                .map($crate::rows::CollectionRow::into_collection)
                .collect()
            }

            async fn item_by_slug(
                &self,
                collection: &vitrine_core::site::CollectionId,
                slug: &vitrine_core::site::Slug,
            ) -> Result<Option<vitrine_core::site::Item>, vitrine_core::ports::RepositoryError> {
                sqlx::query_as::<_, $crate::rows::ItemRow>($crate::statements::SELECT_ITEM_BY_SLUG)
                    .bind(collection.as_str())
                    .bind(slug.as_str())
                    .bind($crate::repository::published())
                    .fetch_optional(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("reading an item"))?
                    .map($crate::rows::ItemRow::into_item)
                    .transpose()
            }

            async fn item(
                &self,
                id: &vitrine_core::site::ItemId,
            ) -> Result<Option<vitrine_core::site::Item>, vitrine_core::ports::RepositoryError> {
                sqlx::query_as::<_, $crate::rows::ItemRow>($crate::statements::SELECT_ITEM_BY_ID)
                    .bind(id.as_str())
                    .bind($crate::repository::published())
                    .fetch_optional(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("reading an item"))?
                    .map($crate::rows::ItemRow::into_item)
                    .transpose()
            }

            async fn items(
                &self,
                collection: &vitrine_core::site::CollectionId,
                query: vitrine_core::ports::ItemQuery,
            ) -> Result<Vec<vitrine_core::site::Item>, vitrine_core::ports::RepositoryError> {
                sqlx::query_as::<_, $crate::rows::ItemRow>($crate::statements::SELECT_ITEMS)
                    .bind(collection.as_str())
                    .bind($crate::repository::published())
                    .bind(i64::from(query.limit))
                    .bind(i64::from(query.offset))
                    .fetch_all(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("listing items"))?
                    .into_iter()
                    .map($crate::rows::ItemRow::into_item)
                    .collect()
            }

            async fn media(
                &self,
                path: &str,
            ) -> Result<Option<vitrine_core::site::MediaFile>, vitrine_core::ports::RepositoryError>
            {
                Ok(
                    sqlx::query_as::<_, $crate::rows::MediaRow>($crate::statements::SELECT_MEDIA)
                        .bind(path)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a media file"))?
                        .map($crate::rows::MediaRow::into_media_file),
                )
            }
        }
    };
}

pub(crate) use sql_site_repository;

/// The stored code of the only status visitors may see.
pub(crate) fn published() -> i64 {
    i64::from(vitrine_core::enums::ItemStatus::Published.code())
}

/// A record's place in the imported bundle, as stored in the `ordinal` columns.
pub(crate) fn ordinal(index: usize) -> i64 {
    // A `Vec` cannot hold more than `isize::MAX` elements, so its index always fits.
    i64::try_from(index).unwrap_or(i64::MAX)
}
