//! Model-based test of cart lines with answers to product forms: random adds, quantity
//! changes, removals and answer edits, naming lines by their id or by SKU, are applied to the
//! real `CartState` and to a model keyed by (variant, answers). They must agree on what
//! succeeded and on every line; a variant's lines never hold more than its stock together,
//! and no two lines share an id.

use std::collections::BTreeMap;

use proptest::prelude::*;
use vitrine_core::cart::{CartEntry, CartState, LineId, Purchasable, Stock, Timestamp};
use vitrine_core::catalog::{FormAnswer, FormAnswers, Sku};
use vitrine_core::enums::ProductType;

/// The variants: a mug with little stock, a poster with no limit but the line's.
const VARIANTS: [(&str, Stock); 2] = [("MUG", Stock::Limited(7)), ("POSTER", Stock::Unlimited)];
/// Answers by index: none, then two names to engrave.
const NAMES: [Option<&str>; 3] = [None, Some("Ada"), Some("Bo")];
const MAX_LINE: u32 = 9_999;

fn purchasable(variant: usize) -> Purchasable {
    let (sku, stock) = VARIANTS[variant];
    Purchasable::new(
        sku.to_lowercase(),
        sku.to_owned(),
        ProductType::Physical,
        Sku::parse(sku).unwrap(),
        1_000,
        stock,
    )
}

fn answers(name: usize) -> Option<FormAnswers> {
    NAMES[name].map(|value| {
        FormAnswers::new(vec![FormAnswer {
            field_id: "engraving".into(),
            title: "Name to engrave".into(),
            value: value.into(),
        }])
    })
}

/// The id of the line (variant, answers), taken from a cart that holds only that line.
fn line_id(variant: usize, name: usize) -> LineId {
    let mut alone = CartState::new("alone", "site", Timestamp(0));
    alone
        .add_item_with_answers(&purchasable(variant), 1, answers(name))
        .unwrap();
    alone.entries[0].line_id()
}

#[derive(Debug, Clone)]
enum Op {
    Add {
        variant: usize,
        name: usize,
        quantity: u32,
    },
    Change {
        variant: usize,
        name: usize,
        quantity: u32,
    },
    ChangeBySku {
        variant: usize,
        quantity: u32,
    },
    Remove {
        variant: usize,
        name: usize,
    },
    Edit {
        variant: usize,
        from: usize,
        to: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let variant = 0..VARIANTS.len();
    let name = 0..NAMES.len();
    prop_oneof![
        6 => (variant.clone(), name.clone(), 0u32..6)
            .prop_map(|(variant, name, quantity)| Op::Add { variant, name, quantity }),
        3 => (variant.clone(), name.clone(), 0u32..9)
            .prop_map(|(variant, name, quantity)| Op::Change { variant, name, quantity }),
        2 => (variant.clone(), 0u32..9)
            .prop_map(|(variant, quantity)| Op::ChangeBySku { variant, quantity }),
        2 => (variant.clone(), name.clone()).prop_map(|(variant, name)| Op::Remove { variant, name }),
        3 => (variant, name.clone(), name)
            .prop_map(|(variant, from, to)| Op::Edit { variant, from, to }),
    ]
}

/// The model: units per (variant, answers).
#[derive(Debug, Default)]
struct Model {
    lines: BTreeMap<(usize, usize), u32>,
}

impl Model {
    fn others(&self, variant: usize, name: usize) -> u32 {
        self.lines
            .iter()
            .filter(|((v, n), _)| *v == variant && *n != name)
            .map(|(_, quantity)| quantity)
            .sum()
    }

    fn cap(&self, variant: usize, name: usize) -> u32 {
        match VARIANTS[variant].1 {
            Stock::Unlimited => MAX_LINE,
            Stock::Limited(stock) => stock
                .saturating_sub(self.others(variant, name))
                .min(MAX_LINE),
        }
    }

    /// The line a plain id (the SKU) names: the line without answers, else the variant's
    /// only line.
    fn by_sku(&self, variant: usize) -> Option<(usize, usize)> {
        if self.lines.contains_key(&(variant, 0)) {
            return Some((variant, 0));
        }
        let mut of_variant = self.lines.keys().filter(|(v, _)| *v == variant);
        match (of_variant.next(), of_variant.next()) {
            (Some(line), None) => Some(*line),
            _ => None,
        }
    }

    /// The line an id names: answered ids name their line only; the plain id is the SKU.
    fn named(&self, variant: usize, name: usize) -> Option<(usize, usize)> {
        if name == 0 {
            self.by_sku(variant)
        } else {
            self.lines
                .contains_key(&(variant, name))
                .then_some((variant, name))
        }
    }

