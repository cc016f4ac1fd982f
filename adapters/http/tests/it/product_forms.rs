//! Product forms through the router: the fixture's tote asks for a required name to engrave
//! (at most 12 characters) and an optional gift wrap; adding it needs a valid answer, a cart
//! line shows its answers and edits them over the API and without JavaScript, and the order
//! keeps them.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use vitrine_core::cart::{ShippingOption, ShippingRate, StoreRules};
use vitrine_core::catalog::ProductForm;
use vitrine_core::checkout::{CartService, InMemoryCommerceStore};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{FormField, FormFieldType};
use vitrine_http::AppState;

use crate::support::{Answer, config, fixture_assets, send, site};

const CRUMB: &str = "test-crumb";
const TOTE_PAGE: &str = "/journal/tote";

fn engraving_form() -> ProductForm {
    let field = |id: &str, title: &str, field_type, required, options: &[&str]| FormField {
        id: id.into(),
        field_type,
        title: title.into(),
        description: String::new(),
        placeholder: String::new(),
        required,
        options: options.iter().map(|option| (*option).to_owned()).collect(),
        max_length: (field_type == FormFieldType::Text).then_some(12),
    };
    ProductForm::new(
        "Engraving",
        vec![
            field(
                "engraving",
                "Name to engrave",
                FormFieldType::Text,
                true,
                &[],
            ),
            field(
                "wrap",
                "Gift wrap",
                FormFieldType::Radio,
                false,
                &["None", "Linen"],
            ),
        ],
    )
    .unwrap()
}

/// The fixture site with the engraving form on the tote, a store that ships at a flat rate.
async fn app() -> axum::Router {
    app_where(|_| {}).await
}

/// [`app`] with each product changed by `edit` as well.
async fn app_where(edit: impl Fn(&mut vitrine_core::catalog::Product)) -> axum::Router {
    let mut site = site();
    for item in &mut site.items {
        if let Some(product) = item.product.as_mut() {
            product.form = Some(engraving_form());
            edit(product);
        }
    }
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let rules = StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard shipping".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        ..StoreRules::default()
    };
    let carts = CartService::new(
        repository.clone(),
        Arc::new(InMemoryCommerceStore::new()),
        rules,
    );
    let pages = Arc::new(PageService::new(repository.clone()));
    vitrine_http::router(
        AppState::new(pages, repository, Arc::new(fixture_assets()), config())
            .with_carts(Arc::new(carts)),
    )
}

/// [`app`] with every variant unlimited, so a cart may hold as much as its limits allow.
async fn unlimited_app() -> axum::Router {
    app_where(|product| {
        for variant in &mut product.variants {
            variant.unlimited = true;
        }
    })
    .await
}

fn api(method: &str, path: &str, body: Option<Value>, cart: Option<&str>) -> Request<Body> {
    let cookies = match cart {
        Some(token) => format!("crumb={CRUMB}; vitrine_cart={token}"),
        None => format!("crumb={CRUMB}"),
    };
    Request::builder()
        .method(method)
        .uri(format!("{path}?crumb={CRUMB}"))
        .header("cookie", cookies)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, |body| Body::from(body.to_string())))
        .unwrap()
}

/// `PUT` of a line's form with `body` (`{form: {...}}`).
async fn save_answers(app: &axum::Router, path: &str, token: &str, body: Value) -> Answer {
    send(app, api("PUT", path, Some(body), Some(token))).await
}

fn form_post(path: &str, body: &str, cart: Option<&str>) -> Request<Body> {
    let mut request = Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin");
    if let Some(token) = cart {
        request = request.header("cookie", format!("vitrine_cart={token}"));
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

fn page(path: &str, cart: &str) -> Request<Body> {
    Request::get(path)
        .header("cookie", format!("vitrine_cart={cart}"))
        .body(Body::empty())
        .unwrap()
}

fn cart_cookie(answer: &Answer) -> String {
    answer
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix("vitrine_cart="))
        .and_then(|rest| rest.split(';').next())
        .expect("a cart cookie is set")
        .to_owned()
}

fn add(engraving: Value, quantity: u32) -> Value {
    json!({ "itemId": "tote", "sku": "TOTE-1", "quantity": quantity, "form": engraving })
}

/// Adds a tote engraved `name` over the API; the cart token of a new cart.
async fn add_engraved(app: &axum::Router, name: &str, cart: Option<&str>) -> (String, Value) {
    let added = send(
        app,
        api(
            "POST",
            "/api/commerce/cart/items",
            Some(add(json!({ "engraving": name }), 1)),
            cart,
        ),
    )
    .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text());
    let token = cart.map_or_else(|| cart_cookie(&added), str::to_owned);
    (token, added.json())
}

