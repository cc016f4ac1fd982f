//! The conformance suite every [`HeaderFooterStore`] must pass: the in-memory one, SQLite and
//! PostgreSQL run the same assertions through [`header_footer_store_conformance!`].

use super::{HeaderFooter, HeaderFooterStore};

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! header_footer_store_conformance {
    ($make:expr) => {
        $crate::header_footer_store_conformance!(@tests $make;
            a_fresh_store_has_none,
            what_is_stored_reads_back_whole,
            a_replacement_replaces,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::header_footer::conformance::$name(&store).await;
            }
        )*
    };
}

/// A header and footer with markup of several kinds, numbered by `n`.
pub fn fixture(n: u32) -> HeaderFooter {
    HeaderFooter::new(
        &format!(
            r#"<p class="announcement">Free shipping over ${n}0 — <a href="/shop">shop now</a></p>"#
        ),
        &format!("<p>© 2026 Vitrine & co, edition {n}</p><ul><li>Café «crème»</li></ul>"),
    )
    .expect("fixtures are within the limits")
}

pub async fn a_fresh_store_has_none(store: &dyn HeaderFooterStore) {
    assert_eq!(store.header_footer().await.unwrap(), None);
}

pub async fn what_is_stored_reads_back_whole(store: &dyn HeaderFooterStore) {
    let chosen = fixture(1);
    store.replace_header_footer(&chosen).await.unwrap();
    assert_eq!(store.header_footer().await.unwrap(), Some(chosen));
}

pub async fn a_replacement_replaces(store: &dyn HeaderFooterStore) {
    store.replace_header_footer(&fixture(1)).await.unwrap();
    store.replace_header_footer(&fixture(2)).await.unwrap();
    store
        .replace_header_footer(&HeaderFooter::default())
        .await
        .unwrap();
    assert_eq!(
        store.header_footer().await.unwrap(),
        Some(HeaderFooter::default())
    );
}