    fn set_quantity(&mut self, line: (usize, usize), quantity: u32) -> bool {
        if quantity == 0 {
            self.lines.remove(&line);
            return true;
        }
        let cap = self.cap(line.0, line.1);
        if cap == 0 {
            return false;
        }
        self.lines.insert(line, quantity.min(cap));
        true
    }

    fn apply(&mut self, op: &Op) -> bool {
        match *op {
            Op::Add {
                variant,
                name,
                quantity,
            } => {
                let cap = self.cap(variant, name);
                if quantity == 0 || cap == 0 {
                    return false;
                }
                let line = self.lines.entry((variant, name)).or_insert(0);
                *line = (*line + quantity).min(cap);
                true
            }
            Op::Change {
                variant,
                name,
                quantity,
            } => match self.named(variant, name) {
                Some(line) => self.set_quantity(line, quantity),
                None => false,
            },
            Op::ChangeBySku { variant, quantity } => match self.by_sku(variant) {
                Some(line) => self.set_quantity(line, quantity),
                None => false,
            },
            Op::Remove { variant, name } => match self.named(variant, name) {
                Some(line) => self.lines.remove(&line).is_some(),
                None => false,
            },
            Op::Edit { variant, from, to } => {
                let Some(line) = self.named(variant, from) else {
                    return false;
                };
                // Answers are edited to a name; "no answers" is never what a shopper saves here.
                let target = (variant, to.max(1));
                if line != target {
                    let moved = self.lines.remove(&line).unwrap_or(0);
                    let joined = self.lines.entry(target).or_insert(0);
                    *joined = (*joined + moved).min(MAX_LINE);
                }
                true
            }
        }
    }
}

fn apply_real(cart: &mut CartState, op: &Op) -> bool {
    match *op {
        Op::Add {
            variant,
            name,
            quantity,
        } => cart
            .add_item_with_answers(&purchasable(variant), quantity, answers(name))
            .is_ok(),
        Op::Change {
            variant,
            name,
            quantity,
        } => cart
            .change_quantity(line_id(variant, name), quantity, VARIANTS[variant].1)
            .is_ok(),
        Op::ChangeBySku { variant, quantity } => cart
            .change_quantity(&purchasable(variant).sku, quantity, VARIANTS[variant].1)
            .is_ok(),
        Op::Remove { variant, name } => cart.remove_item(line_id(variant, name)).is_ok(),
        Op::Edit { variant, from, to } => {
            let to = answers(to.max(1)).expect("a name");
            cart.update_answers(line_id(variant, from), to).is_ok()
        }
    }
}

/// The real cart's lines as the model keys them.
fn lines_of(cart: &CartState) -> BTreeMap<(usize, usize), u32> {
    let key = |entry: &CartEntry| {
        let variant = VARIANTS
            .iter()
            .position(|(sku, _)| *sku == entry.sku.as_str())
            .unwrap();
        let value = entry
            .answers
            .as_ref()
            .map(|answers| answers.value("engraving"))
            .unwrap_or("");
        let name = NAMES
            .iter()
            .position(|name| name.unwrap_or("") == value)
            .unwrap();
        (variant, name)
    };
    cart.entries
        .iter()
        .map(|entry| (key(entry), entry.quantity))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn cart_lines_agree_with_the_model(ops in prop::collection::vec(op(), 1..40)) {
        let mut cart = CartState::new("cart", "site", Timestamp(0));
        let mut model = Model::default();
        for op in &ops {
            let real_ok = apply_real(&mut cart, op);
            let model_ok = model.apply(op);
            prop_assert_eq!(real_ok, model_ok, "outcome of {:?}", op);
            prop_assert_eq!(cart.entries.len(), lines_of(&cart).len(), "one line per key");
            prop_assert_eq!(&lines_of(&cart), &model.lines, "after {:?}", op);

            let mut ids: Vec<LineId> = cart.entries.iter().map(CartEntry::line_id).collect();
            ids.sort();
            ids.dedup();
            prop_assert_eq!(ids.len(), cart.entries.len(), "line ids are unique");
            for (variant, (sku, stock)) in VARIANTS.iter().enumerate() {
                let held = cart.quantity_of(&Sku::parse(*sku).unwrap());
                if let Stock::Limited(stock) = stock {
                    prop_assert!(held <= *stock, "{} holds {} of {}", sku, held, stock);
                }
                let plain = line_id(variant, 0);
                prop_assert_eq!(plain.as_str(), *sku, "a line without answers is its SKU");
            }
        }
    }
}
