//! `vitrine serve`: wires the database, the core's services and the HTTP adapter together and
//! serves until asked to stop.

use std::io::{ErrorKind, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use anyhow::Context;
use tokio::net::TcpListener;
use vitrine_core::pages::PageService;
use vitrine_http::AppState;

use crate::cli::ServeArgs;
use crate::{database, import, web_assets};

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    let delivery = crate::delivery::Delivery::configure(&args.delivery)?;
    let payments = crate::payments::configure(&args.payments)?;
    let payment_reports = crate::payments::webhooks(&args.payments)?;
    let database = database::open(&args.database).await?;
    let repository = database.repository();
    let empty = repository
        .is_empty()
        .await
        .context("could not read the database to see whether it holds a site")?;
    // Only the embedded database gets the demo by itself: an empty PostgreSQL database is
    // more likely a production site about to be imported than someone trying Vitrine out.
    if empty && database.kind() == vitrine_sql::DatabaseKind::Sqlite {
        import::import_demo(repository.as_ref()).await?;
        say(
            "The database held no site, so Vitrine imported the demo site. \
             Replace it with `vitrine import DIR`.",
        );
    }
    let owner_token = owner_export_token()?;
    let order_links =
        crate::order_links::key(args.order_link_key.as_ref(), &args.database.data_dir)?;
    let assets = Arc::new(match &args.assets_dir {
        Some(dir) => web_assets::load_dir(dir)?,
        None => web_assets::load()?,
    });

    let listener = TcpListener::bind(args.addr)
        .await
        .map_err(|error| bind_error(error, args.addr))?;
    let local = listener
        .local_addr()
        .context("could not read the address the server listens on")?;
    let open_url = format!("http://{}", browsable(local));
    let public_url = args.public_url.clone().unwrap_or_else(|| open_url.clone());
    let config = args.http.config(&public_url);

    let pages = PageService::new(repository.clone())
        .with_header_footer(database.header_footer_store())
        .with_clock(Arc::new(vitrine_http::SystemClock));
    let pages = Arc::new(match delivery.captcha_settings() {
        Some(captcha) => pages.with_captcha(captcha),
        None => pages,
    });
    let profile = pages
        .profile()
        .await
        .context("could not read the site's settings")?;
    let title = profile.settings.site_title.clone();
    let form_ports = crate::shared_state::form_ports(&args.shared).await?;
    // Failed payments are counted where the request limits are (Redis when servers share
    // one), so a card-testing script cannot spread its attempts over the servers.
    let card_testing = vitrine_core::checkout::CardTestingGuard::new(
        form_ports.limiter.clone(),
        vitrine_core::checkout::FailedPaymentLimits::default(),
    );
    let renewals = crate::billing_cli::configured_renewals(
        &database,
        &args.payments,
        &args.billing.renewals,
        &public_url,
        &order_links,
    )?;
    let carts = cart_service(&database, repository.clone(), &profile.settings)
        .with_hold_seconds(args.checkout_hold_seconds)
        .with_order_mails(delivery.order_mails())
        .with_card_testing(card_testing.clone());
    // Gift cards reach their recipients and donors get their receipts only from a server
    // that can send mail, as the order confirmation does.
    let sends_mail = delivery.order_mails().confirmation;
    let carts = if sends_mail {
        carts.with_gift_card_mails(vitrine_core::forms::SiteLinks::new(&public_url))
    } else {
        carts
    };
    let carts = match &renewals {
        Some(renewals) => carts.with_renewals(renewals.clone()),
        None => carts,
    };
    let carts = Arc::new(crate::payments::apply(carts, payments));
    let app_renewals = renewals.clone().map(Arc::new);
    // Donations pay through the carts' gateway, so one payment configuration serves both.
    let donations = vitrine_core::checkout::DonationService::new(
        repository.clone(),
        database.contribution_store(),
        carts.payments().clone(),
    )
    .with_card_testing(card_testing);
    let donations = Arc::new(if sends_mail {
        donations.with_receipts()
    } else {
        donations
    });
    let plugins = crate::plugins::load(&args, repository.clone()).await?;
    // Request rate limits count where the form limits do: in Redis when servers share one.
    let request_limiter = form_ports.limiter.clone();
    // Page views are buffered in memory and written in batches by a background task.
    let census = Arc::new(vitrine_http::CensusLog::default());
    let analytics = database.analytics_store();
    let flusher = tokio::spawn(crate::census::flush_forever(
        census.clone(),
        analytics.clone(),
    ));
    let owners = Arc::new(crate::owner_cli::owner_service(
        &database,
        request_limiter.clone(),
    ));
    let has_owner = !owners
        .list()
        .await
        .context("could not read the owner accounts")?
        .is_empty();
    // Orders whose payer left the provider's fields unpaid give their stock back, and such
    // donations end.
    let abandoned_payments =
        crate::abandoned_payments::spawn_cleanup(carts.clone(), donations.clone());
    let app = crate::ad_pixel::apply(
        AppState::new(pages, repository.clone(), assets, config)
            .with_census(census.clone())
            .with_request_limiter(request_limiter.clone())
            .with_owners(owners)
            .with_people(Arc::new(people_service(
                &database,
                &public_url,
                request_limiter,
            )))
            .with_analytics_store(analytics.clone())
            .with_consent_receipts(database.consent_receipt_store(), owner_token)
            .with_block_renderer(plugins)
            .with_image_variants(Arc::new(vitrine_http::ImageVariants::new(
                Some(crate::media_cli::disk_cache(&args.database.data_dir)?),
                vitrine_http::DEFAULT_MEMORY_BYTES,
                vitrine_http::default_image_workers(),
                vitrine_http::DEFAULT_IMAGE_QUEUE,
            )))
            .with_order_aftercare(Arc::new(
                vitrine_core::checkout::OrderAftercareService::new(
                    database.order_aftercare_store(),
                    carts.payments().clone(),
                    vitrine_core::forms::SiteLinks::new(&public_url)
                        .with_order_link_key(order_links.clone()),
                ),
            ))
            .with_carts(carts)
            .with_donations(donations)
            .with_reviews(Arc::new(vitrine_core::reviews::ReviewService::new(
                database.review_store(),
            )))
            .with_forms(Arc::new(
                delivery.apply(form_service(&database, repository, form_ports)),
            ))
            .with_newsletter(Arc::new(delivery.newsletter(&database)))
            .with_order_link_key(order_links.clone()),
    )?;
    let app = match app_renewals {
        Some(renewals) => app.with_renewals(renewals),
        None => app,
    };
    let app = match payment_reports {
        Some(reports) => app.with_payment_reports(reports),
        None => app,
    };
    let app = crate::geocoder::apply(app, args.geocoder_url.as_deref())?;
    let app = vitrine_http::router(crate::map_tiles::apply(
        app,
        args.tile_url.as_deref(),
        args.tile_attribution.as_deref(),
        &args.database.data_dir,
    )?);
    // Submissions are delivered in the background from the durable outbox; a restart picks
    // up whatever is still there.
    let renewals = crate::billing_cli::serve_scheduler(renewals, &args.billing);
    let deliveries = delivery.spawn_worker(&database, &public_url, order_links);

    tracing::info!(address = %local, public_url, "listening");
    say(&format!("Vitrine is serving {title} at {open_url}"));
    if !has_owner {
        // The first account comes from the command line, never from an open web form.
        say(&format!(
            "No owner account yet: create one with `vitrine owner add EMAIL --role admin`, \
             then sign in at {open_url}/config/"
        ));
    }
    let threads = crate::http_workers::thread_count(args.http_threads);
    let http_threads = crate::http_workers::serve(listener, app, threads, shutdown_signal())
        .await
        .context("the server stopped unexpectedly")?;
    flusher.abort();
    if let Some(renewals) = renewals {
        renewals.abort();
    }
    if let Some(cleanup) = abandoned_payments {
        cleanup.abort();
    }
    deliveries.stop();
    crate::census::flush(&census, analytics.as_ref(), i64::MAX).await;
    database.close().await;
    http_threads.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Tells the person who started the server `line` on standard output. Whoever started it may
/// have stopped reading (a supervisor, or a script that waited only for the address), so a
/// closed output is ignored where `println!` would panic and stop the server.
fn say(line: &str) {
    let _ = writeln!(std::io::stdout(), "{line}");
}

/// Binding errors people can act on, each with what to do next.
fn bind_error(error: std::io::Error, addr: SocketAddr) -> anyhow::Error {
    let advice = match error.kind() {
        ErrorKind::AddrInUse => format!(
            "the address {addr} is already in use (is Vitrine already running?); \
             choose another with --addr or VITRINE_ADDR"
        ),
        ErrorKind::PermissionDenied => format!(
            "not allowed to listen on {addr}; ports below 1024 need special rights, so choose \
             another with --addr or VITRINE_ADDR"
        ),
        ErrorKind::AddrNotAvailable => format!(
            "{} is not an address of this machine; choose another with --addr or VITRINE_ADDR",
            addr.ip()
        ),
        _ => format!("could not listen on {addr}; choose another with --addr or VITRINE_ADDR"),
    };
    anyhow::Error::new(error).context(advice)
}

/// The address to open in a browser: a wildcard listen address is reachable as localhost.
fn browsable(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), addr.port())
        }
        _ => addr,
    }
}

