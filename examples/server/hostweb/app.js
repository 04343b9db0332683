// The host dashboard: one page that calls the host API
// (/api/v1/host/{org}/…) with the session cookie. No framework, no build.
"use strict";

(function () {
  const body = document.body;
  const org = body.dataset.org;
  const lang = body.dataset.lang === "en" ? "en" : "fr";
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
  async function call(method, path, data) {
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
      say(msg, true);
      throw new Error(msg);
    }
    return env.data;
  }

  const iso = (d) => d.toISOString().slice(0, 10);
  const addDays = (s, n) => { const d = new Date(s + "T00:00:00Z"); d.setUTCDate(d.getUTCDate() + n); return iso(d); };
  const todayISO = () => iso(new Date(Date.now() - new Date().getTimezoneOffset() * 60000));

  let properties = [];
  async function loadProperties() {
    properties = (await call("GET", "/properties?limit=100")).items;
    return properties;
  }
  const propName = (id) => (properties.find((p) => p.id === id) || { name: "#" + id }).name;

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
      if (["pending", "requested", "confirmed"].includes(b.status)) actions.append(act("cancel", T.cancel, "/cancel", { refund: false }, T.confirmCancel));
      if (b.status === "confirmed" && Number(b.paid_amount) > 0) actions.append(act("cancel-refund", T.cancelRefund, "/cancel", { refund: true }, T.confirmRefund));
    }
    return el("tr", { "data-id": b.id, "data-token": b.token },
      el("td", {}, b.guest_name, el("br"), el("small", {}, b.guest_email + " " + b.guest_phone)),
      el("td", {}, propName(b.property_id)),
      el("td", {}, b.check_in + " → " + b.check_out),
      el("td", { class: "status" }, T.st[b.status] || b.status),
      el("td", {}, b.total_amount + " " + b.currency),
      actions);
  }

  function table(head, rows) {
    return el("div", { class: "scroll" }, el("table", {}, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))), el("tbody", {}, rows)));
  }

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
        let start = days[0], end = addDays(days[0], 1);
        const runs = [];
        for (const d of days.slice(1)) {
          if (d === end) end = addDays(end, 1);
          else { runs.push([start, end]); start = d; end = addDays(d, 1); }
        }
        runs.push([start, end]);
        for (const [from, to] of runs) await call("POST", "/properties/" + state.property + "/calendar", Object.assign({ from, to }, change));
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
          el("td", {}, el("button", { type: "button", class: "save", on: { click: async () => {
            await call("PATCH", "/properties/" + p.id, { name: name.value, max_guests: Number(guests.value),
              rates: Object.assign({}, p.rates, { base_rate: rate.value }), active: active.checked });
            say(T.saved);
            show("properties");
          } } }, T.save)));
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
      };
      const label = (text, input) => el("label", {}, text, " ", input);
      main.append(el("h2", {}, T.settings), el("form", { class: "stack", id: "settings-form", on: { submit: async (ev) => {
        ev.preventDefault();
        await call("PATCH", "/settings", { name: f.name.value, logo: f.logo.value, default_locale: f.default_locale.value,
          payment_mode: f.payment_mode.value, deposit_percent: f.deposit_percent.value, terms_url: f.terms_url.value,
          custom_domain: f.custom_domain.value, public_engine_enabled: f.public_engine_enabled.checked,
          allowed_origins: f.allowed_origins.value.split(",").map((o) => o.trim()).filter(Boolean) });
        say(T.saved);
      } } }, label(T.name, f.name), label(T.logo, f.logo), label(T.locale, f.default_locale), label(T.paymentMode, f.payment_mode),
        label(T.deposit, f.deposit_percent), label(T.terms, f.terms_url), label(T.domain, f.custom_domain),
        label(T.origins, f.allowed_origins), label(T.publicEngine, f.public_engine_enabled), el("button", { type: "submit" }, T.save)));
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

  async function show(view) {
    for (const b of document.querySelectorAll("#nav button")) b.classList.toggle("current", b.dataset.view === view);
    main.replaceChildren();
    try {
      await views[view]();
    } catch (e) {
      if (!flash.textContent) say(T.error + ": " + e.message, true);
    }
  }

  // Pages kept in their own files (channels.js) register here.
  for (const page of window.staykitHostPages || []) page({ views, T, lang, el, call, say, show, table, loadProperties, main });

  const nav = document.getElementById("nav");
  for (const v of Object.keys(views)) {
    nav.append(el("button", { type: "button", id: "nav-" + v, "data-view": v, on: { click: () => { flash.hidden = true; flash.textContent = ""; show(v); } } }, T[v]));
  }
  document.getElementById("logout").textContent = T.logout;
  show("today");
})();
