//! What each role may see and do in the owner's tables, as permission codes of 001 s3. The
//! specification does not say ("not shown"), so this is Vitrine's decision, written here once
//! and in the README:
//!
//! - Every table is read with `config`, the code of everyone who may open the owner area: a
//!   viewer and the reporting role see every table (and export it), and change nothing.
//! - Orders are changed (marked fulfilled, refunded) with `commerce`: the admin and the store
//!   manager.
//! - Reviews are moderated (approved, hidden, answered) with `content manager`: the admin,
//!   the editor, the moderator and the campaigns editor.

use crate::enums::PermissionCode;

/// One table of the owner area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OwnerTable {
    Submissions,
    Orders,
    Subscribers,
    ConsentReceipts,
    Reviews,
}

impl OwnerTable {
    pub const ALL: [Self; 5] = [
        Self::Submissions,
        Self::Orders,
        Self::Subscribers,
        Self::ConsentReceipts,
        Self::Reviews,
    ];

    /// The table's path segment under `/config/`.
    pub const fn slug(self) -> &'static str {
        match self {
            Self::Submissions => "submissions",
            Self::Orders => "orders",
            Self::Subscribers => "subscribers",
            Self::ConsentReceipts => "consent-receipts",
            Self::Reviews => "reviews",
        }
    }

    /// The table's heading and link text.
    pub const fn title(self) -> &'static str {
        match self {
            Self::Submissions => "Form submissions",
            Self::Orders => "Orders",
            Self::Subscribers => "Newsletter subscribers",
            Self::ConsentReceipts => "Consent receipts",
            Self::Reviews => "Reviews",
        }
    }

    /// The code that shows the table and exports it.
    pub const fn read_permission(self) -> PermissionCode {
        PermissionCode::Config
    }
}

/// Something an owner does to one row of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableAction {
    FulfilOrder,
    RefundOrder,
    ApproveReview,
    HideReview,
    ReplyToReview,
}

impl TableAction {
    pub const ALL: [Self; 5] = [
        Self::FulfilOrder,
        Self::RefundOrder,
        Self::ApproveReview,
        Self::HideReview,
        Self::ReplyToReview,
    ];

    /// The table whose rows the action changes.
    pub const fn table(self) -> OwnerTable {
        match self {
            Self::FulfilOrder | Self::RefundOrder => OwnerTable::Orders,
            Self::ApproveReview | Self::HideReview | Self::ReplyToReview => OwnerTable::Reviews,
        }
    }

    /// The code the action needs.
    pub const fn permission(self) -> PermissionCode {
        match self.table() {
            OwnerTable::Orders => PermissionCode::Commerce,
            _ => PermissionCode::ContentManager,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::ContributorRole;
    use crate::owners::role_permits;

    fn may(role: ContributorRole, action: TableAction) -> bool {
        role_permits(role, action.permission())
    }

    #[test]
    fn viewers_and_reporting_see_every_table_and_change_nothing() {
        for role in [ContributorRole::Viewer, ContributorRole::Reporting] {
            for table in OwnerTable::ALL {
                assert!(
                    role_permits(role, table.read_permission()),
                    "{role} {table:?}"
                );
            }
            for action in TableAction::ALL {
                assert!(!may(role, action), "{role} {action:?}");
            }
        }
    }

    #[test]
    fn store_managers_work_orders_and_moderators_work_reviews() {
        assert!(may(ContributorRole::StoreManager, TableAction::FulfilOrder));
        assert!(may(ContributorRole::StoreManager, TableAction::RefundOrder));
        assert!(!may(
            ContributorRole::StoreManager,
            TableAction::ApproveReview
        ));
        for role in [ContributorRole::Editor, ContributorRole::Moderator] {
            assert!(may(role, TableAction::ApproveReview), "{role}");
            assert!(may(role, TableAction::HideReview), "{role}");
            assert!(may(role, TableAction::ReplyToReview), "{role}");
            assert!(!may(role, TableAction::FulfilOrder), "{role}");
        }
        for action in TableAction::ALL {
            assert!(may(ContributorRole::Admin, action), "{action:?}");
        }
    }

    #[test]
    fn table_slugs_differ() {
        let mut slugs: Vec<_> = OwnerTable::ALL.iter().map(|table| table.slug()).collect();
        slugs.sort_unstable();
        slugs.dedup();
        assert_eq!(slugs.len(), OwnerTable::ALL.len());
    }
}
