//! The donation page (page type 203) and the contribution confirmed page (204), rendered
//! inside the site's chrome like the other commerce pages. The donation form works without
//! JavaScript: amounts are radio buttons, and an own amount is typed beside them. Paid in the
//! payment provider's own fields, a contribution may still wait for the donor's bank, or
//! have failed: the confirmed page then says so rather than thanking for money not taken.

use askama::Template;
use vitrine_core::checkout::{Contribution, ContributionPayment, DonationCampaign, OTHER_AMOUNT};

use super::commerce_pages::{CardFieldsView, FieldView, money_text};
use super::dates::{DisplayDate, display_date};

/// One suggested amount on the donation page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DonateAmountView {
    pub(crate) value: String,
    pub(crate) text: String,
    pub(crate) checked: bool,
}

/// The donation page (page type 203).
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/donate.html", whitespace = "minimize")]
pub(crate) struct DonateMain {
    pub(crate) title: String,
    pub(crate) description: String,
    /// Where the form posts: this page's own address.
    pub(crate) action: String,
    pub(crate) idempotency_key: String,
    pub(crate) amounts: Vec<DonateAmountView>,
    pub(crate) other_value: &'static str,
    pub(crate) other_checked: bool,
    pub(crate) other_amount: String,
    pub(crate) currency_code: &'static str,
    /// "Enter an amount from €1.00 to €1,000.00.", shown as the own amount's hint.
    pub(crate) limits_text: String,
    pub(crate) amount_error: Option<String>,
    pub(crate) name: FieldView,
    pub(crate) email: FieldView,
    pub(crate) payment_note: Option<&'static str>,
    pub(crate) payment: Vec<FieldView>,
    /// Test payments are on: the page wears the test mode ribbon.
    pub(crate) test_mode: bool,
    /// The shop cannot take payments: no card fields, no button.
    pub(crate) payments_off: bool,
    pub(crate) alert: Option<String>,
    pub(crate) submit_label: &'static str,
    /// The payment provider's own card fields instead of the form's: the card is typed into
    /// them and never posted here.
    pub(crate) card_fields: Option<CardFieldsView>,
}

impl DonateMain {
    /// The page for `campaign` with `chosen` amount (a suggestion's value or
    /// [`OTHER_AMOUNT`]) picked and `other_amount` typed.
    pub(crate) fn new(
        campaign: &DonationCampaign,
        action: String,
        idempotency_key: String,
        chosen: &str,
        other_amount: &str,
    ) -> Self {
        let amounts = campaign
            .suggested_amounts
            .iter()
            .map(|amount| DonateAmountView {
                value: amount.to_string(),
                text: money_text(*amount, campaign.currency),
                checked: chosen == amount.to_string(),
            })
            .collect();
        Self {
            title: campaign.title.clone(),
            description: campaign.description.clone(),
            action,
            idempotency_key,
            amounts,
            other_value: OTHER_AMOUNT,
            other_checked: chosen == OTHER_AMOUNT,
            other_amount: other_amount.to_owned(),
            currency_code: campaign.currency.code(),
            limits_text: campaign.out_of_range_message(),
            amount_error: None,
            name: FieldView::text("name", "Full name", "name"),
            email: FieldView::text("email", "Email", "email").kind("email"),
            payment_note: None,
            payment: vec![
                FieldView::text("cardNumber", "Card number", "cc-number").inputmode("numeric"),
                FieldView::text("cardExpiry", "Expiry date (MM/YY)", "cc-exp").inputmode("numeric"),
                FieldView::text("cardCvc", "Security code", "cc-csc").inputmode("numeric"),
            ],
            test_mode: false,
            payments_off: false,
            alert: None,
            submit_label: "Donate",
            card_fields: None,
        }
    }
}

/// The contribution confirmed page (page type 204).
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/contribution.html", whitespace = "minimize")]
pub(crate) struct ContributionMain {
    pub(crate) heading: &'static str,
    pub(crate) lead: String,
    /// The donation page's own thank-you text, while its block is still on the site, for a
    /// contribution that was paid.
    pub(crate) thank_you: Option<String>,
    pub(crate) amount: String,
    pub(crate) reference: String,
    pub(crate) date: Option<DisplayDate>,
    /// Where the page leads: back to the donation page to try again after a failure, home
    /// otherwise.
    pub(crate) link_href: String,
    pub(crate) link_text: &'static str,
}

/// The heading of a paid contribution's page (spec 001 s2).
pub(crate) const CONTRIBUTION_CONFIRMED_HEADING: &str = "Thank you for your contribution";
/// The heading while the donor's bank has not answered (our text).
pub(crate) const CONTRIBUTION_PENDING_HEADING: &str = "Your contribution is waiting for your bank";
/// The heading of a contribution whose payment failed (our text).
pub(crate) const CONTRIBUTION_FAILED_HEADING: &str = "Your contribution did not go through";

impl ContributionMain {
    /// The page of `contribution`; `donate_path` is its donation page, where a failed one
    /// is tried again.
    pub(crate) fn new(
        contribution: &Contribution,
        thank_you: Option<String>,
        donate_path: String,
    ) -> Self {
        let amount = money_text(contribution.amount_minor, contribution.currency);
        let home = || ("/".to_owned(), "Back to the home page");
        let (heading, lead, thank_you, (link_href, link_text)) = match &contribution.payment {
            ContributionPayment::Paid { .. } => (
                CONTRIBUTION_CONFIRMED_HEADING,
                format!(
                    "Thank you, {}. Your contribution of {amount} to {} was received.",
                    contribution.name, contribution.campaign_title
                ),
                thank_you.filter(|text| !text.trim().is_empty()),
                home(),
            ),
            ContributionPayment::Pending { .. } => (
                CONTRIBUTION_PENDING_HEADING,
                format!(
                    "Thank you, {}. We are waiting for your bank to confirm your contribution of {amount} to {}. Reload this page in a moment; your receipt comes by mail once it is confirmed.",
                    contribution.name, contribution.campaign_title
                ),
                None,
                home(),
            ),
            ContributionPayment::Failed { message } => (
                CONTRIBUTION_FAILED_HEADING,
                format!("{message} Your contribution of {amount} was not taken."),
                None,
                (donate_path, "Try again"),
            ),
        };
        Self {
            heading,
            lead,
            thank_you,
            amount,
            reference: contribution.id.clone(),
            date: display_date(contribution.created.millis()),
            link_href,
            link_text,
        }
    }
}
