//! What each contributor role of 001 s3 may do, as the permission codes of 001 s3. The
//! specification lists the roles and the codes but not what each role may do ("not shown"),
//! so this table is Vitrine's decision, written down once here and in the README:
//!
//! | role | codes |
//! |---|---|
//! | admin | admin, config, content manager, settings, commerce |
//! | billing | config, settings |
//! | reporting | config (reads the analytics) |
//! | editor, moderator, campaigns editor | config, content manager |
//! | store manager | config, commerce |
//! | scheduling, scheduling viewer, scheduling editor | config |
//! | viewer | config, and nothing may be changed |
//! | commenter, none | none: they are visitors to the owner area |
//!
//! `config` opens the owner area at `/config/`. Only the admin permission manages other
//! accounts. The site's analytics (the dashboard and the owner's report) are read by the
//! admin, reporting and viewer roles only ([`role_reads_analytics`]): no code of 001 s3 says
//! so, and a store manager or an editor has the owner area for their own work (orders,
//! content), not the visitors' numbers. A viewer (and the reporting and scheduling roles) may look but change nothing
//! but their own sessions and keys.

use crate::enums::{ContributorRole, PermissionCode};

/// The permission codes a role holds.
pub const fn role_permissions(role: ContributorRole) -> &'static [PermissionCode] {
    use PermissionCode::{Admin, Commerce, Config, ContentManager, Settings};
    match role {
        ContributorRole::Admin => &[Admin, Config, ContentManager, Settings, Commerce],
        ContributorRole::Billing => &[Config, Settings],
        ContributorRole::Editor | ContributorRole::Moderator | ContributorRole::CampaignsEditor => {
            &[Config, ContentManager]
        }
        ContributorRole::StoreManager => &[Config, Commerce],
        ContributorRole::Reporting
        | ContributorRole::Scheduling
        | ContributorRole::SchedulingViewer
        | ContributorRole::SchedulingEditor
        | ContributorRole::Viewer => &[Config],
        ContributorRole::Commenter | ContributorRole::None => &[],
    }
}

/// Whether `role` holds `permission`.
pub fn role_permits(role: ContributorRole, permission: PermissionCode) -> bool {
    role_permissions(role).contains(&permission)
}

/// Whether `role` reads the site's analytics: the dashboard and the owner's report. It takes
/// the `config` code too, so an API key reads them only with the `config` scope.
pub fn role_reads_analytics(role: ContributorRole) -> bool {
    matches!(
        role,
        ContributorRole::Admin | ContributorRole::Reporting | ContributorRole::Viewer
    ) && role_permits(role, PermissionCode::Config)
}

/// Whether the role is treated as a visitor on the live site (000 s6): a viewer is, and so
/// is a role that cannot open the owner area at all.
pub fn treated_as_visitor(role: ContributorRole) -> bool {
    role == ContributorRole::Viewer || !role_permits(role, PermissionCode::Config)
}

/// Who an owner call acts for, and what it may therefore do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnerAccess {
    /// A signed-in owner's browser session: everything the role holds.
    Session(ContributorRole),
    /// An API key: its scopes, within what its owner's role holds.
    Key {
        role: ContributorRole,
        scopes: Vec<PermissionCode>,
    },
    /// The `VITRINE_OWNER_TOKEN` of the server's environment: an admin key, kept working
    /// for the scripts written before accounts existed.
    EnvironmentToken,
}

impl OwnerAccess {
    pub fn permits(&self, permission: PermissionCode) -> bool {
        match self {
            Self::Session(role) => role_permits(*role, permission),
            Self::Key { role, scopes } => {
                scopes.contains(&permission) && role_permits(*role, permission)
            }
            Self::EnvironmentToken => true,
        }
    }

    /// Whether the call may read the site's analytics ([`role_reads_analytics`]); a key
    /// needs the `config` scope as well.
    pub fn reads_analytics(&self) -> bool {
        match self {
            Self::Session(role) | Self::Key { role, .. } => {
                role_reads_analytics(*role) && self.permits(PermissionCode::Config)
            }
            Self::EnvironmentToken => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_admin_role_holds_the_admin_permission() {
        for role in ContributorRole::ALL {
            assert_eq!(
                role_permits(*role, PermissionCode::Admin),
                *role == ContributorRole::Admin,
                "{role}"
            );
        }
    }

    #[test]
    fn a_key_never_exceeds_its_owners_role() {
        let key = OwnerAccess::Key {
            role: ContributorRole::StoreManager,
            scopes: vec![PermissionCode::Commerce, PermissionCode::Settings],
        };
        assert!(key.permits(PermissionCode::Commerce));
        assert!(!key.permits(PermissionCode::Settings));
        assert!(!key.permits(PermissionCode::Config));
    }

    #[test]
    fn analytics_are_read_by_admins_reporting_and_viewers_only() {
        for role in ContributorRole::ALL {
            let expected = matches!(
                role,
                ContributorRole::Admin | ContributorRole::Reporting | ContributorRole::Viewer
            );
            assert_eq!(role_reads_analytics(*role), expected, "{role}");
            assert_eq!(
                OwnerAccess::Session(*role).reads_analytics(),
                expected,
                "{role}"
            );
        }
        let key = |scopes: Vec<PermissionCode>| OwnerAccess::Key {
            role: ContributorRole::Reporting,
            scopes,
        };
        assert!(key(vec![PermissionCode::Config]).reads_analytics());
        assert!(!key(vec![PermissionCode::Commerce]).reads_analytics());
        let manager = OwnerAccess::Key {
            role: ContributorRole::StoreManager,
            scopes: vec![PermissionCode::Config, PermissionCode::Commerce],
        };
        assert!(!manager.reads_analytics());
        assert!(OwnerAccess::EnvironmentToken.reads_analytics());
    }

    #[test]
    fn viewers_and_commenters_are_visitors_on_the_live_site_editors_are_not() {
        assert!(treated_as_visitor(ContributorRole::Viewer));
        assert!(treated_as_visitor(ContributorRole::Commenter));
        assert!(!treated_as_visitor(ContributorRole::Editor));
        assert!(!treated_as_visitor(ContributorRole::Admin));
    }
}
