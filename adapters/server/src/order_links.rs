//! The key order links are signed with (the links in order mails that open an order's page):
//! `--order-link-key` / `VITRINE_ORDER_LINK_KEY` when given, which servers sharing a database
//! must share; otherwise a key made at random on the first start and kept in the data
//! directory's `order-link-key`, so links keep working across restarts.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use vitrine_core::checkout::OrderLinkKey;

/// The file in the data directory that keeps a key made at random.
const KEY_FILE: &str = "order-link-key";

/// Reads the command line's key, for clap.
pub fn parse_key(text: &str) -> Result<OrderLinkKey, String> {
    OrderLinkKey::from_hex(text).map_err(|error| error.to_string())
}

/// The given key, or the one kept in `data_dir` (made and written there when missing).
pub fn key(given: Option<&OrderLinkKey>, data_dir: &Path) -> anyhow::Result<OrderLinkKey> {
    if let Some(key) = given {
        return Ok(key.clone());
    }
    let path = data_dir.join(KEY_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => OrderLinkKey::from_hex(&text).with_context(|| {
            format!(
                "{} does not hold an order link key; delete it to make a new one (links in \
                 mails already sent stop working) or set VITRINE_ORDER_LINK_KEY",
                path.display()
            )
        }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            let key = vitrine_http::random_order_link_key();
            write_new(&path, &key)?;
            tracing::info!(path = %path.display(), "made a new order link key");
            Ok(key)
        }
        Err(error) => Err(error).with_context(|| format!("could not read {}", path.display())),
    }
}

/// Writes a new key file, readable by this user only.
fn write_new(path: &Path, key: &OrderLinkKey) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("could not create {}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("could not create {}", path.display()))?;
    writeln!(file, "{}", key.to_hex())
        .with_context(|| format!("could not write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_made_once_is_kept_in_the_data_directory() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let first = key(None, &data).unwrap();
        assert_eq!(
            key(None, &data).unwrap(),
            first,
            "the same key after a restart"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(data.join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let given = OrderLinkKey::new([3; 32]);
        assert_eq!(key(Some(&given), &data).unwrap(), given);
    }

    #[test]
    fn a_damaged_key_file_is_refused_with_advice() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(KEY_FILE), "not a key").unwrap();
        let message = format!("{:#}", key(None, dir.path()).unwrap_err());
        assert!(message.contains("VITRINE_ORDER_LINK_KEY"), "{message}");
        assert!(parse_key("abc").unwrap_err().contains("64 hex digits"));
    }
}
