// staykit booking page: the messages between the guest and the host (issue
// #28). Like review.js, it watches the status card that app.js renders and
// adds its own section below it: the thread, oldest first, and a form
// while the guest may write. Messages are text: written with textContent,
// never as HTML. The host gets each message by e-mail and answers from
// the dashboard; the guest gets the answer by e-mail, with a link here
// (#messages opens the page at the thread). Replies by e-mail reach no one.
(function () {
  'use strict';

  const T = {
    fr: {
      title: 'Messages',
      intro: 'Écrivez à votre hôte : il reçoit votre message par e-mail et vous répond ici. Vous recevez sa réponse par e-mail.',
      empty: 'Aucun message pour l’instant.',
      you: 'Vous',
      host: 'Votre hôte',
      label: 'Votre message',
      send: 'Envoyer',
      sending: 'Envoi…',
      sent: 'Message envoyé à votre hôte.',
      count: '{n} / {max}',
      waiting: 'Vous avez envoyé plusieurs messages : votre hôte vous répondra ici, vous pourrez alors écrire à nouveau.',
      until: 'Vous pouvez écrire jusqu’au {date}.',
      closed: 'Les messages de cette réservation sont fermés.'
    },
    en: {
      title: 'Messages',
      intro: 'Write to your host: they get your message by e-mail and answer here. You get their answer by e-mail.',
      empty: 'No messages yet.',
      you: 'You',
      host: 'Your host',
      label: 'Your message',
      send: 'Send',
      sending: 'Sending…',
      sent: 'Message sent to your host.',
      count: '{n} / {max}',
      waiting: 'You have sent several messages: your host will answer here, and you may then write again.',
      until: 'You may write until {date}.',
      closed: 'Messages on this booking are closed.'
    }
  };

  // The e-mail's link opens the page at the thread: read before app.js
  // rewrites the address.
  const openAtThread = location.hash === '#messages';

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

  async function api(b, method, body, key) {
    const opts = { method, headers: { Accept: 'application/json' } };
    if (body) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    if (key) opts.headers['Idempotency-Key'] = key;
    const res = await fetch('/api/v1/book/' + encodeURIComponent(b.org) + '/booking/' + encodeURIComponent(b.token) +
      '/messages?locale=' + lang(), opts);
    const json = await res.json();
    if (!json.success) throw Object.assign(new Error(json.message), { code: json.code });
    return json.data;
  }

  function section() {
    let s = $('#thread');
    if (!s) {
      s = el('section', { id: 'thread', class: 'status-card thread', 'data-testid': 'thread', 'aria-labelledby': 'thread-title' });
      s.hidden = true;
      $('#step-status .status-card').after(s);
    }
    return s;
  }

  // The page's date style (app.js, terms.js): French, or British English.
  const tag = () => (lang() === 'fr' ? 'fr-FR' : 'en-GB');
  const when = (iso) => new Intl.DateTimeFormat(tag(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const day = (iso) => new Intl.DateTimeFormat(tag(), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso + 'T00:00:00Z'));

  let shown = '';
  // pending is the text being sent and its Idempotency-Key: a retry of
  // the same text (after a network failure) reuses the key, and the
  // server stores it once.
  let pending = { text: '', key: '' };

  async function refresh(force) {
    const b = booking();
    const status = $('#booking-status') ? $('#booking-status').dataset.status : '';
    const key = b ? b.token + '|' + status + '|' + lang() : '';
    if (key === shown && !force) return;
    shown = key;
    const s = section();
    if (!b || !b.token || !status) { s.hidden = true; return; }
    try {
      render(s, b, await api(b, 'GET'));
    } catch (err) {
      s.hidden = true;
    }
  }

  function render(s, b, th) {
    // A booking on which the guest never writes and nothing was written
    // (pending, expired) shows no thread.
    if (!th.can_write && !th.items.length) { s.hidden = true; s.replaceChildren(); return; }
    s.hidden = false;
    const host = ($('#org-name') && $('#org-name').textContent.trim()) || t('host');
    const list = el('ol', { class: 'thread-list', 'data-testid': 'thread-list', 'aria-live': 'polite' });
    for (const m of th.items) {
      list.append(el('li', { class: 'msg from-' + m.from, 'data-from': m.from, 'data-testid': 'thread-message' },
        el('p', { class: 'msg-body', text: m.body }),
        el('p', { class: 'msg-meta', text: (m.from === 'guest' ? t('you') : host) + ' · ' + when(m.created_at) })));
    }
    const parts = [el('h2', { id: 'thread-title', text: t('title') }), el('p', { class: 'muted thread-intro', text: t('intro') })];
    parts.push(th.items.length ? list : el('p', { class: 'muted', 'data-testid': 'thread-empty', text: t('empty') }));
    if (!th.can_write) {
      parts.push(el('p', { class: 'muted thread-note', 'data-testid': 'thread-closed', text: t('closed') }));
    } else if (th.awaiting_reply) {
      parts.push(el('p', { class: 'muted thread-note', 'data-testid': 'thread-waiting', text: t('waiting') }));
    } else {
      parts.push(form(b, th));
    }
    s.replaceChildren(...parts);
    if (openAtThread && !s.dataset.opened) {
      s.dataset.opened = '1';
      keepInView(s);
    }
  }

  // keepInView scrolls to the thread, and back to it while the panels
  // above it (cancellation, check-in, invoices) are still loading and move
  // it down: until the guest scrolls or types, for three seconds at most.
  function keepInView(s) {
    const events = ['wheel', 'touchstart', 'keydown', 'mousedown'];
    const ro = new ResizeObserver(() => s.scrollIntoView({ block: 'start' }));
    const stop = () => {
      ro.disconnect();
      for (const ev of events) removeEventListener(ev, stop);
    };
    for (const ev of events) addEventListener(ev, stop, { passive: true });
    setTimeout(stop, 3000);
    ro.observe($('#step-status'));
  }

  function form(b, th) {
    const area = el('textarea', { id: 'thread-body', 'data-testid': 'thread-body', rows: '3', maxlength: String(th.max_length),
      'aria-describedby': 'thread-count thread-until' });
    const count = el('span', { id: 'thread-count', class: 'muted thread-count', 'aria-live': 'off' });
    const paint = () => { count.textContent = t('count', { n: [...area.value].length, max: th.max_length }); };
    area.addEventListener('input', paint);
    paint();
    const send = el('button', { type: 'submit', class: 'primary', 'data-testid': 'thread-send', text: t('send') });
    const error = el('p', { class: 'alert', role: 'alert', 'data-testid': 'thread-error' });
    error.hidden = true;
    const f = el('form', { class: 'thread-form', 'data-testid': 'thread-form', novalidate: '' },
      el('label', { for: 'thread-body', text: t('label') }), area,
      el('div', { class: 'thread-bar' }, el('span', { id: 'thread-until', class: 'muted', text: th.write_until ? t('until', { date: day(th.write_until) }) : '' }), count, send),
      error);
    f.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const text = area.value;
      if (!text.trim()) { area.focus(); return; }
      if (pending.text !== text) pending = { text, key: (crypto.randomUUID && crypto.randomUUID()) || String(Date.now()) + Math.random() };
      send.disabled = true;
      send.textContent = t('sending');
      error.hidden = true;
      try {
        await api(b, 'POST', { body: text }, pending.key);
        pending = { text: '', key: '' };
        await refresh(true);
        const sent = $('#thread-body') || $('#thread');
        const note = el('p', { class: 'thread-sent', role: 'status', 'data-testid': 'thread-sent', text: t('sent') });
        $('#thread').append(note);
        if (sent && sent.focus) sent.focus();
      } catch (err) {
        send.disabled = false;
        send.textContent = t('send');
        error.textContent = err.message;
        error.hidden = false;
      }
    });
    return f;
  }

  function start() {
    const details = $('#status-details');
    if (!details) return;
    new MutationObserver(() => { refresh(false); }).observe(details, { childList: true });
    new MutationObserver(() => { shown = ''; refresh(false); }).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    // Back on the tab: the host may have answered meanwhile.
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible' && shown) refresh(true); });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
})();
