//! The cart texts of spec 000 s8 and s5, verbatim; a test checks them against the Rust core's vectors.

export const UNABLE_TO_UPDATE_QUANTITY = 'Unable to update quantity';
export const UNABLE_TO_ADD_ITEM = 'Unable to add item';
export const UNABLE_TO_REMOVE_ITEM = 'Unable to remove item';
export const UNABLE_TO_OPEN_FORM = 'Unable to open form';
export const UNABLE_TO_UPDATE_FORM = 'Unable to update form';
export const PLEASE_TRY_AGAIN = 'Please try again';
export const CHECK_INTERNET_CONNECTION = 'Please check your internet connection';
export const UPDATE_MISSING_INFORMATION = 'Update the missing or invalid information above';
export const NOTHING_IN_CART = 'You have nothing in your shopping cart';
export const MINIMUM_SUBTOTAL_TEMPLATE = 'To check out, your order subtotal must be {subtotal} or more';

/** The minimum-subtotal warning with the formatted minimum filled in. */
export function minimumSubtotalMessage(formattedMinimum: string): string {
  return MINIMUM_SUBTOTAL_TEMPLATE.replace('{subtotal}', formattedMinimum);
}

/**
 * What a failed cart call tells the shopper: a network failure (no answer at all) asks them to check
 * their connection; otherwise the call's own text is shown.
 */
export function cartFailureText(call: 'add' | 'update' | 'remove', networkFailed: boolean): string {
  if (networkFailed) return CHECK_INTERNET_CONNECTION;
  switch (call) {
    case 'add':
      return UNABLE_TO_ADD_ITEM;
    case 'update':
      return UNABLE_TO_UPDATE_QUANTITY;
    case 'remove':
      return UNABLE_TO_REMOVE_ITEM;
  }
}
