//! The cart page app (001 s2: mounted at `sqs-cart-root` inside `sqs-cart-container`): quantities,
//! removal, the answers to product forms, coupons, shipping location and option, and every total,
//! through the cart API. The server's cart stays until the first answer arrives, so the page never
//! flashes empty.

import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createCartApi, type CartApi, type CartResult } from '../cart/api';
import { cartReducer, initialCartState, type CartViewState } from '../cart/cart-state';
import { sameAnswers, type Answers } from '../cart/line-form';
import { LineFormEditor } from '../cart/line-form-editor';
import { couponProblem, parseQuantity, type Cart, type CartEntry } from '../cart/model';
import { NOTHING_IN_CART, UNABLE_TO_UPDATE_QUANTITY } from '../cart/texts';
import type { RequestClient } from '../runtime/request/client';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement): IslandUnmount {
  const requests = (window as unknown as { Vitrine?: { requests?: RequestClient } }).Vitrine?.requests;
  if (!requests) throw new Error('cart island: the runtime request layer is missing');
  const api = createCartApi(requests, window);
  const original = [...element.childNodes];
  let root: ReturnType<typeof createRoot> | undefined;
  let stopped = false;
  void api.load().then((result) => {
    // Without an answer the server's cart stays: its forms work on their own.
    if (stopped || !result.ok) return;
    const warnings = result.answer.warnings.map((warning) => warning.message);
    const app = createRoot(element);
    root = app;
    // The server's cart goes and React's comes in one synchronous render: emptied first and
    // rendered later, the page could paint a frame without a cart, and the footer jumped up
    // and back (a layout shift of 0.149 on /cart).
    flushSync(() => {
      element.replaceChildren();
      app.render(<CartApp api={api} cart={result.answer.cart} warnings={warnings} />);
    });
  });
  return () => {
    stopped = true;
    root?.unmount();
    element.replaceChildren(...original);
  };
}

interface CartAppProps {
  readonly api: CartApi;
  readonly cart: Cart;
  readonly warnings: readonly string[];
}

function CartApp({ api, cart, warnings }: CartAppProps) {
  const [state, dispatch] = useReducer(cartReducer, initialCartState(cart, warnings));
  // The line whose answers were just saved, whose Edit button takes the focus back.
  const [focusLine, setFocusLine] = useState<string | undefined>(undefined);
  const run = async (call: () => Promise<CartResult>, coupon = false) => {
    dispatch({ type: 'start' });
    dispatch({ type: 'finish', result: await call(), coupon });
  };
  const saveAnswers = async (sku: string, answers: Answers, call: () => Promise<CartResult>) => {
    dispatch({ type: 'start' });
    const result = await call();
    dispatch({ type: 'finish', result, shownThere: true });
    if (result.ok) {
      // The line's id follows its answers; find it again by what it now says.
      const saved = result.answer.cart.entries.find((entry) => entry.sku === sku && sameAnswers(entry.answers, answers));
      setFocusLine(saved?.lineId);
    }
    return result;
  };
  const open = state.cart.entries.length > 0 && !state.cart.isPurchased;
  return (
    <>
      {state.alert !== undefined && (
        <p className="commerce-alert" role="alert">
          {state.alert}
        </p>
      )}
      <CartSummary state={state} api={api} run={run} saveAnswers={saveAnswers} focusLine={focusLine} />
      {open && <CouponForm state={state} api={api} run={run} />}
      {open && state.cart.requiresShipping && <ShippingForms state={state} api={api} run={run} />}
      {open && (
        // Entering checkout holds stock, so it is a POST (the server refuses a cross-site one).
        <form className="cart-page__checkout" method="post" action="/commerce/goto-checkout">
          <button className="button button--primary" type="submit">
            Checkout
          </button>
        </form>
      )}
    </>
  );
}

interface PartProps {
  readonly state: CartViewState;
  readonly api: CartApi;
  readonly run: (call: () => Promise<CartResult>, coupon?: boolean) => Promise<void>;
}

type SaveAnswers = (sku: string, answers: Answers, call: () => Promise<CartResult>) => Promise<CartResult>;

interface SummaryProps extends PartProps {
  readonly saveAnswers: SaveAnswers;
  readonly focusLine: string | undefined;
}

