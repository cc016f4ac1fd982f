// A stand-in of Stripe.js (v3) for browser tests, served by the local Stripe fake: the part of
// its API a checkout with the Payment Element uses, speaking to the fake the way Stripe.js
// speaks to Stripe. `Stripe(publishableKey)`; `stripe.elements(options)`;
// `elements.create('payment').mount(target)` draws card fields (Stripe draws them in its own
// frame; here they are plain inputs without a name, so no form ever posts them);
// `elements.submit()` checks they are filled; `elements.update({ amount })` changes the amount
// the fields were made with; `stripe.confirmPayment({ elements, clientSecret,
// confirmParams: { return_url } })` reads the intent (refusing, as Stripe.js does for a
// deferred intent, one whose `setup_future_usage` differs from the fields'
// `setupFutureUsage`, or whose amount or currency differs from the fields'), creates a PaymentMethod from the fields with the
// publishable key, confirms the PaymentIntent with its client secret, and follows
// `next_action.redirect_to_url` to the bank, or goes to the return address with the
// parameters Stripe adds. A card error resolves as `{ error }`, as Stripe.js does.
(function () {
  'use strict';
  var script = document.currentScript;
  var api = new URL(script && script.src ? script.src : location.href).origin;

  function post(path, fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (name) {
      body.append(name, fields[name]);
    });
    return fetch(api + path, { method: 'POST', body: body }).then(function (response) {
      return response.json();
    });
  }

  function field(container, id, label, autocomplete) {
    var wrapper = document.createElement('div');
    wrapper.className = 'field';
    var labelElement = document.createElement('label');
    labelElement.className = 'field__label';
    labelElement.htmlFor = id;
    labelElement.textContent = label;
    var input = document.createElement('input');
    input.className = 'field__control';
    input.id = id;
    input.type = 'text';
    input.inputMode = 'numeric';
    input.autocomplete = autocomplete;
    wrapper.append(labelElement, input);
    container.append(wrapper);
    return input;
  }

  function PaymentElement() {
    this.inputs = null;
  }
  PaymentElement.prototype.mount = function (target) {
    var container = typeof target === 'string' ? document.querySelector(target) : target;
    if (!container) throw new Error('Stripe stand-in: no element to mount the Payment Element in');
    container.replaceChildren();
    this.inputs = {
      number: field(container, 'stripe-card-number', 'Card number', 'cc-number'),
      expiry: field(container, 'stripe-card-expiry', 'Expiry date (MM / YY)', 'cc-exp'),
      cvc: field(container, 'stripe-card-cvc', 'Security code', 'cc-csc'),
    };
  };
  PaymentElement.prototype.values = function () {
    var inputs = this.inputs;
    var expiry = inputs.expiry.value.replace(/\s/g, '').split('/');
    return {
      number: inputs.number.value.replace(/[\s-]/g, ''),
      month: expiry[0] || '',
      year: expiry[1] ? (expiry[1].length === 2 ? '20' + expiry[1] : expiry[1]) : '',
      cvc: inputs.cvc.value.trim(),
    };
  };

  function Elements(options) {
    this.options = options || {};
    this.payment = null;
  }
  Elements.prototype.create = function (type) {
    if (type !== 'payment') throw new Error('Stripe stand-in: only the Payment Element');
    this.payment = new PaymentElement();
    return this.payment;
  };
  Elements.prototype.update = function (options) {
    var self = this;
    Object.keys(options || {}).forEach(function (name) {
      self.options[name] = options[name];
    });
  };
  Elements.prototype.submit = function () {
    var values = this.payment && this.payment.inputs ? this.payment.values() : null;
    if (!values || !values.number || !values.month || !values.year || !values.cvc) {
      return Promise.resolve({
        error: { type: 'validation_error', message: 'Your card details are incomplete.' },
      });
    }
    return Promise.resolve({});
  };

  function withParameters(returnUrl, intent, status) {
    var url = new URL(returnUrl, location.href);
    url.searchParams.append('payment_intent', intent.id);
    url.searchParams.append('payment_intent_client_secret', intent.client_secret);
    url.searchParams.append('redirect_status', status);
    return url.toString();
  }

  function Stripe(key) {
    if (!(this instanceof Stripe)) return new Stripe(key);
    this.key = key;
  }
  Stripe.prototype.elements = function (options) {
    return new Elements(options);
  };
  // Stripe.js refuses to confirm an intent whose `setup_future_usage` differs from the one
  // the fields were created with (the card would be kept, or not, against the shopper's
  // word), and one of another amount or currency than the fields' (the payer would confirm
  // an amount they were not shown).
  function checkIntentMatchesFields(key, secret, elements) {
    var id = secret.split('_secret_')[0];
    var query = new URLSearchParams({ key: key, client_secret: secret });
    return fetch(api + '/v1/payment_intents/' + encodeURIComponent(id) + '?' + query)
      .then(function (response) {
        return response.json();
      })
      .then(function (intent) {
        if (intent.error) return intent.error;
        var fields = elements.options.setupFutureUsage || null;
        var wanted = intent.setup_future_usage || null;
        if (fields !== wanted) {
          return {
            type: 'invalid_request_error',
            code: 'incompatible_payment_intent',
            message:
              "The `setupFutureUsage` passed to elements() (" + fields + ") does not match the PaymentIntent's `setup_future_usage` (" + wanted + ').',
          };
        }
        var amount = elements.options.amount;
        var currency = String(elements.options.currency || '').toLowerCase();
        if (amount !== intent.amount || currency !== String(intent.currency).toLowerCase()) {
          return {
            type: 'invalid_request_error',
            code: 'incompatible_payment_intent',
            message:
              'The amount passed to elements() (' + amount + ' ' + currency + ") does not match the PaymentIntent's amount (" + intent.amount + ' ' + intent.currency + ').',
          };
        }
        return null;
      });
  }

  Stripe.prototype.confirmPayment = function (options) {
    var key = this.key;
    var secret = options.clientSecret;
    var returnUrl = options.confirmParams && options.confirmParams.return_url;
    var card = options.elements.payment.values();
    var never = new Promise(function () {});
    return checkIntentMatchesFields(key, secret, options.elements).then(function (mismatch) {
      if (mismatch) return { error: mismatch };
      return confirmWithCard(key, secret, returnUrl, card, never);
    });
  };

  function confirmWithCard(key, secret, returnUrl, card, never) {
    return post('/v1/payment_methods', {
      key: key,
      type: 'card',
      'card[number]': card.number,
      'card[exp_month]': card.month,
      'card[exp_year]': card.year,
      'card[cvc]': card.cvc,
    })
      .then(function (method) {
        if (method.error) return method;
        var id = secret.split('_secret_')[0];
        return post('/v1/payment_intents/' + encodeURIComponent(id) + '/confirm', {
          key: key,
          client_secret: secret,
          payment_method: method.id,
          return_url: returnUrl,
        });
      })
      .then(function (intent) {
        if (intent.error) return { error: intent.error };
        var action = intent.next_action;
        if (intent.status === 'requires_action' && action && action.type === 'redirect_to_url') {
          location.assign(action.redirect_to_url.url);
          return never;
        }
        location.assign(withParameters(returnUrl, intent, 'succeeded'));
        return never;
      });
  }

  window.Stripe = Stripe;
})();
