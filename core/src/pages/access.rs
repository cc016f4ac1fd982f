//! Who may see what: the one gating check, [`gate`]. Password-protected and members-only
//! collections answer a lock page instead of their content to a viewer who may not see them,
//! and so do their items and the media files only such content uses.
//!
//! A members-only collection opens to the members of the member areas that list it (an
//! account's membership is kept with the account), and to nobody when no area lists it. A
//! password-protected collection opens to a browser that entered its password.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::enums::PageType;
use crate::pages::Viewer;
use crate::site::{Collection, MEDIA_PREFIX, MemberArea, PermissionType};

/// The heading of the lock-screen page (000 s6, 001 s6).
pub const LOCKED_HEADING: &str = "This page is locked";
/// The heading of the member-area access-denied page (000 s6, 001 s6).
pub const MEMBERS_ONLY_HEADING: &str = "This page available only site members";

/// What a piece of content asks of its viewer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Lock {
    #[default]
    Open,
    /// Password-protected: open to a browser that entered the password of one of these
    /// collections (their ids).
    Password(BTreeSet<String>),
    /// Members-only: open to members of one of these member areas (their ids); empty when
    /// no area lists the content, which then opens to nobody.
    Members(BTreeSet<String>),
}

impl Lock {
    /// The lock of `collection` (and of its items, slides and the media only they show)
    /// among the site's member `areas`.
    pub fn of(collection: &Collection, areas: &[MemberArea]) -> Self {
        match collection.permission_type {
            PermissionType::Public => Self::Open,
            PermissionType::PasswordProtected => {
                Self::Password(BTreeSet::from([collection.id.as_str().to_owned()]))
            }
            PermissionType::MembersOnly => Self::Members(
                MemberArea::opening(areas, &collection.id)
                    .map(|area| area.id.as_str().to_owned())
                    .collect(),
            ),
        }
    }

    pub fn permission(&self) -> PermissionType {
        match self {
            Self::Open => PermissionType::Public,
            Self::Password(_) => PermissionType::PasswordProtected,
            Self::Members(_) => PermissionType::MembersOnly,
        }
    }

    /// The lock of a file two pieces of content show: members-only is stricter than a
    /// password (a password can be shared, membership cannot), and between two locks of one
    /// kind, getting past either shows the file anyway.
    fn joined(self, other: Self) -> Self {
        match (self, other) {
            (Self::Open, lock) | (lock, Self::Open) => lock,
            (Self::Members(mut a), Self::Members(b)) => {
                a.extend(b);
                Self::Members(a)
            }
            (Self::Password(mut a), Self::Password(b)) => {
                a.extend(b);
                Self::Password(a)
            }
            (members @ Self::Members(_), Self::Password(_))
            | (Self::Password(_), members @ Self::Members(_)) => members,
        }
    }
}

/// What [`gate`] decides for a viewer and a piece of content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Allowed,
    /// The lock screen with its password form (page type 103).
    LockScreen,
    /// Members-only content for a visitor who has not signed in: the access-denied page
    /// (page type 106) offers signing in.
    SignInRequired,
    /// Members-only content for a signed-in site user who is not a member of its area (page
    /// type 106).
    NotAMember,
}

impl Access {
    /// The page shown instead of the content; none when it is allowed.
    pub fn page_type(self) -> Option<PageType> {
        match self {
            Self::Allowed => None,
            Self::LockScreen => Some(PageType::LockScreen),
            Self::SignInRequired | Self::NotAMember => Some(PageType::MemberAreaAccessDenied),
        }
    }

    pub fn is_allowed(self) -> bool {
        self == Self::Allowed
    }
}

/// The one gating check: may `viewer` see content behind `lock` (a collection's, and so its
/// items' and the media only they show)? Every path that shows content asks it.
pub fn gate(lock: &Lock, viewer: &Viewer) -> Access {
    match lock {
        Lock::Open => Access::Allowed,
        Lock::Password(collections) if !collections.is_disjoint(&viewer.unlocked) => {
            Access::Allowed
        }
        Lock::Password(_) => Access::LockScreen,
        Lock::Members(_) if viewer.account_id.is_none() => Access::SignInRequired,
        Lock::Members(areas) if !areas.is_disjoint(&viewer.member_areas) => Access::Allowed,
        Lock::Members(_) => Access::NotAMember,
    }
}

/// The media files that only locked content refers to, each with the lock its content asks
/// for. A file that public content (a public page or item, the site's settings or its
/// navigation) also shows stays public: everyone can see it already.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockedMedia {
    files: BTreeMap<String, Lock>,
}