#[tokio::test]
async fn a_cart_past_its_hundredth_line_refuses_with_the_cart_text_and_keeps_its_lines() {
    let app = unlimited_app().await;
    let (token, _) = add_engraved(&app, "N0", None).await;
    for n in 1..vitrine_core::cart::MAX_CART_LINES {
        add_engraved(&app, &format!("N{n}"), Some(&token)).await;
    }
    let refused = send(
        &app,
        api(
            "POST",
            "/api/commerce/cart/items",
            Some(add(json!({ "engraving": "One more" }), 1)),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(
        refused.status,
        StatusCode::BAD_REQUEST,
        "{}",
        refused.text()
    );
    assert_eq!(
        refused.json(),
        json!({ "error": "Unable to add item", "reason": "TOO_MANY_LINES", "target": "" })
    );
    let cart = send(&app, api("GET", "/api/commerce/cart", None, Some(&token))).await;
    let entries = cart.json()["cart"]["entries"].as_array().unwrap().len();
    assert_eq!(entries, vitrine_core::cart::MAX_CART_LINES);
}

#[tokio::test]
async fn checkout_entry_refuses_to_hold_more_than_a_hundred_of_an_item() {
    let app = unlimited_app().await;
    let added = send(
        &app,
        api(
            "POST",
            "/api/commerce/cart/items",
            Some(add(json!({ "engraving": "Ada" }), 101)),
            None,
        ),
    )
    .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text());
    let token = cart_cookie(&added);
    let refused = send(&app, form_post("/commerce/goto-checkout", "", Some(&token))).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(
        refused
            .text()
            .contains("You can check out at most 100 of Post tote at once."),
        "{}",
        refused.text()
    );
}

#[tokio::test]
async fn the_product_page_asks_for_the_form_inside_its_add_to_cart_form() {
    let app = app().await;
    let answer = send(&app, Request::get(TOTE_PAGE).body(Body::empty()).unwrap()).await;
    assert_eq!(answer.status, StatusCode::OK);
    let html = answer.text();
    let form = &html[html
        .find("<form class=\"add-to-cart\"")
        .expect("an add-to-cart form")..];
    let form = &form[..form.find("</form>").unwrap()];
    assert!(form.contains(" data-product-form>"), "{form}");
    assert!(
        form.contains(r#"<legend class="product-form__title">Engraving</legend>"#),
        "{form}"
    );
    assert!(
        form.contains(r#"name="form[engraving]" type="text" value="" maxlength="12""#),
        "{form}"
    );
    assert!(
        form.contains(r#"name="form[wrap]" type="radio" value="Linen""#),
        "{form}"
    );
    let label_for = |control: &str| {
        let at = form
            .find(control)
            .unwrap_or_else(|| panic!("{control} in {form}"));
        let id_at = form[..at].rfind("id=\"").unwrap() + 4;
        let id = &form[id_at..id_at + form[id_at..].find('"').unwrap()];
        form.contains(&format!(
            "<label class=\"field__label\" for=\"{id}\">Name to engrave"
        ))
    };
    assert!(
        label_for(r#"name="form[engraving]""#),
        "a labelled control: {form}"
    );
}

#[tokio::test]
async fn an_add_without_a_required_answer_is_refused_by_field_and_adds_nothing() {
    let app = app().await;
    let refused = send(
        &app,
        api(
            "POST",
            "/api/commerce/cart/items",
            Some(add(json!({ "engraving": " " }), 1)),
            None,
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let body = refused.json();
    assert_eq!(
        body["error"],
        "Update the missing or invalid information above"
    );
    assert_eq!(body["reason"], "INVALID_ANSWERS");
    assert_eq!(body["target"], "engraving");
    assert_eq!(body["errors"]["engraving"], "Name to engrave is required.");
    assert!(
        refused.headers.get("set-cookie").is_none(),
        "no cart was started"
    );

    for (form, field, message) in [
        (
            json!({ "engraving": "Bartholomew Jr" }),
            "engraving",
            "You have exceeded the character limit.",
        ),
        (
            json!({ "engraving": "Ada", "wrap": "Silk" }),
            "wrap",
            "Could not parse the form fields, please check your entries.",
        ),
        (
            json!({ "engraving": "Ada", "colour": "Red" }),
            "colour",
            "This product does not ask for this.",
        ),
    ] {
        let refused = send(
            &app,
            api("POST", "/api/commerce/cart/items", Some(add(form, 1)), None),
        )
        .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            refused.json()["errors"][field],
            message,
            "{}",
            refused.text()
        );
    }

    let wrong_type = send(
        &app,
        api(
            "POST",
            "/api/commerce/cart/items",
            Some(add(json!({ "engraving": 5 }), 1)),
            None,
        ),
    )
    .await;
    assert_eq!(wrong_type.status, StatusCode::BAD_REQUEST);
    assert_eq!(wrong_type.json()["field"], "form");
}

#[tokio::test]
async fn other_answers_are_another_line_addressed_by_its_id() {
    let app = app().await;
    let (token, _) = add_engraved(&app, "Ada", None).await;
    add_engraved(&app, "Ada", Some(&token)).await;
    let (_, answer) = add_engraved(&app, "Bo", Some(&token)).await;
    let entries = answer["cart"]["entries"].as_array().unwrap().clone();
    assert_eq!(
        entries.len(),
        2,
        "same answers join a line, others make one"
    );
    assert_eq!(entries[0]["quantity"], 2);
    assert_eq!(
        entries[0]["answers"],
        json!([{ "fieldId": "engraving", "title": "Name to engrave", "value": "Ada" }])
    );
    let (ada, bo) = (
        entries[0]["lineId"].as_str().unwrap().to_owned(),
        entries[1]["lineId"].as_str().unwrap().to_owned(),
    );
    assert!(ada.starts_with("TOTE-1~") && bo.starts_with("TOTE-1~") && ada != bo);

    let ambiguous = send(
        &app,
        api(
            "PUT",
            "/api/commerce/cart/items/TOTE-1",
            Some(json!({ "quantity": 1 })),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(ambiguous.status, StatusCode::CONFLICT);
    assert_eq!(ambiguous.json()["reason"], "AMBIGUOUS_LINE");
    assert_eq!(ambiguous.json()["error"], "Unable to update quantity");

    let changed = send(
        &app,
        api(
            "PUT",
            &format!("/api/commerce/cart/items/{bo}"),
            Some(json!({ "quantity": 5 })),
            Some(&token),
        ),
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
    let body = changed.json();
    assert_eq!(
        body["cart"]["entries"][1]["quantity"], 1,
        "3 in stock, 2 on the other line"
    );
    assert_eq!(body["warnings"][0]["code"], "QUANTITY_REDUCED");

    let removed = send(
        &app,
        api(
            "DELETE",
            &format!("/api/commerce/cart/items/{ada}"),
            None,
            Some(&token),
        ),
    )
    .await;
    assert_eq!(removed.status, StatusCode::OK);
    assert_eq!(
        removed.json()["cart"]["entries"].as_array().unwrap().len(),
        1
    );
    let by_sku = send(
        &app,
        api(
            "DELETE",
            "/api/commerce/cart/items/TOTE-1",
            None,
            Some(&token),
        ),
    )
    .await;
    assert_eq!(
        by_sku.status,
        StatusCode::OK,
        "the SKU names its only line now"
    );
    let gone = send(
        &app,
        api(
            "DELETE",
            &format!("/api/commerce/cart/items/{bo}"),
            None,
            Some(&token),
        ),
    )
    .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert_eq!(gone.json()["reason"], "NOT_IN_CART");
}

#[tokio::test]
async fn a_lines_form_opens_with_its_answers_and_saves_new_ones() {
    let app = app().await;
    let (token, answer) = add_engraved(&app, "Ada", None).await;
    let line = answer["cart"]["entries"][0]["lineId"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/commerce/cart/items/{line}/form");

    let opened = send(&app, api("GET", &path, None, Some(&token))).await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.text());
    let body = opened.json();
    assert_eq!(body["lineId"], line.as_str());
    assert_eq!(body["form"]["title"], "Engraving");
    assert_eq!(body["form"]["fields"][0]["maxLength"], 12);
    assert_eq!(body["answers"], json!({ "engraving": "Ada" }));

    let refused = save_answers(&app, &path, &token, json!({ "form": { "engraving": "" } })).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused.json()["errors"]["engraving"],
        "Name to engrave is required."
    );

    let saved = save_answers(
        &app,
        &path,
        &token,
        json!({ "form": { "engraving": "Cy", "wrap": "Linen" } }),
    )
    .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let entry = &saved.json()["cart"]["entries"][0];
    assert_eq!(entry["answers"][0]["value"], "Cy");
    assert_eq!(
        entry["answers"][1],
        json!({ "fieldId": "wrap", "title": "Gift wrap", "value": "Linen" })
    );
    assert_ne!(entry["lineId"], line.as_str(), "the id follows the answers");

    let stale = send(&app, api("GET", &path, None, Some(&token))).await;
    assert_eq!(stale.status, StatusCode::NOT_FOUND);
    assert_eq!(stale.json()["error"], "Unable to open form");
    let stale_save = save_answers(
        &app,
        &path,
        &token,
        json!({ "form": { "engraving": "Di" } }),
    )
    .await;
    assert_eq!(stale_save.status, StatusCode::NOT_FOUND);
    assert_eq!(stale_save.json()["error"], "Unable to update form");
    let no_cart = send(&app, api("GET", &path, None, None)).await;
    assert_eq!(no_cart.status, StatusCode::NOT_FOUND);
    assert_eq!(no_cart.json()["error"], "Unable to open form");
}

#[tokio::test]
async fn without_javascript_a_refused_add_shows_the_form_again_with_its_messages() {
    let app = app().await;
    let refused = send(
        &app,
        form_post(
            "/cart",
            "itemId=tote&sku=TOTE-1&quantity=2&form%5Bengraving%5D=&form%5Bwrap%5D=Linen",
            None,
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let html = refused.text();
    assert!(
        html.contains("class=\"site-header\""),
        "inside the site chrome: {html}"
    );
    assert!(
        html.contains(r#"<form class="line-form" method="post" action="/cart">"#),
        "{html}"
    );
    for hidden in [
        r#"name="itemId" value="tote""#,
        r#"name="sku" value="TOTE-1""#,
        r#"name="quantity" value="2""#,
    ] {
        assert!(html.contains(hidden), "{hidden} in {html}");
    }
    assert!(
        html.contains(r#"value="Linen" checked"#),
        "what was chosen stays: {html}"
    );
    assert!(html.contains(r#"aria-invalid="true""#), "{html}");
    assert!(html.contains(">Name to engrave is required.</p>"), "{html}");
    assert!(
        html.contains("Update the missing or invalid information above"),
        "{html}"
    );

    let added = send(
        &app,
        form_post(
            "/cart",
            "itemId=tote&sku=TOTE-1&quantity=2&form%5Bengraving%5D=Ada",
            None,
        ),
    )
    .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER);
    let token = cart_cookie(&added);
    let cart = send(&app, page("/cart", &token)).await.text();
    assert!(
        cart.contains("<dt>Name to engrave</dt><dd>Ada</dd>"),
        "{cart}"
    );
    let edit_at = cart
        .find("class=\"cart-line__edit\" href=\"")
        .expect("an edit link")
        + 30;
    let href = &cart[edit_at..edit_at + cart[edit_at..].find('"').unwrap()];
    assert!(href.starts_with("/cart/form?line=TOTE-1%7E"), "{href}");
    assert!(
        cart.contains("Edit<span class=\"visually-hidden\"> details of Post tote</span>"),
        "{cart}"
    );
    let line_at = cart.find(r#"name="line" value=""#).unwrap() + 19;
    let line = &cart[line_at..line_at + cart[line_at..].find('"').unwrap()];
    assert!(
        line.starts_with("TOTE-1~"),
        "cart forms name the line: {line}"
    );
}

#[tokio::test]
async fn without_javascript_a_lines_answers_are_edited_on_a_page_of_their_own() {
    let app = app().await;
    let (token, answer) = add_engraved(&app, "Ada", None).await;
    let line = answer["cart"]["entries"][0]["lineId"]
        .as_str()
        .unwrap()
        .to_owned();
    let encoded: String = url::form_urlencoded::byte_serialize(line.as_bytes()).collect();

    let edit = send(&app, page(&format!("/cart/form?line={encoded}"), &token)).await;
    assert_eq!(edit.status, StatusCode::OK);
    let html = edit.text();
    assert!(html.contains("class=\"site-header\""), "{html}");
    assert!(
        html.contains("<h1 class=\"commerce-page__title\">Engraving for Post tote</h1>"),
        "{html}"
    );
    assert!(
        html.contains(r#"<form class="line-form" method="post" action="/cart/form">"#),
        "{html}"
    );
    assert!(
        html.contains(&format!(r#"name="line" value="{line}""#)),
        "{html}"
    );
    assert!(
        html.contains(r#"name="form[engraving]" type="text" value="Ada""#),
        "{html}"
    );
    assert_eq!(edit.header("cache-control"), "no-store");

    let body = |engraving: &str| format!("line={encoded}&form%5Bengraving%5D={engraving}");
    let refused = send(
        &app,
        form_post("/cart/form", &body("Bartholomew+Jr"), Some(&token)),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let html = refused.text();
    assert!(
        html.contains(r#"value="Bartholomew Jr""#),
        "what was typed stays: {html}"
    );
    assert!(
        html.contains(">You have exceeded the character limit.</p>"),
        "{html}"
    );

    let saved = send(&app, form_post("/cart/form", &body("Bo"), Some(&token))).await;
    assert_eq!(saved.status, StatusCode::SEE_OTHER);
    assert_eq!(saved.header("location"), "/cart");
    let cart = send(&app, page("/cart", &token)).await.text();
    assert!(
        cart.contains("<dd>Bo</dd>") && !cart.contains("<dd>Ada</dd>"),
        "{cart}"
    );

    let stale = send(&app, page(&format!("/cart/form?line={encoded}"), &token)).await;
    assert_eq!(stale.status, StatusCode::NOT_FOUND);
    assert!(stale.text().contains("Unable to open form"));
    let stale_save = send(&app, form_post("/cart/form", &body("Cy"), Some(&token))).await;
    assert!(stale_save.text().contains("Unable to update form"));
}

#[tokio::test]
async fn a_purchased_carts_answers_stay_and_the_order_page_shows_them() {
    let app = app().await;
    let (token, _) = add_engraved(&app, "Ada", None).await;
    let entry = send(&app, form_post("/commerce/goto-checkout", "", Some(&token))).await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER);
    let checkout = send(&app, page("/checkout", &token)).await.text();
    let marker = "name=\"idempotencyKey\" value=\"";
    let at = checkout.find(marker).expect("the form carries a key") + marker.len();
    let key = &checkout[at..at + checkout[at..].find('"').unwrap()];
    let fields = format!(
        "email=ada%40example.com&name=Ada&addressLine1=1+Main+St&city=Boston&region=MA\
         &postalCode=02139&country=US&shippingOption=standard&cardExpiry=12%2F40&cardCvc=123\
         &cardNumber=4242+4242+4242+4242&idempotencyKey={key}"
    );
    let placed = send(&app, form_post("/checkout", &fields, Some(&token))).await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
    let order_page = placed.header("location").to_owned();
    let order = send(&app, page(&order_page, &token)).await.text();
    assert!(
        order.contains("<dt>Name to engrave</dt><dd>Ada</dd>"),
        "{order}"
    );

    let cart = send(&app, api("GET", "/api/commerce/cart", None, Some(&token))).await;
    let line = cart.json()["cart"]["entries"][0]["lineId"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/commerce/cart/items/{line}/form");
    let opened = send(&app, api("GET", &path, None, Some(&token))).await;
    assert_eq!(opened.status, StatusCode::CONFLICT);
    assert_eq!(opened.json()["reason"], "ALREADY_PURCHASED");
    assert_eq!(opened.json()["error"], "Unable to open form");
    let saved = save_answers(
        &app,
        &path,
        &token,
        json!({ "form": { "engraving": "Bo" } }),
    )
    .await;
    assert_eq!(saved.status, StatusCode::CONFLICT);
    assert_eq!(saved.json()["error"], "Unable to update form");
    let purchased = send(&app, page("/cart", &token)).await.text();
    assert!(purchased.contains("<dd>Ada</dd>"), "{purchased}");
    assert!(
        !purchased.contains("cart-line__edit"),
        "no edit on a purchased cart: {purchased}"
    );
}