/// Resolves on Ctrl-C or SIGTERM; requests in flight then finish before the server stops.
/// Site-user accounts and sessions in the database, their mails in the delivery outbox, and
/// their attempt limits counted where the request limits are (Redis when servers share one).
fn people_service(
    database: &vitrine_sql::Database,
    public_url: &str,
    limiter: Arc<dyn vitrine_core::forms::RateLimiter>,
) -> vitrine_core::people::PeopleService {
    use vitrine_core::people::{PasswordCost, PasswordHasher, PeopleLimits, PeoplePorts};
    let hasher =
        PasswordHasher::new(PasswordCost::OWASP).expect("OWASP's argon2id parameters are valid");
    vitrine_core::people::PeopleService::new(
        PeoplePorts {
            store: database.people_store(),
            outbox: database.delivery_outbox(),
            limiter,
            secrets: Arc::new(vitrine_http::site_users::OsSecrets),
            passwords: Arc::new(vitrine_http::site_users::BlockingPasswords(Arc::new(
                hasher,
            ))),
            records: vitrine_core::people::PersonalRecords {
                orders: database.commerce_store(),
                newsletters: database.newsletter_subscriptions(),
                contributions: database.contribution_store(),
            },
        },
        vitrine_core::forms::SiteLinks::new(public_url),
        PeopleLimits::default(),
    )
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down; finishing requests in flight");
}

