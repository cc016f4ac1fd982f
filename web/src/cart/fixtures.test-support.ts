//! A cart answer as the cart API gives it, for the cart modules' tests.

import type { CartAnswer, Cart } from './model';

export function cartWith(overrides: Partial<Cart> = {}): Cart {
  return {
    entries: [
      {
        lineId: 'MUG-L',
        productId: 'mug',
        productName: 'Sea Glass Mug',
        sku: 'MUG-L',
        answers: null,
        quantity: 2,
        unitPriceCents: 3200,
        lineTotalCents: 6400,
        unitPriceText: '$32.00',
        lineTotalText: '$64.00',
      },
    ],
    shippingOptions: [{ id: 'standard', name: 'Standard shipping', rateType: 'FLAT_RATE', costText: '$5.00' }],
    coupons: [],
    validCoupons: [],
    invalidCoupons: [],
    selectedShippingOption: null,
    shippingLocation: null,
    isPurchased: false,
    requiresShipping: true,
    totalQuantity: 2,
    totalsText: { subtotal: '$64.00', discount: '$0.00', shippingCost: '$0.00', tax: '$0.00', grandTotal: '$64.00' },
    indicator: { items: 2, subtotal: '$64.00' },
    ...overrides,
  };
}

export function answerWith(overrides: Partial<Cart> = {}, warnings: CartAnswer['warnings'] = []): CartAnswer {
  return { cart: cartWith(overrides), warnings };
}
