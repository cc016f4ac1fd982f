//! Who may see what: the one gating check, [`gate`]. Password-protected and members-only
//! collections answer a lock page instead of their content to a viewer who may not see them,
//! and so do their items and the media files only such content uses.
//!
//! A members-only collection is open to every signed-in site user (a member area is free with
//! an account). Page passwords do not exist yet, so nobody gets past a password lock: a
//! password-protected collection shows the lock-screen page (page type 103) to everyone.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::enums::PageType;
use crate::pages::Viewer;
use crate::site::{MEDIA_PREFIX, PermissionType};

/// The heading of the lock-screen page (000 s6, 001 s6).
pub const LOCKED_HEADING: &str = "This page is locked";
/// The heading of the member-area access-denied page (000 s6, 001 s6).
pub const MEMBERS_ONLY_HEADING: &str = "This page available only site members";

/// What [`gate`] decides for a viewer and a piece of content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Allowed,
    /// The lock screen with its password form (page type 103).
    LockScreen,
    /// Members-only content for a viewer without a site-user account (page type 106).
    MemberAccessDenied,
}

impl Access {
    /// The page shown instead of the content; none when it is allowed.
    pub fn page_type(self) -> Option<PageType> {
        match self {
            Self::Allowed => None,
            Self::LockScreen => Some(PageType::LockScreen),
            Self::MemberAccessDenied => Some(PageType::MemberAreaAccessDenied),
        }
    }

    pub fn is_allowed(self) -> bool {
        self == Self::Allowed
    }
}

/// The one gating check: may `viewer` see content of `permission` (a collection's, and so its
/// items' and the media only they show)? Every path that shows content asks it.
pub fn gate(permission: PermissionType, viewer: &Viewer) -> Access {
    match permission {
        PermissionType::Public => Access::Allowed,
        PermissionType::MembersOnly if viewer.account_id.is_some() => Access::Allowed,
        PermissionType::MembersOnly => Access::MemberAccessDenied,
        PermissionType::PasswordProtected => Access::LockScreen,
    }
}

/// The media files that only locked content refers to, each with the permission its content
/// asks for. A file that public content (a public page or item, the site's settings or its
/// navigation) also shows stays public: everyone can see it already.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockedMedia {
    files: BTreeMap<String, PermissionType>,
}

impl LockedMedia {
    /// Sorts each piece of content's media references by the content's permission.
    pub fn new(content: impl IntoIterator<Item = (PermissionType, serde_json::Value)>) -> Self {
        let mut public = BTreeSet::new();
        let mut files: BTreeMap<String, PermissionType> = BTreeMap::new();
        for (permission, value) in content {
            let paths = media_paths(&value);
            if permission == PermissionType::Public {
                public.extend(paths);
                continue;
            }
            for path in paths {
                let stricter = files
                    .get(&path)
                    .is_none_or(|known| strictness(permission) > strictness(*known));
                if stricter {
                    files.insert(path, permission);
                }
            }
        }
        files.retain(|path, _| !public.contains(path));
        Self { files }
    }

    /// The permission the file at `path` asks for; none when anyone may see it.
    pub fn permission(&self, path: &str) -> Option<PermissionType> {
        self.files.get(path).copied()
    }
}

/// Members-only is stricter than a password: a password can be shared, membership cannot.
fn strictness(permission: PermissionType) -> u8 {
    match permission {
        PermissionType::Public => 0,
        PermissionType::PasswordProtected => 1,
        PermissionType::MembersOnly => 2,
    }
}

/// Serialises `content` for [`LockedMedia::new`]. Content that cannot be serialised (it always
/// can: the site model is plain data) refers to no media.
pub fn content_value(content: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(content).unwrap_or_default()
}

/// Every site media path (`/media/...`) a string of `value` names: image references, links to
/// files, `src` attributes in rich text and plugin data alike, so no kind of reference is
/// missed. An absolute URL on another host that happens to hold `/media/` is not one.
fn media_paths(value: &serde_json::Value) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            serde_json::Value::String(text) => paths.extend(paths_in(text)),
            serde_json::Value::Array(values) => pending.extend(values),
            serde_json::Value::Object(map) => pending.extend(map.values()),
            _ => {}
        }
    }
    paths
}

