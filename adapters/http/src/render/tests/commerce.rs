//! Prices in every display state, the shop grid, product pages and the product block.

use vitrine_core::money::Currency;

use super::*;

#[test]
fn the_shop_grid_shows_every_price_state() {
    let html = render("/shop");
    let main = element_at(&html, "class=\"site-main\"");
    assert!(main.contains("<h1 class=\"page-title\">Shop</h1>"));
    assert!(main.contains("<p class=\"list-header__description\">Bowls, mugs and vases.</p>"));
    assert!(main.contains("<ul class=\"cards cards--grid product-grid\">"));
    // On sale: the sale price, the regular price struck through, and a Sale mark.
    assert!(main.contains(
        "<p class=\"price\"><span class=\"visually-hidden\">Sale price:</span> <span class=\"price__current\">$36.00</span> <s class=\"price__regular\"><span class=\"visually-hidden\">Regular price:</span> $48.00</s> <span class=\"badge badge--sale\">Sale</span></p>"
    ), "{main}");
    // Sold out.
    assert!(main.contains(
        "<p class=\"price\"><span class=\"price__current\">$28.00</span> <span class=\"badge badge--sold-out\">Sold out</span></p>"
    ));
    // Varied prices read from the lowest.
    assert!(main.contains(
        "<p class=\"price\"><span class=\"price__from\">from</span> <span class=\"price__current\">$18.00</span></p>"
    ));
    assert!(main.contains("<h2 class=\"card__title\"><a class=\"card__link\" href=\"/shop/bowl\">Serving bowl</a></h2>"));
}

#[test]
fn prices_use_the_store_currency_and_site_locale() {
    let mut site = site::studio();
    site.settings.store.selected_currency = Currency::Eur;
    site.settings.locale = "de-DE".into();
    let html = render_site(&site, "/shop");
    assert!(
        html.contains("<span class=\"price__current\">36,00\u{a0}€</span>"),
        "{html}"
    );
}

#[test]
fn a_blog_lists_posts_with_dates() {
    let html = render("/journal");
    let main = element_at(&html, "class=\"site-main\"");
    assert!(main.contains("<h1 class=\"page-title\">Journal</h1>"));
    assert!(main.contains("<ul class=\"cards cards--list post-list\">"));
    assert!(main.contains("<time datetime=\"2020-09-13\">September 13, 2020</time>"));
}

#[test]
fn a_product_page_has_a_cart_form_with_variants_and_quantity() {
    let html = render("/shop/bowl");
    let main = element_at(&html, "class=\"site-main\"");
    assert!(main.contains("<h1 class=\"product-page__title\">Serving bowl</h1>"));
    assert!(main.contains("<span class=\"price__from\">from</span>"));
    let form = element_at(main, "class=\"add-to-cart\"");
    for expected in [
        "<form class=\"add-to-cart\" method=\"post\" action=\"/cart\" data-island=\"product\" data-island-props=\"{&#34;itemId&#34;:&#34;bowl&#34;,&#34;variants&#34;:[{&#34;sku&#34;:&#34;BOWL-S&#34;,&#34;price&#34;:&#34;$18.00&#34;,&#34;regular&#34;:null,&#34;onSale&#34;:false,&#34;soldOut&#34;:false},{&#34;sku&#34;:&#34;BOWL-L&#34;,&#34;price&#34;:&#34;$24.00&#34;,&#34;regular&#34;:null,&#34;onSale&#34;:false,&#34;soldOut&#34;:true}]}\">",
        "<input type=\"hidden\" name=\"itemId\" value=\"bowl\">",
        "<p class=\"add-to-cart__status\" role=\"status\" aria-live=\"polite\"></p>",
        "<label class=\"field__label\" for=\"product-variant\">Option</label>",
        "<select class=\"field__control\" id=\"product-variant\" name=\"sku\" required>",
        "<option value=\"BOWL-S\">Size: Small — $18.00</option>",
        "<option value=\"BOWL-L\" disabled>Size: Large — $24.00 (Sold out)</option>",
        "<label class=\"field__label\" for=\"product-quantity\">Quantity</label>",
        "<input class=\"field__control\" id=\"product-quantity\" type=\"number\" name=\"quantity\" value=\"1\" min=\"1\" step=\"1\" inputmode=\"numeric\" required>",
        "<button class=\"button button--primary\" type=\"submit\">Add to cart</button>",
    ] {
        assert!(form.contains(expected), "missing {expected} in {form}");
    }
    assert!(
        main.contains("<img src=\"/media/bowl.jpg\" srcset=\"/media/bowl.jpg?format=100w 100w, ")
    );
    assert!(main.contains(" alt=\"Serving bowl\" width=\"1200\" height=\"800\" data-image-dimensions=\"1200x800\" fetchpriority=\"high\" decoding=\"async\">"));
}

