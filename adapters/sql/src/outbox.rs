//! The delivery outbox and newsletter subscribers on SQL. [`write_follow_up`] is the one step
//! the submission save adds to its transaction; the rest are the worker's and the
//! subscription pages' statements. Both backends share the statements and, through a macro,
//! the method bodies.
//!
//! [`write_follow_up`]: crate::forms::SqliteFormStore::write_follow_up

use vitrine_core::forms::{
    DeliveryKind, DeliveryRecord, DeliverySubject, DueDelivery, Mail, StoredSubmission, Subscriber,
};
use vitrine_core::ports::RepositoryError;

/// A claimed delivery with its submission and, for a newsletter, its subscriber; or, for a
/// delivery about an order, the order's id (its columns are read apart).
#[derive(sqlx::FromRow)]
pub(crate) struct ClaimedRow {
    delivery_id: i64,
    kind: String,
    attempts: i64,
    order_id: Option<String>,
    review_token: Option<String>,
    mail: Option<String>,
    id: Option<i64>,
    form_id: Option<String>,
    collection_id: Option<String>,
    object_name: Option<String>,
    is_overlay_form: Option<bool>,
    form_values: Option<String>,
    spam: Option<bool>,
    created_at: Option<i64>,
    list_id: Option<String>,
    email: Option<String>,
    unsubscribe_token: Option<String>,
    confirm_token: Option<String>,
    confirmed_at: Option<i64>,
    unsubscribed_at: Option<i64>,
}

/// A composed mail as the outbox stores it.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredMail {
    to: String,
    subject: String,
    text: String,
    /// Absent in mails stored before mails had their own HTML part, and in those that have
    /// none: both send their text as HTML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    html: Option<String>,
}

pub(crate) fn mail_to_json(mail: &Mail) -> String {
    let stored = StoredMail {
        to: mail.to.clone(),
        subject: mail.subject.clone(),
        text: mail.text.clone(),
        html: mail.html.clone(),
    };
    // Strings always serialise.
    serde_json::to_string(&stored).unwrap_or_default()
}

pub(crate) fn mail_from_json(json: &str) -> Result<Mail, RepositoryError> {
    let stored: StoredMail =
        serde_json::from_str(json).map_err(|error| RepositoryError::Corrupt {
            what: "a delivery's mail".into(),
            reason: error.to_string(),
        })?;
    Ok(Mail {
        to: stored.to,
        subject: stored.subject,
        text: stored.text,
        html: stored.html,
        list_unsubscribe: None,
    })
}

fn kind(text: &str) -> Result<DeliveryKind, RepositoryError> {
    DeliveryKind::parse(text).ok_or_else(|| RepositoryError::Corrupt {
        what: "a delivery's kind".into(),
        reason: format!("unknown kind {text:?}"),
    })
}

/// What a claimed row is about, as far as its own columns tell.
pub(crate) enum ClaimedSubject {
    Ready(DueDelivery),
    /// The order's columns and its review request are read next.
    Order {
        id: i64,
        kind: DeliveryKind,
        attempts: u32,
        order_id: String,
        review_token: Option<String>,
    },
    /// The submission it names is gone: nothing can be sent.
    Gone {
        id: i64,
        attempts: u32,
    },
}

