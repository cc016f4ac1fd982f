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

fn invalid(
    product_name: &str,
    form: Option<ProductForm>,
    errors: FieldErrors,
) -> CartServiceError {
    CartServiceError::InvalidAnswers(Box::new(InvalidAnswers {
        product_name: product_name.to_owned(),
        form,
        errors,
    }))
}
