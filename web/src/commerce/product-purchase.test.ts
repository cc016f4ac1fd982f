import { describe, expect, it } from 'vitest';
import {
  offerFor,
  parseProductProps,
  priceParts,
} from './product-purchase';

const props = {
  itemId: 'shop-mug',
  variants: [
    { sku: 'MUG-S', price: '€12.00', regular: '€15.00', onSale: true, soldOut: false },
    { sku: 'MUG-L', price: '€18.00', regular: null, onSale: false, soldOut: true },
  ],
};

describe('product purchase rules', () => {
  it('reads the server props and finds a variant by SKU', () => {
    const parsed = parseProductProps(props);
    expect(offerFor(parsed, 'MUG-L')?.soldOut).toBe(true);
    expect(offerFor(parsed, 'NOPE')).toBeUndefined();
  });

  it('refuses props the server does not write', () => {
    expect(() => parseProductProps({ itemId: 1, variants: [] })).toThrow();
    expect(() => parseProductProps({ itemId: 'a', variants: [{ sku: 'A' }] })).toThrow();
  });

  it('shows a struck regular price and the Sale mark only on sale', () => {
    const parsed = parseProductProps(props);
    expect(priceParts(parsed.variants[0]!)).toEqual({ current: '€12.00', regular: '€15.00', sale: true, soldOut: false });
    expect(priceParts(parsed.variants[1]!)).toEqual({ current: '€18.00', regular: null, sale: false, soldOut: true });
  });
});
