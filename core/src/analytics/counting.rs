//! Who and what is counted as a page view (000 s2, s6).

use serde::Serialize;

/// The kind of page a hit comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    Normal,
    NotFound,
    LockScreen,
    MemberAccessDenied,
}

/// The signed-in role of the visitor, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewerRole {
    Anonymous,
    /// A viewer-only user: treated like a visitor, so counted (000 s6).
    Viewer,
    /// A signed-in owner or editor: never counted.
    OwnerOrEditor,
}

/// Why a hit is not recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HitExclusion {
    CensusDisabled,
    NotFoundPage,
    LockScreen,
    MemberAccessDenied,
    SearchPage,
    ConfigPath,
    OwnerOrEditor,
}

/// Whether a page view is recorded: `None` means record it. The global census flag wins, then
/// the page kind, then the path (`/search` is excluded from automatic page views, config paths
/// are never counted, even for viewers), then the role.
pub fn hit_exclusion(
    census_disabled: bool,
    page: PageKind,
    path: &str,
    role: ViewerRole,
) -> Option<HitExclusion> {
    if census_disabled {
        return Some(HitExclusion::CensusDisabled);
    }
    match page {
        PageKind::NotFound => return Some(HitExclusion::NotFoundPage),
        PageKind::LockScreen => return Some(HitExclusion::LockScreen),
        PageKind::MemberAccessDenied => return Some(HitExclusion::MemberAccessDenied),
        PageKind::Normal => {}
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    if path == "/search" || path == "/search/" {
        return Some(HitExclusion::SearchPage);
    }
    if path == "/config" || path.starts_with("/config/") {
        return Some(HitExclusion::ConfigPath);
    }
    if role == ViewerRole::OwnerOrEditor {
        return Some(HitExclusion::OwnerOrEditor);
    }
    None
}
