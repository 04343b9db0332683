// staykit booking page: change of dates or party, the payment schedule,
// paying the balance early and the receipt (issue #28). Kept apart from
// app.js like terms.js and review.js: it watches the status card app.js
// renders and adds its own panel.
(function () {
  'use strict';

  const T = {
    fr: {
      title: 'Modifier le séjour',
      check_in: 'Arrivée',
      check_out: 'Départ',
      guests: 'Voyageurs',
      quote: 'Voir le nouveau prix',
      new_total: 'Nouveau total : {amount}',
      paid: 'Déjà payé : {amount}',
      retained: 'Conservé selon les conditions d’annulation : {amount}',
      charge: 'À payer maintenant : {amount}',
      refund: 'Remboursé : {amount}',
      balance: 'Solde : {amount}, à payer avant le {date}',
      nothing: 'Rien à payer ni à rembourser.',
      coupon_dropped: 'Le code promo ne s’applique pas aux nouvelles dates.',
      approval: 'L’hôte doit approuver cette modification.',
      accept: 'Accepter la modification',
      requested: 'Votre demande de modification attend la réponse de l’hôte.',
      paying: 'Pour appliquer la modification, payez {amount}. Les nouvelles dates ne sont pas bloquées d’ici là.',
      pay: 'Payer',
      card: 'Numéro de carte (test)',
      expired: 'La modification a expiré : le paiement n’a pas été fait à temps.',
      refused: 'Les nouvelles dates ont été réservées entre-temps : la modification n’a pas pu être faite, le paiement est remboursé.',
      declined: 'L’hôte a refusé la modification.',
      payments: 'Paiements',
      k_charge: 'Paiement à la réservation',
      k_balance: 'Solde',
      k_change_charge: 'Modification du séjour',
      k_refund: 'Remboursement',
      k_deposit_claim: 'Dépôt de garantie retenu',
      s_paid: 'payé',
      s_refunded: 'remboursé',
      s_pending: 'en cours',
      s_scheduled: 'prévu',
      s_failed: 'échoué',
      pay_balance: 'Payer le solde maintenant ({amount})',
      receipt: 'Télécharger le reçu (PDF)'
    },
    en: {
      title: 'Change the stay',
      check_in: 'Check-in',
      check_out: 'Check-out',
      guests: 'Guests',
      quote: 'See the new price',
      new_total: 'New total: {amount}',
      paid: 'Paid so far: {amount}',
      retained: 'Kept under the cancellation policy: {amount}',
      charge: 'To pay now: {amount}',
      refund: 'Refunded: {amount}',
      balance: 'Balance: {amount}, due by {date}',
      nothing: 'Nothing to pay or refund.',
      coupon_dropped: 'The coupon does not apply to the new dates.',
      approval: 'The host must approve this change.',
      accept: 'Accept the change',
      requested: 'Your change request is waiting for the host’s answer.',
      paying: 'To apply the change, pay {amount}. The new dates are not held until then.',
      pay: 'Pay',
      card: 'Card number (test)',
      expired: 'The change expired: it was not paid in time.',
      refused: 'The new dates were booked meanwhile: the change could not be made, and the payment is refunded.',
      declined: 'The host declined the change.',
      payments: 'Payments',
      k_charge: 'Payment at booking',
      k_balance: 'Balance',
      k_change_charge: 'Change of stay',
      k_refund: 'Refund',
      k_deposit_claim: 'Security deposit kept',
      s_paid: 'paid',
      s_refunded: 'refunded',
      s_pending: 'in progress',
      s_scheduled: 'scheduled',
      s_failed: 'failed',
      pay_balance: 'Pay the balance now ({amount})',
      receipt: 'Download the receipt (PDF)'
    }
  };

  const $ = (sel) => document.querySelector(sel);
  const lang = () => ((document.documentElement.lang || 'fr').startsWith('en') ? 'en' : 'fr');
  function t(key, params) {
    let s = T[lang()][key] || key;
    for (const [k, v] of Object.entries(params || {})) s = s.replace('{' + k + '}', v);
    return s;
  }
  const tag = () => (lang() === 'fr' ? 'fr-FR' : 'en-GB');
  const money = (amount, currency) => new Intl.NumberFormat(tag(), { style: 'currency', currency }).format(Number(amount));
  const day = (iso) => new Intl.DateTimeFormat(tag(), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso + 'T00:00:00Z'));
  const instant = (iso) => new Intl.DateTimeFormat(tag(), { dateStyle: 'medium' }).format(new Date(iso));

  function el(tagName, attrs, ...children) {
    const e = document.createElement(tagName);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
    }
    e.append(...children);
    return e;
  }

  function booking() {
    const link = $('#booking-link');
    if (!link || !link.href || link.href.endsWith('#')) return null;
    const u = new URL(link.href);
    return { org: u.searchParams.get('org'), token: u.searchParams.get('booking') };
  }

  async function api(b, method, path, body) {
    const opts = { method, headers: { Accept: 'application/json' } };
    if (method === 'POST') {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body || {});
    }
    const res = await fetch('/api/v1/book/' + encodeURIComponent(b.org) + '/booking/' + encodeURIComponent(b.token) + path +
      '?locale=' + lang(), opts);
    const json = await res.json();
    if (!json.success) {
      const err = new Error(json.message);
      err.status = res.status;
      throw err;
    }
    return json.data;
  }

  // reload shows the booking again, in the language it is shown in (the
  // page's address does not keep it).
  function reload() {
    const u = new URL(location.href);
    u.searchParams.set('lang', lang());
    location.replace(u.toString());
  }

  function panel() {
    let p = $('#change-panel');
    if (!p) {
      p = el('div', { id: 'change-panel', class: 'terms-panel', 'data-testid': 'change-panel' });
      ($('#terms-panel') || $('#status-details')).after(p);
    }
    return p;
  }

  function fail(box, err) {
    const old = box.querySelector('[data-testid="change-error"]');
    if (old) old.remove();
    box.append(el('p', { class: 'alert', role: 'alert', 'data-testid': 'change-error', text: err.message }));
  }

  let shown = '';
  let generation = 0;

  async function refresh() {
    const b = booking();
    const status = ($('#booking-status') || {}).dataset ? $('#booking-status').dataset.status : '';
    const key = b ? b.token + '|' + status + '|' + lang() : '';
    if (key === shown) return;
    shown = key;
    const p = panel();
    p.replaceChildren();
    p.hidden = true;
    const mine = ++generation;
    if (!b || !b.token || status !== 'confirmed') return;
    p.hidden = false;
    try {
      const st = await api(b, 'GET', '');
      let current = null;
      try {
        current = await api(b, 'GET', '/change');
      } catch (err) {
        if (err.status !== 404) throw err;
      }
      const payments = await api(b, 'GET', '/payments');
      // A newer refresh (the language changed meanwhile) draws instead.
      if (mine !== generation) return;
      p.append(renderChange(b, st, current), renderPayments(b, payments));
    } catch (err) {
      if (mine === generation) fail(p, err);
    }
  }

  // renderChange is the change form, or where the latest change stands.
  function renderChange(b, st, current) {
    const box = el('div', { class: 'terms-box', 'data-testid': 'change-box' }, el('h2', { text: t('title') }));
    if (current && current.status === 'requested') {
      box.append(el('p', { 'data-testid': 'change-requested', text: t('requested') }));
      return box;
    }
    if (current && current.status === 'paying') {
      renderPay(box, b, current);
      return box;
    }
    if (current && ['expired', 'refused', 'declined'].includes(current.status) && !sessionStorage.getItem('seen-change-' + current.id)) {
      box.append(el('p', { class: 'muted', 'data-testid': 'change-outcome', 'data-status': current.status, text: t(current.status) }));
      sessionStorage.setItem('seen-change-' + current.id, '1');
    }
    const inInput = el('input', { type: 'date', id: 'change-check-in', 'data-testid': 'change-check-in', value: st.check_in });
    const outInput = el('input', { type: 'date', id: 'change-check-out', 'data-testid': 'change-check-out', value: st.check_out });
    const guests = el('input', { type: 'number', min: '1', id: 'change-guests', 'data-testid': 'change-guests', value: String(st.guests_count) });
    const quote = el('button', { type: 'button', class: 'secondary', 'data-testid': 'change-quote', text: t('quote') });
    const offer = el('div', { 'data-testid': 'change-offer' });
    const body = () => ({ check_in: inInput.value, check_out: outInput.value, guests_count: Number(guests.value) });
    quote.addEventListener('click', async () => {
      offer.replaceChildren();
      quote.disabled = true;
      try {
        const o = await api(b, 'POST', '/change/quote', body());
        renderOffer(offer, b, o, body());
      } catch (err) {
        fail(offer, err);
      } finally {
        quote.disabled = false;
      }
    });
    box.append(
      el('label', { for: 'change-check-in', text: t('check_in') }), inInput,
      el('label', { for: 'change-check-out', text: t('check_out') }), outInput,
      el('label', { for: 'change-guests', text: t('guests') }), guests,
      quote, offer);
    return box;
  }

  // renderOffer shows what the change does and lets the guest accept it.
  function renderOffer(offer, b, o, body) {
    const cur = o.currency;
    const lines = [t('new_total', { amount: money(o.total_amount, cur) }), t('paid', { amount: money(o.paid_amount, cur) })];
    if (Number(o.retained_amount) > 0) lines.push(t('retained', { amount: money(o.retained_amount, cur) }));
    if (Number(o.charge_amount) > 0) lines.push(t('charge', { amount: money(o.charge_amount, cur) }));
    if (Number(o.refund_amount) > 0) lines.push(t('refund', { amount: money(o.refund_amount, cur) }));
    if (Number(o.balance_amount) > 0 && o.balance_due_date) lines.push(t('balance', { amount: money(o.balance_amount, cur), date: day(o.balance_due_date) }));
    if (Number(o.charge_amount) === 0 && Number(o.refund_amount) === 0 && Number(o.balance_amount) === 0) lines.push(t('nothing'));
    if (o.coupon_dropped) lines.push(t('coupon_dropped'));
    if (o.approval_required) lines.push(t('approval'));
    const list = el('ul', { class: 'summary-list', 'data-testid': 'change-offer-lines', 'data-charge': String(o.charge_amount),
      'data-refund': String(o.refund_amount) }, ...lines.map((l) => el('li', { text: l })));
    const accept = el('button', { type: 'button', class: 'primary', 'data-testid': 'change-accept', text: t('accept') });
    accept.addEventListener('click', async () => {
      accept.disabled = true;
      try {
        const c = await api(b, 'POST', '/change', body);
        if (c.status === 'applied') {
          reload();
          return;
        }
        shown = '';
        refresh();
      } catch (err) {
        accept.disabled = false;
        fail(offer, err);
      }
    });
    offer.append(list, accept);
  }

  // renderPay lets the guest pay a change's charge (3-D Secure, or a card).
  function renderPay(box, b, c) {
    box.append(el('p', { 'data-testid': 'change-paying', text: t('paying', { amount: money(c.offer.charge_amount, c.offer.currency) }) }));
    if (!c.client_secret) return;
    const card = el('input', { id: 'change-card', 'data-testid': 'change-card', inputmode: 'numeric', autocomplete: 'cc-number' });
    const pay = el('button', { type: 'button', class: 'primary', 'data-testid': 'change-pay', text: t('pay') });
    pay.addEventListener('click', async () => {
      pay.disabled = true;
      try {
        await authenticate(b, c.client_secret, c.payment_public_key, card.value);
        const after = await api(b, 'GET', '/change');
        if (after.status === 'applied') {
          reload();
          return;
        }
        shown = '';
        refresh();
      } catch (err) {
        pay.disabled = false;
        fail(box, err);
      }
    });
    box.append(el('label', { for: 'change-card', text: t('card') }), card, pay);
  }

  // renderPayments is the payment schedule, paying the balance early and
  // the receipt.
  function renderPayments(b, ps) {
    const box = el('div', { class: 'terms-box', 'data-testid': 'payments-box' }, el('h2', { text: t('payments') }));
    const rows = ps.items.map((it) => el('tr', { 'data-testid': 'payment-row', 'data-kind': it.kind, 'data-status': it.status },
      el('td', { text: it.date ? instant(it.date) : '' }), el('td', { text: t('k_' + it.kind) }),
      el('td', { text: t('s_' + it.status) }), el('td', { class: 'amount', text: money(it.amount, ps.currency) })));
    box.append(el('table', { class: 'payments' }, el('tbody', {}, ...rows)));
    if (ps.can_pay_balance_now) {
      const card = el('input', { id: 'balance-early-card', 'data-testid': 'balance-early-card', inputmode: 'numeric', autocomplete: 'cc-number' });
      card.hidden = true;
      const pay = el('button', { type: 'button', class: 'secondary', 'data-testid': 'balance-pay-now', text: t('pay_balance', { amount: money(ps.balance_amount, ps.currency) }) });
      pay.addEventListener('click', async () => {
        pay.disabled = true;
        try {
          const bal = await api(b, 'POST', '/balance', { pay_now: true });
          if (bal.client_secret) {
            // The bank asks the guest: a test card in fake mode.
            card.hidden = false;
            if (!card.value) {
              pay.disabled = false;
              card.focus();
              return;
            }
            await authenticate(b, bal.client_secret, bal.payment_public_key, card.value);
            await api(b, 'POST', '/balance');
          }
          reload();
        } catch (err) {
          pay.disabled = false;
          fail(box, err);
        }
      });
      box.append(card, pay);
    }
    const receipt = el('a', { 'data-testid': 'receipt-link', href: '/guest-receipts/' + encodeURIComponent(b.org) + '/' +
      encodeURIComponent(b.token) + '.pdf?locale=' + lang(), target: '_blank', rel: 'noopener', text: t('receipt') });
    box.append(el('p', {}, receipt));
    return box;
  }

  // authenticate completes a payment the provider left to the guest: with
  // the fake provider through /fakepay and the test card, with Stripe
  // through Stripe.js (3-D Secure of a saved card).
  async function authenticate(b, secret, publicKey, cardNumber) {
    const intent = secret.split('_secret_')[0];
    const cfg = await (await fetch('/app-config.json', { headers: { Accept: 'application/json' } })).json();
    if (cfg.payments !== 'stripe') {
      const res = await fetch('/fakepay/intents/' + encodeURIComponent(intent) + '?locale=' + lang(), {
        method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ card_number: (cardNumber || '').replace(/[\s-]/g, '') })
      });
      if (!res.ok) {
        const body = await res.json().catch(() => null);
        throw new Error((body && body.message) || res.statusText);
      }
      return;
    }
    if (!window.Stripe) {
      await new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = 'https://js.stripe.com/v3/';
        s.onload = resolve;
        s.onerror = () => reject(new Error('Stripe.js'));
        document.head.append(s);
      });
    }
    const org = await fetch('/api/v1/book/' + encodeURIComponent(b.org), { headers: { Accept: 'application/json' } })
      .then((r) => r.json()).catch(() => null);
    const account = org && org.data && org.data.payment_account;
    const stripe = window.Stripe(publicKey, account ? { stripeAccount: account } : {});
    const result = await stripe.handleNextAction({ clientSecret: secret });
    if (result.error) throw new Error(result.error.message);
  }

  function start() {
    const details = $('#status-details');
    if (!details) return;
    new MutationObserver(() => { refresh(); }).observe(details, { childList: true });
    new MutationObserver(() => { shown = ''; refresh(); }).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
