//! Cart lines and how a call names one. A line is a variant with the shopper's answers to its
//! product's form: the same variant with other answers (another name to engrave) is another
//! line, so a line's id is its SKU when it has no answers and its SKU with the answers'
//! fingerprint (`SKU~0123456789abcdef`) when it has some.

use std::fmt;

use super::entry::{CartEntry, MAX_LINE_QUANTITY};
use super::ids::CartIdError;
use super::state::{CartError, CartState};
use super::warning::CartWarning;
use crate::catalog::{FormAnswers, Sku};

/// What a cart call names a line by: a line's id, or a SKU, which names the only line of that
/// variant (so carts and clients from before product forms keep working).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineId(String);

impl LineId {
    /// A SKU of at most 60 characters, `~` and 16 hex digits fit well inside this.
    pub const MAX_LEN: usize = 128;

    pub fn parse(value: impl Into<String>) -> Result<Self, CartIdError> {
        let value = value.into();
        let shape_ok = !value.trim().is_empty()
            && value.len() <= Self::MAX_LEN
            && !value.chars().any(char::is_control);
        if shape_ok {
            Ok(Self(value))
        } else {
            Err(CartIdError::InvalidLine)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&Sku> for LineId {
    fn from(sku: &Sku) -> Self {
        Self(sku.as_str().to_owned())
    }
}

impl From<&LineId> for LineId {
    fn from(line: &LineId) -> Self {
        line.clone()
    }
}

impl fmt::Display for LineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl CartEntry {
    /// This line's id: its SKU, followed by `~` and the answers' fingerprint when it has
    /// answers.
    pub fn line_id(&self) -> LineId {
        match self.answers.as_ref().filter(|answers| !answers.is_empty()) {
            Some(answers) => LineId(format!("{}~{}", self.sku.as_str(), answers.fingerprint())),
            None => LineId::from(&self.sku),
        }
    }

    /// Whether this line holds `answers` (no answers and an empty form read alike).
    pub(super) fn answers_same_as(&self, answers: Option<&FormAnswers>) -> bool {
        let empty = FormAnswers::default();
        self.answers
            .as_ref()
            .unwrap_or(&empty)
            .same_as(answers.unwrap_or(&empty))
    }
}

/// Units per SKU over lines, in the order SKUs first appear: several lines of one variant
/// take its stock together.
pub fn units_by_sku<'a>(lines: impl IntoIterator<Item = (&'a Sku, u32)>) -> Vec<(Sku, u32)> {
    let mut units: Vec<(Sku, u32)> = Vec::new();
    for (sku, quantity) in lines {
        match units.iter_mut().find(|(seen, _)| seen == sku) {
            Some((_, total)) => *total = total.saturating_add(quantity),
            None => units.push((sku.clone(), quantity)),
        }
    }
    units
}

impl CartState {
    /// The line `line` names: the line with that id, or else the only line of the SKU it
    /// spells. A SKU with several lines names none of them, so a call never changes a line
    /// the shopper did not mean.
    pub fn line(&self, line: &LineId) -> Result<&CartEntry, CartError> {
        self.line_index(line).map(|index| &self.entries[index])
    }

