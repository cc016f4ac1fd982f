//! Enumerations about websites and the people who work on them: status, type, contributor
//! roles, permission codes and plan features.

use super::macros::numeric_enum;

numeric_enum! {
    /// The billing and lifecycle status of a website (001 §3). Codes 9 and 10 are not assigned.
    pub enum WebsiteStatus {
        Expired = 1 => "expired",
        PastDue = 2 => "pastdue",
        Trial = 3 => "trial",
        Beta = 4 => "beta",
        Removed = 5 => "removed",
        Internal = 6 => "internal",
        Comped = 7 => "comped",
        Paid = 8 => "paid",
        Linked = 11 => "linked",
        ActiveParkingPage = 12 => "active parking page",
        Resold = 13 => "resold",
        ResoldGracePeriod = 14 => "resold grace period",
        Enterprise = 15 => "enterprise",
    }
}

numeric_enum! {
    /// The type of a website (001 §3; 000 §3 names cover page and parking page).
    pub enum WebsiteType {
        Classic = 1 => "classic",
        CoverPage = 2 => "cover page",
        ParkingPage = 3 => "parking page",
        Commerce = 4 => "commerce",
        Enterprise = 5 => "enterprise",
    }
}

numeric_enum! {
    /// The role of a contributor on a website (001 §3). Code 5 is not assigned. What each
    /// role may do is not shown in the specification.
    pub enum ContributorRole {
        Admin = 1 => "admin",
        Billing = 2 => "billing",
        Reporting = 3 => "reporting",
        Editor = 4 => "editor",
        Moderator = 6 => "moderator",
        Commenter = 7 => "commenter",
        StoreManager = 8 => "store manager",
        Scheduling = 9 => "scheduling",
        Viewer = 10 => "viewer",
        CampaignsEditor = 11 => "campaigns editor",
        SchedulingViewer = 12 => "scheduling viewer",
        SchedulingEditor = 13 => "scheduling editor",
        None = 14 => "none",
    }
}

numeric_enum! {
    /// The permission codes the specification shows (001 §3). It mentions many finer-grained
    /// codes for settings, commerce, newsletter and internal tasks without listing them, so
    /// only these five exist here.
    pub enum PermissionCode {
        Config = 1 => "config",
        Admin = 2 => "admin",
        ContentManager = 11 => "content manager",
        Settings = 12 => "settings",
        Commerce = 14 => "commerce",
    }
}

numeric_enum! {
    /// The plan features the specification shows by code (001 §3; the full list of codes 1 to
    /// 70 is not shown).
    ///
    /// The specification gives product reviews two codes, 66 and 67, without telling them
    /// apart. We read 66 as the reviews themselves (collecting and showing them on product
    /// pages) and 67 as review requests, the e-mails that invite buyers to review a purchase
    /// and lead to the reviews-request page (page type 209).
    pub enum PlanFeature {
        Commerce = 6 => "commerce",
        GiftCards = 40 => "gift cards",
        Subscriptions = 50 => "subscriptions",
        PointOfSale = 56 => "point of sale",
        ProductReviews = 66 => "product reviews",
        ProductReviewRequests = 67 => "product review requests",
    }
}