/// The shortest owner token accepted: 32 bytes, 256 bits when they are random, beyond any
/// guessing even without the throttle on failed attempts.
const MIN_OWNER_TOKEN_BYTES: usize = 32;

/// The owner's token for the owner-only endpoints (`VITRINE_OWNER_TOKEN`); without it those
/// endpoints do not exist. Site accounts replace it in a later issue.
fn owner_export_token() -> anyhow::Result<Option<String>> {
    owner_token_from(std::env::var("VITRINE_OWNER_TOKEN").ok())
}

/// Refuses a token too short to resist guessing, saying how to make a good one.
fn owner_token_from(value: Option<String>) -> anyhow::Result<Option<String>> {
    let Some(token) = value.filter(|token| !token.trim().is_empty()) else {
        return Ok(None);
    };
    if token.len() < MIN_OWNER_TOKEN_BYTES {
        anyhow::bail!(
            "VITRINE_OWNER_TOKEN is {} bytes long; it must be at least {MIN_OWNER_TOKEN_BYTES} \
             bytes, since it opens the owner's exports to anyone who guesses it. Make one with \
             `openssl rand -hex 32`",
            token.len()
        );
    }
    Ok(Some(token))
}

/// Carts, stock and orders go to the site's database, priced by the store rules of the site's
/// bundle (shipping options, tax rules, coupons, minimum subtotal) in its store currency, as
/// they were when the server started (an import of another site takes effect at the next
/// start).
fn cart_service(
    database: &vitrine_sql::Database,
    repository: Arc<dyn vitrine_core::ports::SiteRepository>,
    settings: &vitrine_core::site::WebsiteSettings,
) -> vitrine_core::checkout::CartService {
    let rules = settings
        .store_rules
        .in_currency(settings.store.selected_currency);
    vitrine_core::checkout::CartService::new(repository, database.commerce_store(), rules)
        .with_gift_card_codes(Arc::new(vitrine_http::RandomGiftCardCodes))
}

/// Form submissions go to the site's database, concurrent ones group-committed; keys and rate
/// limits live where `--redis-url` says (this process by default).
fn form_service(
    database: &vitrine_sql::Database,
    repository: Arc<dyn vitrine_core::ports::SiteRepository>,
    ports: crate::shared_state::FormPorts,
) -> vitrine_core::forms::FormService {
    vitrine_core::forms::FormService::new(
        repository,
        ports.keys,
        database.form_store(),
        ports.limiter,
    )
    .with_limits(ports.limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_addresses_are_opened_on_localhost() {
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert_eq!(browsable(any).to_string(), "127.0.0.1:8080");
        let any_v6: SocketAddr = "[::]:8080".parse().unwrap();
        assert_eq!(browsable(any_v6).to_string(), "[::1]:8080");
        let specific: SocketAddr = "192.0.2.7:80".parse().unwrap();
        assert_eq!(browsable(specific), specific);
    }

    #[test]
    fn an_owner_token_shorter_than_32_bytes_is_refused_with_advice() {
        let short = owner_token_from(Some("e2e-owner-token".to_owned())).unwrap_err();
        let message = format!("{short:#}");
        assert!(message.contains("at least 32 bytes"), "{message}");
        assert!(message.contains("openssl rand -hex 32"), "{message}");
        let long = "0123456789abcdef0123456789abcdef".to_owned();
        assert_eq!(owner_token_from(Some(long.clone())).unwrap(), Some(long));
        assert_eq!(owner_token_from(None).unwrap(), None);
        assert_eq!(owner_token_from(Some("  ".to_owned())).unwrap(), None);
    }

    #[test]
    fn an_address_in_use_says_how_to_choose_another() {
        let error = bind_error(
            std::io::Error::from(ErrorKind::AddrInUse),
            "127.0.0.1:8080".parse().unwrap(),
        );
        let message = format!("{error:#}");
        assert!(
            message.contains("127.0.0.1:8080 is already in use"),
            "{message}"
        );
        assert!(message.contains("--addr or VITRINE_ADDR"), "{message}");
    }
}