function CartSummary({ state, api, run, saveAnswers, focusLine }: SummaryProps) {
  const { cart } = state;
  if (cart.entries.length === 0) {
    return (
      <>
        <p className="cart-empty">{NOTHING_IN_CART}</p>
        <p>
          <a className="button" href="/">
            Continue shopping
          </a>
        </p>
      </>
    );
  }
  const editable = !cart.isPurchased;
  const totals: [string, string, boolean][] = [
    ['Subtotal', cart.totalsText.subtotal, false],
    ['Discount', cart.totalsText.discount, false],
    ['Shipping', cart.totalsText.shippingCost, false],
    ['Tax', cart.totalsText.tax, false],
    ['Total', cart.totalsText.grandTotal, true],
  ];
  return (
    <>
      <table className="cart-lines">
        <caption className="visually-hidden">Items in your cart</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Quantity</th>
            <th scope="col">Price</th>
            {editable && (
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {cart.entries.map((entry, index) => (
            <CartLine
              key={`${entry.lineId}:${entry.quantity}`}
              entry={entry}
              index={index}
              editable={editable}
              busy={state.busy}
              api={api}
              run={run}
              saveAnswers={saveAnswers}
              focusEdit={focusLine === entry.lineId}
            />
          ))}
        </tbody>
      </table>
      {cart.coupons.length > 0 && (
        <ul className="cart-coupons" aria-label="Coupons">
          {cart.coupons.map((coupon) => {
            const problem = couponProblem(cart, coupon.code);
            return (
              <li className="cart-coupon" key={coupon.code}>
                <span className="cart-coupon__code">{coupon.code}</span>
                {problem !== undefined && <span className="cart-coupon__invalid"> {problem}</span>}
                {editable && (
                  <button
                    className="button button--small button--secondary"
                    type="button"
                    aria-label={`Remove coupon ${coupon.code}`}
                    disabled={state.busy}
                    onClick={() => void run(() => api.removeCoupon(coupon.code), true)}
                  >
                    Remove
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <dl className="cart-totals">
        {totals.map(([label, text, grand]) => (
          <div className={grand ? 'cart-totals__row cart-totals__row--grand' : 'cart-totals__row'} key={label}>
            <dt>{label}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
      {state.warnings.map((warning) => (
        <p className="cart-warning" role="status" key={warning}>
          {warning}
        </p>
      ))}
    </>
  );
}

interface CartLineProps {
  readonly entry: CartEntry;
  readonly index: number;
  readonly editable: boolean;
  readonly busy: boolean;
  readonly api: CartApi;
  readonly run: PartProps['run'];
  readonly saveAnswers: SaveAnswers;
  /** The line's answers were just saved: its Edit button takes the focus. */
  readonly focusEdit: boolean;
}

function CartLine({ entry, index, editable, busy, api, run, saveAnswers, focusEdit }: CartLineProps) {
  const [draft, setDraft] = useState(String(entry.quantity));
  const [invalid, setInvalid] = useState(false);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const inputId = `cart-quantity-${index + 1}`;
  const editorId = `cart-line-form-${index + 1}`;
  useEffect(() => {
    if (focusEdit) editButton.current?.focus();
  }, [focusEdit]);
  const closeEditor = () => {
    setEditing(false);
    editButton.current?.focus();
  };
  const commit = (event: FormEvent) => {
    event.preventDefault();
    const quantity = parseQuantity(draft);
    if (quantity === undefined) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    if (quantity === entry.quantity) return;
    void run(() => api.changeQuantity(entry.lineId, quantity));
  };
  const answers = entry.answers ?? [];
  return (
    <>
      <tr className="cart-line">
        <td className="cart-line__item">
          <span className="cart-line__name">{entry.productName}</span> <span className="cart-line__sku">{entry.sku}</span>
          <span className="cart-line__unit">{entry.unitPriceText} each</span>
          {answers.length > 0 && (
            <dl className="cart-line__answers">
              {answers.map((answer) => (
                <div className="cart-line__answer" key={answer.fieldId}>
                  <dt>{answer.title}</dt>
                  <dd>{answer.value}</dd>
                </div>
              ))}
            </dl>
          )}
          {editable && entry.answers !== null && (
            <button
              className="cart-line__edit button button--small button--secondary"
              type="button"
              ref={editButton}
              aria-expanded={editing}
              aria-controls={editing ? editorId : undefined}
              onClick={() => setEditing((open) => !open)}
            >
              Edit<span className="visually-hidden"> details of {entry.productName}</span>
            </button>
          )}
        </td>
        <td className="cart-line__quantity">
          {editable ? (
            <form className="cart-quantity" onSubmit={commit}>
              <label className="visually-hidden" htmlFor={inputId}>
                Quantity of {entry.productName}
              </label>
              <input
                className="field__control"
                id={inputId}
                type="number"
                min={0}
                max={9999}
                step={1}
                inputMode="numeric"
                value={draft}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? `${inputId}-error` : undefined}
                onChange={(event) => setDraft(event.target.value)}
              />
              <button className="button button--small" type="submit" disabled={busy}>
                Update
              </button>
              {invalid && (
                <span className="field__error" id={`${inputId}-error`}>
                  {UNABLE_TO_UPDATE_QUANTITY}
                </span>
              )}
            </form>
          ) : (
            entry.quantity
          )}
        </td>
        <td className="cart-line__total">{entry.lineTotalText}</td>
        {editable && (
          <td className="cart-line__remove">
            <button
              className="button button--small button--secondary"
              type="button"
              aria-label={`Remove ${entry.productName}`}
              disabled={busy}
              onClick={() => void run(() => api.remove(entry.lineId))}
            >
              Remove
            </button>
          </td>
        )}
      </tr>
      {editing && (
        <tr className="cart-line cart-line--form">
          <td colSpan={4}>
            <LineFormEditor
              api={api}
              entry={entry}
              idPrefix={editorId}
              busy={busy}
              save={(answers, call) => saveAnswers(entry.sku, answers, call)}
              onClose={closeEditor}
            />
          </td>
        </tr>
      )}
    </>
  );
}

function CouponForm({ state, api, run }: PartProps) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return;
    void run(() => api.applyCoupon(code.trim()), true).then(() => setCode(''));
  };
  return (
    <form className="cart-coupon-form" onSubmit={submit}>
      <div className={state.couponError ? 'field field--error' : 'field'}>
        <label className="field__label" htmlFor="cart-coupon-code">
          Coupon code
        </label>
        <input
          className="field__control"
          id="cart-coupon-code"
          name="code"
          autoComplete="off"
          required
          value={code}
          aria-invalid={state.couponError !== undefined || undefined}
          aria-describedby={state.couponError !== undefined ? 'cart-coupon-error' : undefined}
          onChange={(event) => setCode(event.target.value)}
        />
        {state.couponError !== undefined && (
          <p className="field__error" id="cart-coupon-error" role="alert">
            {state.couponError}
          </p>
        )}
      </div>
      <button className="button" type="submit" disabled={state.busy}>
        Apply coupon
      </button>
    </form>
  );
}

function ShippingForms({ state, api, run }: PartProps) {
  const location = state.cart.shippingLocation;
  const [country, setCountry] = useState(location?.country ?? '');
  const [region, setRegion] = useState(location?.region ?? '');
  const [postalCode, setPostalCode] = useState(location?.postalCode ?? '');
  const selected = state.cart.selectedShippingOption?.id;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => api.setLocation(country.trim(), region.trim(), postalCode.trim()));
  };
  return (
    <>
      <form className="cart-location" onSubmit={submit}>
        <fieldset className="field">
          <legend className="field__label">Shipping location</legend>
          <div className="field__parts">
            <div>
              <label className="field__part-label" htmlFor="cart-location-country">
                Country
              </label>
              <input
                className="field__control"
                id="cart-location-country"
                autoComplete="country"
                maxLength={2}
                required
                value={country}
                onChange={(event) => setCountry(event.target.value)}
              />
            </div>
            <div>
              <label className="field__part-label" htmlFor="cart-location-region">
                State or region
              </label>
              <input
                className="field__control"
                id="cart-location-region"
                autoComplete="address-level1"
                value={region}
                onChange={(event) => setRegion(event.target.value)}
              />
            </div>
            <div>
              <label className="field__part-label" htmlFor="cart-location-postal">
                Postal code
              </label>
              <input
                className="field__control"
                id="cart-location-postal"
                autoComplete="postal-code"
                value={postalCode}
                onChange={(event) => setPostalCode(event.target.value)}
              />
            </div>
          </div>
        </fieldset>
        <button className="button button--small" type="submit" disabled={state.busy}>
          Update location
        </button>
      </form>
      {state.cart.shippingOptions.length > 0 && (
        <fieldset className="field cart-shipping">
          <legend className="field__label">Shipping option</legend>
          {state.cart.shippingOptions.map((option) => (
            <label className="field__choice" key={option.id}>
              <input
                type="radio"
                name="shippingOption"
                value={option.id}
                checked={selected === option.id}
                disabled={state.busy}
                onChange={() => void run(() => api.selectShippingOption(option.id))}
              />{' '}
              {option.name} ({option.costText})
            </label>
          ))}
        </fieldset>
      )}
    </>
  );
}

