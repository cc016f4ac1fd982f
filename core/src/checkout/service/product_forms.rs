//! Product forms in the cart: adding a product with the shopper's answers to its form, and
//! opening and saving a line's answers later. Answers are always checked against the form the
//! catalogue publishes now, so an owner's change to a form applies to the next save.

use super::{CartService, CartServiceError, CartUpdate};
use crate::cart::{CartEntry, CartError, CartState, CartToken, LineId, Timestamp};
use crate::catalog::{ProductForm, Sku, SubmittedAnswers, UNKNOWN_FIELD};
use crate::enums::ItemStatus;
use crate::forms::FieldErrors;
use crate::site::ItemId;

/// Answers a product's form refused, with what the shopper needs to put them right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidAnswers {
    pub product_name: String,
    /// The product's form; none when the product asks for nothing and answers came anyway.
    pub form: Option<ProductForm>,
    /// Field id to message.
    pub errors: FieldErrors,
}

/// A cart line with its product's form, for the shopper to change the answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineForm {
    pub line: CartEntry,
    pub form: ProductForm,
}

impl CartService {
    /// Adds `quantity` of the variant `sku` of product `item` with the shopper's answers to
    /// the product's form, creating the cart when it does not exist yet. A product with a
    /// form is added only with answers its form accepts (a form of optional fields accepts
    /// none); a product without one takes no answers.
    pub async fn add_item_with_answers(
        &self,
        token: &CartToken,
        item: &ItemId,
        sku: &Sku,
        quantity: u32,
        submitted: &SubmittedAnswers,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let (purchasable, form) = self.purchasable(item, sku).await?;
        let answers = match form {
            Some(form) => Some(
                form.read(submitted)
                    .map_err(|errors| invalid(&purchasable.product_name, Some(form), errors))?,
            ),
            None if submitted.is_empty() => None,
            None => {
                let errors = submitted
                    .keys()
                    .map(|id| (id.clone(), UNKNOWN_FIELD.to_owned()))
                    .collect();
                return Err(invalid(&purchasable.product_name, None, errors));
            }
        };
        let mut cart = match self.store.load_cart(token).await? {
            Some(cart) => cart,
            None => CartState::new(token.as_str(), self.website_id().await?, now),
        };
        let warnings = cart.add_item_with_answers(&purchasable, quantity, answers)?;
        self.save(token, cart, warnings, now).await
    }

    /// A line of the cart under `token` and its product's form, with the answers so far. A
    /// purchased cart's answers cannot change, so its forms do not open.
    pub async fn line_form(
        &self,
        token: &CartToken,
        line: &LineId,
    ) -> Result<LineForm, CartServiceError> {
        let cart = self.load(token).await?;
        self.open_line_form(&cart, line).await
    }

    /// Checks `submitted` against the line's product form and keeps it as the line's
    /// answers. A line whose new answers equal another line's of the same variant joins it.
    pub async fn update_answers(
        &self,
        token: &CartToken,
        line: &LineId,
        submitted: &SubmittedAnswers,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let mut cart = self.load(token).await?;
        let LineForm { line: entry, form } = self.open_line_form(&cart, line).await?;
        let answers = form
            .read(submitted)
            .map_err(|errors| invalid(&entry.product_name, Some(form), errors))?;
        let warnings = cart.update_answers(line, answers)?;
        self.save(token, cart, warnings, now).await
    }

    async fn open_line_form(
        &self,
        cart: &CartState,
        line: &LineId,
    ) -> Result<LineForm, CartServiceError> {
        if cart.is_purchased {
            return Err(CartError::AlreadyPurchased.into());
        }
        let entry = cart.line(line)?.clone();
        let form = self
            .published_form(&entry.product_id)
            .await?
            .ok_or_else(|| CartServiceError::NoProductForm(line.clone()))?;
        Ok(LineForm { line: entry, form })
    }

    /// The form the published product `product_id` asks for now, if any.
    async fn published_form(
        &self,
        product_id: &str,
    ) -> Result<Option<ProductForm>, CartServiceError> {
        let Ok(id) = ItemId::parse(product_id) else {
            return Ok(None);
        };
        let item = self.site.item(&id).await?;
        Ok(item
            .filter(|item| item.status == ItemStatus::Published)
            .and_then(|item| item.product)
            .and_then(|product| product.form))
    }
}

