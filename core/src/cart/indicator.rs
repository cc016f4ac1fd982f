//! The cart indicator of 000 s3-s4 and 001 s9: the item count and subtotal text in a
//! site's header, with its display and spoken-label rules.

/// The highest count the indicator shows as a number (001 s9).
pub const DISPLAY_CAP: u32 = 100;

/// The indicator's state: count (default 0) and subtotal text, initialised on first sync.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CartIndicator {
    pub initialized: bool,
    pub items: u32,
    pub subtotal: String,
}

impl CartIndicator {
    /// Takes the cart's count and subtotal text; the first sync marks it initialised.
    pub fn sync(&mut self, items: u32, subtotal: impl Into<String>) {
        self.initialized = true;
        self.items = items;
        self.subtotal = subtotal.into();
    }

    /// Marked empty when the count is 0, unmarked otherwise (000 s4).
    pub fn is_empty(&self) -> bool {
        self.items == 0
    }

    pub fn display_count(&self) -> String {
        display_count(self.items)
    }

    pub fn spoken_label(&self) -> String {
        spoken_label(self.items)
    }
}

/// The count as shown: capped at 100 and shown '100+' beyond it.
///
/// The specification says the display "caps at 100, shown as 100+" and that the spoken
/// label "then says more than 100 items". A cart of exactly 100 holds 100, not more than
/// 100, so the cap takes effect above 100: 100 reads "100", 101 reads "100+".
pub fn display_count(items: u32) -> String {
    if items > DISPLAY_CAP {
        format!("{DISPLAY_CAP}+")
    } else {
        items.to_string()
    }
}

/// What a screen reader announces: 'more than 100 items', 'one item' or 'N items in cart'.
pub fn spoken_label(items: u32) -> String {
    match items {
        1 => "one item".to_owned(),
        n if n > DISPLAY_CAP => "more than 100 items".to_owned(),
        n => format!("{n} items in cart"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_labels_follow_the_cap() {
        let cases = [
            (0, "0", "0 items in cart"),
            (1, "1", "one item"),
            (2, "2", "2 items in cart"),
            (100, "100", "100 items in cart"),
            (101, "100+", "more than 100 items"),
            (5000, "100+", "more than 100 items"),
        ];
        for (items, shown, spoken) in cases {
            assert_eq!(display_count(items), shown, "{items}");
            assert_eq!(spoken_label(items), spoken, "{items}");
        }
    }

    #[test]
    fn first_sync_initialises_and_zero_marks_empty() {
        let mut indicator = CartIndicator::default();
        assert!(!indicator.initialized && indicator.is_empty());
        indicator.sync(3, "$30.00");
        assert!(indicator.initialized && !indicator.is_empty());
        assert_eq!(indicator.subtotal, "$30.00");
        indicator.sync(0, "$0.00");
        assert!(indicator.initialized && indicator.is_empty());
    }
}