#[test]
fn a_sold_out_product_cannot_be_added() {
    let html = render("/shop/mug");
    let form = element_at(&html, "class=\"add-to-cart\"");
    assert!(form.contains("<input type=\"hidden\" name=\"sku\" value=\"MUG-1\">"));
    assert!(!form.contains("<select"));
    assert!(form.contains(
        "<button class=\"button button--primary\" type=\"submit\" disabled>Sold out</button>"
    ));
}

#[test]
fn a_blog_post_shows_its_date_author_and_tags() {
    let html = render("/journal/first");
    let main = element_at(&html, "class=\"site-main\"");
    assert!(main.contains("<h1 class=\"post__title\">Post first</h1>"));
    assert!(main.contains(
        "<p class=\"post__meta\"><time datetime=\"2020-09-13\">September 13, 2020</time> <span aria-hidden=\"true\">·</span> <span class=\"post__author\">By Ada</span></p>"
    ), "{main}");
    assert!(main.contains("<p class=\"post__tags\"><span class=\"post__tags-label\">Tags:</span> <span class=\"tag\">news</span></p>"));
    assert!(main.contains("<div class=\"sqs-html\"><p>An excerpt</p></div>"));
    assert!(main.contains("<a class=\"post__back\" href=\"/journal\">Back to Journal</a>"));
}

#[test]
fn the_product_block_sells_its_product() {
    let html = render("/kitchen-sink");
    let block = element_at(&html, "id=\"block-featured\"");
    assert!(
        block.contains(
            "<h2 class=\"product-block__title\"><a href=\"/shop/vase\">Tall vase</a></h2>"
        )
    );
    assert!(block.contains("<span class=\"badge badge--sale\">Sale</span>"));
    assert!(block.contains(
        "<form class=\"add-to-cart\" method=\"post\" action=\"/cart\" data-island=\"product\""
    ));
    assert!(block.contains("id=\"block-featured-quantity\""));
}

#[test]
fn a_product_page_describes_its_offers_as_json_ld() {
    let html = render("/shop/bowl");
    let start = "<script type=\"application/ld+json\">";
    let at = html.find(start).expect("the product page has JSON-LD") + start.len();
    let end = html[at..].find("</script>").expect("closed") + at;
    let data: serde_json::Value = serde_json::from_str(&html[at..end]).expect("valid JSON");
    insta::assert_json_snapshot!(data);
}

#[test]
fn only_product_pages_carry_product_json_ld() {
    assert!(!render("/journal/first").contains("application/ld+json"));
    assert!(!render("/kitchen-sink").contains("application/ld+json"));
}

#[test]
fn a_subscription_product_shows_its_plan() {
    use vitrine_core::catalog::{BillingPeriod, BillingUnit, SubscriptionPlan};
    let mut site = site::studio();
    let bowl = site
        .items
        .iter_mut()
        .find(|item| item.slug.as_str() == "bowl")
        .expect("the studio sells a bowl");
    bowl.product.as_mut().unwrap().subscription_plan = Some(SubscriptionPlan {
        num_billing_cycles: Some(0),
        billing_period: BillingPeriod {
            value: 1,
            unit: BillingUnit::Month,
        },
    });
    let html = render_site(&site, "/shop/bowl");
    assert!(
        html.contains("<p class=\"product-page__subscription\">Every month, until cancelled</p>")
    );
    assert!(!render("/shop/bowl").contains("product-page__subscription"));
}
