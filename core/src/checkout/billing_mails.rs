//! The mails of a subscription's life: a renewal paid, a renewal declined (with the next
//! retry's date), past due, cancelled, paused, resumed, a new card saved, the plan ended.
//! Each has a plain-text and an HTML part made from the same paragraphs, and each carries the
//! signed link to the subscription's page, where the shopper cancels, pauses or updates the
//! card.

use super::subscription::Subscription;
use super::subscription_link::SubscriptionLinks;
use crate::cart::Timestamp;
use crate::forms::Mail;
use crate::forms::mail_html::MailHtml;
use crate::money::{FormatOptions, Locale, Money, format};

/// Which mail to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillingMailKind {
    RenewalPaid,
    /// Declined; tried again at the subscription's `retry_at`.
    RenewalDeclined,
    PastDue,
    Cancelled,
    Paused,
    Resumed,
    CardUpdated,
    Ended,
}

/// A mail about `subscription` as it stands after the step, written at `now`.
pub fn billing_mail(
    kind: BillingMailKind,
    subscription: &Subscription,
    links: &SubscriptionLinks,
    now: Timestamp,
) -> Mail {
    let name = subscription.product_name.as_str();
    let price = format(
        Money::new(subscription.price_cents, subscription.currency),
        &Locale::default(),
        FormatOptions::default(),
    );
    let day = |at: Option<Timestamp>| at.map_or_else(|| "soon".to_owned(), date_text);
    let (subject, paragraphs): (String, Vec<String>) = match kind {
        BillingMailKind::RenewalPaid => (
            format!("Your {name} subscription is renewed"),
            vec![
                format!("We charged {price} to your saved card for your {name} subscription."),
                match subscription.next_billing {
                    Some(next) => format!("The next payment is due on {}.", date_text(next)),
                    None => "That was the last payment of your plan.".to_owned(),
                },
            ],
        ),
        BillingMailKind::RenewalDeclined => (
            format!("We could not renew your {name} subscription"),
            vec![
                format!(
                    "Your card was declined when we tried to charge {price} for your {name} subscription."
                ),
                format!(
                    "We will try again on {}. To avoid an interruption, please update your card.",
                    day(subscription.retry_at)
                ),
            ],
        ),
        BillingMailKind::PastDue => (
            format!("Your {name} subscription is past due"),
            vec![
                format!(
                    "We tried to charge {price} for your {name} subscription several times, and your card was declined each time."
                ),
                format!(
                    "Your subscription will be cancelled on {} unless you update your card before then.",
                    day(subscription.retry_at)
                ),
            ],
        ),
        BillingMailKind::Cancelled => (
            format!("Your {name} subscription is cancelled"),
            vec![format!(
                "Your {name} subscription is cancelled. You will not be charged again."
            )],
        ),
        BillingMailKind::Paused => (
            format!("Your {name} subscription is paused"),
            vec![format!(
                "Your {name} subscription is paused: you will not be charged until you resume it."
            )],
        ),
        BillingMailKind::Resumed => (
            format!("Your {name} subscription is resumed"),
            vec![format!(
                "Your {name} subscription is running again. The next payment of {price} is due on {}.",
                day(subscription.next_billing)
            )],
        ),
        BillingMailKind::CardUpdated => (
            format!("Your card for {name} is updated"),
            vec![format!(
                "The card for your {name} subscription is updated; future payments are charged to it."
            )],
        ),
        BillingMailKind::Ended => (
            format!("Your {name} subscription has ended"),
            vec![format!(
                "Every payment of your {name} plan is made, so the subscription has ended."
            )],
        ),
    };
    let manage = links.manage(&subscription.id, now);
    let update_card = links.update_card(&subscription.id, now);
    let asks_for_card = matches!(
        kind,
        BillingMailKind::RenewalDeclined | BillingMailKind::PastDue
    );
    let mut text = paragraphs.join("\n\n");
    let mut html = MailHtml::new().heading(&subject);
    for paragraph in &paragraphs {
        html = html.paragraph(paragraph);
    }
    if asks_for_card {
        text.push_str(&format!("\n\nUpdate your card:\n{update_card}"));
        html = html.link("Update your card", &update_card);
    }
    if !subscription.status.is_final() {
        let words = "Cancel or pause your subscription, or update your card";
        text.push_str(&format!("\n\n{words}:\n{manage}\n"));
        html = html.link(words, &manage);
    } else {
        text.push('\n');
    }
    Mail {
        to: subscription.email.clone(),
        html: Some(html.finish(&subject)),
        subject,
        text,
        list_unsubscribe: None,
    }
}

