//! Database URLs: the default embedded database's URL, and the form of a URL that is safe to
//! print (password hidden).

use std::path::Path;

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// The file name of the embedded database inside the data directory.
pub const SQLITE_FILE_NAME: &str = "vitrine.db";

/// What replaces a password in URLs shown to people.
const HIDDEN: &str = "***";

/// sqlx percent-decodes the path of a `sqlite://` URL and cuts it at `?`, so these characters
/// must be escaped for a file name that contains them to survive the round trip.
const SQLITE_PATH: &AsciiSet = &CONTROLS.add(b'%').add(b'?').add(b'#');

/// The URL of the default embedded database, `vitrine.db` in `data_dir`.
///
/// [`connect`](crate::connect) creates the directory when it does not exist yet, and reports
/// when it cannot.
pub fn sqlite_url_for_data_dir(data_dir: &Path) -> String {
    let file = data_dir.join(SQLITE_FILE_NAME);
    let path = file.to_string_lossy();
    format!("sqlite://{}", utf8_percent_encode(&path, SQLITE_PATH))
}

/// `url` with any password (in the user-info part or a `password=` parameter) replaced by
/// `***`, for error messages and logs.
pub fn hide_password(url: &str) -> String {
    let (before_fragment, fragment) = match url.find('#') {
        Some(at) => url.split_at(at),
        None => (url, ""),
    };
    let (base, query) = match before_fragment.find('?') {
        Some(at) => (&before_fragment[..at], Some(&before_fragment[at + 1..])),
        None => (before_fragment, None),
    };
    let mut shown = hide_user_info_password(base);
    if let Some(query) = query {
        shown.push('?');
        shown.push_str(&hide_password_parameter(query));
    }
    shown.push_str(fragment);
    shown
}

/// Hides what follows the first `:` of the user info. The last `@` ends the user info, since
/// an unescaped `@` or `/` may appear in a password; hiding too much is the safe mistake.
fn hide_user_info_password(base: &str) -> String {
    let Some(scheme_end) = base.find("://") else {
        return base.to_owned();
    };
    // SQLite URLs name a file, never a user, and a path may contain ':' and '@'.
    if base[..scheme_end].eq_ignore_ascii_case("sqlite") {
        return base.to_owned();
    }
    let rest_start = scheme_end + 3;
    let rest = &base[rest_start..];
    let Some(at) = rest.rfind('@') else {
        return base.to_owned();
    };
    let Some(colon) = rest[..at].find(':') else {
        return base.to_owned();
    };
    format!(
        "{}{}{HIDDEN}{}",
        &base[..rest_start],
        &rest[..=colon],
        &rest[at..]
    )
}

fn hide_password_parameter(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}={HIDDEN}"),
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hidden_wherever_a_url_carries_them() {
        let cases = [
            (
                "postgres://postgres:secret@127.0.0.1:5432/test",
                "postgres://postgres:***@127.0.0.1:5432/test",
            ),
            (
                "postgresql://u:p@ss/w@db.example/shop?sslmode=require",
                "postgresql://u:***@db.example/shop?sslmode=require",
            ),
            (
                "postgres://db.example/shop?user=u&password=secret&sslmode=require",
                "postgres://db.example/shop?user=u&password=***&sslmode=require",
            ),
            (
                "postgres://postgres@127.0.0.1:5432/test",
                "postgres://postgres@127.0.0.1:5432/test",
            ),
            (
                "sqlite://data/a:b@c.db?mode=rwc",
                "sqlite://data/a:b@c.db?mode=rwc",
            ),
            (
                "mysql://root:hunter2@localhost/x",
                "mysql://root:***@localhost/x",
            ),
        ];
        for (url, shown) in cases {
            assert_eq!(hide_password(url), shown, "for {url}");
        }
    }

    #[test]
    fn the_default_database_lives_in_the_data_directory() {
        let url = sqlite_url_for_data_dir(Path::new("/srv/vitrine data"));
        assert_eq!(url, "sqlite:///srv/vitrine data/vitrine.db");
    }

    #[test]
    fn characters_sqlx_would_misread_are_escaped() {
        let url = sqlite_url_for_data_dir(Path::new("/srv/100%?#"));
        assert_eq!(url, "sqlite:///srv/100%25%3F%23/vitrine.db");
    }
}