impl LockedMedia {
    /// Sorts each piece of content's media references by the content's lock.
    pub fn new(content: impl IntoIterator<Item = (Lock, serde_json::Value)>) -> Self {
        let mut public = BTreeSet::new();
        let mut files: BTreeMap<String, Lock> = BTreeMap::new();
        for (lock, value) in content {
            let paths = media_paths(&value);
            if lock == Lock::Open {
                public.extend(paths);
                continue;
            }
            for path in paths {
                let known = files.remove(&path).unwrap_or_default();
                files.insert(path, known.joined(lock.clone()));
            }
        }
        files.retain(|path, _| !public.contains(path));
        Self { files }
    }

    /// The lock of the file at `path`; none when anyone may see it.
    pub fn lock(&self, path: &str) -> Option<&Lock> {
        self.files.get(path)
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

    fn members(areas: &[&str]) -> Lock {
        Lock::Members(areas.iter().map(|area| (*area).to_owned()).collect())
    }

    fn signed_in(areas: &[&str]) -> Viewer {
        Viewer {
            account_id: Some("0123456789abcdef0123456789abcdef".into()),
            member_areas: areas.iter().map(|area| (*area).to_owned()).collect(),
            ..Viewer::default()
        }
    }

    #[test]
    fn members_only_content_opens_only_to_members_of_its_areas() {
        let anonymous = Viewer::default();
        let patron = signed_in(&["patrons"]);
        let other = signed_in(&["staff"]);
        let none = signed_in(&[]);
        let cases = [
            (Lock::Open, &anonymous, Access::Allowed),
            (Lock::Open, &none, Access::Allowed),
            (members(&["patrons"]), &anonymous, Access::SignInRequired),
            (members(&["patrons"]), &patron, Access::Allowed),
            (members(&["patrons", "staff"]), &other, Access::Allowed),
            // The hole this closes: being signed in is not being a member.
            (members(&["patrons"]), &none, Access::NotAMember),
            (members(&["patrons"]), &other, Access::NotAMember),
            // Members-only content no area lists opens to nobody.
            (members(&[]), &patron, Access::NotAMember),
        ];
        for (lock, viewer, expected) in cases {
            assert_eq!(gate(&lock, viewer), expected, "{lock:?} {viewer:?}");
        }
        assert_eq!(
            Access::NotAMember.page_type(),
            Some(PageType::MemberAreaAccessDenied)
        );
        assert_eq!(
            Access::SignInRequired.page_type(),
            Some(PageType::MemberAreaAccessDenied)
        );
    }

    #[test]
    fn a_password_opens_only_the_collection_it_was_entered_for() {
        let lock = Lock::Password(BTreeSet::from(["journal".to_owned()]));
        let mut viewer = signed_in(&["patrons"]);
        assert_eq!(gate(&lock, &viewer), Access::LockScreen);
        viewer.unlocked.insert("shop".into());
        assert_eq!(gate(&lock, &viewer), Access::LockScreen);
        viewer.unlocked.insert("journal".into());
        assert_eq!(gate(&lock, &viewer), Access::Allowed);
        assert_eq!(Access::LockScreen.page_type(), Some(PageType::LockScreen));
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
    fn only_files_that_no_public_content_shows_are_locked_at_their_strictest_lock() {
        let public = json!({"image": "/media/shared.png"});
        let password = json!(["/media/shared.png", "/media/secret.png", "/media/both.png"]);
        let patrons = json!({"x": ["/media/both.png", "/media/areas.png"]});
        let staff = json!({"x": "/media/areas.png"});
        let journal = Lock::Password(BTreeSet::from(["journal".to_owned()]));
        let locked = LockedMedia::new([
            (journal.clone(), password),
            (Lock::Open, public),
            (members(&["patrons"]), patrons),
            (members(&["staff"]), staff),
        ]);
        assert_eq!(locked.lock("/media/shared.png"), None);
        assert_eq!(locked.lock("/media/secret.png"), Some(&journal));
        assert_eq!(locked.lock("/media/both.png"), Some(&members(&["patrons"])));
        assert_eq!(
            locked.lock("/media/areas.png"),
            Some(&members(&["patrons", "staff"])),
            "a member of either area sees the file on their own page anyway"
        );
        assert_eq!(locked.lock("/media/other.png"), None);
    }

    #[test]
    fn each_lock_has_its_page_type_for_an_anonymous_visitor() {
        let lock = |lock: Lock| gate(&lock, &Viewer::default()).page_type();
        assert_eq!(lock(Lock::Open), None);
        assert_eq!(
            lock(Lock::Password(BTreeSet::new())).map(PageType::code),
            Some(103)
        );
        assert_eq!(lock(members(&["patrons"])).map(PageType::code), Some(106));
    }
}