    pub(super) fn line_index(&self, line: &LineId) -> Result<usize, CartError> {
        if let Some(index) = self
            .entries
            .iter()
            .position(|entry| entry.line_id() == *line)
        {
            return Ok(index);
        }
        let Ok(sku) = Sku::parse(line.as_str()) else {
            return Err(CartError::LineNotInCart(line.clone()));
        };
        let mut of_sku = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, entry)| entry.sku == sku);
        match (of_sku.next(), of_sku.next()) {
            (Some((index, _)), None) => Ok(index),
            (Some(_), Some(_)) => Err(CartError::AmbiguousLine(sku)),
            (None, _) => Err(CartError::NotInCart(sku)),
        }
    }

    /// Units of every SKU in the cart, for holding stock at checkout.
    pub fn units_by_sku(&self) -> Vec<(Sku, u32)> {
        units_by_sku(
            self.entries
                .iter()
                .map(|entry| (&entry.sku, entry.quantity)),
        )
    }

    /// Replaces a line's answers to its product's form. When another line of the variant
    /// already has these answers the two become one line (at most the line limit, with a
    /// warning when that keeps fewer units), since they are now the same thing.
    pub fn update_answers(
        &mut self,
        line: impl Into<LineId>,
        answers: FormAnswers,
    ) -> Result<Vec<CartWarning>, CartError> {
        self.ensure_open()?;
        let index = self.line_index(&line.into())?;
        let sku = &self.entries[index].sku;
        let twin = (0..self.entries.len()).find(|&other| {
            let entry = &self.entries[other];
            other != index && &entry.sku == sku && entry.answers_same_as(Some(&answers))
        });
        let Some(twin) = twin else {
            self.entries[index].answers = Some(answers);
            return Ok(Vec::new());
        };
        let edited = self.entries.remove(index);
        let twin = if twin > index { twin - 1 } else { twin };
        let kept = &mut self.entries[twin];
        let wanted = kept.quantity.saturating_add(edited.quantity);
        kept.quantity = wanted.min(MAX_LINE_QUANTITY);
        kept.answers = Some(answers);
        if kept.quantity < wanted {
            let total = self.quantity_of(&edited.sku);
            return Ok(vec![CartWarning::quantity_reduced(
                edited.sku.as_str(),
                total,
            )]);
        }
        Ok(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{Purchasable, Stock, Timestamp};
    use crate::catalog::FormAnswer;
    use crate::enums::ProductType;

    fn mug(stock: u32) -> Purchasable {
        Purchasable::new(
            "mug",
            "Mug",
            ProductType::Physical,
            Sku::parse("MUG").unwrap(),
            1_000,
            Stock::Limited(stock),
        )
    }

    fn engraved(name: &str) -> Option<FormAnswers> {
        Some(FormAnswers::new(vec![FormAnswer {
            field_id: "engraving".into(),
            title: "Name to engrave".into(),
            value: name.into(),
        }]))
    }

    fn cart() -> CartState {
        CartState::new("cart", "site", Timestamp(0))
    }

    fn line_ids(cart: &CartState) -> Vec<String> {
        cart.entries
            .iter()
            .map(|entry| entry.line_id().to_string())
            .collect()
    }

    #[test]
    fn other_answers_make_another_line_and_the_same_answers_join_it() {
        let mut cart = cart();
        cart.add_item_with_answers(&mug(10), 1, engraved("Ada"))
            .unwrap();
        cart.add_item_with_answers(&mug(10), 2, engraved("Bo"))
            .unwrap();
        cart.add_item_with_answers(&mug(10), 3, engraved("Ada"))
            .unwrap();
        cart.add_item(&mug(10), 1).unwrap();
        let quantities: Vec<u32> = cart.entries.iter().map(|entry| entry.quantity).collect();
        assert_eq!(quantities, [4, 2, 1]);
        let ids = line_ids(&cart);
        assert_eq!(ids[2], "MUG", "a line without answers is named by its SKU");
        assert!(ids[0].starts_with("MUG~") && ids[0].len() == "MUG~".len() + 16);
        assert_ne!(ids[0], ids[1]);
        assert_eq!(
            cart.quantity_of(&Sku::parse("MUG").unwrap()),
            7,
            "a variant's units over all its lines"
        );
    }

    #[test]
    fn an_empty_form_and_no_form_are_the_same_line() {
        let mut cart = cart();
        cart.add_item(&mug(10), 1).unwrap();
        cart.add_item_with_answers(&mug(10), 1, Some(FormAnswers::default()))
            .unwrap();
        assert_eq!(cart.entries.len(), 1);
        assert_eq!(cart.entries[0].quantity, 2);
        assert_eq!(cart.entries[0].line_id().as_str(), "MUG");
    }

    #[test]
    fn lines_of_a_variant_share_its_stock() {
        let mut cart = cart();
        cart.add_item_with_answers(&mug(5), 3, engraved("Ada"))
            .unwrap();
        let warnings = cart
            .add_item_with_answers(&mug(5), 4, engraved("Bo"))
            .unwrap();
        assert_eq!(cart.entries[1].quantity, 2);
        assert_eq!(
            warnings,
            [CartWarning::quantity_reduced("MUG", 5)],
            "the warning counts the variant's units on every line"
        );
        assert_eq!(
            cart.add_item_with_answers(&mug(5), 1, engraved("Cy")),
            Err(CartError::OutOfStock(Sku::parse("MUG").unwrap())),
            "nothing is left for a third line"
        );
        let bo = cart.entries[1].line_id();
        let warnings = cart.change_quantity(&bo, 9, Stock::Limited(5)).unwrap();
        assert_eq!(cart.entries[1].quantity, 2);
        assert_eq!(warnings, [CartWarning::quantity_reduced("MUG", 5)]);
    }

    #[test]
    fn a_sku_names_its_only_line_and_never_one_of_several() {
        let sku = Sku::parse("MUG").unwrap();
        let mut cart = cart();
        cart.add_item_with_answers(&mug(10), 1, engraved("Ada"))
            .unwrap();
        cart.change_quantity(&sku, 3, Stock::Limited(10)).unwrap();
        assert_eq!(cart.entries[0].quantity, 3, "the only line of the SKU");
        cart.add_item_with_answers(&mug(10), 1, engraved("Bo"))
            .unwrap();
        assert_eq!(
            cart.change_quantity(&sku, 5, Stock::Limited(10)),
            Err(CartError::AmbiguousLine(sku.clone()))
        );
        assert_eq!(cart.remove_item(&sku), Err(CartError::AmbiguousLine(sku)));
        let ada = cart.entries[0].line_id();
        cart.remove_item(&ada).unwrap();
        assert_eq!(line_ids(&cart).len(), 1);
        assert_eq!(
            cart.remove_item(&ada),
            Err(CartError::NotInCart(Sku::parse(ada.as_str()).unwrap())),
        );
        let long = LineId::parse(format!("{}~0123456789abcdef", "S".repeat(60))).unwrap();
        assert_eq!(
            cart.remove_item(&long),
            Err(CartError::LineNotInCart(long.clone()))
        );
    }

    #[test]
    fn new_answers_change_the_line_and_join_a_twin() {
        let mut cart = cart();
        cart.add_item_with_answers(&mug(10), 2, engraved("Ada"))
            .unwrap();
        cart.add_item_with_answers(&mug(10), 3, engraved("Bo"))
            .unwrap();
        let ada = cart.entries[0].line_id();
        let warnings = cart.update_answers(&ada, engraved("Cy").unwrap()).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(cart.entries[0].answers, engraved("Cy"));
        assert_ne!(cart.entries[0].line_id(), ada, "the id follows the answers");
        let cy = cart.entries[0].line_id();
        cart.update_answers(&cy, engraved("Bo").unwrap()).unwrap();
        assert_eq!(cart.entries.len(), 1);
        assert_eq!(cart.entries[0].quantity, 5);
        assert_eq!(cart.entries[0].answers, engraved("Bo"));
    }

    #[test]
    fn a_purchased_cart_keeps_its_answers() {
        let mut cart = cart();
        cart.add_item_with_answers(&mug(10), 1, engraved("Ada"))
            .unwrap();
        cart.is_purchased = true;
        let line = cart.entries[0].line_id();
        assert_eq!(
            cart.update_answers(&line, engraved("Bo").unwrap()),
            Err(CartError::AlreadyPurchased)
        );
    }

    #[test]
    fn carts_stored_before_product_forms_still_load() {
        let stored = r#"{"id":"c","websiteId":"s","created":0,"entries":[{"productId":"mug",
            "productName":"Mug","productType":1,"sku":"MUG","unitPriceCents":1000,"quantity":2,
            "weightThousandths":0}]}"#;
        let cart: CartState = serde_json::from_str(stored).unwrap();
        assert_eq!(cart.entries[0].answers, None);
        assert_eq!(cart.entries[0].line_id().as_str(), "MUG");
        let saved = serde_json::to_string(&cart).unwrap();
        assert!(
            !saved.contains("answers"),
            "a line without a form stores as before: {saved}"
        );
    }

    #[test]
    fn line_ids_are_bounded_text() {
        assert!(LineId::parse("").is_err());
        assert!(LineId::parse(" ").is_err());
        assert!(LineId::parse("a\nb").is_err());
        assert!(LineId::parse("x".repeat(129)).is_err());
        assert!(LineId::parse("MUG~0123456789abcdef").is_ok());
    }

    #[test]
    fn units_are_summed_per_sku_in_first_seen_order() {
        let (a, b) = (Sku::parse("A").unwrap(), Sku::parse("B").unwrap());
        assert_eq!(
            units_by_sku([(&a, 1), (&b, 2), (&a, 3)]),
            [(a.clone(), 4), (b, 2)]
        );
    }
}
