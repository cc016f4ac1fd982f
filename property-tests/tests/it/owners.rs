//! The owner area's rules over every combination: the redirect to `/config/` of 000 s2 and
//! its exceptions against a reference model written from the spec's sentence, and owner
//! access (sessions, API keys, the environment token) against the permission codes of each
//! role.

use proptest::prelude::*;
use vitrine_core::enums::{ContributorRole, PermissionCode};
use vitrine_core::owners::{
    OwnerAccess, RedirectFacts, is_localhost, redirects_to_config, role_permits,
};

fn role() -> impl Strategy<Value = ContributorRole> {
    proptest::sample::select(ContributorRole::ALL)
}

fn permission() -> impl Strategy<Value = PermissionCode> {
    proptest::sample::select(PermissionCode::ALL)
}

fn facts() -> impl Strategy<Value = RedirectFacts> {
    (proptest::option::of(role()), any::<[bool; 5]>()).prop_map(
        |(role, [localhost, noredirect, developer_mode, cloneable, in_frame])| RedirectFacts {
            role,
            localhost,
            noredirect,
            developer_mode,
            cloneable,
            in_frame,
        },
    )
}

/// 000 s2 read literally: signed-in owners opening a live page outside the editor are
/// redirected, except on localhost, with noredirect, for developer-mode or cloneable sites,
/// for users holding only the viewer role, and inside a frame. "Owners" are the accounts that
/// may open the configuration area at all.
fn reference(facts: &RedirectFacts) -> bool {
    let Some(role) = facts.role else {
        return false;
    };
    let opens_config = role_permits(role, PermissionCode::Config);
    let viewer_only = role == ContributorRole::Viewer;
    opens_config
        && !viewer_only
        && !facts.localhost
        && !facts.noredirect
        && !facts.developer_mode
        && !facts.cloneable
        && !facts.in_frame
}

proptest! {
    #[test]
    fn the_redirect_agrees_with_the_spec_sentence(facts in facts()) {
        prop_assert_eq!(redirects_to_config(facts), reference(&facts));
    }

    #[test]
    fn an_exception_never_turns_a_redirect_on(facts in facts(), which in 0usize..5) {
        let mut excepted = facts;
        match which {
            0 => excepted.localhost = true,
            1 => excepted.noredirect = true,
            2 => excepted.developer_mode = true,
            3 => excepted.cloneable = true,
            _ => excepted.in_frame = true,
        }
        prop_assert!(!redirects_to_config(excepted));
    }

    #[test]
    fn a_key_permits_exactly_its_scopes_within_its_role(
        role in role(),
        scopes in proptest::collection::vec(permission(), 0..6),
        asked in permission(),
    ) {
        let key = OwnerAccess::Key { role, scopes: scopes.clone() };
        let session = OwnerAccess::Session(role);
        prop_assert_eq!(key.permits(asked), scopes.contains(&asked) && role_permits(role, asked));
        prop_assert_eq!(session.permits(asked), role_permits(role, asked));
        // A key never does more than a session of its owner.
        prop_assert!(!key.permits(asked) || session.permits(asked));
        prop_assert!(OwnerAccess::EnvironmentToken.permits(asked));
    }

    #[test]
    fn only_admins_hold_the_admin_permission_and_every_holder_opens_config(
        role in role(),
        asked in permission(),
    ) {
        if role_permits(role, PermissionCode::Admin) {
            prop_assert_eq!(role, ContributorRole::Admin);
        }
        if role_permits(role, asked) {
            prop_assert!(role_permits(role, PermissionCode::Config));
        }
    }

    #[test]
    fn localhost_is_told_from_other_hosts_whatever_the_port(
        port in proptest::option::of(1u16..),
        name in "[a-z]{1,12}",
    ) {
        let with_port = |host: &str| match port {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        prop_assert!(is_localhost(&with_port("localhost")));
        prop_assert!(is_localhost(&with_port("127.0.0.1")));
        prop_assert!(is_localhost(&with_port(&[name.as_str(), ".localhost"].concat())));
        prop_assert!(!is_localhost(&with_port(&[name.as_str(), ".example"].concat())));
        prop_assert!(!is_localhost(&with_port(&["localhost.", name.as_str(), ".example"].concat())));
    }
}
