//! `vitrine owner add|list|remove|reset|totp`: the owner and contributor accounts of the
//! owner area, managed from the command line so that the first account never comes from an
//! open web form. An account added without `--password-stdin` gets a one-time setup link.

use std::io::Read;
use std::sync::Arc;

use anyhow::{Context, bail};
use vitrine_core::enums::ContributorRole;
use vitrine_core::owners::{OwnerLimits, OwnerPorts, OwnerService, role_permissions};
use vitrine_core::people::{BearerToken, PasswordCost, PasswordHasher};

use crate::cli::{OwnerCommand, OwnerTarget};
use crate::database;

/// The owner service over the database's owner store, the OS's randomness and argon2id at
/// OWASP's cost on blocking threads.
pub fn owner_service(
    database: &vitrine_sql::Database,
    limiter: Arc<dyn vitrine_core::forms::RateLimiter>,
) -> OwnerService {
    let hasher =
        PasswordHasher::new(PasswordCost::OWASP).expect("OWASP's argon2id parameters are valid");
    OwnerService::new(
        OwnerPorts {
            store: database.owner_store(),
            limiter,
            secrets: Arc::new(vitrine_http::site_users::OsSecrets),
            passwords: Arc::new(vitrine_http::site_users::BlockingPasswords(Arc::new(
                hasher,
            ))),
        },
        OwnerLimits::default(),
    )
}

/// A role as typed: its name in the specification's words, with `-` or `_` for spaces
/// (`store-manager`), or its code.
pub fn parse_role(text: &str) -> Result<ContributorRole, String> {
    let wanted = text.trim().to_lowercase().replace(['-', '_'], " ");
    if let Ok(code) = wanted.parse::<u16>() {
        return ContributorRole::from_code(code).map_err(|error| error.to_string());
    }
    ContributorRole::ALL
        .iter()
        .copied()
        .find(|role| role.spec_name() == wanted)
        .ok_or_else(|| {
            let names: Vec<String> = ContributorRole::ALL
                .iter()
                .map(|role| role.spec_name().replace(' ', "-"))
                .collect();
            format!("unknown role {text:?}; one of: {}", names.join(", "))
        })
}

fn setup_url(base: &str, token: &BearerToken) -> String {
    format!(
        "{}/config/setup?token={}",
        base.trim_end_matches('/'),
        token.as_str()
    )
}

fn read_password() -> anyhow::Result<String> {
    let mut password = String::new();
    std::io::stdin()
        .read_to_string(&mut password)
        .context("could not read the password from standard input")?;
    Ok(password.trim_end_matches(['\r', '\n']).to_owned())
}

fn now() -> vitrine_core::cart::Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    vitrine_core::cart::Timestamp(i64::try_from(millis).unwrap_or(i64::MAX))
}

pub async fn run(command: OwnerCommand) -> anyhow::Result<()> {
    let target = command.target().clone();
    let database = database::open(&target.database).await?;
    let owners = owner_service(
        &database,
        Arc::new(vitrine_core::forms::memory::MemoryRateLimiter::new()),
    );
    let outcome = execute(&owners, command, &target).await;
    database.close().await;
    outcome
}

async fn execute(
    owners: &OwnerService,
    command: OwnerCommand,
    target: &OwnerTarget,
) -> anyhow::Result<()> {
    match command {
        OwnerCommand::Add(args) => {
            let password = if args.password_stdin {
                Some(read_password()?)
            } else {
                None
            };
            let (owner, link) = owners
                .add(&args.email, args.role, password.as_deref(), now())
                .await?;
            println!("Added {} as {}.", owner.email, owner.role);
            match link {
                Some(token) => println!(
                    "Send them this one-time link to choose a password (valid for 24 hours):\n{}",
                    setup_url(&target.public_url, &token)
                ),
                None => println!(
                    "They can sign in at {}/config/ now.",
                    target.public_url.trim_end_matches('/')
                ),
            }
        }
        OwnerCommand::List(_) => {
            let all = owners.list().await?;
            if all.is_empty() {
                println!(
                    "No owner accounts yet. Add one with `vitrine owner add EMAIL --role admin`."
                );
            }
            for owner in all {
                let permissions: Vec<&str> = role_permissions(owner.role)
                    .iter()
                    .map(|permission| permission.spec_name())
                    .collect();
                let state = match (&owner.password_hash, &owner.totp) {
                    (None, _) => "setup pending",
                    (Some(_), Some(_)) => "two-factor",
                    (Some(_), None) => "password",
                };
                println!(
                    "{}\t{}\t{}\t{}",
                    owner.email,
                    owner.role.spec_name(),
                    permissions.join(", "),
                    state
                );
            }
        }
        OwnerCommand::Remove(args) => {
            let owner = owners.remove(&args.email).await?;
            println!(
                "Removed {}; their sessions and API keys no longer work.",
                owner.email
            );
        }
        OwnerCommand::Reset(args) => {
            let token = owners.reset(&args.email, now()).await?;
            println!(
                "Signed {} out everywhere and cleared their password and second factor.\n\
                 Send them this one-time link to choose a new password (valid for 24 hours):\n{}",
                args.email.trim(),
                setup_url(&target.public_url, &token)
            );
        }
        OwnerCommand::Totp(args) => {
            let (owner, secret) = owners.enable_totp(&args.email).await?;
            let issuer = host_of(&target.public_url)?;
            println!(
                "Two-factor sign-in is on for {}. Add this to an authenticator app:\n{}\n\
                 or type the key {}",
                owner.email,
                secret.otpauth_uri(&issuer, &owner.email),
                secret.base32()
            );
        }
    }
    Ok(())
}

fn host_of(url: &str) -> anyhow::Result<String> {
    let rest = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .split('/')
        .next()
        .unwrap_or_default();
    // The port is left out: an authenticator shows the issuer, and a colon would end it.
    let rest = rest.rsplit_once(':').map_or(rest, |(host, _)| host);
    if rest.is_empty() {
        bail!("the public URL {url:?} has no host");
    }
    Ok(format!("Vitrine {rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_typed_by_name_with_dashes_or_by_code() {
        assert_eq!(parse_role("admin"), Ok(ContributorRole::Admin));
        assert_eq!(
            parse_role("Store-Manager"),
            Ok(ContributorRole::StoreManager)
        );
        assert_eq!(parse_role("10"), Ok(ContributorRole::Viewer));
        let unknown = parse_role("owner").unwrap_err();
        assert!(unknown.contains("store-manager"), "{unknown}");
    }
}
