// The dashboard's Channels page (calendar feeds of Airbnb, Booking.com,
// Vrbo… and the export URL to paste there) and Webhooks page. Loaded
// before app.js, which calls each registered page with its helpers.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, say, show, table, loadProperties, main }) {
  Object.assign(T, {
    fr: {
      channels: "Canaux", webhooks: "Webhooks", feeds: "Calendriers importés", feedName: "Nom (Airbnb, Booking.com…)",
      feedURL: "Adresse iCal du canal", lastNight: "La fin est la dernière nuit", lastSync: "Dernière synchro",
      events: "Événements", conflicts: "Conflits", syncNow: "Synchroniser", remove: "Supprimer", never: "jamais",
      ok: "OK", exportTitle: "Votre calendrier à coller dans Airbnb, Booking.com ou Vrbo", rotate: "Changer l'adresse",
      confirmRotate: "L'ancienne adresse cessera de fonctionner. Continuer ?", confirmRemove: "Ne plus importer ce calendrier ?",
      url: "URL", eventTypes: "Événements (séparés par des virgules, vide : tous)", failures: "Échecs",
      secretShown: "Copiez ce secret de signature maintenant : il ne sera plus affiché.", rotateSecret: "Nouveau secret",
      deliveries: "Envois", redeliver: "Renvoyer", attempts: "Essais", http: "HTTP", all: "tous", back: "Retour",
      imported: "importé(s)", syncFailed: "Échec de la synchro",
      feedAddedFailed: "Calendrier ajouté, mais sa lecture a échoué : ",
      state: "État", running: "Actif", disabled: "Désactivé", paused: "En pause depuis le ",
      failingSince: " échecs d'affilée depuis le ", resume: "Reprendre", resumeReplay: "Reprendre et renvoyer",
      pausedNotice: "Des webhooks sont en pause : leurs envois échouaient depuis trop longtemps. Les événements leur sont gardés ; reprenez-les une fois le service rétabli, en renvoyant ce qu'ils ont manqué.",
      resumed: "Repris ; envois programmés : ",
    },
    en: {
      channels: "Channels", webhooks: "Webhooks", feeds: "Imported calendars", feedName: "Name (Airbnb, Booking.com…)",
      feedURL: "The channel's iCal URL", lastNight: "End is the last night", lastSync: "Last sync",
      events: "Events", conflicts: "Conflicts", syncNow: "Sync now", remove: "Remove", never: "never",
      ok: "OK", exportTitle: "Your calendar, to paste into Airbnb, Booking.com or Vrbo", rotate: "Change the URL",
      confirmRotate: "The old URL will stop working. Continue?", confirmRemove: "Stop importing this calendar?",
      url: "URL", eventTypes: "Events (comma-separated, empty: all)", failures: "Failures",
      secretShown: "Copy this signing secret now: it will not be shown again.", rotateSecret: "New secret",
      deliveries: "Deliveries", redeliver: "Redeliver", attempts: "Attempts", http: "HTTP", all: "all", back: "Back",
      imported: "imported", syncFailed: "Sync failed",
      feedAddedFailed: "Calendar added, but reading it failed: ",
      state: "State", running: "Running", disabled: "Disabled", paused: "Paused since ",
      failingSince: " failures in a row since ", resume: "Resume", resumeReplay: "Resume and replay",
      pausedNotice: "Some webhook endpoints are paused: their deliveries kept failing. Their events are kept; resume them once the receiver is back, replaying what they missed.",
      resumed: "Resumed; deliveries due now: ",
    },
  }[lang]);

  // Sync health and the exposure window (issue #30).
  Object.assign(T, {
    fr: {
      exposure: "Fenêtre d'exposition", exposureUnknown: "inconnue (jamais synchronisé)",
      exposureNote: "Le pire délai avant qu'une réservation faite sur un canal soit vue ici : intervalle de synchro + temps depuis le dernier succès + délai d'export du canal.",
      propertyExposure: "Fenêtre d'exposition du logement : ", noFeedExposure: "aucun calendrier importé",
      stale: "inchangé depuis 14 jours", lastChange: "Dernière synchro : ", delay: "Délai d'export (min)", delayDefault: "par défaut",
    },
    en: {
      exposure: "Exposure window", exposureUnknown: "unknown (never synced)",
      exposureNote: "The worst-case time before a booking made on a channel is seen here: poll interval + time since the last success + the channel's export delay.",
      propertyExposure: "The property's exposure window: ", noFeedExposure: "no imported calendar",
      stale: "unchanged for 14 days", lastChange: "Last sync: ", delay: "Export delay (min)", delayDefault: "default",
    },
  }[lang]);
  // The same-day close-out (package closeout).
  Object.assign(T, {
    fr: {
      closeoutLabel: "Fermer les arrivées du jour quand la fenêtre dépasse (min, tous les logements ; vide : jamais)",
      closeoutSave: "Enregistrer", closeoutClosed: "Arrivées d'aujourd'hui fermées pour ce logement : ses calendriers sont trop anciens.",
    },
    en: {
      closeoutLabel: "Close arrivals today when the window exceeds (min, every property; empty: never)",
      closeoutSave: "Save", closeoutClosed: "Arrivals today are closed at this property: its calendars are too old.",
    },
  }[lang]);
  // A property of several units (issue #27): a calendar per unit to
  // export, and the unit a channel's calendar blocks.
  Object.assign(T, {
    fr: {
      unitExports: "Le calendrier de chaque lot, pour un lot publié seul sur un canal :", feedUnit: "Lot",
      feedUnitPick: "Lot dont ce calendrier est l'annonce",
    },
    en: {
      unitExports: "Each unit's calendar, for a unit listed on its own on a channel:", feedUnit: "Unit",
      feedUnitPick: "The unit whose listing this calendar is",
    },
  }[lang]);
  // duration says a number of seconds as "3 h 07 min".
  const duration = (s) => {
    const m = Math.ceil(s / 60), h = Math.floor(m / 60);
    return h ? h + " h " + String(m % 60).padStart(2, "0") + " min" : m + " min";
  };

  const when = (s) => (s ? s.slice(0, 16).replace("T", " ") : T.never);

  views.channels = async function () {
    const properties = await loadProperties();
    if (!properties.length) { main.append(el("p", {}, T.none)); return; }
    const state = views.channels.state || (views.channels.state = { property: properties[0].id });
    const base = "/properties/" + state.property;
    const select = el("select", { id: "ch-property", on: { change: () => { state.property = Number(select.value); show("channels"); } } },
      properties.map((p) => el("option", { value: p.id, selected: p.id === state.property }, p.name)));
    const [feeds, exp, prop, closeout] = await Promise.all([call("GET", base + "/feeds?limit=100"), call("GET", base + "/ical"), call("GET", base),
      call("GET", "/settings/sync-closeout")]);
    const cs = prop.calendar_sync;
    // With one unit, the property's calendar is the unit's: no unit is named.
    const units = prop.units || [];
    const several = units.length > 1;
    const unitName = (id) => (units.find((u) => u.id === id) || { name: "#" + id }).name;
    const max = closeout.max_exposure_minutes;
    // As the API decides it (closeout.Closed): over the threshold, or
    // unknown with an active feed.
    const closed = max !== null && cs.feeds > 0 && (cs.exposure_seconds === null || cs.exposure_seconds > max * 60);
    const minutes = el("input", { id: "closeout-minutes", type: "number", min: "1", max: "10080", step: "1", inputmode: "numeric",
      value: max === null ? "" : String(max), "aria-label": T.closeoutLabel });
    const closeoutForm = el("form", { id: "closeout-form", class: "bar", on: { submit: async (ev) => {
      ev.preventDefault();
      await call("PATCH", "/settings/sync-closeout", { max_exposure_minutes: minutes.value === "" ? null : Number(minutes.value) });
      await show("channels");
      say(T.saved);
    } } }, el("label", {}, T.closeoutLabel, " ", minutes), el("button", { type: "submit", id: "closeout-save" }, T.closeoutSave));
    const summary = el("p", { id: "property-exposure", title: T.exposureNote }, T.propertyExposure,
      el("strong", {}, !cs.feeds ? T.noFeedExposure : cs.exposure_seconds === null ? T.exposureUnknown : duration(cs.exposure_seconds)),
      cs.stale_feeds ? el("span", { class: "error" }, " — " + cs.stale_feeds + " × " + T.stale) : "");
    const rows = feeds.items.map((f) => el("tr", { "data-id": f.id, "data-unit": f.unit_id },
      el("td", {}, f.name, el("br"), el("small", {}, f.url)),
      several ? el("td", { class: "feed-unit" }, unitName(f.unit_id)) : null,
      el("td", { class: "feed-status" }, f.last_error ? el("span", { class: "error" }, T.syncFailed + " : " + f.last_error)
        : (f.last_success_at ? T.ok : T.never), f.stale ? el("div", { class: "feed-stale error" }, T.stale) : ""),
      el("td", {}, when(f.last_attempt_at), f.last_success_at ? el("div", { class: "feed-last-change" }, "+" + f.last_added + " / −" + f.last_removed) : ""),
      el("td", { class: "feed-exposure", title: T.exposureNote }, !f.active ? "—" : f.exposure_seconds === null ? T.exposureUnknown : duration(f.exposure_seconds)),
      el("td", {}, el("input", { class: "feed-delay", type: "number", min: "0", max: "10080", size: "5",
        value: Math.round(f.export_delay_seconds / 60), title: f.export_delay_default ? T.delayDefault : "",
        on: { change: async (ev) => {
          await call("PATCH", base + "/feeds/" + f.id, { export_delay_seconds: Math.round(Number(ev.target.value) * 60) });
          await show("channels");
          say(T.saved);
        } } }), f.export_delay_default ? el("small", {}, " " + T.delayDefault) : ""),
      el("td", { class: "feed-events" }, f.events_imported),
      el("td", { class: "feed-conflicts" }, f.conflicts.length ? f.conflicts.map((c) => el("div", {}, c.start + " → " + c.end + " (#" + c.booking_id + ")")) : "0"),
      el("td", { class: "actions" },
        el("button", { type: "button", class: "sync", on: { click: async () => {
          const r = await call("POST", base + "/feeds/" + f.id + "/sync");
          await show("channels");
          if (r.outcome.error) say(T.syncFailed + " : " + r.outcome.error, true);
          else say(r.outcome.events + " " + T.imported);
        } } }, T.syncNow),
        el("button", { type: "button", class: "remove", on: { click: async () => {
          if (!confirm(T.confirmRemove)) return;
          await call("DELETE", base + "/feeds/" + f.id);
          say(T.saved);
          show("channels");
        } } }, T.remove))));
    const name = el("input", { id: "feed-name", placeholder: T.feedName, required: true });
    const url = el("input", { id: "feed-url", type: "url", placeholder: T.feedURL, required: true });
    const lastNight = el("input", { id: "feed-last-night", type: "checkbox" });
    const feedUnit = several ? el("select", { id: "feed-unit", "aria-label": T.feedUnitPick }, units.map((u) => el("option", { value: u.id }, u.name))) : null;
    // Each unit's export URL, read-only, selected on focus.
    const unitExports = several && exp.units.length ? [el("p", {}, T.unitExports), el("ul", { id: "unit-exports" }, exp.units.map((u) => el("li", { "data-unit": u.unit_id },
      el("label", {}, u.name, " ", el("input", { class: "unit-export-url", readonly: true, value: u.url, size: "60", on: { focus: (e) => e.target.select() } })))))] : [];
    main.append(el("h2", {}, T.channels), el("div", { class: "bar" }, select),
      el("h3", {}, T.exportTitle),
      el("p", { class: "bar" }, el("input", { id: "export-url", readonly: true, value: exp.url, size: "60", on: { focus: (e) => e.target.select() } }),
        el("button", { type: "button", id: "export-rotate", on: { click: async () => {
          if (!confirm(T.confirmRotate)) return;
          await call("POST", base + "/ical/rotate");
          say(T.saved);
          show("channels");
        } } }, T.rotate)),
      ...unitExports,
      el("h3", {}, T.feeds), summary,
      // Node.append writes null as a word: what is absent is left out.
      ...(closed ? [el("p", { id: "closeout-state", class: "error" }, T.closeoutClosed)] : []), closeoutForm,
      feeds.items.length ? table([T.name, ...(several ? [T.feedUnit] : []), T.status, T.lastSync, T.exposure, T.delay, T.events, T.conflicts, T.actions], rows) : el("p", {}, T.none),
      el("form", { class: "bar", id: "feed-form", on: { submit: async (ev) => {
        ev.preventDefault();
        // A refused URL is said by call (why, field by field); the feed is
        // fetched at once: a failed first fetch is its last error, said as
        // such rather than "Saved.".
        const f = await call("POST", base + "/feeds", Object.assign({ name: name.value, url: url.value, end_is_last_night: lastNight.checked },
          feedUnit ? { unit_id: Number(feedUnit.value) } : {})).catch(() => null);
        if (!f) return;
        await show("channels");
        if (f.last_error) say(T.feedAddedFailed + f.last_error, true);
        else say(f.events_imported + " " + T.imported);
      } } }, name, url, feedUnit ? el("label", {}, T.feedUnit, " ", feedUnit) : null, el("label", {}, lastNight, " ", T.lastNight), el("button", { type: "submit", id: "feed-add" }, T.add)));
  };

  async function deliveries(w) {
    main.replaceChildren();
    const list = (await call("GET", "/webhooks/" + w.id + "/deliveries?limit=100")).items;
    const rows = list.map((d) => el("tr", { "data-id": d.id },
      el("td", {}, d.event_type), el("td", { class: "status" }, d.status), el("td", {}, d.attempts),
      el("td", {}, d.response_code == null ? "—" : d.response_code), el("td", {}, when(d.updated_at)),
      el("td", {}, d.last_error || ""),
      el("td", {}, el("button", { type: "button", class: "redeliver", on: { click: async () => {
        await call("POST", "/webhooks/deliveries/" + d.id + "/redeliver");
        say(T.saved);
        deliveries(w);
      } } }, T.redeliver))));
    main.append(el("h2", {}, T.deliveries + " — " + w.url),
      el("p", {}, el("button", { type: "button", id: "deliveries-back", on: { click: () => show("webhooks") } }, T.back)),
      window.staykitReplayForm ? window.staykitReplayForm(w.id, () => deliveries(w)) : null,
      list.length ? table([T.kind, T.status, T.attempts, T.http, T.lastSync, T.error, ""], rows) : el("p", {}, T.none));
  }

  views.webhooks = async function () {
    const list = (await call("GET", "/webhooks?limit=100")).items;
    const showSecret = async (w) => {
      await show("webhooks");
      main.prepend(el("p", { class: "secret" }, T.secretShown, el("br"), el("code", { id: "new-secret" }, w.secret)));
    };
    const resume = (w, replay) => el("button", { type: "button", class: replay ? "resume-replay" : "resume", on: { click: async () => {
      const r = await call("POST", "/webhooks/" + w.id + "/resume", { replay });
      await show("webhooks");
      say(T.resumed + r.replayed);
    } } }, replay ? T.resumeReplay : T.resume);
    // The state says whether deliveries go out: paused by staykit (with
    // the way out), failing, disabled by the host, or running.
    const state = (w) => {
      if (w.paused_at) return el("span", { class: "error" }, T.paused + when(w.paused_at) + " (" + w.failures + T.failingSince + when(w.failing_since) + ")");
      if (!w.active) return T.disabled;
      if (w.failures) return el("span", { class: "error" }, w.failures + T.failingSince + when(w.failing_since));
      return T.running;
    };
    const rows = list.map((w) => el("tr", { "data-id": w.id, class: w.paused_at ? "paused" : "" },
      el("td", {}, w.url), el("td", {}, w.event_types.length ? w.event_types.join(", ") : T.all),
      el("td", {}, el("input", { type: "checkbox", class: "active", checked: w.active, "aria-label": T.active, on: { change: async (e) => {
        await call("PATCH", "/webhooks/" + w.id, { active: e.target.checked });
        say(T.saved);
        show("webhooks");
      } } })),
      el("td", { class: "webhook-state" }, state(w)),
      el("td", { class: "actions" },
        w.paused_at ? [resume(w, true), resume(w, false)] : [],
        el("button", { type: "button", class: "deliveries", on: { click: () => deliveries(w) } }, T.deliveries),
        el("button", { type: "button", class: "rotate", on: { click: async () => showSecret(await call("POST", "/webhooks/" + w.id + "/rotate-secret")) } }, T.rotateSecret),
        el("button", { type: "button", class: "remove", on: { click: async () => {
          await call("DELETE", "/webhooks/" + w.id);
          say(T.saved);
          show("webhooks");
        } } }, T.remove))));
    const url = el("input", { id: "webhook-url", type: "url", placeholder: "https://…", required: true });
    const types = el("input", { id: "webhook-events", placeholder: T.eventTypes, size: "40" });
    if (list.some((w) => w.paused_at)) main.append(el("p", { class: "error", id: "paused-notice" }, T.pausedNotice));
    main.append(el("h2", {}, T.webhooks), table([T.url, T.events, T.active, T.state, T.actions], rows),
      el("form", { class: "bar", id: "webhook-form", on: { submit: async (ev) => {
        ev.preventDefault();
        const w = await call("POST", "/webhooks", { url: url.value,
          event_types: types.value.split(",").map((s) => s.trim()).filter(Boolean) });
        await showSecret(w);
      } } }, url, types, el("button", { type: "submit", id: "webhook-add" }, T.add)));
  };
});
