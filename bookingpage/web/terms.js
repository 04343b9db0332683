// staykit booking page: cancellation and balance on the status page
// (issue #12). Kept apart from app.js on purpose: it watches the status
// card that app.js renders and adds its own panel, so either file can
// change without the other.
(function () {
  'use strict';

  const T = {
    fr: {
      cancel_title: 'Annulation',
      cancel_preview: 'Si vous annulez maintenant, {amount} vous seront remboursés.',
      cancel_until: 'Ce montant vaut jusqu’au {time}.',
      cancel_nothing: 'Si vous annulez maintenant, rien ne vous sera remboursé.',
      cancel: 'Annuler la réservation',
      cancel_confirm: 'Confirmer l’annulation',
      balance_title: 'Solde à confirmer',
      balance_action: 'Votre banque demande de confirmer le paiement du solde de {amount}.',
      balance_pay: 'Confirmer le paiement',
      card: 'Numéro de carte (test)'
    },
    en: {
      cancel_title: 'Cancellation',
      cancel_preview: 'If you cancel now, {amount} will be refunded.',
      cancel_until: 'This amount holds until {time}.',
      cancel_nothing: 'If you cancel now, nothing will be refunded.',
      cancel: 'Cancel the booking',
      cancel_confirm: 'Confirm the cancellation',
      balance_title: 'Balance to confirm',
      balance_action: 'Your bank asks you to confirm the payment of the balance of {amount}.',
      balance_pay: 'Confirm the payment',
      card: 'Card number (test)'
    }
  };

  const $ = (sel) => document.querySelector(sel);
  const lang = () => ((document.documentElement.lang || 'fr').startsWith('en') ? 'en' : 'fr');
  function t(key, params) {
    let s = T[lang()][key];
    for (const [k, v] of Object.entries(params || {})) s = s.replace('{' + k + '}', v);
    return s;
  }
  const tag = () => (lang() === 'fr' ? 'fr-FR' : 'en-GB');
  const money = (amount, currency) => new Intl.NumberFormat(tag(), { style: 'currency', currency }).format(Number(amount));
  const time = (iso) => new Intl.DateTimeFormat(tag(), { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));

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

  async function api(b, method, path) {
    const opts = { method, headers: { Accept: 'application/json' } };
    if (method === 'POST') {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = '{}';
    }
    const res = await fetch('/api/v1/book/' + encodeURIComponent(b.org) + '/booking/' + encodeURIComponent(b.token) + path +
      '?locale=' + lang(), opts);
    const json = await res.json();
    if (!json.success) throw new Error(json.message);
    return json.data;
  }

  function panel() {
    let p = $('#terms-panel');
    if (!p) {
      p = el('div', { id: 'terms-panel', class: 'terms-panel', 'data-testid': 'terms-panel' });
      $('#status-details').after(p);
    }
    return p;
  }

  function fail(p, err) {
    p.hidden = false;
    p.append(el('p', { class: 'alert', role: 'alert', 'data-testid': 'terms-error', text: err.message }));
  }

  let shown = '';

  async function refresh() {
    const b = booking();
    const status = ($('#booking-status') || {}).dataset ? $('#booking-status').dataset.status : '';
    const key = b ? b.token + '|' + status + '|' + lang() : '';
    if (key === shown) return;
    shown = key;
    const p = panel();
    p.replaceChildren();
    p.hidden = true;
    if (!b || !b.token || !status) return;
    try {
      const data = await api(b, 'GET', '');
      if (data.balance && data.balance.status === 'action_required') renderBalance(p, b, data);
      if (data.status === 'confirmed') renderCancel(p, b, await api(b, 'GET', '/cancellation'));
    } catch (err) {
      fail(p, err);
    }
  }

  function renderCancel(p, b, pv) {
    if (!pv.cancellable) return;
    p.hidden = false;
    const refund = Number(pv.refund_amount) > 0;
    const box = el('div', { class: 'terms-box' },
      el('h2', { text: t('cancel_title') }),
      el('p', { 'data-testid': 'cancel-preview', 'data-amount': String(pv.refund_amount),
        text: refund ? t('cancel_preview', { amount: money(pv.refund_amount, pv.currency) }) : t('cancel_nothing') }),
      el('p', { class: 'muted', text: pv.policy.summary }));
    if (refund && pv.refund_until) box.append(el('p', { class: 'muted', text: t('cancel_until', { time: time(pv.refund_until) }) }));
    const start = el('button', { type: 'button', class: 'secondary', 'data-testid': 'cancel-start', text: t('cancel') });
    const confirm = el('button', { type: 'button', class: 'primary', 'data-testid': 'cancel-confirm', text: t('cancel_confirm') });
    confirm.hidden = true;
    start.addEventListener('click', () => { start.hidden = true; confirm.hidden = false; });
    confirm.addEventListener('click', async () => {
      confirm.disabled = true;
      try {
        await api(b, 'POST', '/cancel');
        location.reload();
      } catch (err) {
        confirm.disabled = false;
        fail(p, err);
      }
    });
    box.append(start, confirm);
    p.append(box);
  }

  function renderBalance(p, b, data) {
    p.hidden = false;
    const card = el('input', { id: 'balance-card', 'data-testid': 'balance-card', inputmode: 'numeric', autocomplete: 'cc-number' });
    const pay = el('button', { type: 'button', class: 'primary', 'data-testid': 'balance-pay', text: t('balance_pay') });
    const box = el('div', { class: 'terms-box', 'data-testid': 'balance-action' },
      el('h2', { text: t('balance_title') }),
      el('p', { text: t('balance_action', { amount: money(data.balance.amount, data.currency) }) }));
    pay.addEventListener('click', async () => {
      pay.disabled = true;
      try {
        const bal = await api(b, 'POST', '/balance');
        if (bal.client_secret) await authenticate(b, bal, card.value);
        await api(b, 'POST', '/balance');
        location.reload();
      } catch (err) {
        pay.disabled = false;
        fail(p, err);
      }
    });
    box.append(el('label', { for: 'balance-card', text: t('card') }), card, pay);
    p.append(box);
  }

  // authenticate completes the open balance payment: with the fake
  // provider through /fakepay and the test card, with Stripe through
  // Stripe.js (3-D Secure).
  async function authenticate(b, bal, cardNumber) {
    const intent = bal.client_secret.split('_secret_')[0];
    const cfg = await (await fetch('/app-config.json', { headers: { Accept: 'application/json' } })).json();
    if (cfg.payments !== 'stripe') {
      const res = await fetch('/fakepay/intents/' + encodeURIComponent(intent) + '?locale=' + lang(), {
        method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ card_number: cardNumber.replace(/[\s-]/g, '') })
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
    // With Stripe Connect direct charges the balance lives on the
    // organisation's own account, which Stripe.js must be told: the
    // organisation's config names it.
    const org = await fetch('/api/v1/book/' + encodeURIComponent(b.org) + '/config', { headers: { Accept: 'application/json' } })
      .then((r) => r.json()).catch(() => null);
    const account = org && org.data && org.data.payment_account;
    const stripe = window.Stripe(bal.payment_public_key, account ? { stripeAccount: account } : {});
    const result = await stripe.handleNextAction({ clientSecret: bal.client_secret });
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
