//! The review store on SQL: review requests by token and one review per purchase, kept by a
//! UNIQUE (order_id, sku) constraint so that two reviews arriving at once store one. Both
//! backends share the statements and, through a macro, the method bodies.

use std::fmt;

use sqlx::{PgPool, SqlitePool};
use vitrine_core::cart::Timestamp;
use vitrine_core::catalog::Sku;
use vitrine_core::ports::RepositoryError;
use vitrine_core::reviews::{
    Review, ReviewRequest, ReviewRequestToken, ReviewableItem, StarRating,
};

/// The review store of a SQLite database.
#[derive(Clone)]
pub struct SqliteReviewStore {
    pool: SqlitePool,
}

/// The review store of a PostgreSQL database.
#[derive(Clone)]
pub struct PostgresReviewStore {
    pool: PgPool,
}

impl SqliteReviewStore {
    pub(crate) fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }
}

impl PostgresReviewStore {
    pub(crate) fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl fmt::Debug for SqliteReviewStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteReviewStore").finish_non_exhaustive()
    }
}

impl fmt::Debug for PostgresReviewStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresReviewStore")
            .finish_non_exhaustive()
    }
}

fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct RequestRow {
    token: String,
    order_id: String,
    author_name: String,
    items: String,
    created: i64,
    expires_at: i64,
}

impl RequestRow {
    pub(crate) fn into_request(self) -> Result<ReviewRequest, RepositoryError> {
        let items: Vec<ReviewableItem> = serde_json::from_str(&self.items)
            .map_err(|error| corrupt("review request items", error))?;
        Ok(ReviewRequest {
            token: ReviewRequestToken::parse(self.token)
                .map_err(|error| corrupt("a review request token", error))?,
            order_id: self.order_id,
            author_name: self.author_name,
            items,
            created: Timestamp(self.created),
            expires_at: Timestamp(self.expires_at),
        })
    }
}

pub(crate) fn items_json(request: &ReviewRequest) -> String {
    // SKUs and names are plain strings; serialising them cannot fail.
    serde_json::to_string(&request.items).unwrap_or_else(|_| "[]".to_owned())
}

#[derive(sqlx::FromRow)]
pub(crate) struct ReviewRow {
    id: String,
    order_id: String,
    sku: String,
    product_name: String,
    rating: i64,
    title: String,
    body: String,
    author_name: String,
    created: i64,
    hidden: bool,
    reply: Option<String>,
}

impl ReviewRow {
    pub(crate) fn into_review(self) -> Result<Review, RepositoryError> {
        let rating = u8::try_from(self.rating)
            .ok()
            .and_then(StarRating::new)
            .ok_or_else(|| corrupt("a review rating", self.rating))?;
        Ok(Review {
            id: self.id,
            order_id: self.order_id,
            sku: Sku::parse(self.sku).map_err(|error| corrupt("a review SKU", error))?,
            product_name: self.product_name,
            rating,
            title: self.title,
            body: self.body,
            author_name: self.author_name,
            created: Timestamp(self.created),
            hidden: self.hidden,
            reply: self.reply,
        })
    }
}

/// SKUs as the JSON array the product-wide statements read.
pub(crate) fn sku_array(skus: &[Sku]) -> String {
    let texts: Vec<&str> = skus.iter().map(Sku::as_str).collect();
    // A list of strings always serialises.
    serde_json::to_string(&texts).unwrap_or_else(|_| "[]".to_owned())
}

pub(crate) fn summary(count: i64, total: i64) -> vitrine_core::reviews::RatingSummary {
    vitrine_core::reviews::RatingSummary::new(
        u32::try_from(count.max(0)).unwrap_or(u32::MAX),
        u32::try_from(total.max(0)).unwrap_or(u32::MAX),
    )
}

/// The statement that stores a review request, bound, for either backend: the review store
/// runs it alone, an order's transaction runs it beside the order.
macro_rules! save_request_query {
    ($request:expr) => {
        sqlx::query($crate::review_statements::SAVE_REQUEST)
            .bind($request.token.as_str())
            .bind($request.order_id.as_str())
            .bind($request.author_name.as_str())
            .bind($crate::review_store::items_json($request))
            .bind($request.created.millis())
            .bind($request.expires_at.millis())
    };
}
pub(crate) use save_request_query;

