//! The mail that gives a gift card to its recipient: who it is from (the shop), the buyer's
//! message, the code and the balance, and where to check the balance later. Plain text and
//! an HTML part made from the same values. The specification shows no such mail: the wording
//! is ours, what a recipient of a storefront's gift card expects to read.

use super::card::GiftCard;
use crate::forms::mail_html::MailHtml;
use crate::forms::{Mail, SiteLinks};
use crate::money::{FormatOptions, Locale, Money, format};

/// Where the balance check page lives.
pub const GIFT_CARD_BALANCE_PATH: &str = "/gift-cards/balance";

/// The mail giving `card` to its recipient, from the shop called `shop_name` (the site's
/// title); none when the card has no recipient address to send it to.
pub fn gift_card_mail(card: &GiftCard, shop_name: &str, links: &SiteLinks) -> Option<Mail> {
    let recipient = card.recipient.as_ref().filter(|r| !r.email.is_empty())?;
    let shop = shop_name.trim();
    let money = |cents: i64| {
        format(
            Money::new(cents, card.currency),
            &Locale::default(),
            FormatOptions::default(),
        )
    };
    let subject = if shop.is_empty() {
        "You have received a gift card".to_owned()
    } else {
        format!("A gift card from {shop}")
    };
    let greeting = (!recipient.name.is_empty()).then(|| format!("Hello {},", recipient.name));
    let intro = if shop.is_empty() {
        format!(
            "You have received a gift card worth {}.",
            money(card.initial_cents)
        )
    } else {
        format!(
            "You have received a gift card for {shop} worth {}.",
            money(card.initial_cents)
        )
    };
    let code = card.code.to_string();
    let balance = money(card.remaining_cents);
    let how = "Enter the code at checkout: it pays for your order until its balance is spent.";
    let balance_page = links.page(GIFT_CARD_BALANCE_PATH);

    let mut text = String::new();
    let mut html = MailHtml::new().heading(&subject);
    if let Some(greeting) = &greeting {
        text.push_str(&format!("{greeting}\n\n"));
        html = html.paragraph(greeting);
    }
    text.push_str(&format!("{intro}\n\n"));
    html = html.paragraph(&intro);
    if !recipient.message.is_empty() {
        text.push_str(&format!("A message for you:\n{}\n\n", recipient.message));
        html = html
            .paragraph("A message for you:")
            .paragraph(&recipient.message);
    }
    text.push_str(&format!(
        "Gift card code: {code}\nBalance: {balance}\n\n{how}\n\nCheck the balance at any time:\n{balance_page}\n"
    ));
    html = html
        .table([("Gift card code", code), ("Balance", balance)])
        .paragraph(how)
        .link("Check the balance", &balance_page);
    Some(Mail::composed(recipient.email.clone(), subject, text, html))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::Timestamp;
    use crate::catalog::Sku;
    use crate::gift_cards::{GiftCardCode, GiftCardRecipient};
    use crate::money::Currency;

    fn card(recipient: Option<GiftCardRecipient>) -> GiftCard {
        GiftCard {
            code: GiftCardCode::from_random([7; 10]),
            initial_cents: 5_000,
            remaining_cents: 5_000,
            currency: Currency::Eur,
            order_id: "order-1".into(),
            sku: Sku::parse("GIFT-50").unwrap(),
            recipient,
            created: Timestamp(1_795_269_600_000),
        }
    }

    fn recipient(name: &str, email: &str, message: &str) -> Option<GiftCardRecipient> {
        Some(GiftCardRecipient {
            name: name.into(),
            email: email.into(),
            message: message.into(),
        })
    }

    #[test]
    fn the_recipient_reads_the_code_the_balance_and_the_message_in_both_parts() {
        let links = SiteLinks::new("https://shop.example/");
        let card = card(recipient("Bea", "bea@example.com", "Happy <birthday>!"));
        let mail = gift_card_mail(&card, "Clay & Co", &links).unwrap();
        assert_eq!(mail.to, "bea@example.com");
        assert_eq!(mail.subject, "A gift card from Clay & Co");
        let expected = format!(
            "Hello Bea,\n\nYou have received a gift card for Clay & Co worth €50.00.\n\n\
             A message for you:\nHappy <birthday>!\n\nGift card code: {}\nBalance: €50.00\n\n\
             Enter the code at checkout: it pays for your order until its balance is spent.\n\n\
             Check the balance at any time:\nhttps://shop.example/gift-cards/balance\n",
            card.code
        );
        assert_eq!(mail.text, expected);
        let html = mail.html.unwrap();
        assert!(html.contains(&card.code.to_string()), "{html}");
        assert!(html.contains("€50.00"), "{html}");
        assert!(html.contains("Happy &lt;birthday&gt;!"), "{html}");
        assert!(html.contains("Clay &amp; Co"), "{html}");
        assert!(html.contains("href=\"https://shop.example/gift-cards/balance\""));
    }

    #[test]
    fn a_card_without_a_recipient_address_is_not_mailed() {
        let links = SiteLinks::new("https://shop.example");
        assert_eq!(gift_card_mail(&card(None), "Shop", &links), None);
        let no_email = card(recipient("Bea", "", "Enjoy"));
        assert_eq!(gift_card_mail(&no_email, "Shop", &links), None);
        let anonymous =
            gift_card_mail(&card(recipient("", "b@example.com", "")), "", &links).unwrap();
        assert_eq!(anonymous.subject, "You have received a gift card");
        assert!(
            anonymous
                .text
                .starts_with("You have received a gift card worth €50.00.")
        );
    }
}