fn paths_in(text: &str) -> impl Iterator<Item = String> + '_ {
    text.match_indices(MEDIA_PREFIX).filter_map(|(at, _)| {
        let before = text[..at].chars().next_back();
        let inside_url = before.is_some_and(|c| c.is_alphanumeric() || "._-/:".contains(c));
        if inside_url {
            return None;
        }
        let rest = &text[at..];
        let end = rest
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || "._-/%".contains(*c)))
            .map_or(rest.len(), |(end, _)| end);
        Some(rest[..end].to_owned())
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn members_only_content_opens_to_site_users_and_passwords_to_nobody_yet() {
        let anonymous = Viewer::default();
        let member = Viewer {
            account_id: Some("0123456789abcdef0123456789abcdef".into()),
            ..Viewer::default()
        };
        let cases = [
            (PermissionType::Public, &anonymous, Access::Allowed),
            (PermissionType::Public, &member, Access::Allowed),
            (
                PermissionType::MembersOnly,
                &anonymous,
                Access::MemberAccessDenied,
            ),
            (PermissionType::MembersOnly, &member, Access::Allowed),
            (
                PermissionType::PasswordProtected,
                &anonymous,
                Access::LockScreen,
            ),
            (
                PermissionType::PasswordProtected,
                &member,
                Access::LockScreen,
            ),
        ];
        for (permission, viewer, expected) in cases {
            assert_eq!(
                gate(permission, viewer),
                expected,
                "{permission:?} {viewer:?}"
            );
        }
        assert_eq!(Access::LockScreen.page_type(), Some(PageType::LockScreen));
        assert_eq!(
            Access::MemberAccessDenied.page_type(),
            Some(PageType::MemberAreaAccessDenied)
        );
    }

    #[test]
    fn media_paths_are_found_in_any_string_and_not_inside_other_urls() {
        let value = json!({
            "image": {"path": "/media/a.png"},
            "html": "<p><img src=\"/media/b-1.webp\"> and <a href='/media/c_d.pdf?x=1'>c</a></p>",
            "blocks": [{"href": "https://cdn.example/media/e.png"}, "/media/f.svg#top"],
        });
        let paths: Vec<String> = media_paths(&value).into_iter().collect();
        assert_eq!(
            paths,
            [
                "/media/a.png",
                "/media/b-1.webp",
                "/media/c_d.pdf",
                "/media/f.svg"
            ]
        );
    }

    #[test]
    fn only_files_that_no_public_content_shows_are_locked_at_their_strictest_permission() {
        let public = json!({"image": "/media/shared.png"});
        let password = json!(["/media/shared.png", "/media/secret.png", "/media/both.png"]);
        let members = json!({"x": "/media/both.png"});
        let locked = LockedMedia::new([
            (PermissionType::PasswordProtected, password),
            (PermissionType::Public, public),
            (PermissionType::MembersOnly, members),
        ]);
        assert_eq!(locked.permission("/media/shared.png"), None);
        assert_eq!(
            locked.permission("/media/secret.png"),
            Some(PermissionType::PasswordProtected)
        );
        assert_eq!(
            locked.permission("/media/both.png"),
            Some(PermissionType::MembersOnly)
        );
        assert_eq!(locked.permission("/media/other.png"), None);
    }

    #[test]
    fn each_lock_has_its_page_type_for_an_anonymous_visitor() {
        let lock = |permission| gate(permission, &Viewer::default()).page_type();
        assert_eq!(lock(PermissionType::Public), None);
        assert_eq!(
            lock(PermissionType::PasswordProtected).map(PageType::code),
            Some(103)
        );
        assert_eq!(
            lock(PermissionType::MembersOnly).map(PageType::code),
            Some(106)
        );
    }
}