macro_rules! sql_review_store {
    ($store:ty, $reviews_for:expr, $summary_for:expr, $page:expr, $count:expr) => {
        #[async_trait::async_trait]
        impl vitrine_core::reviews::ReviewStore for $store {
            async fn save_request(
                &self,
                request: &vitrine_core::reviews::ReviewRequest,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                $crate::review_store::save_request_query!(request)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("saving a review request"))?;
                Ok(())
            }

            async fn request(
                &self,
                token: &vitrine_core::reviews::ReviewRequestToken,
            ) -> Result<
                Option<vitrine_core::reviews::ReviewRequest>,
                vitrine_core::ports::RepositoryError,
            > {
                let row: Option<$crate::review_store::RequestRow> =
                    sqlx::query_as($crate::review_statements::LOAD_REQUEST)
                        .bind(token.as_str())
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a review request"))?;
                row.map($crate::review_store::RequestRow::into_request)
                    .transpose()
            }

            async fn add_review(
                &self,
                review: &vitrine_core::reviews::Review,
            ) -> Result<(), vitrine_core::reviews::AddReviewError> {
                let outcome = sqlx::query($crate::review_statements::ADD_REVIEW)
                    .bind(&review.id)
                    .bind(&review.order_id)
                    .bind(review.sku.as_str())
                    .bind(&review.product_name)
                    .bind(i64::from(review.rating.stars()))
                    .bind(&review.title)
                    .bind(&review.body)
                    .bind(&review.author_name)
                    .bind(review.created.millis())
                    .bind(review.hidden)
                    .bind(review.reply.as_deref())
                    .execute(&self.pool)
                    .await;
                match outcome {
                    Ok(_) => Ok(()),
                    // The UNIQUE (order_id, sku) constraint: this purchase has its review.
                    Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                        Err(vitrine_core::reviews::AddReviewError::AlreadyReviewed)
                    }
                    Err(error) => {
                        Err($crate::errors::repository_error("storing a review")(error).into())
                    }
                }
            }

            async fn reviewed_skus(
                &self,
                order_id: &str,
            ) -> Result<Vec<vitrine_core::catalog::Sku>, vitrine_core::ports::RepositoryError> {
                let rows: Vec<(String,)> = sqlx::query_as($crate::review_statements::REVIEWED_SKUS)
                    .bind(order_id)
                    .fetch_all(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error(
                        "reading reviewed products",
                    ))?;
                rows.into_iter()
                    .map(|(sku,)| {
                        vitrine_core::catalog::Sku::parse(sku).map_err(|error| {
                            vitrine_core::ports::RepositoryError::Corrupt {
                                what: "a review SKU".into(),
                                reason: error.to_string(),
                            }
                        })
                    })
                    .collect()
            }

            async fn reviews_for(
                &self,
                skus: &[vitrine_core::catalog::Sku],
                limit: u32,
            ) -> Result<Vec<vitrine_core::reviews::Review>, vitrine_core::ports::RepositoryError>
            {
                if skus.is_empty() {
                    return Ok(Vec::new());
                }
                let rows: Vec<$crate::review_store::ReviewRow> = sqlx::query_as($reviews_for)
                    .bind($crate::review_store::sku_array(skus))
                    .bind(i64::from(limit))
                    .fetch_all(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("reading reviews"))?;
                rows.into_iter()
                    .map($crate::review_store::ReviewRow::into_review)
                    .collect()
            }

            async fn summary_for(
                &self,
                skus: &[vitrine_core::catalog::Sku],
            ) -> Result<vitrine_core::reviews::RatingSummary, vitrine_core::ports::RepositoryError>
            {
                if skus.is_empty() {
                    return Ok(vitrine_core::reviews::RatingSummary::default());
                }
                let (count, total): (i64, i64) = sqlx::query_as($summary_for)
                    .bind($crate::review_store::sku_array(skus))
                    .fetch_one(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("summing reviews"))?;
                Ok($crate::review_store::summary(count, total))
            }

            async fn review_page(
                &self,
                query: &vitrine_core::owners::tables::TableQuery,
            ) -> Result<
                vitrine_core::owners::tables::TablePage<vitrine_core::reviews::Review>,
                vitrine_core::ports::RepositoryError,
            > {
                let (rows, total) = $crate::table_pages::fetch_table_page!(
                    &self.pool,
                    $page,
                    $count,
                    query,
                    $crate::review_store::ReviewRow
                )
                .await
                .map_err($crate::errors::repository_error("paging reviews"))?;
                Ok(vitrine_core::owners::tables::TablePage {
                    rows: rows
                        .into_iter()
                        .map($crate::review_store::ReviewRow::into_review)
                        .collect::<Result<_, _>>()?,
                    total,
                })
            }

            async fn set_hidden(
                &self,
                id: &str,
                hidden: bool,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::review_statements::SET_HIDDEN)
                    .bind(id)
                    .bind(hidden)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("hiding a review"))?;
                Ok(done.rows_affected() > 0)
            }

            async fn set_reply(
                &self,
                id: &str,
                reply: Option<&str>,
            ) -> Result<bool, vitrine_core::ports::RepositoryError> {
                let done = sqlx::query($crate::review_statements::SET_REPLY)
                    .bind(id)
                    .bind(reply)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("replying to a review"))?;
                Ok(done.rows_affected() > 0)
            }
        }
    };
}

sql_review_store!(
    SqliteReviewStore,
    crate::review_statements::SQLITE_REVIEWS_FOR,
    crate::review_statements::SQLITE_SUMMARY_FOR,
    crate::review_statements::SQLITE_PAGE_REVIEWS,
    crate::review_statements::SQLITE_COUNT_REVIEWS
);
sql_review_store!(
    PostgresReviewStore,
    crate::review_statements::POSTGRES_REVIEWS_FOR,
    crate::review_statements::POSTGRES_SUMMARY_FOR,
    crate::review_statements::POSTGRES_PAGE_REVIEWS,
    crate::review_statements::POSTGRES_COUNT_REVIEWS
);
