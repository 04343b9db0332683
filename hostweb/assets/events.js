// The event feed in the dashboard (issue #30): the events no receiver
// has acknowledged yet, with the booking each is about, acknowledged from
// here once the host has seen to them; and, on a webhook endpoint's
// deliveries page, a replay of the deliveries of a time range. Loaded
// before channels.js and app.js.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, say, show, table, main }) {
  Object.assign(T, {
    fr: {
      events: "Événements", eventsHint: "Les événements qu'aucun récepteur n'a encore acquittés (flux GET /events), du plus ancien au plus récent.",
      eventsNone: "Tout est acquitté.", ackAll: "Tout acquitter", acked: "Acquitté : ", ack: "Acquitter",
      eventType: "Événement", eventTime: "Date", eventBooking: "Réservation",
      replayTitle: "Renvoyer une période", replayFrom: "Du", replayTo: "au", replay: "Renvoyer", replayed: "Envois programmés : ",
    },
    en: {
      events: "Events", eventsHint: "The events no receiver has acknowledged yet (the GET /events feed), oldest first.",
      eventsNone: "Everything is acknowledged.", ackAll: "Acknowledge all", acked: "Acknowledged: ", ack: "Acknowledge",
      eventType: "Event", eventTime: "Date", eventBooking: "Booking",
      replayTitle: "Replay a period", replayFrom: "From", replayTo: "to", replay: "Replay", replayed: "Deliveries due now: ",
    },
  }[lang]);

  const moment = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });

  views.events = async function () {
    const page = await call("GET", "/events?unacknowledged=true&limit=100");
    const rows = page.items.map((e) => {
      const b = (e.data && e.data.booking) || {};
      return el("tr", { "data-id": e.id },
        el("td", {}, e.type), el("td", {}, el("time", { datetime: e.time }, moment.format(new Date(e.time)))),
        el("td", {}, b.id ? el("a", { href: "#bookings/" + b.id }, "#" + b.id + (b.guest_name ? " " + b.guest_name : "")) : "—"),
        el("td", { class: "actions" }, el("button", { type: "button", class: "ack", on: { click: async () => {
          await call("POST", "/events/" + e.id + "/ack");
          await show("events");
          say(T.acked + e.id);
        } } }, T.ack)));
    });
    main.append(el("h2", {}, T.events), el("p", { class: "hint" }, T.eventsHint));
    if (!rows.length) {
      main.append(el("p", { id: "events-none" }, T.eventsNone));
      return;
    }
    // Up to the last event shown: a later one, not yet seen, stays.
    const last = page.items[page.items.length - 1].id.replace(/^evt_/, "");
    main.append(table([T.eventType, T.eventTime, T.eventBooking, ""], rows),
      el("p", {}, el("button", { type: "button", id: "events-ack-all", on: { click: async () => {
        await call("POST", "/events/ack", { up_to: last });
        await show("events");
        say(T.acked + rows.length);
      } } }, T.ackAll)));
  };

  // replayForm replays an endpoint's deliveries of the events created in
  // a period (local date and time, the last day by default).
  window.staykitReplayForm = function (endpointID, done) {
    const local = (d) => new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
    const now = new Date();
    const from = el("input", { id: "replay-from", type: "datetime-local", required: true, value: local(new Date(now.getTime() - 86400000)) });
    // The field holds minutes: the next one, so that this minute's events count.
    const to = el("input", { id: "replay-to", type: "datetime-local", required: true, value: local(new Date(now.getTime() + 60000)) });
    return el("form", { id: "replay-form", class: "bar", on: { submit: async (ev) => {
      ev.preventDefault();
      const r = await call("POST", "/webhooks/" + endpointID + "/replay",
        { from: new Date(from.value).toISOString(), to: new Date(to.value).toISOString() });
      await done();
      say(T.replayed + r.replayed);
    } } }, el("strong", {}, T.replayTitle), " ", el("label", {}, T.replayFrom, " ", from), el("label", {}, T.replayTo, " ", to),
      el("button", { type: "submit", id: "replay-submit" }, T.replay));
  };
});