fn invalid(product_name: &str, form: Option<ProductForm>, errors: FieldErrors) -> CartServiceError {
    CartServiceError::InvalidAnswers(Box::new(InvalidAnswers {
        product_name: product_name.to_owned(),
        form,
        errors,
    }))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::test_shop::standard_shipping;
    use super::*;
    use crate::catalog::{FormAnswer, FormAnswers};
    use crate::checkout::{IdempotencyKey, InMemoryCommerceStore};
    use crate::ports::SiteRepository;
    use crate::ports::conformance::fixture_site;
    use crate::ports::memory::MemorySiteRepository;
    use crate::site::{FormField, FormFieldType};

    const NOW: Timestamp = Timestamp(1_700_000_000_000);

    fn engraving_form() -> ProductForm {
        ProductForm::new(
            "Engraving",
            vec![FormField {
                id: "engraving".into(),
                field_type: FormFieldType::Text,
                title: "Name to engrave".into(),
                description: String::new(),
                placeholder: String::new(),
                required: true,
                options: Vec::new(),
                max_length: Some(12),
            }],
        )
        .unwrap()
    }

    /// The fixture shop (tote `TOTE-1`, 3 in stock) with `form` on the tote.
    async fn service(form: Option<ProductForm>) -> (CartService, Arc<MemorySiteRepository>) {
        let mut site = fixture_site("Shop");
        for item in &mut site.items {
            if let Some(product) = item.product.as_mut() {
                product.form = form.clone();
            }
        }
        let repository = Arc::new(MemorySiteRepository::new());
        repository.replace_site(&site).await.unwrap();
        let service = CartService::new(
            repository.clone(),
            Arc::new(InMemoryCommerceStore::new()),
            standard_shipping(),
        );
        (service, repository)
    }

    fn token() -> CartToken {
        CartToken::parse("shopper-00000001").unwrap()
    }

    fn tote() -> (ItemId, Sku) {
        (
            ItemId::parse("tote").unwrap(),
            Sku::parse("TOTE-1").unwrap(),
        )
    }

    fn engraving(name: &str) -> SubmittedAnswers {
        [("engraving".to_owned(), name.to_owned())].into()
    }

    async fn add(
        service: &CartService,
        name: &str,
        quantity: u32,
    ) -> Result<CartUpdate, CartServiceError> {
        let (item, sku) = tote();
        service
            .add_item_with_answers(&token(), &item, &sku, quantity, &engraving(name), NOW)
            .await
    }

    /// Chooses the shipping option and places the order of the shopper's cart.
    async fn ship_and_order(service: &CartService) -> crate::checkout::Order {
        service
            .select_shipping_option(&token(), "standard", NOW)
            .await
            .unwrap();
        service
            .place_order(
                &token(),
                IdempotencyKey::parse("order-key-0001").unwrap(),
                "order-1".into(),
                "ada@example.com",
                NOW,
            )
            .await
            .unwrap()
    }

    fn errors_of(error: CartServiceError) -> InvalidAnswers {
        match error {
            CartServiceError::InvalidAnswers(invalid) => *invalid,
            other => panic!("expected refused answers, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_required_form_refuses_an_add_without_answers_and_keeps_the_cart_as_it_was() {
        let (service, _) = service(Some(engraving_form())).await;
        let (item, sku) = tote();
        let error = service
            .add_item(&token(), &item, &sku, 1, NOW)
            .await
            .unwrap_err();
        let invalid = errors_of(error);
        assert_eq!(invalid.errors["engraving"], "Name to engrave is required.");
        assert_eq!(invalid.form, Some(engraving_form()));
        assert_eq!(invalid.product_name, "Post tote");
        assert_eq!(service.cart(&token(), NOW).await.unwrap(), None);

        let update = add(&service, "Ada", 1).await.unwrap();
        let line = &update.cart.entries[0];
        assert_eq!(
            line.answers,
            Some(FormAnswers::new(vec![FormAnswer {
                field_id: "engraving".into(),
                title: "Name to engrave".into(),
                value: "Ada".into(),
            }]))
        );
    }

    #[tokio::test]
    async fn answers_to_a_product_without_a_form_are_refused_by_field() {
        let (service, _) = service(None).await;
        let error = add(&service, "Ada", 1).await.unwrap_err();
        let invalid = errors_of(error);
        assert_eq!(invalid.form, None);
        assert_eq!(invalid.errors["engraving"], UNKNOWN_FIELD);
    }

    #[tokio::test]
    async fn a_line_form_opens_with_its_answers_and_saves_new_ones() {
        let (service, _) = service(Some(engraving_form())).await;
        add(&service, "Ada", 1).await.unwrap();
        let update = add(&service, "Bo", 1).await.unwrap();
        let bo = update.cart.entries[1].line_id();
        let opened = service.line_form(&token(), &bo).await.unwrap();
        assert_eq!(opened.form, engraving_form());
        assert_eq!(
            opened.line.answers.as_ref().unwrap().value("engraving"),
            "Bo"
        );

        let refused = service
            .update_answers(&token(), &bo, &engraving("Bartholomew Jr"), NOW)
            .await
            .unwrap_err();
        assert_eq!(
            errors_of(refused).errors["engraving"],
            "You have exceeded the character limit."
        );
        let update = service
            .update_answers(&token(), &bo, &engraving("Cy"), NOW)
            .await
            .unwrap();
        let names: Vec<&str> = update
            .cart
            .entries
            .iter()
            .map(|entry| entry.answers.as_ref().unwrap().value("engraving"))
            .collect();
        assert_eq!(names, ["Ada", "Cy"]);
        let gone = service.line_form(&token(), &bo).await.unwrap_err();
        assert!(
            matches!(gone, CartServiceError::Cart(CartError::NotInCart(_))),
            "{gone:?}"
        );
    }

    #[tokio::test]
    async fn a_form_the_owner_removed_no_longer_opens() {
        let (service, repository) = service(Some(engraving_form())).await;
        let update = add(&service, "Ada", 1).await.unwrap();
        let line = update.cart.entries[0].line_id();
        repository
            .replace_site(&fixture_site("Shop"))
            .await
            .unwrap();
        let error = service.line_form(&token(), &line).await.unwrap_err();
        assert!(
            matches!(&error, CartServiceError::NoProductForm(named) if *named == line),
            "{error:?}"
        );
    }

    #[tokio::test]
    async fn a_purchased_carts_forms_do_not_open_and_the_order_keeps_the_answers() {
        let (service, _) = service(Some(engraving_form())).await;
        let update = add(&service, "Ada", 1).await.unwrap();
        let line = update.cart.entries[0].line_id();
        let order = ship_and_order(&service).await;
        assert_eq!(order.lines[0].answers.value("engraving"), "Ada");
        for error in [
            service.line_form(&token(), &line).await.unwrap_err(),
            service
                .update_answers(&token(), &line, &engraving("Bo"), NOW)
                .await
                .unwrap_err(),
        ] {
            assert!(
                matches!(error, CartServiceError::Cart(CartError::AlreadyPurchased)),
                "{error:?}"
            );
        }
    }

    #[tokio::test]
    async fn two_lines_of_a_variant_are_held_and_sold_as_one() {
        let (service, _) = service(Some(engraving_form())).await;
        add(&service, "Ada", 2).await.unwrap();
        add(&service, "Bo", 1).await.unwrap();
        let cart = service.enter_checkout(Some(&token()), NOW).await.unwrap();
        assert!(cart.reserved_until.is_some());
        let (_, sku) = tote();
        assert_eq!(
            service
                .store()
                .held_by_others(&sku, &CartToken::parse("another-0000000001").unwrap(), NOW)
                .await
                .unwrap(),
            3
        );
        let order = ship_and_order(&service).await;
        assert_eq!(order.lines.len(), 2);
        assert_eq!(
            service.store().stock(&sku).await.unwrap(),
            Some(crate::cart::Stock::Limited(0))
        );
    }
}
