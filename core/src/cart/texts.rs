//! The cart texts of 000 s8 and 001 s8, verbatim, shared by the server and (through the
//! generated vectors) the web cart.

pub const UNABLE_TO_UPDATE_QUANTITY: &str = "Unable to update quantity";
pub const UNABLE_TO_ADD_ITEM: &str = "Unable to add item";
pub const UNABLE_TO_REMOVE_ITEM: &str = "Unable to remove item";
pub const UNABLE_TO_OPEN_FORM: &str = "Unable to open form";
pub const UNABLE_TO_UPDATE_FORM: &str = "Unable to update form";
pub const PLEASE_TRY_AGAIN: &str = "Please try again";
pub const CHECK_INTERNET_CONNECTION: &str = "Please check your internet connection";
pub const UPDATE_MISSING_INFORMATION: &str = "Update the missing or invalid information above";
pub const NOTHING_IN_CART: &str = "You have nothing in your shopping cart";
/// 000 s5, with `{subtotal}` standing for the formatted minimum.
pub const MINIMUM_SUBTOTAL_TEMPLATE: &str =
    "To check out, your order subtotal must be {subtotal} or more";
/// Why a cart past the total limit cannot check out (our text; the specification shows
/// none, and "Unable to update quantity" or "Unable to add item" answers the change itself).
pub const TOTAL_TOO_LARGE: &str =
    "Your cart's total is more than one order can take. Lower a quantity or remove an item.";
