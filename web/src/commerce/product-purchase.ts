//! The product form's rules without the DOM: reading the server's variant offers, what the price and button show for a variant, and what a failed add-to-cart says (000 s4, s8).

import { cartFailureText } from '../cart/texts';

/** One variant as the server describes it in the product island's props; prices are formatted already. */
export interface VariantOffer {
  readonly sku: string;
  readonly price: string;
  readonly regular: string | null;
  readonly onSale: boolean;
  readonly soldOut: boolean;
}

export interface ProductProps {
  readonly itemId: string;
  readonly variants: readonly VariantOffer[];
}

export const ADD_TO_CART_LABEL = 'Add to cart';
export const SOLD_OUT_LABEL = 'Sold out';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseOffer(value: unknown): VariantOffer {
  if (!isRecord(value)) throw new Error('product island: a variant is not an object');
  const { sku, price, regular, onSale, soldOut } = value;
  if (typeof sku !== 'string' || typeof price !== 'string') throw new Error('product island: a variant lacks sku or price');
  if (regular !== null && regular !== undefined && typeof regular !== 'string') throw new Error('product island: regular price is not text');
  return { sku, price, regular: typeof regular === 'string' ? regular : null, onSale: onSale === true, soldOut: soldOut === true };
}

/** Reads the props the server wrote; throws on a shape it did not write, so the static form stays. */
export function parseProductProps(props: unknown): ProductProps {
  if (!isRecord(props) || typeof props['itemId'] !== 'string' || !Array.isArray(props['variants'])) {
    throw new Error('product island: props need itemId and variants');
  }
  return { itemId: props['itemId'], variants: props['variants'].map(parseOffer) };
}

export function offerFor(props: ProductProps, sku: string): VariantOffer | undefined {
  return props.variants.find((offer) => offer.sku === sku);
}

/** The parts of the price line for one chosen variant, in the order the server's template writes them. */
export interface PriceParts {
  readonly current: string;
  readonly regular: string | null;
  readonly sale: boolean;
  readonly soldOut: boolean;
}

export function priceParts(offer: VariantOffer): PriceParts {
  return {
    current: offer.price,
    regular: offer.onSale && offer.regular !== null && offer.regular !== offer.price ? offer.regular : null,
    sale: offer.onSale,
    soldOut: offer.soldOut,
  };
}
