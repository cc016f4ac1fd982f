//! The shopper's mails about an order after checkout: a refund, the order sent with its
//! tracking link, and a cancellation. Each has a plain-text part and an HTML part made from
//! the same values; amounts read as on the order page. The specification shows none of these
//! texts: they are plain storefront wording, decided here.

use super::aftercare::{OrderRefund, RefundLine, TrackingUrl};
use super::order::Order;
use crate::cart::Timestamp;
use crate::forms::mail_html::MailHtml;
use crate::forms::{Mail, SiteLinks};
use crate::money::{Currency, FormatOptions, Locale, Money, format};

fn money_text(cents: i64, currency: Currency) -> String {
    format(
        Money::new(cents, currency),
        &Locale::default(),
        FormatOptions::default(),
    )
}

/// "2 x Mug" for each line, by the product names the order recorded.
fn unit_lines(order: &Order, lines: &[RefundLine]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let name = order
                .lines
                .iter()
                .find(|ordered| ordered.sku == line.sku)
                .map_or(line.sku.as_str(), |ordered| ordered.product_name.as_str());
            format!("{} x {name}", line.quantity)
        })
        .collect()
}

fn mail(order: &Order, subject: &str, text: String, html: MailHtml) -> Mail {
    Mail::composed(order.email.clone(), subject, text, html)
}

/// The refund of `refund.amount_cents` of `order`, with the units it covers.
pub fn refund_mail(order: &Order, refund: &OrderRefund, links: &SiteLinks, now: Timestamp) -> Mail {
    let amount = money_text(refund.amount_cents, order.currency);
    let intro = format!(
        "We have refunded {amount} of your order {} to the card you paid with. Your bank may take a few days to show it.",
        order.id
    );
    let units = unit_lines(order, &refund.lines);
    let page = links.order(&order.id, now);
    let mut text = format!("{intro}\n\n");
    let mut html = MailHtml::new().heading("Refund").paragraph(&intro);
    if !units.is_empty() {
        text.push_str("The refund covers:\n");
        for unit in &units {
            text.push_str(&format!("- {unit}\n"));
        }
        text.push('\n');
        html = html
            .paragraph("The refund covers:")
            .list(units.iter().cloned());
    }
    text.push_str(&format!("Your order's page:\n{page}\n"));
    html = html.link("Your order's page", &page);
    mail(order, "Your refund", text, html)
}

/// The order sent, with the carrier's tracking page.
pub fn shipping_mail(
    order: &Order,
    tracking_url: &TrackingUrl,
    links: &SiteLinks,
    now: Timestamp,
) -> Mail {
    let intro = format!("Your order {} is on its way.", order.id);
    let page = links.order(&order.id, now);
    let mut text = format!("{intro}\n\n");
    for line in &order.lines {
        text.push_str(&format!("{} x {}\n", line.quantity, line.product_name));
    }
    text.push_str(&format!(
        "\nFollow your parcel:\n{}\n\nYour order's page:\n{page}\n",
        tracking_url.as_str()
    ));
    let html = MailHtml::new()
        .heading("Your order is on its way")
        .paragraph(&intro)
        .list(
            order
                .lines
                .iter()
                .map(|line| format!("{} x {}", line.quantity, line.product_name)),
        )
        .link("Follow your parcel", tracking_url.as_str())
        .link("Your order's page", &page);
    mail(order, "Your order has shipped", text, html)
}

/// The order cancelled; `refunded_cents` is what its cancellation gave back (0 when nothing
/// was charged).
pub fn cancellation_mail(
    order: &Order,
    refunded_cents: i64,
    links: &SiteLinks,
    now: Timestamp,
) -> Mail {
    let intro = format!("Your order {} has been cancelled.", order.id);
    let refund = (refunded_cents > 0).then(|| {
        format!(
            "We have refunded {} to the card you paid with. Your bank may take a few days to show it.",
            money_text(refunded_cents, order.currency)
        )
    });
    let page = links.order(&order.id, now);
    let mut text = format!("{intro}\n\n");
    let mut html = MailHtml::new().heading("Order cancelled").paragraph(&intro);
    if let Some(refund) = &refund {
        text.push_str(&format!("{refund}\n\n"));
        html = html.paragraph(refund);
    }
    text.push_str(&format!("Your order's page:\n{page}\n"));
    html = html.link("Your order's page", &page);
    mail(order, "Your order was cancelled", text, html)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::RefundState;
    use crate::reviews::conformance::fixture_order;

    const NOW: Timestamp = Timestamp(1_795_269_600_000);

    fn links() -> SiteLinks {
        SiteLinks::new("https://shop.example")
    }

    #[test]
    fn the_refund_mail_names_the_amount_and_the_units_in_both_parts() {
        let order = fixture_order("order-7");
        let refund = OrderRefund {
            id: OrderRefund::id_for("order-7", 1),
            order_id: "order-7".into(),
            sequence: 1,
            amount_cents: 1_250,
            lines: vec![RefundLine::parse("MUG-1:2").unwrap()],
            state: RefundState::Refunded,
            gateway_refund_id: "re_1".into(),
            reason: String::new(),
            requested: NOW,
        };
        let mail = refund_mail(&order, &refund, &links(), NOW);
        assert_eq!(
            (mail.to.as_str(), mail.subject.as_str()),
            ("ada@example.com", "Your refund")
        );
        expect_test::expect![[r#"
            We have refunded €12.50 of your order order-7 to the card you paid with. Your bank may take a few days to show it.

            The refund covers:
            - 2 x Mug

            Your order's page:
            https://shop.example/commerce/orders/order-7
        "#]]
        .assert_eq(&mail.text);
        let html = mail.html.unwrap();
        assert!(html.contains("€12.50"), "{html}");
        assert!(html.contains("2 x Mug"), "{html}");
        assert!(html.contains("<a href=\"https://shop.example/commerce/orders/order-7\">"));
    }

    #[test]
    fn the_shipping_mail_links_the_tracking_page_and_escapes_it_in_html() {
        let order = fixture_order("order-7");
        let tracking = TrackingUrl::parse("https://track.example/?id=1&x=<2>").unwrap();
        let mail = shipping_mail(&order, &tracking, &links(), NOW);
        assert_eq!(mail.subject, "Your order has shipped");
        assert!(
            mail.text
                .contains("Follow your parcel:\nhttps://track.example/?id=1&x=<2>\n")
        );
        let html = mail.html.unwrap();
        assert!(
            html.contains("href=\"https://track.example/?id=1&amp;x=&lt;2&gt;\""),
            "{html}"
        );
        assert!(!html.contains("<2>"), "{html}");
    }

    #[test]
    fn the_cancellation_mail_says_what_was_refunded_only_when_something_was() {
        let order = fixture_order("order-7");
        let refunded = cancellation_mail(&order, 3_000, &links(), NOW);
        assert!(
            refunded.text.contains("We have refunded €30.00"),
            "{}",
            refunded.text
        );
        let free = cancellation_mail(&order, 0, &links(), NOW);
        assert!(!free.text.contains("refunded"), "{}", free.text);
        assert!(free.html.unwrap().contains("has been cancelled"));
    }
}
