//! The receipt mailed to a donor once their contribution is recorded: the amount, the date,
//! what it was given to and the organisation that received it, with a receipt number, so the
//! donor can keep it with their tax records. Plain text and an HTML part from the same values.
//!
//! The site bundle names no legal entity, so the organisation is the site's title and, when
//! the owner published one in the mobile information bar, its address. Whether a gift may be
//! deducted depends on the organisation's status and the donor's country, which Vitrine
//! cannot know: the receipt says so instead of promising a deduction.

use super::billing_mails::date_text;
use super::contribution::Contribution;
use crate::forms::Mail;
use crate::forms::mail_html::MailHtml;
use crate::money::{FormatOptions, Locale, Money, format};
use crate::site::WebsiteSettings;

/// Who received a contribution, as its receipt names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Organisation {
    pub name: String,
    /// The postal address as one line; none when the site publishes none.
    pub address: Option<String>,
}

impl Organisation {
    /// The organisation a site's settings describe: its title, and the address of its
    /// information bar.
    pub fn of(settings: &WebsiteSettings) -> Self {
        Self {
            name: settings.site_title.trim().to_owned(),
            address: settings
                .information_bar
                .as_ref()
                .and_then(|bar| bar.address.as_deref())
                .map(str::trim)
                .filter(|address| !address.is_empty())
                .map(str::to_owned),
        }
    }
}

/// What a receipt says about deductions (our text).
pub const RECEIPT_TAX_NOTE: &str = "Please keep this receipt for your records. Whether your gift can be deducted from your taxes depends on the organisation's status and on where you pay tax.";

/// The receipt of `contribution`, received by `organisation`, to the donor's address.
pub fn contribution_receipt_mail(contribution: &Contribution, organisation: &Organisation) -> Mail {
    let name = if organisation.name.is_empty() {
        "us"
    } else {
        organisation.name.as_str()
    };
    let subject = format!("Receipt for your donation to {name}");
    let amount = format(
        Money::new(contribution.amount_minor, contribution.currency),
        &Locale::default(),
        FormatOptions::default(),
    );
    let greeting = if contribution.name.is_empty() {
        "Hello,".to_owned()
    } else {
        format!("Dear {},", contribution.name)
    };
    let thanks = format!("Thank you for your donation to {name}. This is your receipt.");
    let mut rows = vec![
        ("Receipt number", contribution.id.clone()),
        ("Date", date_text(contribution.created)),
        ("Amount", amount),
        ("Given to", contribution.campaign_title.clone()),
        ("Received by", organisation.name.clone()),
    ];
    if let Some(address) = &organisation.address {
        rows.push(("Address", address.clone()));
    }
    if !contribution.payment_id().is_empty() {
        rows.push(("Payment reference", contribution.payment_id().to_owned()));
    }
    rows.retain(|(_, value)| !value.is_empty());

    let mut text = format!("{greeting}\n\n{thanks}\n\n");
    for (label, value) in &rows {
        text.push_str(&format!("{label}: {value}\n"));
    }
    text.push_str(&format!("\n{RECEIPT_TAX_NOTE}\n"));
    let html = MailHtml::new()
        .heading("Donation receipt")
        .paragraph(&greeting)
        .paragraph(&thanks)
        .table(rows.iter().map(|(label, value)| (*label, value.clone())))
        .paragraph(RECEIPT_TAX_NOTE);
    Mail::composed(contribution.email.clone(), subject, text, html)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contribution() -> Contribution {
        crate::checkout::contribution_conformance::contribution(
            "contribution-7f3a",
            "receipt",
            2_500,
        )
    }

    #[test]
    fn the_receipt_names_the_amount_the_date_and_the_organisation_in_both_parts() {
        let organisation = Organisation {
            name: "Clay & Kiln Society".into(),
            address: Some("12 Potter's Lane, Bristol BS1 4AB".into()),
        };
        let mail = contribution_receipt_mail(&contribution(), &organisation);
        assert_eq!(mail.to, "ada@example.com");
        assert_eq!(
            mail.subject,
            "Receipt for your donation to Clay & Kiln Society"
        );
        expect_test::expect![[r#"
            Dear Ada Lovelace,

            Thank you for your donation to Clay & Kiln Society. This is your receipt.

            Receipt number: contribution-7f3a
            Date: 21 November 2026
            Amount: €25.00
            Given to: Support the community kiln
            Received by: Clay & Kiln Society
            Address: 12 Potter's Lane, Bristol BS1 4AB
            Payment reference: test_ch_contribution-7f3a

            Please keep this receipt for your records. Whether your gift can be deducted from your taxes depends on the organisation's status and on where you pay tax.
        "#]]
        .assert_eq(&mail.text);
        let html = mail.html.unwrap();
        assert!(html.contains("€25.00"), "{html}");
        assert!(html.contains("21 November 2026"), "{html}");
        assert!(html.contains("Clay &amp; Kiln Society"), "{html}");
        assert!(html.contains("12 Potter&#39;s Lane"), "{html}");
    }

    #[test]
    fn the_organisation_is_the_sites_title_and_its_published_address() {
        let mut site = crate::ports::conformance::fixture_site("Kiln Society");
        assert_eq!(
            Organisation::of(&site.settings),
            Organisation {
                name: site.settings.site_title.clone(),
                address: None
            }
        );
        site.settings.information_bar = Some(crate::site::InformationBar {
            address: Some(" 1 High St ".into()),
            ..Default::default()
        });
        assert_eq!(
            Organisation::of(&site.settings).address.as_deref(),
            Some("1 High St")
        );
        let anonymous = Contribution {
            name: String::new(),
            ..contribution()
        };
        let mail = contribution_receipt_mail(&anonymous, &Organisation::default());
        assert_eq!(mail.subject, "Receipt for your donation to us");
        assert!(mail.text.starts_with("Hello,\n"), "{}", mail.text);
        assert!(!mail.text.contains("Received by"), "{}", mail.text);
    }
}
