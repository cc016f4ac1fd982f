//! The cart as the cart API answers it (`/api/commerce/cart`), and how an answer or a failure
//! becomes what the cart shows: the cart itself, or one of the cart texts of spec 000 s8.

import type { RequestFailure } from '../runtime/request/failure';
import {
  CHECK_INTERNET_CONNECTION,
  PLEASE_TRY_AGAIN,
  UNABLE_TO_ADD_ITEM,
  UNABLE_TO_OPEN_FORM,
  UNABLE_TO_REMOVE_ITEM,
  UNABLE_TO_UPDATE_FORM,
  UNABLE_TO_UPDATE_QUANTITY,
  UPDATE_MISSING_INFORMATION,
} from './texts';

/** One answer to a product's form, with the question as the shopper read it. */
export interface Answer {
  readonly fieldId: string;
  readonly title: string;
  readonly value: string;
}

export interface CartEntry {
  /** What the cart calls name this line by: its SKU, or its SKU and its answers' fingerprint. */
  readonly lineId: string;
  readonly productId: string;
  readonly productName: string;
  readonly sku: string;
  /** The answers to the product's form; null when the product asks for nothing. */
  readonly answers: readonly Answer[] | null;
  readonly quantity: number;
  readonly unitPriceCents: number;
  readonly lineTotalCents: number;
  readonly unitPriceText: string;
  readonly lineTotalText: string;
}

export interface ShippingOption {
  readonly id: string;
  readonly name: string;
  readonly rateType: string;
  readonly costText: string;
}

export interface ShippingLocation {
  readonly country: string;
  readonly region: string;
  readonly postalCode: string;
}

export interface CartWarning {
  readonly code: string;
  readonly target: string;
  readonly message: string;
}

export interface Cart {
  readonly entries: readonly CartEntry[];
  readonly shippingOptions: readonly ShippingOption[];
  readonly coupons: readonly { readonly code: string; readonly kind: string }[];
  readonly validCoupons: readonly string[];
  readonly invalidCoupons: readonly { readonly code: string; readonly reason: string }[];
  readonly selectedShippingOption: ShippingOption | null;
  readonly shippingLocation: ShippingLocation | null;
  readonly isPurchased: boolean;
  readonly requiresShipping: boolean;
  readonly totalQuantity: number;
  readonly totalsText: {
    readonly subtotal: string;
    readonly discount: string;
    readonly shippingCost: string;
    readonly tax: string;
    readonly grandTotal: string;
  };
  readonly indicator: { readonly items: number; readonly subtotal: string };
}

export interface CartAnswer {
  readonly cart: Cart;
  readonly warnings: readonly CartWarning[];
}

/** Which cart call ran, which chooses the text a failure shows. */
export type CartCall = 'add' | 'update' | 'remove' | 'coupon' | 'shipping' | 'open-form' | 'update-form';

/** Whether a value looks like the cart API's answer. */
export function isCartAnswer(value: unknown): value is CartAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const cart = (value as { cart?: unknown }).cart;
  return (
    typeof cart === 'object' &&
    cart !== null &&
    Array.isArray((cart as { entries?: unknown }).entries) &&
    Array.isArray((value as { warnings?: unknown }).warnings)
  );
}

/**
 * The text a failed call shows: no answer at all asks the shopper to check their connection; a
 * coupon refusal, and an add refused because a subscription is bought on its own, show the
 * server's reason (it comes as a 400 body); any other failure shows the call's own text of 000 s8.
 */
/** The reason the server gives when a subscription and other items would share a cart. */
export const SUBSCRIPTION_ALONE_REASON = 'SUBSCRIPTION_ALONE';

export function failureText(call: CartCall, failure: Pick<RequestFailure, 'reason' | 'status' | 'body'>): string {
  // A form that cannot open or be saved says so whatever the cause: the editor stays open,
  // keeping what the shopper typed, and the shopper can try again.
  if (call === 'open-form') return UNABLE_TO_OPEN_FORM;
  if (call === 'update-form') return UNABLE_TO_UPDATE_FORM;
  if (failure.reason === 'network' || failure.status === 0) return CHECK_INTERNET_CONNECTION;
  const error = failure.body?.['error'];
  if (call === 'coupon' && typeof error === 'string' && error !== '') return error;
  const subscriptionAlone = call === 'add' && failure.body?.['reason'] === SUBSCRIPTION_ALONE_REASON;
  if (subscriptionAlone && typeof error === 'string' && error !== '') return error;
  switch (call) {
    case 'add':
      return UNABLE_TO_ADD_ITEM;
    case 'update':
      return UNABLE_TO_UPDATE_QUANTITY;
    case 'remove':
      return UNABLE_TO_REMOVE_ITEM;
    case 'shipping':
      return UPDATE_MISSING_INFORMATION;
    case 'coupon':
      return PLEASE_TRY_AGAIN;
  }
}

/** The reason shown beside a coupon that no longer applies, if it does not. */
export function couponProblem(cart: Cart, code: string): string | undefined {
  return cart.invalidCoupons.find((invalid) => invalid.code === code)?.reason;
}

/** Reads a typed quantity: a whole number from 0 to 9,999 (the line limit), or undefined. */
export function parseQuantity(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,4}$/.test(trimmed)) return undefined;
  return Number(trimmed);
}
