//! The page-type codes and cover types of 001 §2.

use super::macros::numeric_enum;

numeric_enum! {
    /// What kind of page is being rendered (001 §2 "Page-type codes").
    pub enum PageType {
        MainContent = 1 => "main content or collection",
        Page = 2 => "page",
        Splash = 3 => "splash page",
        ContentItem = 50 => "content item",
        NotFound = 100 => "not found",
        Error = 101 => "error",
        Search = 102 => "search",
        LockScreen = 103 => "lock screen",
        PopupOverlay = 104 => "popup overlay",
        ProtectedContent = 105 => "protected content",
        MemberAreaAccessDenied = 106 => "member-area access denied",
        ShowCart = 200 => "show cart",
        Checkout = 201 => "checkout",
        OrderConfirmed = 202 => "order confirmed",
        Donate = 203 => "donate",
        ContributionConfirmed = 204 => "contribution confirmed",
        CartV2 = 205 => "cart v2",
        SubscriptionConfirmed = 206 => "subscription confirmed",
        OrderReceived = 207 => "order received",
        MembershipConfirmed = 208 => "membership confirmed",
        ReviewsRequest = 209 => "reviews request",
        DigitalProductComposerPreview = 210 => "digital product composer preview",
        OrderStatus = 211 => "order status",
        NewsletterUnsubscribe = 300 => "newsletter unsubscribe",
        CommerceEmailPreview = 301 => "commerce email preview",
    }
}

numeric_enum! {
    /// The kind of a cover (001 §2 "Cover-type values").
    pub enum CoverType {
        CoverPage = 1 => "cover page",
        LockScreen = 2 => "lock screen",
        PopupOverlay = 3 => "popup overlay",
    }
}
