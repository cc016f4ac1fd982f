//! The conformance suite every [`MultilingualStore`] must pass: the in-memory one, SQLite and
//! PostgreSQL run the same assertions through [`multilingual_store_conformance!`].

use super::{LanguageTag, MultilingualChoice, MultilingualStore};

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store (it may
/// use `.await`, and may `return` to skip when its database is not configured).
#[macro_export]
macro_rules! multilingual_store_conformance {
    ($make:expr) => {
        $crate::multilingual_store_conformance!(@tests $make;
            a_fresh_store_has_no_choice,
            a_choice_reads_back_whole,
            a_new_choice_replaces_the_last,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let store = $make;
                $crate::languages::conformance::$name(&store).await;
            }
        )*
    };
}

/// A choice publishing `tags`.
pub fn choice(tags: &[&str], provider_disconnected: bool) -> MultilingualChoice {
    MultilingualChoice {
        published: Some(
            tags.iter()
                .map(|tag| LanguageTag::parse(tag).expect("fixture tags are valid"))
                .collect(),
        ),
        provider_disconnected,
    }
}

pub async fn a_fresh_store_has_no_choice(store: &dyn MultilingualStore) {
    assert_eq!(store.choice().await.unwrap(), None);
}

pub async fn a_choice_reads_back_whole(store: &dyn MultilingualStore) {
    let chosen = choice(&["fr-FR", "de-DE", "pt-BR"], true);
    store.save_choice(&chosen).await.unwrap();
    assert_eq!(store.choice().await.unwrap(), Some(chosen));
}

pub async fn a_new_choice_replaces_the_last(store: &dyn MultilingualStore) {
    store.save_choice(&choice(&["fr-FR"], false)).await.unwrap();
    store.save_choice(&choice(&[], true)).await.unwrap();
    store
        .save_choice(&MultilingualChoice::default())
        .await
        .unwrap();
    assert_eq!(
        store.choice().await.unwrap(),
        Some(MultilingualChoice::default())
    );
}