/// A date as `26 February 2026` (UTC).
pub(super) fn date_text(at: Timestamp) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    match time::OffsetDateTime::from_unix_timestamp(at.millis().div_euclid(1000)) {
        Ok(day) => format!(
            "{} {} {}",
            day.day(),
            MONTHS[usize::from(u8::from(day.month())) - 1],
            day.year()
        ),
        Err(_) => "a date beyond the calendar".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Sku;
    use crate::checkout::OrderLinkKey;
    use crate::checkout::SubscriptionStatus;
    use crate::checkout::subscription_conformance::fixture_subscription;

    const NOW: Timestamp = Timestamp(1_772_272_800_000);

    fn subscription(status: SubscriptionStatus) -> Subscription {
        let sku = Sku::parse("CLUB").unwrap();
        Subscription {
            id: "order-1-subscription".into(),
            order_id: "order-1".into(),
            product_name: "Clay <Club>".into(),
            payment_method: Some("pm".into()),
            failed_attempts: 1,
            retry_at: Some(Timestamp(NOW.millis() + 86_400_000)),
            ..fixture_subscription("clay@example.com", &sku, status)
        }
    }

    fn links() -> SubscriptionLinks {
        SubscriptionLinks::new("https://shop.example", &OrderLinkKey::new([1; 32]))
    }

    #[test]
    fn a_declined_renewal_says_when_it_is_retried_and_links_the_card_update() {
        let mail = billing_mail(
            BillingMailKind::RenewalDeclined,
            &subscription(SubscriptionStatus::Active),
            &links(),
            NOW,
        );
        assert_eq!(mail.to, "clay@example.com");
        assert_eq!(
            mail.subject,
            "We could not renew your Clay <Club> subscription"
        );
        assert!(
            mail.text.contains("We will try again on 1 March 2026."),
            "{}",
            mail.text
        );
        assert!(
            mail.text.contains("€25.00") || mail.text.contains("25"),
            "{}",
            mail.text
        );
        assert!(
            mail.text
                .contains("https://shop.example/commerce/subscriptions/order-1-subscription?sig="),
            "{}",
            mail.text
        );
        assert!(mail.text.contains("#card"), "{}", mail.text);
        let html = mail.html.expect("an HTML part");
        assert!(html.contains("Clay &lt;Club&gt;"), "{html}");
        assert!(html.contains(">Update your card</a>"), "{html}");
        assert!(!html.contains("<Club>"), "{html}");
    }

    #[test]
    fn every_mail_of_a_live_subscription_links_its_page_and_a_cancelled_one_does_not() {
        for kind in [
            BillingMailKind::RenewalPaid,
            BillingMailKind::RenewalDeclined,
            BillingMailKind::PastDue,
            BillingMailKind::Paused,
            BillingMailKind::Resumed,
            BillingMailKind::CardUpdated,
        ] {
            let mail = billing_mail(
                kind,
                &subscription(SubscriptionStatus::Active),
                &links(),
                NOW,
            );
            assert!(
                mail.text.contains("Cancel or pause your subscription"),
                "{kind:?}: {}",
                mail.text
            );
        }
        let cancelled = billing_mail(
            BillingMailKind::Cancelled,
            &subscription(SubscriptionStatus::Cancelled),
            &links(),
            NOW,
        );
        assert!(!cancelled.text.contains("?sig="), "{}", cancelled.text);
        assert!(cancelled.text.contains("You will not be charged again."));
    }

    #[test]
    fn dates_read_as_day_month_year() {
        assert_eq!(date_text(NOW), "28 February 2026");
    }
}
