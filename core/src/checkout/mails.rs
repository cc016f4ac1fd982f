//! The shopper's mails about an order: the confirmation sent once it is placed, and the
//! request to review its products sent some days later. Plain text, like every mail Vitrine
//! sends; amounts read as on the order page.

use super::order::Order;
use crate::cart::Timestamp;
use crate::forms::{Mail, SiteLinks};
use crate::money::{Currency, FormatOptions, Locale, Money, format};
use crate::reviews::ReviewRequest;

fn money_text(cents: i64, currency: Currency) -> String {
    format(
        Money::new(cents, currency),
        &Locale::default(),
        FormatOptions::default(),
    )
}

/// The order's lines, its totals, where it ships and the link to its page, signed at `now`
/// (it opens the page for 180 days, [`super::ORDER_LINK_LIFETIME_SECONDS`]). The subject
/// follows the order page's heading: "Order confirmed" when a payment was taken, "Order
/// received" when there was nothing to pay.
pub fn order_confirmation_mail(order: &Order, links: &SiteLinks, now: Timestamp) -> Mail {
    let money = |cents: i64| money_text(cents, order.currency);
    let mut text = String::from("Thank you for your order.\n\n");
    for line in &order.lines {
        text.push_str(&format!(
            "{} x {} ({}): {}\n",
            line.quantity,
            line.product_name,
            line.sku.as_str(),
            money(line.unit_price_cents * i64::from(line.quantity))
        ));
    }
    text.push('\n');
    for (label, cents) in [
        ("Subtotal", order.subtotal_cents),
        ("Discount", order.discount_cents),
        ("Shipping", order.shipping_cost_cents),
        ("Tax", order.tax_cents),
        ("Total", order.grand_total_cents),
    ] {
        text.push_str(&format!("{label}: {}\n", money(cents)));
    }
    if let Some(payment) = &order.gift_card_payment {
        text.push_str(&format!(
            "Paid by gift card ending {}: {}\nPaid by card: {}\n",
            payment.code.last4(),
            money(payment.amount_cents),
            money(order.rest_due_cents())
        ));
    }
    if !order.gift_cards.is_empty() {
        text.push_str(
            "\nYour gift cards (each code pays at checkout until its balance is spent):\n",
        );
        for card in &order.gift_cards {
            text.push_str(&format!("{}: {}", card.code, money(card.initial_cents)));
            if let Some(recipient) = &card.recipient
                && !recipient.name.is_empty()
            {
                text.push_str(&format!(", for {}", recipient.name));
            }
            text.push('\n');
        }
    }
    if let Some(address) = &order.shipping_address {
        text.push_str("\nShipping to:\n");
        let lines = [
            address.name.as_str(),
            address.line1.as_str(),
            address.line2.as_str(),
            &format!("{} {}", address.postal_code, address.city),
            address.region.as_str(),
            address.country.as_str(),
        ];
        for line in lines.iter().map(|line| line.trim()) {
            if !line.is_empty() {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    if order.payment_status == super::PaymentStatus::Pending {
        text.push_str(
            "\nYour payment is pending: the payment provider has not confirmed it yet. Please do not pay again; your order's page shows the outcome.\n",
        );
    }
    text.push_str(&format!(
        "\nYour order's page (the link works for {} days):\n{}\n",
        super::ORDER_LINK_LIFETIME_SECONDS / (24 * 60 * 60),
        links.order(&order.id, now)
    ));
    let paid = !order.payment_id.is_empty() || order.gift_card_payment.is_some();
    let subject = if paid {
        "Order confirmed"
    } else {
        "Order received"
    };
    Mail {
        to: order.email.clone(),
        subject: subject.to_owned(),
        text,
        html: None,
        list_unsubscribe: None,
    }
}

/// The request to review the products listed in `request`, sent at `now`; none once the
/// request has expired (a worker that was down for weeks) or lists nothing.
pub fn review_request_mail(
    order: &Order,
    request: &ReviewRequest,
    links: &SiteLinks,
    now: Timestamp,
) -> Option<Mail> {
    const DAY_MS: i64 = 24 * 60 * 60 * 1000;
    if request.is_expired(now) || request.items.is_empty() {
        return None;
    }
    let mut text = String::from(
        "Thank you again for your order. We would love to hear what you think of:\n\n",
    );
    for item in &request.items {
        text.push_str(&format!("- {}\n", item.product_name));
    }
    let days_left = (request.expires_at.millis() - now.millis()) / DAY_MS;
    let validity = match days_left {
        0 => "The link expires within a day.".to_owned(),
        1 => "The link stays valid for 1 more day.".to_owned(),
        days => format!("The link stays valid for {days} days."),
    };
    text.push_str(&format!(
        "\nGive each a star rating, and a few words if you like, here:\n{}\n\n{validity}\n",
        links.review_request(request.token.as_str()),
    ));
    Some(Mail {
        to: order.email.clone(),
        subject: "How was your order?".to_owned(),
        text,
        html: None,
        list_unsubscribe: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::ShippingAddress;
    use crate::reviews::ReviewableItem;
    use crate::reviews::conformance::{fixture_order, fixture_token};

    const DAY_MS: i64 = 24 * 60 * 60 * 1000;
    const NOW: Timestamp = Timestamp(1_795_269_600_000);

    fn links() -> SiteLinks {
        SiteLinks::new("https://shop.example/")
            .with_order_link_key(crate::checkout::OrderLinkKey::new([7; 32]))
    }

    #[test]
    fn the_confirmation_lists_lines_totals_address_and_the_orders_link() {
        let order = Order {
            discount_cents: 300,
            shipping_cost_cents: 500,
            grand_total_cents: 3_200,
            payment_id: "test_ch_1".into(),
            payment_key: String::new(),
            payment_status: crate::checkout::PaymentStatus::Paid,
            shipping_address: Some(ShippingAddress {
                name: "Ada Lovelace".into(),
                line1: "12 St James's Square".into(),
                line2: String::new(),
                city: "London".into(),
                region: String::new(),
                postal_code: "SW1Y 4JH".into(),
                country: "GB".into(),
            }),
            ..fixture_order("order-7")
        };
        let mail = order_confirmation_mail(&order, &links(), NOW);
        assert_eq!(mail.to, "ada@example.com");
        assert_eq!(mail.subject, "Order confirmed");
        expect_test::expect![[r#"
            Thank you for your order.

            1 x Mug (MUG-1): €10.00
            1 x Mug (MUG-1): €10.00
            1 x Bowl (BOWL-1): €10.00

            Subtotal: €30.00
            Discount: €3.00
            Shipping: €5.00
            Tax: €0.00
            Total: €32.00

            Shipping to:
            Ada Lovelace
            12 St James's Square
            SW1Y 4JH London
            GB

            Your order's page (the link works for 180 days):
            https://shop.example/commerce/orders/order-7?link=1810821600.d3685d8969a85c432252f87c8a30e3ce5ba856b24ecf9d57b4c4e1cef2aad550
        "#]]
        .assert_eq(&mail.text);
        let free = order_confirmation_mail(&fixture_order("order-8"), &links(), NOW);
        assert!(!free.text.contains("gift card"));
        assert_eq!(free.subject, "Order received");
        assert!(!free.text.contains("Shipping to:"));
    }

    #[test]
    fn the_confirmation_names_a_gift_card_payment_and_lists_the_cards_bought() {
        use crate::gift_cards::{GiftCard, GiftCardCode, GiftCardPayment, GiftCardRecipient};
        let mut order = Order {
            grand_total_cents: 3_000,
            ..fixture_order("order-9")
        };
        let code = GiftCardCode::from_random([7; 10]);
        order.gift_card_payment = Some(GiftCardPayment {
            code: code.clone(),
            amount_cents: 2_000,
        });
        order.gift_cards = vec![GiftCard {
            code: GiftCardCode::from_random([9; 10]),
            initial_cents: 2_500,
            remaining_cents: 2_500,
            currency: order.currency,
            order_id: order.id.clone(),
            sku: order.lines[0].sku.clone(),
            recipient: Some(GiftCardRecipient {
                name: "Bea".into(),
                email: String::new(),
                message: String::new(),
            }),
            created: order.created,
        }];
        let mail = order_confirmation_mail(&order, &links(), NOW);
        assert_eq!(mail.subject, "Order confirmed");
        let paid_by_card = format!("Paid by gift card ending {}: €20.00\n", code.last4());
        assert!(mail.text.contains(&paid_by_card), "{}", mail.text);
        assert!(
            mail.text.contains("Paid by card: €10.00\n"),
            "{}",
            mail.text
        );
        let issued = format!("{}: €25.00, for Bea\n", order.gift_cards[0].code);
        assert!(mail.text.contains(&issued), "{}", mail.text);
    }

    #[test]
    fn the_review_request_links_to_its_page_until_it_expires() {
        let order = fixture_order("order-7");
        let sent = Timestamp(order.created.millis() + 7 * DAY_MS);
        let request = ReviewRequest::for_order(
            &order,
            fixture_token(1),
            "",
            order.created,
            Timestamp(sent.millis() + 60 * DAY_MS),
            |_| true,
        );
        let mail = review_request_mail(&order, &request, &links(), sent).unwrap();
        assert_eq!(mail.subject, "How was your order?");
        expect_test::expect![[r#"
            Thank you again for your order. We would love to hear what you think of:

            - Mug
            - Bowl

            Give each a star rating, and a few words if you like, here:
            https://shop.example/commerce/review-request?token=review-token-00000001

            The link stays valid for 60 days.
        "#]]
        .assert_eq(&mail.text);
        assert_eq!(
            review_request_mail(&order, &request, &links(), request.expires_at),
            None,
            "an expired request is not sent"
        );
        let empty = ReviewRequest {
            items: Vec::<ReviewableItem>::new(),
            ..request
        };
        assert_eq!(review_request_mail(&order, &empty, &links(), sent), None);
    }
}
