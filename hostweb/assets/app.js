// The host dashboard: one page that calls the host API
// (/api/v1/host/{org}/…) with the session cookie. No framework, no build.
"use strict";

(function () {
  const body = document.body;
  const org = body.dataset.org;
  const lang = body.dataset.lang === "en" ? "en" : "fr";
  // The member's role here (team.js): owner, manager or housekeeping.
  const role = body.dataset.role || "owner";
  const api = "/api/v1/host/" + encodeURIComponent(org);

  const T = {
    fr: {
      today: "Aujourd'hui", bookings: "Réservations", calendar: "Calendrier", properties: "Logements",
      coupons: "Codes promo", settings: "Réglages", keys: "Clés d'API", logout: "Se déconnecter",
      arrivals: "Arrivées des 7 prochains jours", departures: "Départs des 7 prochains jours", none: "Aucune.",
      guest: "Voyageur", dates: "Dates", status: "Statut", total: "Total", actions: "Actions", property: "Logement",
      approve: "Accepter", decline: "Refuser", cancel: "Annuler", cancelRefund: "Annuler et rembourser",
      confirmCancel: "Annuler cette réservation ?", confirmRefund: "Rembourser ce que le voyageur a payé ?",
      block: "Bloquer", unblock: "Débloquer", setPrice: "Fixer le prix", clearPrice: "Prix normal", price: "Prix par nuit",
      selectDays: "Touchez des jours pour les sélectionner.", selected: "jour(s) sélectionné(s)",
      prev: "‹", next: "›", closed: "fermé", booked: "réservé", hold: "en attente",
      name: "Nom", maxGuests: "Voyageurs max.", baseRate: "Prix de base", active: "Actif", save: "Enregistrer",
      deactivate: "Désactiver", add: "Ajouter", code: "Code", kind: "Type", value: "Valeur", used: "Utilisations",
      disable: "Désactiver", percent: "pourcentage", fixed: "montant fixe", locale: "Langue", paymentMode: "Paiement",
      deposit: "Acompte (%)", terms: "URL des conditions", publicEngine: "Réservation en ligne ouverte", logo: "URL du logo",
      domain: "Domaine personnalisé", origins: "Origines autorisées (séparées par des virgules)",
      full: "intégral", depositMode: "acompte", request: "sur demande", keyName: "Nom de la clé", create: "Créer",
      keyShown: "Copiez cette clé maintenant : elle ne sera plus affichée.", revoke: "Révoquer", revoked: "révoquée",
      lastUsed: "Dernière utilisation", saved: "Enregistré.", error: "Erreur",
      stripe: "Paiements Stripe", stripeConnect: "Connectez votre compte Stripe pour recevoir les paiements de vos voyageurs : tant qu'il n'est pas prêt, la réservation en ligne n'accepte pas de paiement.",
      stripeButton: "Connecter mon compte Stripe", stripeResume: "Reprendre la connexion Stripe", stripeReady: "Compte Stripe connecté :",
      stripeRestricted: "Stripe demande encore des informations avant d'accepter des paiements.",
      months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
      weekdays: ["lun", "mar", "mer", "jeu", "ven", "sam", "dim"],
      st: { pending: "en attente de paiement", requested: "demande", confirmed: "confirmée", declined: "refusée", expired: "expirée", cancelled: "annulée" },
      termsTitle: "Annulation et caution", policy: "Conditions d'annulation", securityDeposit: "Caution (montant, 0 : aucune)",
      holdDays: "Caution bloquée … jours avant l'arrivée", releaseDays: "Caution libérée … jours après le départ",
      brandingTitle: "Apparence et contact", primaryColor: "Couleur principale", contactEmail: "E-mail de l'hôte (notifications)",
      pol: { flexible: "Flexible", moderate: "Modérée", strict: "Stricte", non_refundable: "Non remboursable", custom: "Personnalisée (API)", inherit: "Celles de l'organisation" },
      tierDays: "{p} % remboursés si annulation au moins {d} jour(s) avant l'arrivée", tierArrival: "{p} % remboursés en cas d'annulation avant le jour de l'arrivée",
      tierNone: "Rien n'est remboursé.", tierAfter: "Ensuite, rien n'est remboursé.", tierKept: "Toujours retenu : {a}",
      edit: "Modifier", details: "Détails", back: "Retour", description: "Description", photos: "Photos (une URL par ligne)",
      feesTitle: "Frais et taxe", cleaning: "Ménage (par séjour)", extraGuest: "Voyageur supplémentaire (par nuit)",
      guestsIncluded: "Voyageurs inclus dans le prix (0 : tous)", touristTax: "Taxe de séjour (par voyageur et par nuit)",
      ownTerms: "Conditions propres au logement",
      booking: "Réservation", message: "Message du voyageur", guests: "Voyageurs", paid: "Payé", refunded: "Remboursé", refundPending: "Remboursement en cours",
      disputed: "Contesté", payments: "Paiements", amount: "Montant", date: "Date",
      cancelTitle: "Annuler la réservation", refundChoice: "Remboursement", cancelStart: "Annuler la réservation",
      cancelConfirm: "Confirmer l'annulation", refundPolicy: "selon les conditions d'annulation", refundFull: "intégral",
      refundNone: "aucun", refundAmount: "un montant", cancelDots: "Annuler…",
      depositTitle: "Caution", claim: "Retenir", claimed: "Retenu", claimAmount: "Montant à retenir",
      dep: { none: "aucune", scheduled: "prévue", held: "bloquée", released: "libérée", claimed: "retenue", failed: "échec", cancelled: "annulée", lapsed: "expirée" },
      balance: "Solde", balanceDue: "dû le",
      bal: { scheduled: "prélevé sur la carte à cette date", manual: "à encaisser par l'hôte", paid: "payé", action_required: "le voyageur doit confirmer le paiement",
        retrying: "refusé, nouvel essai prévu", failed: "refusé : à encaisser par l'hôte", cancelled: "annulé" },
      pk: { charge: "paiement", decision: "montant conservé", capture: "encaissement", release: "libération", refund: "remboursement", dispute: "contestation", balance: "solde",
        deposit_hold: "caution bloquée", deposit_release: "caution libérée", deposit_claim: "caution retenue" },
      ps: { pending: "à envoyer", submitted: "en cours", succeeded: "effectué", failed: "échoué", skipped: "sans objet" },
    },
    en: {
      today: "Today", bookings: "Bookings", calendar: "Calendar", properties: "Properties",
      coupons: "Coupons", settings: "Settings", keys: "API keys", logout: "Sign out",
      arrivals: "Arrivals in the next 7 days", departures: "Departures in the next 7 days", none: "None.",
      guest: "Guest", dates: "Dates", status: "Status", total: "Total", actions: "Actions", property: "Property",
      approve: "Approve", decline: "Decline", cancel: "Cancel", cancelRefund: "Cancel and refund",
      confirmCancel: "Cancel this booking?", confirmRefund: "Refund what the guest paid?",
      block: "Block", unblock: "Unblock", setPrice: "Set price", clearPrice: "Normal price", price: "Nightly price",
      selectDays: "Tap days to select them.", selected: "day(s) selected",
      prev: "‹", next: "›", closed: "closed", booked: "booked", hold: "on hold",
      name: "Name", maxGuests: "Max guests", baseRate: "Base rate", active: "Active", save: "Save",
      deactivate: "Deactivate", add: "Add", code: "Code", kind: "Kind", value: "Value", used: "Used",
      disable: "Disable", percent: "percent", fixed: "fixed amount", locale: "Language", paymentMode: "Payment",
      deposit: "Deposit (%)", terms: "Terms URL", publicEngine: "Online booking open", logo: "Logo URL",
      domain: "Custom domain", origins: "Allowed origins (comma-separated)",
      full: "in full", depositMode: "deposit", request: "on request", keyName: "Key name", create: "Create",
      keyShown: "Copy this key now: it will not be shown again.", revoke: "Revoke", revoked: "revoked",
      lastUsed: "Last used", saved: "Saved.", error: "Error",
      stripe: "Stripe payments", stripeConnect: "Connect your Stripe account to receive your guests' payments: until it is ready, online booking takes no payment.",
      stripeButton: "Connect your Stripe account", stripeResume: "Resume Stripe onboarding", stripeReady: "Stripe account connected:",
      stripeRestricted: "Stripe still needs information before it accepts payments.",
      months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
      weekdays: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      st: { pending: "awaiting payment", requested: "request", confirmed: "confirmed", declined: "declined", expired: "expired", cancelled: "cancelled" },
      termsTitle: "Cancellation and security deposit", policy: "Cancellation policy", securityDeposit: "Security deposit (amount, 0: none)",
      holdDays: "Deposit held … days before arrival", releaseDays: "Deposit released … days after check-out",
      brandingTitle: "Look and contact", primaryColor: "Primary colour", contactEmail: "Host e-mail (notifications)",
      pol: { flexible: "Flexible", moderate: "Moderate", strict: "Strict", non_refundable: "Non-refundable", custom: "Custom (API)", inherit: "The organisation's" },
      tierDays: "{p} % back if cancelled at least {d} day(s) before arrival", tierArrival: "{p} % back if cancelled before the day of arrival",
      tierNone: "Nothing is refunded.", tierAfter: "After that, nothing is refunded.", tierKept: "Always kept: {a}",
      edit: "Edit", details: "Details", back: "Back", description: "Description", photos: "Photos (one URL per line)",
      feesTitle: "Fees and tax", cleaning: "Cleaning (per stay)", extraGuest: "Extra guest (per night)",
      guestsIncluded: "Guests included in the rate (0: all)", touristTax: "Tourist tax (per guest per night)",
      ownTerms: "The property's own terms",
      booking: "Booking", message: "The guest's message", guests: "Guests", paid: "Paid", refunded: "Refunded", refundPending: "Refund pending",
      disputed: "Disputed", payments: "Payments", amount: "Amount", date: "Date",
      cancelTitle: "Cancel the booking", refundChoice: "Refund", cancelStart: "Cancel the booking",
      cancelConfirm: "Confirm the cancellation", refundPolicy: "by the cancellation policy", refundFull: "in full",
      refundNone: "none", refundAmount: "an amount", cancelDots: "Cancel…",
      depositTitle: "Security deposit", claim: "Claim", claimed: "Claimed", claimAmount: "Amount to claim",
      dep: { none: "none", scheduled: "scheduled", held: "held", released: "released", claimed: "claimed", failed: "failed", cancelled: "cancelled", lapsed: "lapsed" },
      balance: "Balance", balanceDue: "due",
      bal: { scheduled: "charged to the card on that day", manual: "the host collects it", paid: "paid", action_required: "the guest must confirm the payment",
        retrying: "declined, to be tried again", failed: "declined: the host collects it", cancelled: "cancelled" },
      pk: { charge: "payment", decision: "amount kept", capture: "capture", release: "release", refund: "refund", dispute: "dispute", balance: "balance",
        deposit_hold: "deposit held", deposit_release: "deposit released", deposit_claim: "deposit claimed" },
      ps: { pending: "to send", submitted: "in progress", succeeded: "done", failed: "failed", skipped: "nothing to do" },
    },
  }[lang];

  const main = document.getElementById("main");
  const flash = document.getElementById("flash");

  // el builds an element: el("td", {class: "x"}, "text", child…).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
      else if (v === true) e.setAttribute(k, "");
      else if (v !== false && v != null) e.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c != null) e.append(c instanceof Node ? c : String(c));
    return e;
  }

  function say(text, isError) {
    flash.textContent = text;
    flash.className = isError ? "error" : "ok";
    flash.hidden = false;
  }

  // call sends a request to the host API; POSTs carry an Idempotency-Key.
  // A refusal is said in the flash unless quiet; the error thrown carries
  // the API's field errors (fields) and its code (code: "unavailable"…).
  async function call(method, path, data, quiet) {
    const headers = { "Accept-Language": lang };
    const init = { method, headers, credentials: "same-origin" };
    if (data !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(data);
    }
    if (method === "POST") headers["Idempotency-Key"] = crypto.randomUUID();
    const res = await fetch(api + path, init);
    if (res.status === 401) {
      location.href = "/host/login?lang=" + lang;
      throw new Error("signed out");
    }
    if (res.status === 204) return null;
    const env = await res.json();
    if (!env.success) {
      let msg = env.message;
      if (env.errors) msg += " " + Object.entries(env.errors).map(([f, m]) => f + ": " + m.join(", ")).join("; ");
      if (!quiet) say(msg, true);
      throw Object.assign(new Error(msg), { fields: env.errors || {}, code: env.code });
    }
    return env.data;
  }

  const iso = (d) => d.toISOString().slice(0, 10);
  const addDays = (s, n) => { const d = new Date(s + "T00:00:00Z"); d.setUTCDate(d.getUTCDate() + n); return iso(d); };
  const todayISO = () => iso(new Date(Date.now() - new Date().getTimezoneOffset() * 60000));
  // dayRuns turns sorted, distinct days into runs of consecutive days,
  // each [from, to) with to the day after its last.
  const dayRuns = (days) => {
    const runs = [];
    for (const d of days) {
      const last = runs[runs.length - 1];
      if (last && last[1] === d) last[1] = addDays(d, 1);
      else runs.push([d, addDays(d, 1)]);
    }
    return runs;
  };

  let properties = [];
  async function loadProperties() {
    properties = (await call("GET", "/properties?limit=100")).items;
    return properties;
  }
  const propName = (id) => (properties.find((p) => p.id === id) || { name: "#" + id }).name;

  // The cancellation policy presets (name → policy), from the server.
  const presets = JSON.parse(body.dataset.policies || "{}");
  const fill = (s, params) => s.replace(/\{(\w+)\}/g, (_, k) => params[k]);

  // tiersText says what a policy refunds, one sentence a line.
  function tiersText(p, currency) {
    if (!p) return [];
    const lines = p.tiers.map((t) => fill(t.days_before > 0 ? T.tierDays : T.tierArrival, { p: Number(t.refund_percent), d: t.days_before }));
    lines.push(p.tiers.length ? T.tierAfter : T.tierNone);
    if (Number(p.non_refundable) > 0) lines.push(fill(T.tierKept, { a: currency ? moneyText(p.non_refundable, currency) : p.non_refundable }));
    return lines;
  }

  // policyField is a select of the presets (a custom policy shows as such
  // and stays as it is unless another is chosen) and the tiers of the
  // chosen one; withInherit adds "the organisation's" (value "").
  function policyField(id, current, withInherit, currency) {
    const name = current ? current.name : "";
    const select = el("select", { id }, withInherit ? el("option", { value: "", selected: name === "" }, T.pol.inherit) : null,
      Object.keys(presets).map((n) => el("option", { value: n, selected: n === name }, T.pol[n] || n)),
      name === "custom" ? el("option", { value: "custom", selected: true, disabled: true }, T.pol.custom) : null);
    const tiers = el("ul", { id: id + "-tiers", class: "tiers" });
    const render = () => {
      const p = select.value === "custom" ? current : presets[select.value];
      tiers.replaceChildren(...tiersText(p, currency).map((l) => el("li", {}, l)));
    };
    select.addEventListener("change", render);
    render();
    // changed is the policy to send: undefined when unchanged.
    const changed = () => (select.value === name || select.value === "custom" ? undefined : select.value === "" ? null : { name: select.value });
    return { select, tiers, changed };
  }

  // Amounts and dates are written in the host's language (Intl) from the
  // API's exact values, which each element keeps for scripts and tests
  // (data-amount, datetime).
  //
  // moneyText formats an exact decimal string from the API as it is: Intl
  // formats a string as an exact decimal, with at least the digits the
  // browser usually shows for the currency and never fewer than the API
  // sent — never cut or rounded (the server, which knows each currency's
  // minor units, sends the amounts; the browser's own table of digits
  // differs from ISO 4217 for HUF, IDR, IQD..., and a float would round).
  const minorDigits = (currency) => new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits;
  const moneyText = (v, currency) => {
    const frac = String(v).split(".")[1] || "";
    const digits = Math.max(frac.length, minorDigits(currency));
    return new Intl.NumberFormat(lang, { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(String(v));
  };
  const money = (v, currency) => el("span", { class: "money", "data-amount": String(v) }, moneyText(v, currency));
  const dateFormat = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const day = (iso) => el("time", { datetime: iso }, dateFormat.format(new Date(iso + "T00:00:00Z")));
  const stay = (from, to) => [day(from), " → ", day(to)];
  const momentFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const moment = (ts) => el("time", { datetime: ts }, momentFormat.format(new Date(ts)));
  // badge is a booking's status, coloured by it.
  const badge = (status) => el("span", { class: "badge st-" + status }, T.st[status] || status);

  function bookingRow(b, withActions) {
    const actions = el("td", { class: "actions" });
    if (withActions) {
      const act = (cls, label, path, data, confirmText) => el("button", { class: cls, type: "button", on: { click: async () => {
        if (confirmText && !confirm(confirmText)) return;
        await call("POST", "/bookings/" + b.id + path, data);
        say(T.saved);
        show("bookings");
      } } }, label);
      if (b.status === "requested") actions.append(act("approve", T.approve, "/approve"), act("decline", T.decline, "/decline"));
      if (["pending", "requested"].includes(b.status)) actions.append(act("cancel", T.cancel, "/cancel", { refund: "none" }, T.confirmCancel));
      // A confirmed booking is cancelled on its page, with the refund choice.
      if (b.status === "confirmed") actions.append(el("button", { type: "button", class: "cancel-refund", on: { click: () => bookingPage(b.id, true) } }, T.cancelDots));
      actions.append(el("button", { type: "button", class: "details", on: { click: () => bookingPage(b.id) } }, T.details));
    }
    return el("tr", { "data-id": b.id, "data-token": b.token },
      el("td", {}, b.guest_name, el("br"), el("small", {}, b.guest_email + " " + b.guest_phone)),
      el("td", {}, propName(b.property_id)),
      el("td", {}, stay(b.check_in, b.check_out)),
      el("td", { class: "status" }, badge(b.status)),
      el("td", { class: "amt" }, money(b.total_amount, b.currency)),
      actions);
  }

  // table lays rows out under head; under 600 px each row becomes a card,
  // its cells labelled by their column (data-label).
  function table(head, rows) {
    for (const r of rows) [...r.children].forEach((td, i) => { if (head[i]) td.dataset.label = head[i]; });
    return el("div", { class: "scroll" }, el("table", { class: "cards" }, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))), el("tbody", {}, rows)));
  }

  // bookingPage shows one booking: its amounts, balance, payments, policy
  // and security deposit, and lets the host cancel it with a refund choice or
  // claim the deposit. data, when given, is the booking just returned.
  async function bookingPage(id, toCancel, data) {
    setRoute("bookings/" + id);
    flash.hidden = true;
    flash.textContent = "";
    if (!properties.length) await loadProperties();
    const b = data || await call("GET", "/bookings/" + id);
    main.replaceChildren();
    const cur = b.currency;
    const amount = (v) => money(v, cur);
    const row = (label, value, id) => el("tr", {}, el("th", {}, label), el("td", id ? { id } : {}, value));
    const facts = [
      row(T.guest, [b.guest_name, el("br"), el("small", {}, b.guest_email + " " + b.guest_phone)]),
      row(T.property, propName(b.property_id)),
      row(T.dates, stay(b.check_in, b.check_out)),
      row(T.guests, b.guests),
      b.message ? row(T.message, el("blockquote", { class: "message" }, b.message), "bk-message") : null,
      el("tr", {}, el("th", {}, T.status), el("td", { id: "bk-status", "data-status": b.status }, badge(b.status))),
      row(T.total, amount(b.total_amount), "bk-total"),
      row(T.paid, amount(b.paid_amount), "bk-paid"),
      row(T.refunded, amount(b.refunded_amount), "bk-refunded"),
      row(T.refundPending, amount(b.refund_pending_amount), "bk-refund-pending"),
      row(T.disputed, amount(b.disputed_amount), "bk-disputed"),
    ];
    const bal = b.balance;
    if (bal && bal.status !== "none") {
      facts.push(el("tr", {}, el("th", {}, T.balance),
        el("td", { id: "bk-balance", "data-status": bal.status },
          amount(bal.amount), bal.due_date ? [" — " + T.balanceDue + " ", day(bal.due_date)] : null, " — ", T.bal[bal.status] || bal.status)));
    }
    if (b.cancellation_policy) {
      facts.push(row(T.policy, [T.pol[b.cancellation_policy.name] || b.cancellation_policy.name,
        el("ul", { class: "tiers" }, tiersText(b.cancellation_policy, cur).map((l) => el("li", {}, l)))], "bk-policy"));
    }
    const payments = b.payments.map((p) => el("tr", { class: "payment", "data-kind": p.kind, "data-status": p.status },
      el("td", {}, moment(p.created_at)), el("td", {}, T.pk[p.kind] || p.kind),
      el("td", { class: "amt" }, money(p.amount, p.currency)), el("td", {}, T.ps[p.status] || p.status)));
    main.append(el("p", {}, el("button", { type: "button", id: "booking-back", on: { click: () => show("bookings") } }, "‹ " + T.back)),
      el("h2", { id: "booking-title", "data-id": b.id }, T.booking + " #" + b.id),
      el("div", { class: "scroll" }, el("table", { class: "facts" }, el("tbody", {}, facts))),
      el("h3", {}, T.payments), payments.length ? table([T.date, T.kind, T.amount, T.status], payments) : el("p", {}, T.none));

    const dep = b.security_deposit;
    if (dep) {
      const box = el("section", { id: "deposit" }, el("h3", {}, T.depositTitle),
        el("p", {}, amount(dep.amount), " — ", el("span", { id: "bk-deposit-status", "data-status": dep.status }, T.dep[dep.status] || dep.status),
          dep.status === "claimed" ? [" — " + T.claimed + " : ", el("span", { id: "bk-deposit-claimed" }, amount(dep.claimed_amount))] : null));
      if (dep.status === "held") {
        const claim = el("input", { id: "deposit-amount", type: "number", min: "0.01", step: "0.01", max: dep.amount, required: true,
          inputmode: "decimal", placeholder: T.claimAmount, "aria-label": T.claimAmount });
        box.append(el("form", { class: "bar", id: "deposit-form", on: { submit: async (ev) => {
          ev.preventDefault();
          const updated = await call("POST", "/bookings/" + b.id + "/deposit/claim", { amount: claim.value });
          await bookingPage(b.id, false, updated);
          say(T.saved);
        } } }, claim, el("button", { type: "submit", id: "deposit-claim" }, T.claim)));
      }
      main.append(box);
    }

    // A request is answered on its page too.
    if (b.status === "requested") {
      const answer = (id, cls, label, path) => el("button", { type: "button", id, class: cls, on: { click: async () => {
        const updated = await call("POST", "/bookings/" + b.id + path);
        await bookingPage(b.id, false, updated);
        say(T.saved);
      } } }, label);
      main.append(el("p", { class: "bar", id: "request-actions" },
        answer("bk-approve", "approve", T.approve, "/approve"), answer("bk-decline", "decline", T.decline, "/decline")));
    }

    if (["pending", "requested", "confirmed"].includes(b.status)) {
      const confirmed = b.status === "confirmed";
      const choice = el("select", { id: "cancel-refund-choice", "aria-label": T.refundChoice },
        [["policy", T.refundPolicy], ["full", T.refundFull], ["none", T.refundNone], ["amount", T.refundAmount]].map(([v, l]) => el("option", { value: v }, l)));
      const refundAmount = el("input", { id: "cancel-amount", type: "number", min: "0.01", step: "0.01", max: b.paid_amount,
        inputmode: "decimal", placeholder: T.amount, "aria-label": T.amount, hidden: true });
      choice.addEventListener("change", () => { refundAmount.hidden = choice.value !== "amount"; refundAmount.required = !refundAmount.hidden; });
      const confirm = el("button", { type: "submit", id: "cancel-confirm", class: "cancel", hidden: true }, T.cancelConfirm);
      const start = el("button", { type: "button", id: "cancel-start", class: "cancel", on: { click: () => { start.hidden = true; confirm.hidden = false; } } }, T.cancelStart);
      const form = el("form", { class: "bar", id: "cancel-form", on: { submit: async (ev) => {
        ev.preventDefault();
        const req = !confirmed ? { refund: "none" } : choice.value === "amount" ? { refund: "amount", amount: refundAmount.value } : { refund: choice.value };
        confirm.disabled = true;
        try {
          const updated = await call("POST", "/bookings/" + b.id + "/cancel", req);
          await bookingPage(b.id, false, updated);
          say(T.saved);
        } finally {
          confirm.disabled = false;
        }
      } } }, confirmed ? [el("label", {}, T.refundChoice, " ", choice), refundAmount] : null, start, confirm);
      main.append(el("section", { id: "cancel" }, el("h3", {}, T.cancelTitle), form));
      if (toCancel) form.scrollIntoView();
    }
    // Sections pages add (compliance.js): (booking, reshow(updated)) → node.
    for (const section of bookingSections) main.append(section(b, (updated) => bookingPage(b.id, false, updated)));
  }

  // bookingSections are the booking page's sections that pages add.
  const bookingSections = [];

  // propertyPage edits a property's description, photos, fees, tourist
  // tax and own terms (policy, security deposit).
  async function propertyPage(id) {
    setRoute("properties/" + id);
    flash.hidden = true;
    flash.textContent = "";
    const [p, org] = await Promise.all([call("GET", "/properties/" + id), call("GET", "/settings")]);
    main.replaceChildren();
    const cur = org.currency;
    const own = p.terms;
    const f = {
      description: el("textarea", { id: "prop-description", rows: "3" }, p.description),
      photos: el("textarea", { id: "prop-photos", rows: "3" }, p.photos.join("\n")),
      cleaning: el("input", { id: "prop-cleaning", type: "number", min: "0", step: "0.01", inputmode: "decimal", value: p.fees.cleaning }),
      extra_guest: el("input", { id: "prop-extra-guest", type: "number", min: "0", step: "0.01", inputmode: "decimal", value: p.fees.extra_guest }),
      guests_included: el("input", { id: "prop-guests-included", type: "number", min: "0", step: "1", value: p.fees.guests_included }),
      tax: el("input", { id: "prop-tax", type: "number", min: "0", step: "0.01", inputmode: "decimal", value: p.tax.per_guest_per_night }),
      security_deposit: el("input", { id: "prop-security-deposit", type: "number", min: "0", step: "0.01", inputmode: "decimal",
        value: own ? own.security_deposit : org.security_deposit }),
      deposit_hold_days: el("input", { id: "prop-deposit-hold-days", type: "number", min: "0", max: "6", value: own ? own.deposit_hold_days : org.deposit_hold_days }),
      deposit_release_days: el("input", { id: "prop-deposit-release-days", type: "number", min: "0", max: "6", value: own ? own.deposit_release_days : org.deposit_release_days }),
    };
    const pol = policyField("prop-policy", own && own.cancellation_policy, true, cur);
    const start = { d: f.security_deposit.value, h: f.deposit_hold_days.value, r: f.deposit_release_days.value };
    const label = (text, input) => el("label", {}, text, " ", input);
    // The page's own fields; the sections pages add (rates.js) change
    // the rest, and preview with all of them.
    const pageChange = () => ({ description: f.description.value,
      photos: f.photos.value.split("\n").map((u) => u.trim()).filter(Boolean),
      fees: Object.assign({}, p.fees, { cleaning: f.cleaning.value || "0", extra_guest: f.extra_guest.value || "0", guests_included: Number(f.guests_included.value) }),
      tax: Object.assign({}, p.tax, { per_guest_per_night: f.tax.value || "0" }) });
    const sections = propertySections.map((section) => section(p, org, () => Object.assign(pageChange(), ...sections.map((x) => x.change()))));
    main.append(el("p", {}, el("button", { type: "button", id: "property-back", on: { click: () => show("properties") } }, "‹ " + T.back)),
      el("h2", { id: "property-title", "data-id": p.id }, p.name),
      el("form", { class: "stack", id: "property-form", on: { submit: async (ev) => {
        ev.preventDefault();
        const change = Object.assign(pageChange(), ...sections.map((x) => x.change()));
        // The terms are sent only when changed: a property without its own
        // keeps following the organisation's.
        const terms = {};
        const policy = pol.changed();
        if (policy !== undefined) terms.cancellation_policy = policy;
        if (f.security_deposit.value !== start.d) terms.security_deposit = f.security_deposit.value || "0";
        if (f.deposit_hold_days.value !== start.h) terms.deposit_hold_days = Number(f.deposit_hold_days.value);
        if (f.deposit_release_days.value !== start.r) terms.deposit_release_days = Number(f.deposit_release_days.value);
        if (Object.keys(terms).length) change.terms = terms;
        // A refusal is said in the flash by call; the form keeps what the
        // host typed.
        try {
          await call("PATCH", "/properties/" + p.id, change);
        } catch {
          return;
        }
        await propertyPage(p.id);
        say(T.saved);
      } } },
      label(T.description, f.description), label(T.photos, f.photos),
      p.photos.length ? el("div", { class: "photos" }, p.photos.map((u) => el("img", { src: u, alt: "", loading: "lazy" }))) : null,
      el("h3", {}, T.feesTitle), label(T.cleaning + " (" + cur + ")", f.cleaning), label(T.extraGuest + " (" + cur + ")", f.extra_guest),
      label(T.guestsIncluded, f.guests_included), label(T.touristTax + " (" + cur + ")", f.tax),
      sections.flatMap((x) => x.nodes),
      el("h3", {}, T.ownTerms), label(T.policy, pol.select), pol.tiers,
      label(T.securityDeposit + " (" + cur + ")", f.security_deposit), label(T.holdDays, f.deposit_hold_days), label(T.releaseDays, f.deposit_release_days),
      el("button", { type: "submit", id: "property-save" }, T.save)));
    for (const x of sections) if (x.shown) x.shown();
  }

  // propertySections are the property page's sections that pages add
  // (rates.js): each is (property, settings, all) → { nodes, change(),
  // shown() }, all() being the whole form's change.
  const propertySections = [];

  const views = {
    async today() {
      await loadProperties();
      const from = todayISO(), to = addDays(from, 7);
      const list = (await call("GET", "/bookings?status=confirmed,requested&from=" + from + "&to=" + addDays(to, 1) + "&limit=100")).items;
      const arr = list.filter((b) => b.check_in >= from && b.check_in < to).sort((a, b) => a.check_in.localeCompare(b.check_in));
      const dep = list.filter((b) => b.check_out >= from && b.check_out < to).sort((a, b) => a.check_out.localeCompare(b.check_out));
      const head = [T.guest, T.property, T.dates, T.status, T.total, ""];
      main.append(el("h2", {}, T.arrivals), arr.length ? table(head, arr.map((b) => bookingRow(b, false))) : el("p", {}, T.none),
        el("h2", {}, T.departures), dep.length ? table(head, dep.map((b) => bookingRow(b, false))) : el("p", {}, T.none));
    },

    async bookings() {
      await loadProperties();
      const list = (await call("GET", "/bookings?limit=100")).items;
      main.append(el("h2", {}, T.bookings),
        list.length ? table([T.guest, T.property, T.dates, T.status, T.total, T.actions], list.map((b) => bookingRow(b, true))) : el("p", {}, T.none));
    },

    async calendar() {
      await loadProperties();
      if (!properties.length) { main.append(el("p", {}, T.none)); return; }
      const state = views.calendar.state || (views.calendar.state = { property: properties[0].id, month: todayISO().slice(0, 7) + "-01" });
      const selected = new Set();
      const select = el("select", { id: "cal-property", on: { change: () => { state.property = Number(select.value); show("calendar"); } } },
        properties.map((p) => el("option", { value: p.id, selected: p.id === state.property }, p.name)));
      const [y, m] = state.month.split("-").map(Number);
      const next = iso(new Date(Date.UTC(y, m, 1)));
      const prev = iso(new Date(Date.UTC(y, m - 2, 1)));
      const cal = await call("GET", "/properties/" + state.property + "/calendar?from=" + state.month + "&to=" + next);
      const grid = el("div", { class: "grid", id: "cal-grid" }, T.weekdays.map((w) => el("div", { class: "wd" }, w)));
      const lead = (new Date(state.month + "T00:00:00Z").getUTCDay() + 6) % 7;
      for (let i = 0; i < lead; i++) grid.append(el("div", {}));
      const count = el("span", { id: "cal-count" }, T.selectDays);
      for (const d of cal.days) {
        const cls = ["day"];
        let note = "";
        if (d.closed) { cls.push("closed"); note = T.closed; }
        if (d.booking_id) { cls.push(d.booking_status === "confirmed" ? "booked" : "hold"); note = d.booking_status === "confirmed" ? T.booked : T.hold; }
        if (d.price_override) cls.push("override");
        const b = el("button", { type: "button", class: cls.join(" "), "data-date": d.date, on: { click: () => {
          if (selected.has(d.date)) { selected.delete(d.date); b.classList.remove("selected"); }
          else { selected.add(d.date); b.classList.add("selected"); }
          count.textContent = selected.size ? selected.size + " " + T.selected : T.selectDays;
        } } }, el("span", { class: "n" }, Number(d.date.slice(8))), el("span", { class: "p" }, d.price), el("span", { class: "t" }, note));
        grid.append(b);
      }
      // A selection is applied as runs of consecutive days, one request each.
      async function apply(change) {
        const days = [...selected].sort();
        if (!days.length) return;
        for (const [from, to] of dayRuns(days)) await call("POST", "/properties/" + state.property + "/calendar", Object.assign({ from, to }, change));
        say(T.saved);
        show("calendar");
      }
      const price = el("input", { id: "cal-price", type: "number", min: "1", step: "0.01", placeholder: T.price, inputmode: "decimal" });
      main.append(el("h2", {}, T.calendar),
        el("div", { class: "bar" }, select,
          el("button", { type: "button", id: "cal-prev", on: { click: () => { state.month = prev; show("calendar"); } } }, T.prev),
          el("strong", { id: "cal-month" }, T.months[m - 1] + " " + y),
          el("button", { type: "button", id: "cal-next", on: { click: () => { state.month = next; show("calendar"); } } }, T.next)),
        grid, el("p", {}, count),
        el("div", { class: "bar" },
          el("button", { type: "button", id: "cal-block", on: { click: () => apply({ closed: true }) } }, T.block),
          el("button", { type: "button", id: "cal-unblock", on: { click: () => apply({ closed: false }) } }, T.unblock),
          price,
          el("button", { type: "button", id: "cal-set-price", on: { click: () => price.value && apply({ price: price.value }) } }, T.setPrice),
          el("button", { type: "button", id: "cal-clear-price", on: { click: () => apply({ clear_price: true }) } }, T.clearPrice)));
    },

    async properties() {
      await loadProperties();
      const rows = properties.map((p) => {
        const name = el("input", { value: p.name, "aria-label": T.name });
        const guests = el("input", { type: "number", min: "1", value: p.max_guests, "aria-label": T.maxGuests });
        const rate = el("input", { type: "number", min: "1", step: "0.01", value: p.rates.base_rate, class: "base-rate", "aria-label": T.baseRate });
        const active = el("input", { type: "checkbox", checked: p.active, "aria-label": T.active });
        return el("tr", { "data-id": p.id }, el("td", {}, name), el("td", {}, guests), el("td", {}, rate), el("td", {}, active),
          el("td", { class: "actions" }, el("button", { type: "button", class: "save", on: { click: async () => {
            await call("PATCH", "/properties/" + p.id, { name: name.value, max_guests: Number(guests.value),
              rates: Object.assign({}, p.rates, { base_rate: rate.value }), active: active.checked });
            say(T.saved);
            show("properties");
          } } }, T.save), el("button", { type: "button", class: "edit", on: { click: () => propertyPage(p.id) } }, T.edit)));
      });
      const name = el("input", { placeholder: T.name, required: true }), guests = el("input", { type: "number", min: "1", value: "2" });
      const rate = el("input", { type: "number", min: "1", step: "0.01", placeholder: T.baseRate, required: true });
      main.append(el("h2", {}, T.properties), table([T.name, T.maxGuests, T.baseRate, T.active, ""], rows),
        el("form", { class: "bar", on: { submit: async (ev) => {
          ev.preventDefault();
          await call("POST", "/properties", { name: name.value, max_guests: Number(guests.value), rates: { base_rate: rate.value } });
          say(T.saved);
          show("properties");
        } } }, name, guests, rate, el("button", { type: "submit" }, T.add)));
    },

    async coupons() {
      const list = (await call("GET", "/coupons?limit=100")).items;
      const rows = list.map((c) => el("tr", { "data-id": c.id }, el("td", {}, c.code), el("td", {}, T[c.kind]),
        el("td", {}, c.value), el("td", {}, c.redemptions + (c.max_redemptions ? " / " + c.max_redemptions : "")),
        el("td", {}, c.active ? "✓" : "—"),
        el("td", {}, c.active ? el("button", { type: "button", class: "disable", on: { click: async () => {
          await call("POST", "/coupons/" + c.id + "/disable");
          say(T.saved);
          show("coupons");
        } } }, T.disable) : "")));
      const code = el("input", { placeholder: T.code, required: true });
      const kind = el("select", {}, el("option", { value: "percent" }, T.percent), el("option", { value: "fixed" }, T.fixed));
      const value = el("input", { type: "number", min: "0.01", step: "0.01", placeholder: T.value, required: true });
      main.append(el("h2", {}, T.coupons), table([T.code, T.kind, T.value, T.used, T.active, ""], rows),
        el("form", { class: "bar", on: { submit: async (ev) => {
          ev.preventDefault();
          await call("POST", "/coupons", { code: code.value, kind: kind.value, value: value.value });
          say(T.saved);
          show("coupons");
        } } }, code, kind, value, el("button", { type: "submit" }, T.add)));
    },

    async settings() {
      const s = await call("GET", "/settings");
      const f = {
        name: el("input", { value: s.name }), logo: el("input", { value: s.logo, type: "url" }),
        default_locale: el("select", {}, ["fr", "en"].map((l) => el("option", { value: l, selected: s.default_locale === l }, l))),
        payment_mode: el("select", {}, [["full", T.full], ["deposit", T.depositMode], ["request", T.request]].map(([v, l]) => el("option", { value: v, selected: s.payment_mode === v }, l))),
        deposit_percent: el("input", { type: "number", min: "0", max: "100", step: "0.01", value: s.deposit_percent }),
        terms_url: el("input", { value: s.terms_url, type: "url" }), custom_domain: el("input", { value: s.custom_domain }),
        allowed_origins: el("input", { value: s.allowed_origins.join(", ") }),
        public_engine_enabled: el("input", { type: "checkbox", checked: s.public_engine_enabled }),
        primary_color: el("input", { id: "set-primary-color", type: "color", value: /^#[0-9a-fA-F]{6}$/.test(s.branding.primary_color || "") ? s.branding.primary_color : "#1d2327" }),
        contact_email: el("input", { id: "set-contact-email", type: "email", value: s.contact_email, autocomplete: "email" }),
        security_deposit: el("input", { id: "set-security-deposit", type: "number", min: "0", step: "0.01", inputmode: "decimal", value: s.security_deposit }),
        deposit_hold_days: el("input", { id: "set-deposit-hold-days", type: "number", min: "0", max: "6", value: s.deposit_hold_days }),
        deposit_release_days: el("input", { id: "set-deposit-release-days", type: "number", min: "0", max: "6", value: s.deposit_release_days }),
      };
      const pol = policyField("set-policy", s.cancellation_policy, false, s.currency);
      const colour = f.primary_color.value;
      const label = (text, input) => el("label", {}, text, " ", input);
      main.append(el("h2", {}, T.settings), el("form", { class: "stack", id: "settings-form", on: { submit: async (ev) => {
        ev.preventDefault();
        await call("PATCH", "/settings", { name: f.name.value, logo: f.logo.value, default_locale: f.default_locale.value,
          payment_mode: f.payment_mode.value, deposit_percent: f.deposit_percent.value, terms_url: f.terms_url.value,
          custom_domain: f.custom_domain.value, public_engine_enabled: f.public_engine_enabled.checked,
          allowed_origins: f.allowed_origins.value.split(",").map((o) => o.trim()).filter(Boolean),
          contact_email: f.contact_email.value.trim(),
          // The terms only when changed: each change of terms is audited.
          ...(f.security_deposit.value !== String(s.security_deposit) ? { security_deposit: f.security_deposit.value || "0" } : {}),
          ...(Number(f.deposit_hold_days.value) !== s.deposit_hold_days ? { deposit_hold_days: Number(f.deposit_hold_days.value) } : {}),
          ...(Number(f.deposit_release_days.value) !== s.deposit_release_days ? { deposit_release_days: Number(f.deposit_release_days.value) } : {}),
          ...(pol.changed() ? { cancellation_policy: pol.changed() } : {}),
          ...(f.primary_color.value !== colour ? { branding: Object.assign({}, s.branding, { primary_color: f.primary_color.value }) } : {}) });
        await show("settings");
        say(T.saved);
      } } }, label(T.name, f.name), label(T.locale, f.default_locale), label(T.paymentMode, f.payment_mode),
        label(T.deposit, f.deposit_percent), label(T.terms, f.terms_url), label(T.domain, f.custom_domain),
        label(T.origins, f.allowed_origins), label(T.publicEngine, f.public_engine_enabled),
        el("h3", {}, T.termsTitle), label(T.policy, pol.select), pol.tiers,
        label(T.securityDeposit + " (" + s.currency + ")", f.security_deposit), label(T.holdDays, f.deposit_hold_days), label(T.releaseDays, f.deposit_release_days),
        el("h3", {}, T.brandingTitle), label(T.logo, f.logo), label(T.primaryColor, f.primary_color), label(T.contactEmail, f.contact_email),
        el("button", { type: "submit", id: "settings-save" }, T.save)));
      await stripeStep();
    },

    async keys() {
      const list = (await call("GET", "/api-keys")).items;
      const rows = list.map((k) => el("tr", { "data-id": k.id }, el("td", {}, k.name), el("td", {}, el("code", {}, k.prefix + "…")),
        el("td", {}, k.last_used_at ? k.last_used_at.slice(0, 16).replace("T", " ") : "—"),
        el("td", {}, k.revoked_at ? T.revoked : el("button", { type: "button", class: "revoke", on: { click: async () => {
          await call("DELETE", "/api-keys/" + k.id);
          show("keys");
        } } }, T.revoke))));
      const name = el("input", { placeholder: T.keyName, required: true });
      main.append(el("h2", {}, T.keys), table([T.name, "", T.lastUsed, ""], rows),
        el("form", { class: "bar", on: { submit: async (ev) => {
          ev.preventDefault();
          const k = await call("POST", "/api-keys", { name: name.value });
          await show("keys");
          main.prepend(el("p", { class: "secret" }, T.keyShown, el("br"), el("code", { id: "new-key" }, k.key)));
        } } }, name, el("button", { type: "submit" }, T.create)));
    },
  };

  // stripeStep is the "connect your Stripe account" step, shown when the
  // server pays each organisation into its own Stripe account.
  async function stripeStep() {
    if (role !== "owner") return;
    const st = await call("GET", "/stripe");
    if (!st.connect) return;
    const box = el("section", { id: "stripe-step" }, el("h2", {}, T.stripe));
    if (st.charges_enabled) {
      box.append(el("p", { class: "ok" }, T.stripeReady, " ", el("code", {}, st.account_id)));
    } else {
      if (st.state === "restricted") box.append(el("p", {}, T.stripeRestricted));
      box.append(el("p", {}, T.stripeConnect), el("button", { type: "button", id: "stripe-connect", on: { click: async () => {
        const back = location.href;
        const link = await call("POST", "/stripe/onboarding", { return_url: back, refresh_url: back });
        location.href = link.url;
      } } }, st.account_id ? T.stripeResume : T.stripeButton));
    }
    main.append(box);
  }

  // The address names what is shown — #bookings, #bookings/12 (a
  // booking), #properties/3 (a property), #calendar... — so a reload, the
  // back button and a link (the host's e-mails link to #bookings/ID) keep
  // the host where they were. route is the view of the address; current
  // is the route shown, so that setting the address does not show it twice.
  let current = null;
  // shown is the route on screen: a view whose data came back after the
  // host moved on draws nothing (views check it after their requests).
  const shown = () => current;
  function setRoute(r) {
    current = r;
    for (const b of document.querySelectorAll("#nav button")) {
      const here = b.dataset.view === r.split("/")[0];
      b.classList.toggle("current", here);
      // On a phone the menu scrolls: the current view stays in sight.
      if (here) b.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
    if (location.hash.slice(1) !== r) location.hash = r;
  }
  function route() {
    const r = decodeURIComponent(location.hash.slice(1));
    if (r === current) return;
    const [view, id] = r.split("/");
    if (view === "bookings" && /^[0-9]+$/.test(id || "")) return bookingPage(Number(id)).catch((e) => say(T.error + ": " + e.message, true));
    if (view === "properties" && /^[0-9]+$/.test(id || "")) return propertyPage(Number(id)).catch((e) => say(T.error + ": " + e.message, true));
    return show(Object.hasOwn(views, view) ? view : home);
  }
  window.addEventListener("hashchange", route);

  async function show(view) {
    setRoute(view);
    main.replaceChildren();
    try {
      await views[view]();
    } catch (e) {
      if (!flash.textContent) say(T.error + ": " + e.message, true);
    }
  }

  // Pages kept in their own files (channels.js) register here.
  for (const page of window.staykitHostPages || []) page({ views, role, T, lang, el, call, say, show, shown, table, loadProperties, main, propertySections, bookingSections, moneyText, todayISO, addDays, dayRuns });

  // A member sees the views of their role (team.js; the host API refuses
  // the rest): a housekeeping member the rota alone, a manager all but the
  // API keys.
  if (role !== "owner") delete views.keys;
  if (role === "housekeeping") for (const v of Object.keys(views)) if (v !== "rota") delete views[v];

  // The planning of every property (planning.js) is the home screen.
  const home = role === "housekeeping" ? "rota" : Object.hasOwn(views, "planning") ? "planning" : "today";
  const nav = document.getElementById("nav");
  for (const v of [home, ...Object.keys(views).filter((v) => v !== home)]) {
    nav.append(el("button", { type: "button", id: "nav-" + v, "data-view": v, on: { click: () => { flash.hidden = true; flash.textContent = ""; show(v); } } }, T[v]));
  }
  document.getElementById("logout").textContent = T.logout;
  route();
})();
