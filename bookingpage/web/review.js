// staykit booking page: the guest's review of a stay that is over (issue
// #28). Like terms.js, it watches the status card that app.js renders and
// adds its own panel. A link with &rate=N (the review request e-mail's
// one-click stars) opens the form with that rating chosen.
(function () {
  'use strict';

  const T = {
    fr: {
      title: 'Votre avis',
      ask: 'Comment s’est passé votre séjour ?',
      star: '{n} sur 5',
      comment: 'Un commentaire pour l’hôte et les futurs voyageurs (facultatif)',
      send: 'Envoyer mon avis',
      choose: 'Choisissez une note de 1 à 5.',
      thanks: 'Merci ! Votre note : {n}/5.',
      published: 'L’hôte l’a publié sur la page du logement.'
    },
    en: {
      title: 'Your review',
      ask: 'How was your stay?',
      star: '{n} out of 5',
      comment: 'A comment for the host and future guests (optional)',
      send: 'Send my review',
      choose: 'Choose a rating from 1 to 5.',
      thanks: 'Thank you! Your rating: {n}/5.',
      published: 'The host published it on the property’s page.'
    }
  };

  // The link's rating, read before app.js rewrites the address.
  const linkRating = Number(new URLSearchParams(location.search).get('rate'));

  const $ = (sel) => document.querySelector(sel);
  const lang = () => ((document.documentElement.lang || 'fr').startsWith('en') ? 'en' : 'fr');
  function t(key, params) {
    let s = T[lang()][key];
    for (const [k, v] of Object.entries(params || {})) s = s.replace('{' + k + '}', v);
    return s;
  }

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

  async function api(b, method, body) {
    const opts = { method, headers: { Accept: 'application/json' } };
    if (body) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    const res = await fetch('/api/v1/book/' + encodeURIComponent(b.org) + '/booking/' + encodeURIComponent(b.token) +
      '/review?locale=' + lang(), opts);
    const json = await res.json();
    if (!json.success) throw new Error(json.message);
    return json.data;
  }

  function panel() {
    let p = $('#review-panel');
    if (!p) {
      p = el('div', { id: 'review-panel', class: 'terms-panel', 'data-testid': 'review-panel' });
      $('#status-details').after(p);
    }
    return p;
  }

  function fail(p, err) {
    p.hidden = false;
    const old = p.querySelector('[data-testid="review-error"]');
    if (old) old.remove();
    p.append(el('p', { class: 'alert', role: 'alert', 'data-testid': 'review-error', text: err.message }));
  }

  let shown = '';

  async function refresh() {
    const b = booking();
    const status = $('#booking-status') ? $('#booking-status').dataset.status : '';
    const key = b ? b.token + '|' + status + '|' + lang() : '';
    if (key === shown) return;
    shown = key;
    const p = panel();
    p.replaceChildren();
    p.hidden = true;
    if (!b || !b.token || status !== 'confirmed') return;
    try {
      const data = await api(b, 'GET');
      if (data.review) renderThanks(p, data.review);
      else if (data.reviewable) renderForm(p, b);
    } catch (err) {
      fail(p, err);
    }
  }

  function renderThanks(p, r) {
    p.hidden = false;
    const box = el('div', { class: 'terms-box', 'data-testid': 'review-done', 'data-rating': String(r.rating) },
      el('h2', { text: t('title') }),
      el('p', { text: t('thanks', { n: r.rating }) }));
    if (r.published) box.append(el('p', { class: 'muted', text: t('published') }));
    p.append(box);
  }

  function renderForm(p, b) {
    p.hidden = false;
    let rating = linkRating >= 1 && linkRating <= 5 ? linkRating : 0;
    const stars = el('div', { class: 'review-stars', role: 'radiogroup', 'aria-label': t('ask') });
    const buttons = [];
    const paint = () => buttons.forEach((btn, i) => {
      btn.setAttribute('aria-checked', String(i + 1 === rating));
      btn.classList.toggle('on', i < rating);
    });
    for (let n = 1; n <= 5; n++) {
      const btn = el('button', { type: 'button', role: 'radio', class: 'review-star', 'data-testid': 'review-star-' + n,
        'aria-label': t('star', { n }), text: '★' });
      btn.addEventListener('click', () => { rating = n; paint(); });
      buttons.push(btn);
      stars.append(btn);
    }
    paint();
    const comment = el('textarea', { id: 'review-comment', 'data-testid': 'review-comment', maxlength: '2000', rows: '3' });
    const send = el('button', { type: 'button', class: 'primary', 'data-testid': 'review-send', text: t('send') });
    send.addEventListener('click', async () => {
      if (!rating) { fail(p, new Error(t('choose'))); return; }
      send.disabled = true;
      try {
        const data = await api(b, 'POST', { rating, comment: comment.value });
        p.replaceChildren();
        renderThanks(p, data.review);
      } catch (err) {
        send.disabled = false;
        fail(p, err);
      }
    });
    p.append(el('div', { class: 'terms-box', 'data-testid': 'review-form' },
      el('h2', { text: t('title') }), el('p', { text: t('ask') }), stars,
      el('label', { for: 'review-comment', text: t('comment') }), comment, send));
  }

  function start() {
    const details = $('#status-details');
    if (!details) return;
    new MutationObserver(() => { refresh(); }).observe(details, { childList: true });
    new MutationObserver(() => { shown = ''; refresh(); }).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