impl ClaimedRow {
    pub(crate) fn into_subject(self) -> Result<ClaimedSubject, RepositoryError> {
        let kind = kind(&self.kind)?;
        let attempts = u32::try_from(self.attempts).unwrap_or(u32::MAX);
        if let Some(mail) = self.mail {
            return Ok(ClaimedSubject::Ready(DueDelivery {
                id: self.delivery_id,
                kind,
                attempts,
                subject: DeliverySubject::Mail(mail_from_json(&mail)?),
            }));
        }
        if let Some(order_id) = self.order_id {
            return Ok(ClaimedSubject::Order {
                id: self.delivery_id,
                kind,
                attempts,
                order_id,
                review_token: self.review_token,
            });
        }
        let (Some(id), Some(form_id), Some(object_name), Some(values_json)) =
            (self.id, self.form_id, self.object_name, self.form_values)
        else {
            return Ok(ClaimedSubject::Gone {
                id: self.delivery_id,
                attempts,
            });
        };
        let subscriber = match (self.list_id, self.email, self.unsubscribe_token) {
            (Some(list), Some(email), Some(unsubscribe_token)) => Some(Subscriber {
                submission_id: id,
                list,
                email,
                unsubscribe_token,
                confirmed: self.confirm_token.is_none() || self.confirmed_at.is_some(),
                confirm_token: self.confirm_token,
                unsubscribed: self.unsubscribed_at.is_some(),
            }),
            _ => None,
        };
        Ok(ClaimedSubject::Ready(DueDelivery {
            id: self.delivery_id,
            kind,
            attempts,
            subject: DeliverySubject::Submission {
                submission: StoredSubmission {
                    id,
                    form_id,
                    collection_id: self.collection_id,
                    object_name,
                    is_overlay_form: self.is_overlay_form.unwrap_or(false),
                    values_json,
                    spam: self.spam.unwrap_or(false),
                    created_at: self.created_at.unwrap_or(0),
                },
                subscriber,
            },
        }))
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct SubscriberRow {
    submission_id: i64,
    list_id: String,
    email: String,
    unsubscribe_token: String,
    confirm_token: Option<String>,
    confirmed_at: Option<i64>,
    unsubscribed_at: Option<i64>,
}

impl From<SubscriberRow> for Subscriber {
    fn from(row: SubscriberRow) -> Self {
        Self {
            submission_id: row.submission_id,
            list: row.list_id,
            email: row.email,
            unsubscribe_token: row.unsubscribe_token,
            confirmed: row.confirm_token.is_none() || row.confirmed_at.is_some(),
            confirm_token: row.confirm_token,
            unsubscribed: row.unsubscribed_at.is_some(),
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct DeliveryRow {
    id: i64,
    submission_id: Option<i64>,
    order_id: Option<String>,
    kind: String,
    attempts: i64,
    next_attempt_ms: i64,
    delivered_ms: Option<i64>,
    failed: bool,
    last_error: Option<String>,
}

impl DeliveryRow {
    pub(crate) fn into_record(self) -> Result<DeliveryRecord, RepositoryError> {
        Ok(DeliveryRecord {
            id: self.id,
            submission_id: self.submission_id,
            order_id: self.order_id,
            kind: kind(&self.kind)?,
            attempts: u32::try_from(self.attempts).unwrap_or(u32::MAX),
            next_attempt_ms: self.next_attempt_ms,
            delivered_ms: self.delivered_ms,
            failed: self.failed,
            last_error: self.last_error,
        })
    }
}

macro_rules! sql_outbox {
    ($store:ty, $db:ty) => {
        impl $store {
            /// Writes what a newly stored submission leads to: its subscriber row (for a
            /// newsletter) and its deliveries. Called inside the save's transaction, once per
            /// stored submission, so the submission and its deliveries commit together.
            pub(crate) async fn write_follow_up(
                conn: &mut <$db as sqlx::Database>::Connection,
                id: i64,
                submission: &vitrine_core::forms::NewSubmission,
                now: i64,
            ) -> Result<(), sqlx::Error> {
                use $crate::outbox_statements as sql;
                if let (Some(email), Some(tokens)) =
                    (&submission.subscription, &submission.follow_up.tokens)
                {
                    sqlx::query(sql::INSERT_SUBSCRIBER)
                        .bind(id)
                        .bind(submission.form_id.as_str())
                        .bind(email.as_str())
                        .bind(tokens.unsubscribe.as_str())
                        .bind(tokens.confirm.as_deref())
                        .bind(tokens.confirm.is_none().then_some(now))
                        .execute(&mut *conn)
                        .await?;
                }
                for kind in &submission.follow_up.deliveries {
                    sqlx::query(sql::ENQUEUE)
                        .bind(id)
                        .bind(kind.as_str())
                        .bind(now * 1000)
                        .bind(now)
                        .execute(&mut *conn)
                        .await?;
                }
                Ok(())
            }

            /// The order a delivery names, with the review request its mail asks about; none
            /// when the order is not there.
            async fn order_subject(
                &self,
                order_id: &str,
                review_token: Option<&str>,
            ) -> Result<Option<vitrine_core::forms::DeliverySubject>, vitrine_core::ports::RepositoryError>
            {
                let failed = $crate::errors::repository_error;
                let order: Option<$crate::cart_store::OrderRow> =
                    sqlx::query_as($crate::cart_statements::ORDER_BY_ID)
                        .bind(order_id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err(failed("reading a delivery's order"))?;
                let Some(order) = order else {
                    return Ok(None);
                };
                let review_request = match review_token {
                    Some(token) => {
                        let row: Option<$crate::review_store::RequestRow> =
                            sqlx::query_as($crate::review_statements::LOAD_REQUEST)
                                .bind(token)
                                .fetch_optional(&self.pool)
                                .await
                                .map_err(failed("reading a delivery's review request"))?;
                        row.map($crate::review_store::RequestRow::into_request)
                            .transpose()?
                    }
                    None => None,
                };
                let mut order = order.into_order()?;
                order.gift_cards =
                    $crate::gift_cards::order_gift_cards!(&self.pool, order_id).await?;
                Ok(Some(vitrine_core::forms::DeliverySubject::Order {
                    order: Box::new(order),
                    review_request,
                }))
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::forms::DeliveryOutbox for $store {
            async fn claim_due(
                &self,
                now_ms: i64,
                lease_ms: i64,
                limit: u32,
            ) -> Result<Vec<vitrine_core::forms::DueDelivery>, vitrine_core::ports::RepositoryError>
            {
                use $crate::outbox_statements as sql;
                let failed = $crate::errors::repository_error;
                let due: Vec<(i64, i64)> = sqlx::query_as(sql::DUE)
                    .bind(now_ms)
                    .bind(i64::from(limit))
                    .fetch_all(&self.pool)
                    .await
                    .map_err(failed("reading due deliveries"))?;
                let mut claimed = Vec::new();
                for (id, seen_next) in due {
                    let taken = sqlx::query(sql::CLAIM)
                        .bind(now_ms + lease_ms)
                        .bind(id)
                        .bind(seen_next)
                        .execute(&self.pool)
                        .await
                        .map_err(failed("claiming a delivery"))?
                        .rows_affected();
                    if taken != 1 {
                        // Another worker took it between the read and the claim.
                        continue;
                    }
                    let row: Option<$crate::outbox::ClaimedRow> = sqlx::query_as(sql::CLAIMED)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err(failed("reading a claimed delivery"))?;
                    let Some(row) = row else { continue };
                    let gone = match row.into_subject()? {
                        $crate::outbox::ClaimedSubject::Ready(due) => {
                            claimed.push(due);
                            continue;
                        }
                        $crate::outbox::ClaimedSubject::Order {
                            id,
                            kind,
                            attempts,
                            order_id,
                            review_token,
                        } => match self.order_subject(&order_id, review_token.as_deref()).await? {
                            Some(subject) => {
                                claimed.push(vitrine_core::forms::DueDelivery {
                                    id,
                                    kind,
                                    attempts,
                                    subject,
                                });
                                continue;
                            }
                            None => (id, attempts, "the order is gone"),
                        },
                        $crate::outbox::ClaimedSubject::Gone { id, attempts } => {
                            (id, attempts, "the submission is gone")
                        }
                    };
                    // Nothing can ever be sent about it: give up now rather than claim it
                    // again at the end of every lease.
                    let (id, attempts, reason) = gone;
                    <Self as vitrine_core::forms::DeliveryOutbox>::give_up(self, id, attempts, reason)
                        .await?;
                }
                Ok(claimed)
            }

            async fn mark_delivered(
                &self,
                id: i64,
                now_ms: i64,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::outbox_statements::DELIVERED)
                    .bind(now_ms)
                    .bind(id)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("marking a delivery sent"))?;
                Ok(())
            }

            async fn schedule_retry(
                &self,
                id: i64,
                attempts: u32,
                next_attempt_ms: i64,
                error: &str,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::outbox_statements::RETRY)
                    .bind(i64::from(attempts))
                    .bind(next_attempt_ms)
                    .bind(error)
                    .bind(id)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("scheduling a retry"))?;
                Ok(())
            }

            async fn give_up(
                &self,
                id: i64,
                attempts: u32,
                error: &str,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::outbox_statements::GIVE_UP)
                    .bind(i64::from(attempts))
                    .bind(error)
                    .bind(id)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("giving up a delivery"))?;
                Ok(())
            }

            async fn deliveries(
                &self,
            ) -> Result<Vec<vitrine_core::forms::DeliveryRecord>, vitrine_core::ports::RepositoryError>
            {
                let rows: Vec<$crate::outbox::DeliveryRow> =
                    sqlx::query_as($crate::outbox_statements::LIST)
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("listing deliveries"))?;
                rows.into_iter().map($crate::outbox::DeliveryRow::into_record).collect()
            }

            async fn enqueue_mail(
                &self,
                mail: &vitrine_core::forms::Mail,
                now_ms: i64,
            ) -> Result<(), vitrine_core::ports::RepositoryError> {
                sqlx::query($crate::outbox_statements::ENQUEUE_MAIL)
                    .bind($crate::outbox::mail_to_json(mail))
                    .bind(vitrine_core::forms::DeliveryKind::SiteUserMail.as_str())
                    .bind(now_ms)
                    .execute(&self.pool)
                    .await
                    .map_err($crate::errors::repository_error("enqueueing a mail"))?;
                Ok(())
            }

            async fn mail_of(
                &self,
                id: i64,
            ) -> Result<Option<vitrine_core::forms::Mail>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<(Option<String>,)> =
                    sqlx::query_as($crate::outbox_statements::MAIL_OF)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a delivery's mail"))?;
                row.and_then(|(mail,)| mail)
                    .map(|json| $crate::outbox::mail_from_json(&json))
                    .transpose()
            }

            async fn withdraw_mails_to(
                &self,
                email: &str,
            ) -> Result<u32, vitrine_core::ports::RepositoryError> {
                let failed = $crate::errors::repository_error;
                let mut tx = self
                    .pool
                    .begin()
                    .await
                    .map_err(failed("starting to withdraw mails"))?;
                let withdrawn = $crate::order_erasure::withdraw_mails_to!(tx, email).await?;
                tx.commit()
                    .await
                    .map_err(failed("committing withdrawn mails"))?;
                Ok(withdrawn)
            }
        }

        #[async_trait::async_trait]
        impl vitrine_core::forms::NewsletterSubscriptions for $store {
            async fn subscriber_by_token(
                &self,
                token: &str,
            ) -> Result<Option<vitrine_core::forms::Subscriber>, vitrine_core::ports::RepositoryError>
            {
                let row: Option<$crate::outbox::SubscriberRow> =
                    sqlx::query_as($crate::outbox_statements::SUBSCRIBER_BY_TOKEN)
                        .bind(token)
                        .fetch_optional(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading a subscriber"))?;
                Ok(row.map(Into::into))
            }

            async fn subscriptions_of(
                &self,
                email: &str,
            ) -> Result<Vec<vitrine_core::forms::Subscriber>, vitrine_core::ports::RepositoryError>
            {
                let rows: Vec<$crate::outbox::SubscriberRow> =
                    sqlx::query_as($crate::outbox_statements::SUBSCRIPTIONS_OF)
                        .bind(email)
                        .fetch_all(&self.pool)
                        .await
                        .map_err($crate::errors::repository_error("reading an address's subscriptions"))?;
                Ok(rows.into_iter().map(Into::into).collect())
            }

            async fn subscriber_page(
                &self,
                query: &vitrine_core::owners::tables::TableQuery,
            ) -> Result<
                vitrine_core::owners::tables::TablePage<vitrine_core::forms::Subscriber>,
                vitrine_core::ports::RepositoryError,
            > {
                let (rows, total) = $crate::table_pages::fetch_table_page!(
                    &self.pool,
                    Self::PAGE_SUBSCRIBERS,
                    Self::COUNT_SUBSCRIBERS,
                    query,
                    $crate::outbox::SubscriberRow
                )
                .await
                .map_err($crate::errors::repository_error("paging newsletter subscribers"))?;
                Ok(vitrine_core::owners::tables::TablePage {
                    rows: rows.into_iter().map(Into::into).collect(),
                    total,
                })
            }

            async fn confirm(
                &self,
                confirm_token: &str,
                deliveries: &[vitrine_core::forms::DeliveryKind],
                now: i64,
            ) -> Result<vitrine_core::forms::TokenOutcome, vitrine_core::ports::RepositoryError>
            {
                self.try_confirm(confirm_token, deliveries, now)
                    .await
                    .map_err($crate::errors::repository_error("confirming a subscription"))
            }

            async fn unsubscribe(
                &self,
                unsubscribe_token: &str,
                now: i64,
            ) -> Result<vitrine_core::forms::TokenOutcome, vitrine_core::ports::RepositoryError>
            {
                self.try_unsubscribe(unsubscribe_token, now)
                    .await
                    .map_err($crate::errors::repository_error("unsubscribing"))
            }

            async fn erase_subscriptions_of(
                &self,
                email: &str,
            ) -> Result<u32, vitrine_core::ports::RepositoryError> {
                self.try_erase_subscriptions(email)
                    .await
                    .map_err($crate::errors::repository_error("erasing an address's subscriptions"))
            }
        }

        impl $store {
            /// One transaction: mark the subscription confirmed and enqueue the owner's
            /// deliveries, so a confirmed subscriber is never left unannounced.
            async fn try_confirm(
                &self,
                token: &str,
                deliveries: &[vitrine_core::forms::DeliveryKind],
                now: i64,
            ) -> Result<vitrine_core::forms::TokenOutcome, sqlx::Error> {
                use vitrine_core::forms::TokenOutcome;
                use $crate::outbox_statements as sql;
                let mut tx = self.pool.begin().await?;
                let confirmed: Option<i64> = sqlx::query_scalar(sql::CONFIRM)
                    .bind(now)
                    .bind(token)
                    .fetch_optional(&mut *tx)
                    .await?;
                let Some(id) = confirmed else {
                    tx.rollback().await?;
                    let known: Option<i64> = sqlx::query_scalar(sql::CONFIRM_TOKEN_EXISTS)
                        .bind(token)
                        .fetch_optional(&self.pool)
                        .await?;
                    return Ok(match known {
                        Some(_) => TokenOutcome::AlreadyDone,
                        None => TokenOutcome::Unknown,
                    });
                };
                for kind in deliveries {
                    sqlx::query(sql::ENQUEUE)
                        .bind(id)
                        .bind(kind.as_str())
                        .bind(now * 1000)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(TokenOutcome::Done)
            }

            async fn try_unsubscribe(
                &self,
                token: &str,
                now: i64,
            ) -> Result<vitrine_core::forms::TokenOutcome, sqlx::Error> {
                use vitrine_core::forms::TokenOutcome;
                use $crate::outbox_statements as sql;
                let mut tx = self.pool.begin().await?;
                let ended: Option<i64> = sqlx::query_scalar(sql::UNSUBSCRIBE)
                    .bind(now)
                    .bind(token)
                    .fetch_optional(&mut *tx)
                    .await?;
                let Some(id) = ended else {
                    tx.rollback().await?;
                    let known: Option<i64> = sqlx::query_scalar(sql::UNSUBSCRIBE_TOKEN_EXISTS)
                        .bind(token)
                        .fetch_optional(&self.pool)
                        .await?;
                    return Ok(match known {
                        Some(_) => TokenOutcome::AlreadyDone,
                        None => TokenOutcome::Unknown,
                    });
                };
                sqlx::query(sql::RELEASE_SUBSCRIPTION)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(TokenOutcome::Done)
            }

            /// One transaction: free the sign-ups' (list, address) slots, then delete the
            /// subscriber rows, tokens and all.
            async fn try_erase_subscriptions(&self, email: &str) -> Result<u32, sqlx::Error> {
                use $crate::outbox_statements as sql;
                let mut tx = self.pool.begin().await?;
                sqlx::query(sql::RELEASE_SUBSCRIPTIONS_OF)
                    .bind(email)
                    .execute(&mut *tx)
                    .await?;
                let erased = sqlx::query(sql::ERASE_SUBSCRIBERS_OF)
                    .bind(email)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(u32::try_from(erased.rows_affected()).unwrap_or(u32::MAX))
            }
        }
    };
}

sql_outbox!(crate::forms::SqliteFormStore, sqlx::Sqlite);
sql_outbox!(crate::forms::PostgresFormStore, sqlx::Postgres);
