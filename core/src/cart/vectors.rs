//! Vectors of the cart indicator rules and the cart texts, written to
//! `web/src/generated/cart-vectors.json` so the web cart's TypeScript is tested against the
//! Rust rules rather than re-typed by hand.

use serde_json::{Value, json};

use super::indicator::{display_count, spoken_label};
use super::texts::*;

/// Counts around every boundary of the indicator rules.
const COUNTS: [u32; 12] = [0, 1, 2, 3, 10, 99, 100, 101, 102, 150, 1000, 4_294_967_295];

pub fn cart_vectors() -> Value {
    let indicator: Vec<Value> = COUNTS
        .iter()
        .map(|&items| {
            json!({
                "items": items,
                "displayCount": display_count(items),
                "label": spoken_label(items),
                "empty": items == 0,
            })
        })
        .collect();
    json!({
        "indicator": indicator,
        "texts": {
            "unableToUpdateQuantity": UNABLE_TO_UPDATE_QUANTITY,
            "unableToAddItem": UNABLE_TO_ADD_ITEM,
            "unableToRemoveItem": UNABLE_TO_REMOVE_ITEM,
            "unableToOpenForm": UNABLE_TO_OPEN_FORM,
            "unableToUpdateForm": UNABLE_TO_UPDATE_FORM,
            "pleaseTryAgain": PLEASE_TRY_AGAIN,
            "checkInternetConnection": CHECK_INTERNET_CONNECTION,
            "updateMissingInformation": UPDATE_MISSING_INFORMATION,
            "nothingInCart": NOTHING_IN_CART,
            "minimumSubtotalTemplate": MINIMUM_SUBTOTAL_TEMPLATE,
        },
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::cart_vectors;

    /// Fails when the checked-in vectors are stale; `UPDATE_CART_VECTORS=1 cargo test -p
    /// vitrine-core cart::vectors` rewrites them.
    #[test]
    fn the_checked_in_vectors_are_current() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../web/src/generated/cart-vectors.json");
        let expected = serde_json::to_string_pretty(&cart_vectors()).unwrap() + "\n";
        if std::env::var_os("UPDATE_CART_VECTORS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "web/src/generated/cart-vectors.json is stale; rerun with UPDATE_CART_VECTORS=1"
        );
    }
}
