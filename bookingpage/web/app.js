// staykit booking flow. Plain JavaScript, no build step: it talks to the
// booking API v1 through the StayKit client (staykit-client.js, built from
// clients/js), pays with the fake card form (/fakepay) or Stripe's Payment
// Element, and shows the booking's status page (/?org=SLUG&booking=TOKEN or
// #/booking/TOKEN).
//
// One flow, two hosts: the booking page (index.html) runs it in the whole
// document; the <staykit-booking> widget (/widget.js, see widget.go and
// widget-element.js) runs it in the element's shadow root, with the same
// markup (index.html's body) and stylesheet.
'use strict';

// staykitFlow runs the booking flow in root (the document, or the widget's
// shadow root). widget is null on the booking page; in the widget it holds
// host (the element), api (the server's origin), server (its payment
// settings), org, locale and property (the element's attributes).
function staykitFlow(root, widget) {
  // ---- Translations -------------------------------------------------------

  const messages = {
    fr: {
      skip: 'Aller au contenu', org_label: 'Organisation', loading: 'Chargement…',
      fake_banner: "Mode démo : paiements fictifs, aucune carte réelle n'est débitée.",
      choose_property: 'Choisissez votre logement', back_properties: '← Tous les logements',
      dates: 'Dates', prev_month: 'Mois précédent', next_month: 'Mois suivant',
      legend_free: 'Libre', legend_taken: 'Indisponible', legend_selected: 'Votre séjour',
      your_stay: 'Votre séjour', check_in: 'Arrivée', check_out: 'Départ', guests: 'Voyageurs',
      children: 'Dont enfants', infants: 'Bébés', pets: 'Animaux', extras: 'Options',
      coupon: 'Code promo', apply: 'Appliquer', continue: 'Continuer',
      back_stay: '← Modifier le séjour', your_details: 'Vos coordonnées', name: 'Nom complet',
      email: 'E-mail', phone: 'Téléphone', phone_hint: 'Par exemple 06 12 34 56 78, ou au format international +33612345678.',
      message: "Message à l'hôte (facultatif)", book: 'Réserver', payment: 'Paiement',
      card_number: 'Numéro de carte', card_expiry: 'Expiration', card_cvc: 'CVC',
      test_cards: 'Cartes de test :', card_ok: 'paiement accepté', card_ko: 'carte refusée',
      pay: 'Payer', authorise: 'Autoriser le paiement', your_booking: 'Votre réservation',
      keep_link: 'Gardez ce lien pour suivre votre réservation :', resume_payment: 'Reprendre le paiement',
      new_booking: 'Nouvelle réservation', powered: 'Réservation propulsée par staykit', terms: 'Conditions',
      from_night: 'à partir de {price} / nuit', guests_max: '{n} voyageurs max.', bedrooms: '{n} chambres', registration: 'N° d\'enregistrement : {number}',
      guest_n: '{n} voyageur', guests_n: '{n} voyageurs',
      hint_check_in: "Choisissez votre date d'arrivée.",
      hint_check_out: 'Choisissez votre date de départ (au moins {n} nuits).',
      hint_check_out_1: 'Choisissez votre date de départ.',
      hint_none: "Aucun départ possible depuis ce jour : choisissez une autre date d'arrivée.",
      hint_done: '{n} nuits sélectionnées. Cliquez une date pour recommencer.',
      hint_done_1: '1 nuit sélectionnée. Cliquez une date pour recommencer.',
      nights_n: '{n} nuits', night_1: '1 nuit', per_night: '{price} / nuit',
      day_free: 'libre', day_taken: 'indisponible', day_arrival: 'arrivée', day_departure: 'départ',
      accommodation: 'Hébergement ({nights})', weekly_discount: 'Réduction à la semaine',
      monthly_discount: 'Réduction au mois', coupon_line: 'Code promo {code}', cleaning_fee: 'Frais de ménage',
      extra_guest_fee: 'Voyageurs supplémentaires', tourist_tax: 'Taxe de séjour', total: 'Total',
      pay_now: 'À payer maintenant', authorise_now: 'À autoriser maintenant', deposit_now: 'Acompte à payer maintenant',
      balance_due: 'Solde à régler le {date}', balance: 'Solde',
      request_note: "Votre carte est autorisée maintenant et débitée seulement si l'hôte accepte votre demande.",
      full_note: 'Le montant total est payé à la réservation.',
      deposit_note: "Vous payez l'acompte maintenant ; le solde est dû avant l'arrivée.",
      deposit_full_note: "L'arrivée est proche : le montant total est payé à la réservation.",
      coupon_applied: 'Code {code} appliqué.', coupon_removed: 'Code promo retiré.',
      to_pay_now: 'À payer maintenant : {amount}', to_authorise: 'Montant autorisé sur votre carte : {amount}',
      hold_until: 'Vos dates sont réservées pour vous jusqu’à {time}.',
      pay_note_fake: 'Paiement de démonstration : utilisez une carte de test ci-dessous.',
      pay_note_stripe: 'Paiement sécurisé par Stripe.',
      card_required: 'Saisissez un numéro de carte.',
      details_summary: '{property} · {from} → {to} · {guests} · {total}',
      status_confirmed: 'Votre réservation est confirmée. À bientôt le {date} !',
      status_requested: "Votre demande est envoyée à l'hôte. Votre carte est autorisée pour {amount} et ne sera débitée que s'il accepte.",
      status_pending: 'En attente du paiement. Vos dates sont réservées jusqu’à {time}.',
      status_expired: "Le délai de paiement est écoulé : les dates ont été libérées.",
      status_declined: "L'hôte a décliné votre demande ; votre carte n'a pas été débitée.",
      status_cancelled: 'Cette réservation a été annulée.',
      st_confirmed: 'Confirmée', st_requested: 'Demande envoyée', st_pending: 'En attente de paiement',
      st_expired: 'Expirée', st_declined: 'Déclinée', st_cancelled: 'Annulée',
      property: 'Logement', nights: 'Nuits', guest: 'Voyageur principal', paid: 'Payé',
      refunded: 'Remboursé', refund_pending: 'Remboursement en cours',
      network_error: 'Le serveur ne répond pas. Vérifiez votre connexion et réessayez.',
      generic_error: 'Une erreur est survenue. Veuillez réessayer.',
      no_org: "Aucune organisation n'accepte de réservations en ligne sur ce serveur.",
      no_properties: "Aucun logement n'est disponible à la réservation pour le moment.",
      org_not_found: "L'organisation « {slug} » n'existe pas ou ne prend pas de réservations en ligne. Vérifiez le lien, ou choisissez une organisation ci-dessous.",
      org_choices: 'Organisations qui acceptent les réservations :', org_placeholder: 'Choisissez…',
      booking_not_found_title: 'Réservation introuvable',
      booking_not_found: "Aucune réservation ne correspond à ce lien. Vérifiez le lien reçu lors de la réservation, ou réservez un nouveau séjour.",
      see_properties: 'Voir les logements',
      stripe_load_error: 'Le module de paiement Stripe n’a pas pu être chargé.',
      origin_refused: "Ce site ({origin}) n'est pas autorisé à prendre des réservations pour cet établissement.",
      widget_unreachable: 'Le service de réservation est injoignable depuis ce site ({origin}) : il ne répond pas, ou il n’autorise pas ce site.',
      checkin_title: 'Enregistrement en ligne', checkin_of: '{valid} voyageur(s) sur {expected} enregistré(s)',
      checkin_complete: 'Merci : votre enregistrement est complet.', checkin_open: 'Remplir l’enregistrement',
      checkin_save: 'Envoyer', checkin_saved: 'Enregistrement envoyé.', checkin_guest: 'Voyageur {n}', checkin_add: 'Ajouter un voyageur',
      checkin_why: 'La loi du pays du logement demande à votre hôte l’identité de chaque voyageur. Ces données ne servent qu’à cela et sont effacées après le délai légal.',
      cf_given_names: 'Prénoms', cf_surname: 'Nom', cf_second_surname: 'Second nom', cf_sex: 'Sexe', cf_birth_date: 'Date de naissance',
      cf_birth_place: 'Lieu de naissance', cf_birth_country: 'Pays de naissance (FR, DE…)', cf_birth_municipality_code: 'Code de la commune de naissance',
      cf_birth_province: 'Province de naissance', cf_nationality: 'Nationalité (FR, DE…)', cf_document_type: 'Pièce d’identité',
      cf_document_number: 'Numéro de la pièce', cf_document_support: 'Numéro de support (DNI/NIE)', cf_document_country: 'Pays de délivrance (FR, DE…)',
      cf_document_issue_place_code: 'Code de la commune de délivrance', cf_document_issue_date: 'Date de délivrance', cf_address: 'Adresse',
      cf_postal_code: 'Code postal', cf_city: 'Ville', cf_municipality_code: 'Code INE de la commune', cf_address_country: 'Pays de résidence (FR, DE…)',
      cf_phone: 'Téléphone mobile', cf_email: 'E-mail', cf_relationship: 'Lien avec un adulte (mineur)',
      doc_passport: 'Passeport', doc_id_card: 'Carte d’identité', doc_residence_permit: 'Titre de séjour', doc_driving_licence: 'Permis de conduire', doc_other: 'Autre',
      sex_M: 'Homme', sex_F: 'Femme', sex_X: 'Autre'
    },
    en: {
      skip: 'Skip to content', org_label: 'Organisation', loading: 'Loading…',
      fake_banner: 'Demo mode: fake payments, no real card is charged.',
      choose_property: 'Choose your stay', back_properties: '← All properties',
      dates: 'Dates', prev_month: 'Previous month', next_month: 'Next month',
      legend_free: 'Available', legend_taken: 'Unavailable', legend_selected: 'Your stay',
      your_stay: 'Your stay', check_in: 'Check-in', check_out: 'Check-out', guests: 'Guests',
      children: 'Of whom children', infants: 'Infants', pets: 'Pets', extras: 'Extras',
      coupon: 'Promo code', apply: 'Apply', continue: 'Continue',
      back_stay: '← Change the stay', your_details: 'Your details', name: 'Full name',
      email: 'E-mail', phone: 'Phone', phone_hint: 'For example +447700900123, or a national number of the host\'s country.',
      message: 'Message to the host (optional)', book: 'Book', payment: 'Payment',
      card_number: 'Card number', card_expiry: 'Expiry', card_cvc: 'CVC',
      test_cards: 'Test cards:', card_ok: 'payment succeeds', card_ko: 'card declined',
      pay: 'Pay', authorise: 'Authorise payment', your_booking: 'Your booking',
      keep_link: 'Keep this link to follow your booking:', resume_payment: 'Resume payment',
      new_booking: 'New booking', powered: 'Booking powered by staykit', terms: 'Terms',
      from_night: 'from {price} / night', guests_max: 'up to {n} guests', bedrooms: '{n} bedrooms', registration: 'Registration number: {number}',
      guest_n: '{n} guest', guests_n: '{n} guests',
      hint_check_in: 'Choose your check-in date.',
      hint_check_out: 'Choose your check-out date (at least {n} nights).',
      hint_check_out_1: 'Choose your check-out date.',
      hint_none: 'No check-out is possible from that day: choose another check-in date.',
      hint_done: '{n} nights selected. Click a date to start again.',
      hint_done_1: '1 night selected. Click a date to start again.',
      nights_n: '{n} nights', night_1: '1 night', per_night: '{price} / night',
      day_free: 'available', day_taken: 'unavailable', day_arrival: 'check-in', day_departure: 'check-out',
      accommodation: 'Accommodation ({nights})', weekly_discount: 'Weekly discount',
      monthly_discount: 'Monthly discount', coupon_line: 'Promo code {code}', cleaning_fee: 'Cleaning fee',
      extra_guest_fee: 'Extra guests', tourist_tax: 'Tourist tax', total: 'Total',
      pay_now: 'To pay now', authorise_now: 'To authorise now', deposit_now: 'Deposit to pay now',
      balance_due: 'Balance due on {date}', balance: 'Balance',
      request_note: 'Your card is authorised now and charged only if the host accepts your request.',
      full_note: 'The full amount is paid when you book.',
      deposit_note: 'You pay the deposit now; the balance is due before arrival.',
      deposit_full_note: 'Check-in is close: the full amount is paid when you book.',
      coupon_applied: 'Code {code} applied.', coupon_removed: 'Promo code removed.',
      to_pay_now: 'To pay now: {amount}', to_authorise: 'Amount authorised on your card: {amount}',
      hold_until: 'Your dates are held for you until {time}.',
      pay_note_fake: 'Demo payment: use a test card below.',
      pay_note_stripe: 'Secure payment by Stripe.',
      card_required: 'Enter a card number.',
      details_summary: '{property} · {from} → {to} · {guests} · {total}',
      status_confirmed: 'Your booking is confirmed. See you on {date}!',
      status_requested: 'Your request was sent to the host. Your card is authorised for {amount} and is charged only if they accept.',
      status_pending: 'Waiting for payment. Your dates are held until {time}.',
      status_expired: 'The payment time ran out: the dates were released.',
      status_declined: 'The host declined your request; your card was not charged.',
      status_cancelled: 'This booking was cancelled.',
      st_confirmed: 'Confirmed', st_requested: 'Request sent', st_pending: 'Awaiting payment',
      st_expired: 'Expired', st_declined: 'Declined', st_cancelled: 'Cancelled',
      property: 'Property', nights: 'Nights', guest: 'Lead guest', paid: 'Paid',
      refunded: 'Refunded', refund_pending: 'Refund on its way',
      network_error: 'The server does not answer. Check your connection and try again.',
      generic_error: 'Something went wrong. Please try again.',
      no_org: 'No organisation takes online bookings on this server.',
      no_properties: 'No property can be booked at the moment.',
      org_not_found: 'The organisation “{slug}” does not exist or does not take bookings online. Check the link, or choose an organisation below.',
      org_choices: 'Organisations taking bookings:', org_placeholder: 'Choose…',
      booking_not_found_title: 'Booking not found',
      booking_not_found: 'No booking matches this link. Check the link you received when you booked, or book a new stay.',
      see_properties: 'See the properties',
      stripe_load_error: 'The Stripe payment module could not be loaded.',
      origin_refused: 'This website ({origin}) is not allowed to take bookings for this organisation.',
      widget_unreachable: 'The booking service cannot be reached from this website ({origin}): it does not answer, or it does not allow this site.',
      checkin_title: 'Online check-in', checkin_of: '{valid} of {expected} guest(s) checked in',
      checkin_complete: 'Thank you: your check-in is complete.', checkin_open: 'Fill in the check-in',
      checkin_save: 'Send', checkin_saved: 'Check-in sent.', checkin_guest: 'Guest {n}', checkin_add: 'Add a guest',
      checkin_why: 'The law of the property’s country asks your host for each guest’s identity. This data serves that only and is deleted after the legal period.',
      cf_given_names: 'Given names', cf_surname: 'Surname', cf_second_surname: 'Second surname', cf_sex: 'Sex', cf_birth_date: 'Date of birth',
      cf_birth_place: 'Place of birth', cf_birth_country: 'Country of birth (FR, DE…)', cf_birth_municipality_code: 'Comune of birth code',
      cf_birth_province: 'Province of birth', cf_nationality: 'Nationality (FR, DE…)', cf_document_type: 'Identity document',
      cf_document_number: 'Document number', cf_document_support: 'Support number (DNI/NIE)', cf_document_country: 'Issuing country (FR, DE…)',
      cf_document_issue_place_code: 'Issuing comune code', cf_document_issue_date: 'Issue date', cf_address: 'Address',
      cf_postal_code: 'Postal code', cf_city: 'City', cf_municipality_code: 'INE municipality code', cf_address_country: 'Country of residence (FR, DE…)',
      cf_phone: 'Mobile phone', cf_email: 'E-mail', cf_relationship: 'Relationship to an adult (minor)',
      doc_passport: 'Passport', doc_id_card: 'Identity card', doc_residence_permit: 'Residence permit', doc_driving_licence: 'Driving licence', doc_other: 'Other',
      sex_M: 'Male', sex_F: 'Female', sex_X: 'Other'
    }
  };

  const state = {
    app: null, org: null, orgConfig: null, locale: 'fr', localeChosen: false,
    properties: [], property: null, days: new Map(), months: [], monthIndex: 0,
    checkIn: null, checkOut: null, guests: 1, coupon: '', quote: null, quoteSeq: 0,
    children: 0, infants: 0, pets: 0, extras: {},
    checkout: null, idemKey: null, idemBody: null, view: null, statusToken: null, focusDate: null,
    stripe: null, elements: null, confirmTried: {}
  };

  const $ = (sel) => root.querySelector(sel);
  // frame carries the language and the theme colour: the page's <html>, or
  // the widget's outer box.
  const frame = widget ? root.querySelector('.sk-root') : document.documentElement;
  // serverBase is where the API, /fakepay and the booking page are.
  const serverBase = widget ? widget.api : location.origin;

  function t(key, params) {
    let s = (messages[state.locale] && messages[state.locale][key]) || messages.en[key] || key;
    if (params) {
      for (const [k, v] of Object.entries(params)) s = s.split('{' + k + '}').join(String(v));
    }
    return s;
  }

  function langTag() { return state.locale === 'fr' ? 'fr-FR' : 'en-GB'; }

  function applyTranslations() {
    frame.lang = state.locale;
    root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    root.querySelectorAll('[data-i18n-aria]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nAria)); });
    const other = state.locale === 'fr' ? 'en' : 'fr';
    const toggle = $('#lang-toggle');
    toggle.textContent = other.toUpperCase();
    toggle.setAttribute('aria-label', other === 'en' ? 'English' : 'Français');
    toggle.lang = other;
    if (!widget) document.title = (state.orgConfig ? state.orgConfig.organization.name + ' — ' : '') + t('your_booking');
  }

  // ---- Formatting ---------------------------------------------------------

  function money(amount, currency, compact) {
    const opts = { style: 'currency', currency: currency || 'EUR' };
    if (compact) { opts.maximumFractionDigits = 0; opts.minimumFractionDigits = 0; }
    return new Intl.NumberFormat(langTag(), opts).format(Number(amount));
  }

  function parseDate(s) {
    const [y, m, d] = s.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d));
  }

  function isoDate(dt) { return dt.toISOString().slice(0, 10); }

  function addDays(s, n) {
    const dt = parseDate(s);
    dt.setUTCDate(dt.getUTCDate() + n);
    return isoDate(dt);
  }

  function nightsBetween(a, b) { return Math.round((parseDate(b) - parseDate(a)) / 86400000); }

  // addMonths is the same day n months from s, or the month's last day
  // when it is shorter.
  function addMonths(s, n) {
    const [y, m, d] = s.split('-').map(Number);
    const last = new Date(Date.UTC(y, m - 1 + n + 1, 0)).getUTCDate();
    return isoDate(new Date(Date.UTC(y, m - 1 + n, Math.min(d, last))));
  }

  // weekday is s's day of the week, Monday 0 to Sunday 6.
  function weekday(s) { return (parseDate(s).getUTCDay() + 6) % 7; }

  function fmtDate(s, long) {
    const opts = long
      ? { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }
      : { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
    return new Intl.DateTimeFormat(langTag(), opts).format(parseDate(s));
  }

  function fmtTime(iso) {
    if (!iso) return '';
    return new Intl.DateTimeFormat(langTag(), { hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short' }).format(new Date(iso));
  }

  function nightsText(n) { return n === 1 ? t('night_1') : t('nights_n', { n }); }
  function guestsText(n) { return n === 1 ? t('guest_n', { n }) : t('guests_n', { n }); }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  // ---- API ----------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, code, message, fields) {
      super(message);
      this.status = status; this.code = code; this.fields = fields || null;
    }
  }

  async function request(url, opts) {
    let res;
    try {
      res = await fetch(url, opts);
    } catch (e) {
      throw new ApiError(0, 'network', t('network_error'));
    }
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    return { res, body };
  }

  // api runs call(client, options) with the StayKit client of the current
  // organisation, in the page's language; amounts come back as exact
  // decimal strings. A failure becomes an ApiError with a message to show.
  async function api(call) {
    if (!state.client || state.client.org !== state.org) {
      state.client = new StayKit.StaykitClient({ baseUrl: serverBase, org: state.org });
    }
    try {
      return await call(state.client, { locale: state.locale });
    } catch (err) {
      if (!(err instanceof StayKit.StaykitError)) throw err;
      // A browser refusing the answer (CORS: this site is not allowed) looks
      // like a network failure too.
      if (err.code === 'network_error') throw new ApiError(0, 'network', widget ? t('widget_unreachable', { origin: location.origin }) : t('network_error'));
      if (err.code === 'origin_not_allowed') throw new ApiError(err.status, err.code, t('origin_refused', { origin: location.origin }));
      const fields = Object.keys(err.fieldErrors).length ? err.fieldErrors : null;
      throw new ApiError(err.status, err.code, err.message || t('generic_error'), fields);
    }
  }

  const randomKey = StayKit.randomKey;

  // asset resolves a path of the server (a property's photo) for the widget,
  // which runs on another site.
  function asset(src) { return widget ? new URL(src, serverBase).href : src; }

  // ---- Views --------------------------------------------------------------

  const steps = ['step-properties', 'step-stay', 'step-details', 'step-pay', 'step-status'];

  // engaged says the guest has used the flow (a pointer, a key, or focus
  // inside it): until then it never moves focus, so a page that embeds the
  // widget keeps its own on load.
  let engaged = false;
  for (const type of ['pointerdown', 'keydown', 'focusin']) {
    root.addEventListener(type, () => { engaged = true; }, { capture: true });
  }

  function show(step) {
    state.view = step;
    for (const id of steps) root.getElementById(id).hidden = id !== step;
    $('#loading').hidden = true;
    const h = root.querySelector('#' + step + ' h1');
    if (h && engaged) { h.tabIndex = -1; h.focus({ preventScroll: true }); }
    if (!widget) window.scrollTo(0, 0);
    else if (widget.host.getBoundingClientRect().top < 0) widget.host.scrollIntoView();
  }

  function showError(target, err) {
    const node = typeof target === 'string' ? $(target) : target;
    node.textContent = err ? (err.message || String(err)) : '';
    node.hidden = !err;
  }

  function setURL(params, hash) {
    if (widget) return; // the host page's address is not the widget's
    const q = new URLSearchParams(Object.assign({ org: state.org }, params));
    history.replaceState(null, '', '/?' + q.toString() + (hash || ''));
  }

  // ---- Organisation -------------------------------------------------------

  async function loadOrg() {
    state.orgConfig = await api((c, o) => c.config(o));
    const cfg = state.orgConfig.config;
    if (!state.localeChosen) state.locale = cfg.default_locale === 'en' ? 'en' : 'fr';
    const color = cfg.branding && cfg.branding.primary_color;
    if (color && /^#[0-9a-fA-F]{3,8}$/.test(color)) frame.style.setProperty('--primary', color);
    else frame.style.removeProperty('--primary');
    $('#org-name').textContent = state.orgConfig.organization.name;
    $('#terms-wrap').hidden = !cfg.terms_url;
    if (cfg.terms_url) $('#terms-link').href = cfg.terms_url;
    applyTranslations();
  }

  async function showProperties() {
    state.property = null;
    setURL({});
    state.properties = await api((c, o) => c.properties(o));
    renderProperties();
    show('step-properties');
  }

  function renderProperties() {
    const list = $('#property-list');
    list.replaceChildren();
    if (state.properties.length === 0) {
      list.append(el('li', { class: 'muted', text: t('no_properties') }));
    }
    for (const p of state.properties) {
      const meta = [p.city, t('guests_max', { n: p.max_guests }), p.bedrooms ? t('bedrooms', { n: p.bedrooms }) : null].filter(Boolean).join(' · ');
      const card = el('button', { type: 'button', class: 'card', 'data-testid': 'property-' + p.id, 'data-property-id': p.id, onclick: () => openProperty(p.id) },
        p.photos && p.photos[0] ? el('img', { src: asset(p.photos[0]), alt: '' }) : null,
        el('span', { class: 'card-body' },
          el('span', { class: 'card-title', text: p.name }),
          el('span', { class: 'muted', text: meta }),
          p.registration_number ? el('span', { class: 'muted registration', text: t('registration', { number: p.registration_number }) }) : null,
          el('span', { text: p.description }),
          el('span', { class: 'card-price' }, el('strong', { text: t('from_night', { price: money(p.price_from, p.currency, true) }) }))));
      list.append(el('li', {}, card));
    }
  }

  // ---- Stay: calendar, guests, coupon, quote ------------------------------

  async function openProperty(id) {
    let p = state.properties.find((x) => x.id === Number(id));
    if (!p) {
      state.properties = await api((c, o) => c.properties(o));
      p = state.properties.find((x) => x.id === Number(id));
      if (!p) { await showProperties(); return; }
    }
    state.property = p;
    state.checkIn = state.checkOut = null;
    state.quote = null;
    state.coupon = '';
    $('#coupon').value = '';
    setCouponMsg('', '');
    setURL({ property: p.id });
    $('#property-name').textContent = p.name;
    $('#property-meta').textContent = [p.city, p.country, t('guests_max', { n: p.max_guests }), p.bedrooms ? t('bedrooms', { n: p.bedrooms }) : null].filter(Boolean).join(' · ');
    // The registration number the law asks every listing to show
    // (Regulation (EU) 2024/1028), when the host has entered one.
    const reg = $('#property-registration');
    reg.hidden = !p.registration_number;
    reg.textContent = p.registration_number ? t('registration', { number: p.registration_number }) : '';
    $('#property-description').textContent = p.description || '';
    const photo = $('#stay-photo');
    photo.hidden = !(p.photos && p.photos[0]);
    if (!photo.hidden) photo.src = asset(p.photos[0]);
    const guests = $('#guests');
    guests.replaceChildren();
    for (let n = 1; n <= p.max_guests; n++) guests.append(el('option', { value: n, text: guestsText(n) }));
    state.guests = Math.min(2, p.max_guests);
    guests.value = String(state.guests);
    renderCategories();
    renderQuote();
    show('step-stay');
    const cal = $('#calendar');
    cal.setAttribute('aria-busy', 'true');
    const data = await api((c, o) => c.availability(p.id, { months: 12 }, o));
    state.days = new Map(data.days.map((d) => [d.date, d]));
    state.months = [];
    for (const d of data.days) {
      const ym = d.date.slice(0, 7);
      if (state.months[state.months.length - 1] !== ym) state.months.push(ym);
    }
    state.monthIndex = 0;
    state.focusDate = null;
    cal.setAttribute('aria-busy', 'false');
    renderCalendar();
  }

  function maxStay() {
    const p = state.property;
    return (p && p.max_stay_nights) || (state.orgConfig.config.max_stay_nights) || Infinity;
  }

  const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

  // validCheckOuts returns the days a stay starting on ci may end on: every
  // night in between free, within the check-in day's minimum and maximum
  // stays, on one of its departure days when it has some, and the calendar
  // says a stay may end that day. Exactly the stays the quote accepts.
  function validCheckOuts(ci) {
    const out = new Set();
    const first = state.days.get(ci);
    if (!first) return out;
    const min = Math.max(first.min_stay || 1, 1);
    const max = first.max_stay || maxStay();
    const departs = first.departure_days && first.departure_days.length ? new Set(first.departure_days) : null;
    let d = ci;
    for (let nights = 1; nights <= max; nights++) {
      const night = state.days.get(d);
      if (!night || !night.available) break;
      d = addDays(d, 1);
      const end = state.days.get(d);
      if (!end) break;
      if (nights >= min && end.check_out && (!departs || departs.has(weekdays[parseDate(d).getUTCDay()]))) out.add(d);
    }
    return out;
  }

  // visibleMonths is how many months the layout shows side by side (the
  // stylesheet hides the second on narrow screens).
  function visibleMonths() { return window.matchMedia('(max-width: 860px)').matches ? 1 : 2; }

  function renderCalendar() {
    const cal = $('#calendar');
    cal.replaceChildren();
    const checkouts = state.checkIn && !state.checkOut ? validCheckOuts(state.checkIn) : new Set();
    for (let i = 0; i < 2; i++) {
      const ym = state.months[state.monthIndex + i];
      if (ym) cal.append(renderMonth(ym, checkouts));
    }
    rovingDay();
    $('#cal-prev').disabled = state.monthIndex === 0;
    $('#cal-next').disabled = state.monthIndex + visibleMonths() >= state.months.length;
    $('#sel-check-in').textContent = state.checkIn ? fmtDate(state.checkIn) : '—';
    $('#sel-check-out').textContent = state.checkOut ? fmtDate(state.checkOut) : '—';
    let hint;
    if (!state.checkIn) hint = t('hint_check_in');
    else if (!state.checkOut) {
      const min = Math.max((state.days.get(state.checkIn) || {}).min_stay || 1, 1);
      hint = checkouts.size === 0 ? t('hint_none') : (min > 1 ? t('hint_check_out', { n: min }) : t('hint_check_out_1'));
    } else {
      const n = nightsBetween(state.checkIn, state.checkOut);
      hint = n === 1 ? t('hint_done_1') : t('hint_done', { n });
    }
    $('#date-hint').textContent = hint;
  }

  // renderMonth draws a month as an ARIA grid: a row of weekday headers,
  // then a row per week of day cells, each holding the day's button. One
  // day of the calendar is in the tab order (rovingDay); the arrow keys,
  // Home/End and PageUp/PageDown move between days (calendarKey). A day
  // that cannot be picked stays focusable, marked aria-disabled, so the
  // keys walk every day.
  function renderMonth(ym, checkouts) {
    const [y, m] = ym.split('-').map(Number);
    const first = new Date(Date.UTC(y, m - 1, 1));
    const title = new Intl.DateTimeFormat(langTag(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(first);
    const grid = el('div', { class: 'grid', role: 'grid', 'aria-label': title });
    const head = el('div', { class: 'week', role: 'row' });
    const monday = new Date(Date.UTC(2024, 0, 1));
    for (let i = 0; i < 7; i++) {
      const wd = new Date(monday.getTime() + i * 86400000);
      head.append(el('span', {
        class: 'dow', role: 'columnheader',
        'aria-label': new Intl.DateTimeFormat(langTag(), { weekday: 'long', timeZone: 'UTC' }).format(wd),
        text: new Intl.DateTimeFormat(langTag(), { weekday: 'narrow', timeZone: 'UTC' }).format(wd)
      }));
    }
    grid.append(head);
    let week = el('div', { class: 'week', role: 'row' });
    const addCell = (cell) => {
      week.append(cell);
      if (week.childElementCount === 7) { grid.append(week); week = el('div', { class: 'week', role: 'row' }); }
    };
    const offset = (first.getUTCDay() + 6) % 7;
    for (let i = 0; i < offset; i++) addCell(el('span', { class: 'day blank', role: 'gridcell' }));
    const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const currency = state.property.currency;
    for (let d = 1; d <= daysInMonth; d++) {
      const date = ym + '-' + String(d).padStart(2, '0');
      const info = state.days.get(date);
      const classes = ['day', info && info.available ? 'free' : 'taken'];
      let clickable = false;
      const isCheckOut = checkouts.has(date);
      if (info) {
        if (state.checkIn && !state.checkOut) clickable = isCheckOut || info.check_in;
        else clickable = info.check_in;
      }
      if (isCheckOut) classes.push('checkout-ok');
      if (date === state.checkIn) classes.push('start');
      if (date === state.checkOut) classes.push('end');
      if (state.checkIn && state.checkOut && date > state.checkIn && date < state.checkOut) classes.push('in-range');
      const labelParts = [fmtDate(date, true)];
      if (info && info.available) labelParts.push(t('per_night', { price: money(info.price, currency) }));
      else labelParts.push(t('day_taken'));
      if (date === state.checkIn) labelParts.push(t('day_arrival'));
      if (date === state.checkOut) labelParts.push(t('day_departure'));
      const btn = el('button', {
        type: 'button', class: classes.join(' '), 'data-date': date, 'data-testid': 'day-' + date,
        'data-check-in': info && info.check_in ? 'true' : 'false',
        'data-check-out-ok': isCheckOut ? 'true' : 'false',
        'aria-pressed': date === state.checkIn || date === state.checkOut ? 'true' : 'false',
        'aria-label': labelParts.join(', '), 'aria-disabled': clickable ? 'false' : 'true', tabindex: '-1',
        onclick: () => { if (clickable) pickDay(date); }
      },
      el('span', { class: 'n', 'aria-hidden': 'true', text: String(d) }),
      el('span', { class: 'p', 'aria-hidden': 'true', text: info && info.available ? money(info.price, currency, true) : '' }));
      addCell(el('span', { class: 'cell', role: 'gridcell' }, btn));
    }
    if (week.childElementCount) grid.append(week);
    return el('div', { class: 'month' }, el('h3', { text: title }), grid);
  }

  // dayButton is the calendar's button of date, if its month is shown.
  function dayButton(date) { return root.querySelector('#calendar .day[data-date="' + date + '"]'); }

  // rovingDay puts one day of the calendar in the tab order: the one last
  // focused, else the departure, the arrival, the first day that can be
  // picked, or the first day shown.
  function rovingDay() {
    const days = [...$('#calendar').querySelectorAll('.day[data-date]')];
    if (!days.length) return;
    const chosen = [state.focusDate, state.checkOut, state.checkIn].map((d) => d && dayButton(d)).find(Boolean);
    const target = chosen || days.find((b) => b.getAttribute('aria-disabled') !== 'true') || days[0];
    for (const b of days) b.tabIndex = b === target ? 0 : -1;
  }

  // calendarKey moves focus between days as the ARIA grid pattern asks:
  // arrows by a day or a week, Home/End to the week's first and last day,
  // PageUp/PageDown by a month (with Shift, a year), turning the shown
  // months when the day is outside them, never beyond the calendar's
  // horizon.
  function calendarKey(e) {
    const btn = e.target.closest && e.target.closest('.day[data-date]');
    if (!btn || e.altKey || e.ctrlKey || e.metaKey) return;
    const date = btn.dataset.date;
    const moves = {
      ArrowLeft: () => addDays(date, -1),
      ArrowRight: () => addDays(date, 1),
      ArrowUp: () => addDays(date, -7),
      ArrowDown: () => addDays(date, 7),
      Home: () => addDays(date, -weekday(date)),
      End: () => addDays(date, 6 - weekday(date)),
      PageUp: () => addMonths(date, e.shiftKey ? -12 : -1),
      PageDown: () => addMonths(date, e.shiftKey ? 12 : 1)
    };
    if (!moves[e.key]) return;
    e.preventDefault();
    focusDay(moves[e.key]());
  }

  // focusDay focuses date's button, showing its month first.
  function focusDay(date) {
    const idx = state.months.indexOf(date.slice(0, 7));
    if (idx < 0) return;
    const shown = visibleMonths();
    const from = Math.min(Math.max(state.monthIndex, idx - shown + 1), idx);
    state.focusDate = date;
    if (from !== state.monthIndex || !dayButton(date)) {
      state.monthIndex = from;
      renderCalendar();
    } else {
      rovingDay();
    }
    const b = dayButton(date);
    if (b) b.focus();
  }

  function pickDay(date) {
    const info = state.days.get(date);
    if (state.checkIn && !state.checkOut && date > state.checkIn && validCheckOuts(state.checkIn).has(date)) {
      state.checkOut = date;
    } else if (date === state.checkIn && !state.checkOut) {
      state.checkIn = null;
    } else if (info && info.check_in) {
      state.checkIn = date;
      state.checkOut = null;
    }
    state.focusDate = date;
    renderCalendar();
    const focus = dayButton(date);
    if (focus) focus.focus();
    requestQuote();
  }

  // setCouponMsg shows a message under the coupon field; source, when it
  // has a key, lets a language switch translate it again.
  function setCouponMsg(text, kind, source) {
    state.couponMsg = source || null;
    const msg = $('#coupon-msg');
    msg.textContent = text;
    msg.className = 'field-msg' + (kind ? ' ' + kind : '');
    $('#coupon').setAttribute('aria-invalid', kind === 'bad' ? 'true' : 'false');
  }

  async function applyCoupon(e) {
    e.preventDefault();
    const code = $('#coupon').value.trim().toUpperCase();
    $('#coupon').value = code;
    if (!code) {
      if (state.coupon) setCouponMsg(t('coupon_removed'), '', { key: 'coupon_removed', kind: '' });
      state.coupon = '';
      requestQuote();
      return;
    }
    const body = { code, property_id: state.property.id };
    if (state.checkIn && state.checkOut) Object.assign(body, { check_in: state.checkIn, check_out: state.checkOut, guests_count: state.guests });
    const btn = $('#coupon-apply');
    btn.disabled = true;
    try {
      await api((c, o) => c.validateCoupon(body, o));
      state.coupon = code;
      setCouponMsg(t('coupon_applied', { code }), 'good', { key: 'coupon_applied', params: { code }, kind: 'good' });
    } catch (err) {
      state.coupon = '';
      setCouponMsg(err.message, 'bad');
    } finally {
      btn.disabled = false;
    }
    requestQuote();
  }

  async function requestQuote() {
    const seq = ++state.quoteSeq;
    showError('#quote-error', null);
    if (!state.checkIn || !state.checkOut) {
      state.quote = null;
      renderQuote();
      return;
    }
    const q = { check_in: state.checkIn, check_out: state.checkOut, guests_count: state.guests };
    if (state.coupon) q.coupon_code = state.coupon;
    Object.assign(q, partyParams());
    const extras = extrasChosen();
    if (extras.length) q.extras = extras.map((e) => e.code + ':' + e.quantity).join(',');
    $('#to-details').disabled = true;
    try {
      const quote = await api((c, o) => c.priceQuote(state.property.id, q, o));
      if (seq !== state.quoteSeq) return;
      state.quote = quote;
    } catch (err) {
      if (seq !== state.quoteSeq) return;
      if (String(err.code).startsWith('coupon_') && state.coupon) {
        // The coupon does not fit these dates: say why and quote without it.
        state.coupon = '';
        setCouponMsg(err.message, 'bad');
        requestQuote();
        return;
      }
      state.quote = null;
      showError('#quote-error', err);
    }
    renderQuote();
  }

  function lineLabel(line) {
    switch (line.code) {
      case 'coupon': return t('coupon_line', { code: state.quote.coupon || '' });
      case 'weekly_discount': case 'monthly_discount': case 'cleaning_fee': case 'extra_guest_fee': case 'tourist_tax':
        return t(line.code);
      default: {
        // A host's fee or tax: its label in the page's language.
        const labels = state.quote && state.quote.line_labels && state.quote.line_labels[line.code];
        return (labels && labels[state.locale]) || line.label;
      }
    }
  }

  // ---- Guest categories and extras (stay rules and charges) --------------

  // partyParams are the categories to send, only when some differ from
  // "all adults" so that a plain stay sends what it always sent.
  function partyParams() {
    if (!state.children && !state.infants && !state.pets) return {};
    return { children: state.children, infants: state.infants, pets: state.pets };
  }

  function extrasChosen() {
    return Object.entries(state.extras).filter(([, n]) => n > 0).map(([code, quantity]) => ({ code, quantity }));
  }

  function fillSelect(sel, from, to, value) {
    sel.replaceChildren();
    for (let n = from; n <= to; n++) sel.append(el('option', { value: n, text: String(n) }));
    sel.value = String(Math.min(Math.max(value, from), to));
    return Number(sel.value);
  }

  function renderCategories() {
    const p = state.property;
    if (!p) return;
    const g = p.guests || { max_pets: 0, max_infants: null };
    state.children = fillSelect($('#children'), 0, Math.max(0, state.guests - 1), state.children);
    state.infants = fillSelect($('#infants'), 0, g.max_infants == null ? 2 : g.max_infants, state.infants);
    const pets = $('#pets');
    state.pets = fillSelect(pets, 0, g.max_pets || 0, state.pets);
    pets.hidden = $('#pets-label').hidden = !g.max_pets;
    const list = $('#extras-list');
    list.replaceChildren();
    const extras = p.extras || [];
    $('#extras').hidden = extras.length === 0;
    const kept = {};
    for (const x of extras) {
      kept[x.code] = state.extras[x.code] || 0;
      const id = 'extra-' + x.code;
      const box = el('input', { type: 'checkbox', id, 'data-testid': id });
      box.checked = kept[x.code] > 0;
      box.addEventListener('change', () => { state.extras[x.code] = box.checked ? 1 : 0; requestQuote(); });
      const label = el('label', { for: id, text: (x.labels && x.labels[state.locale]) || x.code });
      list.append(el('div', { class: 'extra' }, box, label, el('span', { class: 'extra-price', text: ' ' + money(x.amount, p.currency) })));
    }
    state.extras = kept;
  }

  function renderQuote() {
    const box = $('#quote');
    const q = state.quote;
    $('#to-details').disabled = !q;
    box.hidden = !q;
    box.replaceChildren();
    if (!q) return;
    const cur = q.currency;
    const rows = [];
    const row = (cls, label, amount, testid, sign) => el('tr', { class: cls, 'data-testid': testid },
      el('td', { text: label }),
      el('td', { class: 'amt', 'data-amount': String(amount), text: (sign || '') + money(amount, cur) }));
    rows.push(row('', t('accommodation', { nights: nightsText(q.nights) }), q.accommodation, 'quote-accommodation'));
    for (const d of q.discounts) rows.push(row('discount', lineLabel(d), d.amount, 'quote-discount-' + d.code, '−\u202f'));
    for (const f of q.fees) rows.push(row('', lineLabel(f), f.amount, 'quote-fee-' + f.code));
    for (const x of q.taxes) rows.push(row('', lineLabel(x), x.amount, 'quote-tax-' + x.code));
    rows.push(row('total', t('total'), q.total_amount, 'quote-total'));
    let note = t('full_note');
    if (q.payment_mode === 'deposit') {
      rows.push(row('charge', Number(q.balance_amount) > 0 ? t('deposit_now') : t('pay_now'), q.charge_amount, 'quote-charge'));
      if (Number(q.balance_amount) > 0) {
        rows.push(row('', q.balance_due_date ? t('balance_due', { date: fmtDate(q.balance_due_date) }) : t('balance'), q.balance_amount, 'quote-balance'));
      }
      note = Number(q.balance_amount) > 0 ? t('deposit_note') : t('deposit_full_note');
    } else if (q.payment_mode === 'request') {
      note = t('request_note');
      rows.push(row('charge', t('authorise_now'), q.charge_amount, 'quote-charge'));
    } else {
      rows.push(row('charge', t('pay_now'), q.charge_amount, 'quote-charge'));
    }
    box.append(el('table', {}, el('tbody', {}, ...rows)), el('p', { class: 'mode-note', text: note }));
    // The cancellation policy the booking would be sold with.
    if (q.cancellation_policy) {
      box.append(el('p', { class: 'mode-note', 'data-testid': 'quote-policy', 'data-policy': q.cancellation_policy.name, text: q.cancellation_policy.summary }));
    }
  }

  // ---- Guest details and checkout -----------------------------------------

  function showDetails() {
    const q = state.quote;
    $('#details-summary').textContent = t('details_summary', {
      property: state.property.name, from: fmtDate(q.check_in), to: fmtDate(q.check_out),
      guests: guestsText(q.guests_count), total: money(q.total_amount, q.currency)
    });
    clearFieldErrors();
    showError('#checkout-error', null);
    show('step-details');
    $('#guest-name').focus();
  }

  function clearFieldErrors() {
    for (const f of ['guest_name', 'guest_email', 'guest_phone', 'message']) {
      $('#error-' + f).textContent = '';
      const input = root.querySelector('[name="' + f + '"]');
      if (input) input.removeAttribute('aria-invalid');
    }
  }

  async function submitCheckout(e) {
    e.preventDefault();
    clearFieldErrors();
    showError('#checkout-error', null);
    const body = {
      property_id: state.property.id, check_in: state.checkIn, check_out: state.checkOut, guests_count: state.guests,
      guest_name: $('#guest-name').value.trim(), guest_email: $('#guest-email').value.trim(),
      guest_phone: $('#guest-phone').value.replace(/\s+/g, ''), message: $('#guest-message').value, locale: state.locale
    };
    if (state.coupon) body.coupon_code = state.coupon;
    Object.assign(body, partyParams());
    const extras = extrasChosen();
    if (extras.length) body.extras = extras;
    // The same order retried (a double click, a lost answer) reuses its key,
    // so it cannot book twice; a changed order gets a new one.
    const fingerprint = JSON.stringify(body);
    if (fingerprint !== state.idemBody) { state.idemBody = fingerprint; state.idemKey = randomKey(); }
    const btn = $('#checkout-submit');
    btn.disabled = true;
    try {
      const data = await api((c, o) => c.checkout(body, Object.assign({ idempotencyKey: state.idemKey }, o)));
      state.checkout = data;
      state.idemBody = null;
      if (!data.client_secret) {
        await showStatus(data.booking_token);
      } else {
        await showPay();
      }
    } catch (err) {
      let placed = false;
      if (err.fields) {
        let first = null;
        for (const [field, msgs] of Object.entries(err.fields)) {
          const slot = root.getElementById('error-' + field);
          const input = root.querySelector('[name="' + field + '"]');
          if (slot && input) {
            slot.textContent = msgs.join(' ');
            input.setAttribute('aria-invalid', 'true');
            first = first || input;
            placed = true;
          }
        }
        if (first) first.focus();
      }
      if (!placed || Object.keys(err.fields || {}).some((f) => !root.getElementById('error-' + f))) showError('#checkout-error', err);
    } finally {
      btn.disabled = false;
    }
  }

  // ---- Payment ------------------------------------------------------------

  function intentIdOf(clientSecret) {
    // As Stripe.js does: the intent id is what comes before "_secret_".
    const i = clientSecret.indexOf('_secret_');
    return i > 0 ? clientSecret.slice(0, i) : clientSecret;
  }

  async function showPay() {
    const c = state.checkout;
    const request = c.payment_mode === 'request';
    $('#pay-summary').textContent = request ? t('to_authorise', { amount: money(c.charge_amount, c.currency) }) : t('to_pay_now', { amount: money(c.charge_amount, c.currency) });
    $('#pay-summary').dataset.amount = String(c.charge_amount);
    $('#pay-note').textContent = state.app.payments === 'stripe' ? t('pay_note_stripe') : t('pay_note_fake');
    $('#hold-note').textContent = c.expires_at ? t('hold_until', { time: fmtTime(c.expires_at) }) : '';
    // The card is kept for the balance or a security deposit: say so (issue #12).
    $('#pay-consent').textContent = [c.balance_consent, c.security_deposit_consent].filter(Boolean).join(' ');
    $('#pay-submit').textContent = request ? t('authorise') : t('pay');
    showError('#pay-error', null);
    const stripeMode = state.app.payments === 'stripe';
    $('#card-form').hidden = stripeMode;
    $('#stripe-form').hidden = !stripeMode;
    setURL({ booking: c.booking_token });
    show('step-pay');
    if (stripeMode) {
      try { await mountStripe(); } catch (err) { showError('#pay-error', err); }
    } else {
      $('#card-number').focus();
    }
  }

  async function pay() {
    showError('#pay-error', null);
    const btn = $('#pay-submit');
    btn.disabled = true;
    try {
      if (state.app.payments === 'stripe') await payWithStripe();
      else await payWithFakeCard();
    } catch (err) {
      showError('#pay-error', err);
    } finally {
      btn.disabled = false;
    }
  }

  async function payWithFakeCard() {
    const number = $('#card-number').value.replace(/[\s-]/g, '');
    if (!number) throw new Error(t('card_required'));
    const intent = intentIdOf(state.checkout.client_secret);
    const { res, body } = await request(serverBase + '/fakepay/intents/' + encodeURIComponent(intent) + '?locale=' + state.locale, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ card_number: number })
    });
    if (!res.ok) throw new ApiError(res.status, (body && body.error) || 'error', (body && body.message) || t('generic_error'));
    await confirmAndShow(intent);
  }

  function loadStripeJs() {
    return new Promise((resolve, reject) => {
      if (window.Stripe) { resolve(); return; }
      const s = document.createElement('script');
      s.src = 'https://js.stripe.com/v3/';
      s.onload = () => resolve();
      s.onerror = () => reject(new Error(t('stripe_load_error')));
      document.head.append(s);
    });
  }

  async function mountStripe() {
    await loadStripeJs();
    // With Stripe Connect direct charges the payment lives on the
    // organisation's own account, which Stripe.js must be told.
    const account = state.orgConfig && state.orgConfig.payment_account;
    const opts = account ? { locale: state.locale, stripeAccount: account } : { locale: state.locale };
    if (!state.stripe || state.stripeAccount !== account) {
      state.stripe = window.Stripe(state.app.stripe_publishable_key, opts);
      state.stripeAccount = account;
    }
    const primary = getComputedStyle(frame).getPropertyValue('--primary').trim() || '#0f766e';
    state.elements = state.stripe.elements({ clientSecret: state.checkout.client_secret, locale: state.locale, appearance: { theme: 'stripe', variables: { colorPrimary: primary } } });
    $('#payment-element').replaceChildren();
    state.elements.create('payment').mount($('#payment-element'));
  }

  async function payWithStripe() {
    const returnURL = serverBase + '/?' + new URLSearchParams({ org: state.org, booking: state.checkout.booking_token }).toString();
    const result = await state.stripe.confirmPayment({ elements: state.elements, redirect: 'if_required', confirmParams: { return_url: returnURL } });
    if (result.error) throw new Error(result.error.message);
    await confirmAndShow(result.paymentIntent.id);
  }

  async function confirmAndShow(intentId) {
    const token = state.checkout.booking_token;
    const data = await api((c, o) => c.confirm(token, { payment_intent_id: intentId }, o));
    state.confirmTried[token] = true;
    await showStatus(token, data);
  }

  // ---- Status page --------------------------------------------------------

  async function showStatus(token, data) {
    state.statusToken = token;
    setURL({ booking: token });
    showError('#status-error', null);
    try {
      let b = data || await api((c, o) => c.booking(token, o));
      if (b.status === 'pending' && !state.confirmTried[token]) {
        // Back from a payment page (or a closed tab): ask the server to
        // check with the provider once.
        state.confirmTried[token] = true;
        try { b = await api((c, o) => c.confirm(token, {}, o)); } catch (e) { /* not paid yet */ }
      }
      renderStatus(b);
    } catch (err) {
      renderStatus(null, err.status === 404);
      if (err.status !== 404) showError('#status-error', err);
    }
    show('step-status');
  }

  // renderStatus shows booking b, or without one (notFound: the server
  // knows no such token) a message and the way back to the properties,
  // never an empty badge or a link to nothing.
  function renderStatus(b, notFound) {
    const badge = $('#booking-status');
    const dl = $('#status-details');
    dl.replaceChildren();
    const link = serverBase + '/?' + new URLSearchParams({ org: state.org, booking: state.statusToken }).toString();
    $('#booking-link').textContent = link;
    $('#booking-link').href = link;
    $('#status-pay').hidden = true;
    $('#h-status').textContent = b || !notFound ? t('your_booking') : t('booking_not_found_title');
    $('#keep-link').hidden = !b;
    badge.hidden = !b;
    $('#new-booking').textContent = b ? t('new_booking') : t('see_properties');
    if (!b) {
      badge.textContent = '';
      badge.dataset.status = '';
      $('#status-text').textContent = notFound ? t('booking_not_found') : '';
      return;
    }
    badge.textContent = t('st_' + b.status);
    badge.dataset.status = b.status;
    const texts = {
      confirmed: t('status_confirmed', { date: fmtDate(b.check_in, true) }),
      requested: t('status_requested', { amount: money(b.charge_amount, b.currency) }),
      pending: t('status_pending', { time: fmtTime(b.expires_at) }),
      expired: t('status_expired'), declined: t('status_declined'), cancelled: t('status_cancelled')
    };
    $('#status-text').textContent = texts[b.status] || '';
    const item = (label, value, testid) => el('div', {}, el('dt', { text: label }), el('dd', { text: value, 'data-testid': testid }));
    dl.append(
      item(t('property'), b.property.name, 'status-property'),
      item(t('guest'), b.guest_name, 'status-guest'),
      item(t('check_in'), fmtDate(b.check_in), 'status-check-in'),
      item(t('check_out'), fmtDate(b.check_out), 'status-check-out'),
      item(t('nights'), String(b.nights), 'status-nights'),
      item(t('guests'), String(b.guests_count), 'status-guests'),
      item(t('total'), money(b.total_amount, b.currency), 'status-total'),
      item(t('paid'), money(b.paid_amount, b.currency), 'status-paid'));
    if (Number(b.refunded_amount) > 0) {
      dl.append(item(t('refunded'), money(b.refunded_amount, b.currency), 'status-refunded'));
    }
    if (Number(b.refund_pending_amount) > 0) {
      dl.append(item(t('refund_pending'), money(b.refund_pending_amount, b.currency), 'status-refund-pending'));
    }
    if (Number(b.balance_amount) > 0) {
      dl.append(item(b.balance_due_date ? t('balance_due', { date: fmtDate(b.balance_due_date) }) : t('balance'), money(b.balance_amount, b.currency), 'status-balance'));
    }
    dl.querySelector('[data-testid="status-total"]').dataset.amount = String(b.total_amount);
    const resumable = b.status === 'pending' && state.checkout && state.checkout.booking_token === b.booking_token && state.checkout.client_secret;
    $('#status-pay').hidden = !resumable;
    renderCheckin(b);
  }

  // ---- Online check-in ----------------------------------------------------

  // renderCheckin shows, for a booking still to come, how far its online
  // check-in is, and the form the guest fills in with each guest's
  // identity data: the fields the property's country asks (the API says
  // which). The data is sent, never read back.
  async function renderCheckin(b) {
    const box = $('#checkin-box');
    box.replaceChildren();
    box.hidden = true;
    const today = new Date().toISOString().slice(0, 10);
    if (!['pending', 'requested', 'confirmed'].includes(b.status) || b.check_out < today) return;
    const token = state.statusToken;
    let st;
    try {
      st = await api((c, o) => c.checkinStatus(token, o));
    } catch (err) {
      return; // no online check-in here
    }
    if (state.statusToken !== token || state.view !== 'step-status') return;
    const summary = el('p', { 'data-testid': 'checkin-summary' });
    const error = el('p', { class: 'alert', role: 'alert', 'data-testid': 'checkin-error', hidden: true });
    const showSummary = (s) => {
      const c = s.completeness;
      summary.textContent = c.complete ? t('checkin_complete') : t('checkin_of', { valid: c.valid, expected: c.expected });
      summary.dataset.complete = String(c.complete);
    };
    showSummary(st);
    const open = el('button', { type: 'button', class: 'secondary', 'data-testid': 'checkin-open', text: t('checkin_open') });
    box.append(el('h2', { text: t('checkin_title') }), summary, el('p', { class: 'muted', text: t('checkin_why') }), open, error);
    box.hidden = false;
    open.addEventListener('click', () => {
      open.hidden = true;
      const list = el('div', { 'data-testid': 'checkin-guests' });
      const addGuest = () => list.append(checkinFieldset(st.fields, list.children.length + 1));
      for (let i = 0; i < Math.max(1, st.completeness.expected); i++) addGuest();
      const add = el('button', { type: 'button', class: 'secondary', 'data-testid': 'checkin-add', text: t('checkin_add'), onclick: addGuest });
      const send = el('button', { type: 'submit', class: 'primary', 'data-testid': 'checkin-save', text: t('checkin_save') });
      const form = el('form', { class: 'checkin-form', 'data-testid': 'checkin-form', novalidate: true }, list, add, send);
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        showError(error, null);
        const guests = [...list.querySelectorAll('fieldset')].map((fs) => {
          const g = {};
          for (const input of fs.querySelectorAll('input, select')) {
            const v = input.value.trim();
            if (v !== '') g[input.name] = input.dataset.upper ? v.toUpperCase() : v;
          }
          return g;
        });
        send.disabled = true;
        try {
          st = await api((c, o) => c.saveCheckin(token, { guests }, o));
          showSummary(st);
          summary.textContent += ' ' + t('checkin_saved');
          form.remove();
          open.hidden = false;
        } catch (err) {
          const detail = err.fields ? ' ' + Object.entries(err.fields).map(([f, m]) => checkinFieldName(f) + ' : ' + m.join(', ')).join(' ; ') : '';
          showError(error, { message: err.message + detail });
        } finally {
          send.disabled = false;
        }
      });
      box.append(form);
    });
  }

  // checkinFieldName is a field error's name ("guests.1.email") as the
  // guest reads it ("Guest 2 — E-mail").
  function checkinFieldName(f) {
    const m = /^guests\.(\d+)\.(.+)$/.exec(f);
    return m ? t('checkin_guest', { n: Number(m[1]) + 1 }) + ' — ' + t('cf_' + m[2]) : f;
  }

  function checkinFieldset(fields, n) {
    const countries = ['birth_country', 'nationality', 'document_country', 'address_country'];
    const inputs = fields.map((name) => {
      let input;
      if (name === 'sex') {
        input = el('select', { name }, el('option', { value: '', text: '' }), ...['M', 'F', 'X'].map((v) => el('option', { value: v, text: t('sex_' + v) })));
      } else if (name === 'document_type') {
        input = el('select', { name }, el('option', { value: '', text: '' }),
          ...['passport', 'id_card', 'residence_permit', 'driving_licence', 'other'].map((v) => el('option', { value: v, text: t('doc_' + v) })));
      } else {
        const type = name.endsWith('_date') ? 'date' : name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text';
        input = el('input', { name, type, maxlength: countries.includes(name) ? '2' : '100', autocomplete: 'off',
          'data-upper': countries.includes(name) ? 'true' : null });
      }
      return el('label', {}, el('span', { text: t('cf_' + name) }), input);
    });
    return el('fieldset', { 'data-testid': 'checkin-guest' }, el('legend', { text: t('checkin_guest', { n }) }), ...inputs);
  }

  // ---- Wiring -------------------------------------------------------------

  async function switchOrg(slug) {
    state.org = slug;
    state.unknownOrg = null;
    showError('#global-error', null);
    $('#org-choices').hidden = true;
    const placeholder = $('#org-select option[value=""]');
    if (placeholder) placeholder.remove();
    state.checkout = null;
    state.localeChosen = !!localStorage.getItem('staykit.locale');
    try {
      await loadOrg();
      await showProperties();
    } catch (err) {
      fatal(err);
    }
  }

  function fatal(err) {
    $('#loading').hidden = true;
    showError('#global-error', err);
  }

  async function rerender() {
    applyTranslations();
    if (state.unknownOrg) { unknownOrg(state.unknownOrg); return; }
    switch (state.view) {
      case 'step-properties': renderProperties(); break;
      case 'step-stay': {
        const g = $('#guests');
        for (const opt of g.options) opt.textContent = guestsText(Number(opt.value));
        renderCategories();
        renderCalendar();
        renderQuote();
        if (state.couponMsg && state.couponMsg.key) setCouponMsg(t(state.couponMsg.key, state.couponMsg.params), state.couponMsg.kind, state.couponMsg);
        break;
      }
      case 'step-details': if (state.quote) showDetails(); break;
      case 'step-pay': await showPay(); break;
      case 'step-status': if (state.statusToken) await showStatus(state.statusToken); break;
    }
  }

  function wire() {
    $('#org-select').addEventListener('change', (e) => switchOrg(e.target.value));
    $('#lang-toggle').addEventListener('click', () => {
      state.locale = state.locale === 'fr' ? 'en' : 'fr';
      state.localeChosen = true;
      try { localStorage.setItem('staykit.locale', state.locale); } catch (e) { /* private mode */ }
      rerender();
    });
    $('#back-to-properties').addEventListener('click', () => showProperties().catch(fatal));
    $('#back-to-stay').addEventListener('click', () => show('step-stay'));
    $('#cal-prev').addEventListener('click', () => { state.monthIndex = Math.max(0, state.monthIndex - 1); renderCalendar(); });
    $('#cal-next').addEventListener('click', () => { state.monthIndex = Math.min(state.months.length - visibleMonths(), state.monthIndex + 1); renderCalendar(); });
    $('#calendar').addEventListener('keydown', calendarKey);
    $('#calendar').addEventListener('focusin', (e) => {
      const btn = e.target.closest && e.target.closest('.day[data-date]');
      if (btn) { state.focusDate = btn.dataset.date; rovingDay(); }
    });
    $('#guests').addEventListener('change', (e) => { state.guests = Number(e.target.value); renderCategories(); requestQuote(); });
    for (const name of ['children', 'infants', 'pets']) {
      $('#' + name).addEventListener('change', (e) => { state[name] = Number(e.target.value); requestQuote(); });
    }
    $('#coupon-form').addEventListener('submit', applyCoupon);
    $('#to-details').addEventListener('click', showDetails);
    $('#details-form').addEventListener('submit', submitCheckout);
    $('#pay-submit').addEventListener('click', pay);
    $('#card-form').addEventListener('submit', (e) => { e.preventDefault(); pay(); });
    $('#status-pay').addEventListener('click', () => showPay());
    $('#new-booking').addEventListener('click', () => showProperties().catch(fatal));
  }

  async function start() {
    wire();
    if (widget) { await startWidget(); return; }
    try {
      const { res, body } = await request('/app-config.json', { headers: { Accept: 'application/json' } });
      if (!res.ok || !body) throw new Error(messages.en.generic_error);
      state.app = body;
    } catch (err) {
      fatal(err);
      return;
    }
    const q = new URLSearchParams(location.search);
    const stored = (() => { try { return localStorage.getItem('staykit.locale'); } catch (e) { return null; } })();
    const lang = q.get('lang') || stored;
    if (lang === 'fr' || lang === 'en') { state.locale = lang; state.localeChosen = true; }
    $('#fake-banner').hidden = state.app.payments !== 'fake';
    const orgs = state.app.organizations;
    const select = $('#org-select');
    for (const o of orgs) select.append(el('option', { value: o.slug, text: o.name }));
    const wanted = q.get('org');
    const org = orgs.find((o) => o.slug === wanted) || orgs.find((o) => o.slug === 'demo') || orgs[0];
    if (!org && !wanted) { applyTranslations(); fatal(new Error(t('no_org'))); return; }
    if (wanted && !orgs.some((o) => o.slug === wanted)) { unknownOrg(wanted); return; }
    state.org = org && (!wanted || org.slug === wanted) ? org.slug : wanted;
    select.value = state.org;
    select.hidden = orgs.length < 2;
    if (!state.localeChosen && org) state.locale = org.default_locale === 'en' ? 'en' : 'fr';
    applyTranslations();
    try {
      await loadOrg();
      const hash = location.hash.match(/^#\/booking\/([A-Za-z0-9_-]+)$/);
      const token = q.get('booking') || (hash && hash[1]);
      if (token) await showStatus(token);
      else if (q.get('property')) await openProperty(q.get('property'));
      else await showProperties();
    } catch (err) {
      fatal(err);
    }
  }

  // unknownOrg explains that the organisation of the link does not exist
  // and offers the ones that do, in the list and in the dropdown.
  function unknownOrg(slug) {
    state.unknownOrg = slug;
    applyTranslations();
    const orgs = state.app.organizations;
    const select = $('#org-select');
    const old = $('#org-select option[value=""]');
    if (old) old.remove();
    select.prepend(el('option', { value: '', text: t('org_placeholder'), disabled: true }));
    select.value = '';
    select.hidden = orgs.length === 0;
    $('#org-name').textContent = 'staykit';
    fatal(new Error(orgs.length ? t('org_not_found', { slug }) : t('no_org')));
    const list = $('#org-choices-list');
    list.replaceChildren(...orgs.map((o) => el('li', {}, el('a', { href: '/?' + new URLSearchParams({ org: o.slug }).toString(), 'data-testid': 'org-choice-' + o.slug, text: o.name }))));
    $('#org-choices').hidden = orgs.length === 0;
  }

  // startWidget starts the flow in <staykit-booking>: the organisation,
  // language and property come from its attributes, the server's payment
  // settings from /widget.js itself. Every failure shows inside the widget.
  async function startWidget() {
    state.app = widget.server;
    $('#org-select').hidden = true;
    $('.skip').hidden = true;
    const apiLink = $('footer a[href^="/api/"]');
    if (apiLink) apiLink.href = serverBase + apiLink.getAttribute('href');
    $('#fake-banner').hidden = state.app.payments !== 'fake';
    state.org = widget.org;
    if (widget.locale === 'fr' || widget.locale === 'en') { state.locale = widget.locale; state.localeChosen = true; }
    applyTranslations();
    if (!state.org) { fatal(new Error(t('no_org'))); return; }
    try {
      await loadOrg();
      if (widget.property) await openProperty(widget.property);
      else await showProperties();
    } catch (err) {
      fatal(err);
    }
  }

  return start();
}

if (typeof STAYKIT_WIDGET === 'undefined') {
  // The booking page: the flow in the whole document.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => staykitFlow(document, null));
  else staykitFlow(document, null);
}
