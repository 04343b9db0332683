// The scheduled messages in the dashboard (issue #28): the host's
// templates (a subject and a body per language, a trigger, a property),
// created, edited, previewed with a real booking before they are saved,
// disabled; the review request's switch; and, on a property's page, its
// check-in instructions and door code. Loaded before app.js.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, say, show, shown, table, loadProperties, main, propertySections }) {
  Object.assign(T, {
    fr: {
      messages: "Messages", messagesHint: "Des messages envoyés aux voyageurs dans leur langue, à l'heure locale du logement. Un espace réservé entre doubles accolades est remplacé à l'envoi.",
      messagesNone: "Aucun message programmé.", messageNew: "Nouveau message", messageName: "Nom", messageWhen: "Quand", messageState: "État",
      messageActive: "Actif", messageOff: "Désactivé", messageEdit: "Modifier", messageDisable: "Désactiver", messageEnable: "Activer",
      messageProperty: "Logement", messageAllProperties: "Tous les logements", messageDays: "Jours", messageHours: "Heures", messageAt: "À",
      messageEvent: "Événement", messageSubject: "Objet", messageBody: "Texte", messagePlaceholders: "Espaces réservés :",
      messagePreview: "Aperçu", messagePreviewBooking: "Réservation", messagePreviewLocale: "Langue", messageSave: "Enregistrer",
      messageCancel: "Annuler", messageSaved: "Message enregistré.", messageNoBooking: "Aucune réservation pour l'aperçu.",
      when_before_arrival: "avant l'arrivée", when_after_departure: "après le départ", when_balance_due: "avant l'échéance du solde", when_event: "sur un événement",
      ev_confirmed: "réservation confirmée", ev_balance: "solde : action requise", ev_cancelled: "réservation annulée",
      reviewRequest: "Demander un avis le lendemain du départ (liens d'une étoile à cinq étoiles)", reviewRequestSaved: "Réglage enregistré.",
      checkinTitle: "Instructions d'arrivée", checkinInstructions: "Instructions", checkinDoorCode: "Code de la porte",
      checkinDays: "Jours avant l'arrivée", checkinAt: "Heure d'envoi", checkinSave: "Enregistrer les instructions",
      checkinHint: "Envoyées uniquement aux voyageurs confirmés qui ont tout payé ; jamais visibles publiquement.", checkinSaved: "Instructions enregistrées.",
    },
    en: {
      messages: "Messages", messagesHint: "Messages sent to guests in their language, at the property's local time. A placeholder between double braces is filled in when sent.",
      messagesNone: "No scheduled message.", messageNew: "New message", messageName: "Name", messageWhen: "When", messageState: "State",
      messageActive: "Active", messageOff: "Disabled", messageEdit: "Edit", messageDisable: "Disable", messageEnable: "Enable",
      messageProperty: "Property", messageAllProperties: "Every property", messageDays: "Days", messageHours: "Hours", messageAt: "At",
      messageEvent: "Event", messageSubject: "Subject", messageBody: "Text", messagePlaceholders: "Placeholders:",
      messagePreview: "Preview", messagePreviewBooking: "Booking", messagePreviewLocale: "Language", messageSave: "Save",
      messageCancel: "Cancel", messageSaved: "Message saved.", messageNoBooking: "No booking to preview with.",
      when_before_arrival: "before arrival", when_after_departure: "after departure", when_balance_due: "before the balance is due", when_event: "on an event",
      ev_confirmed: "booking confirmed", ev_balance: "balance: action required", ev_cancelled: "booking cancelled",
      reviewRequest: "Ask for a review the day after departure (one- to five-star links)", reviewRequestSaved: "Setting saved.",
      checkinTitle: "Check-in instructions", checkinInstructions: "Instructions", checkinDoorCode: "Door code",
      checkinDays: "Days before arrival", checkinAt: "Sent at", checkinSave: "Save the instructions",
      checkinHint: "Sent only to confirmed guests who paid in full; never shown publicly.", checkinSaved: "Instructions saved.",
    },
  }[lang]);

  const placeholders = ["guest_name", "check_in", "check_out", "property", "checkin_instructions", "door_code", "balance_link", "booking_link"];
  const events = [["booking.confirmed", T.ev_confirmed], ["booking.balance_action_required", T.ev_balance], ["booking.cancelled", T.ev_cancelled]];
  const label = (text, input) => el("label", {}, text, " ", input);

  function describe(tr) {
    if (tr.when === "event") return T.when_event + " : " + ((events.find(([v]) => v === tr.event) || [, tr.event])[1]);
    const parts = [];
    if (tr.days) parts.push(tr.days + " " + T.messageDays.toLowerCase());
    if (tr.hours) parts.push(tr.hours + " " + T.messageHours.toLowerCase());
    return (parts.length ? parts.join(" ") + " " : "") + T["when_" + tr.when] + ", " + T.messageAt.toLowerCase() + " " + tr.at;
  }

  function body(t) {
    return { name: t.name, texts: t.texts, trigger: t.trigger, active: t.active, property_id: t.property_id };
  }

  views.messages = async function () {
    const [page, settings, props] = await Promise.all([call("GET", "/message-templates"), call("GET", "/settings/messages"), loadProperties()]);
    if (shown() !== "messages") return;
    const review = el("input", { type: "checkbox", id: "review-request", checked: settings.review_request, on: { change: async () => {
      await call("PUT", "/settings/messages", { review_request: review.checked });
      say(T.reviewRequestSaved);
    } } });
    main.append(el("h2", {}, T.messages), el("p", { class: "hint" }, T.messagesHint),
      el("p", {}, el("label", {}, review, " ", T.reviewRequest)),
      el("button", { type: "button", id: "message-new", on: { click: () => edit(null, props) } }, T.messageNew));
    if (!page.items.length) {
      main.append(el("p", { id: "messages-none" }, T.messagesNone));
      return;
    }
    const name = (id) => id === null ? T.messageAllProperties : (props.find((p) => p.id === id) || { name: "#" + id }).name;
    const rows = page.items.map((t) => el("tr", { "data-id": t.id, "data-active": String(t.active) },
      el("td", {}, t.name), el("td", {}, describe(t.trigger)), el("td", {}, name(t.property_id)),
      el("td", {}, t.active ? T.messageActive : T.messageOff),
      el("td", { class: "actions" },
        el("button", { type: "button", class: "edit", on: { click: () => edit(t, props) } }, T.messageEdit),
        el("button", { type: "button", class: "toggle", on: { click: async () => {
          await call("PUT", "/message-templates/" + t.id, Object.assign(body(t), { active: !t.active }));
          await show("messages");
          say(T.messageSaved);
        } } }, t.active ? T.messageDisable : T.messageEnable))));
    main.append(table([T.messageName, T.messageWhen, T.messageProperty, T.messageState, ""], rows));
  };

  // edit replaces the page with the form of template t (null: a new one).
  async function edit(t, props) {
    const bookings = (await call("GET", "/bookings?limit=50")).items;
    if (shown() !== "messages") return;
    const tr = t ? t.trigger : { when: "before_arrival", days: 2, hours: 0, at: "10:00", event: null };
    const name = el("input", { id: "message-name", value: t ? t.name : "", maxlength: "200", required: true });
    const when = el("select", { id: "message-when" }, ["before_arrival", "after_departure", "balance_due", "event"].map((w) =>
      el("option", { value: w, selected: w === tr.when }, T["when_" + w])));
    const days = el("input", { id: "message-days", type: "number", min: "0", max: "365", value: String(tr.days) });
    const hours = el("input", { id: "message-hours", type: "number", min: "0", max: "72", value: String(tr.hours) });
    const at = el("input", { id: "message-at", type: "time", value: tr.at });
    const event = el("select", { id: "message-event" }, events.map(([v, l]) => el("option", { value: v, selected: v === tr.event }, l)));
    const property = el("select", { id: "message-property" }, [el("option", { value: "" }, T.messageAllProperties),
      ...props.map((p) => el("option", { value: String(p.id), selected: t && t.property_id === p.id }, p.name))]);
    const active = el("input", { type: "checkbox", id: "message-active", checked: t ? t.active : true });
    const timed = el("span", {}, label(T.messageDays, days), " ", label(T.messageHours, hours), " ", label(T.messageAt, at));
    const onEvent = label(T.messageEvent, event);
    const sync = () => { timed.hidden = when.value === "event"; onEvent.hidden = when.value !== "event"; };
    when.addEventListener("change", sync);
    sync();
    const texts = {};
    const textFields = ["fr", "en"].map((l) => {
      const x = (t && t.texts[l]) || { subject: "", body: "" };
      texts[l] = { subject: el("input", { id: "message-subject-" + l, value: x.subject, maxlength: "200" }),
        body: el("textarea", { id: "message-body-" + l, rows: "8", cols: "60" }, x.body) };
      return el("fieldset", {}, el("legend", {}, l), label(T.messageSubject, texts[l].subject), el("br"), label(T.messageBody, texts[l].body));
    });
    const value = () => {
      const out = { name: name.value, active: active.checked, property_id: property.value ? Number(property.value) : null, texts: {},
        trigger: when.value === "event" ? { when: "event", event: event.value }
          : { when: when.value, days: Number(days.value) || 0, hours: Number(hours.value) || 0, at: at.value } };
      for (const l of ["fr", "en"]) {
        if (texts[l].subject.value.trim() || texts[l].body.value.trim()) out.texts[l] = { subject: texts[l].subject.value, body: texts[l].body.value };
      }
      return out;
    };
    const booking = el("select", { id: "message-preview-booking" }, bookings.map((b) =>
      el("option", { value: String(b.id) }, "#" + b.id + " " + b.guest_name + " " + b.check_in + " → " + b.check_out)));
    const locale = el("select", { id: "message-preview-locale" }, [el("option", { value: "" }, "—"), ...["fr", "en"].map((l) => el("option", { value: l }, l))]);
    const subject = el("p", { id: "message-preview-subject" });
    const frame = el("iframe", { id: "message-preview-frame", sandbox: "", title: T.messagePreview, referrerpolicy: "no-referrer" });
    Object.assign(frame.style, { width: "100%", height: "16rem", border: "1px solid #d0d7de", borderRadius: "6px", background: "#fff" });
    const text = el("pre", { id: "message-preview-text" });
    Object.assign(text.style, { whiteSpace: "pre-wrap", overflowWrap: "anywhere" });
    const out = el("div", { id: "message-preview", hidden: true }, subject, frame, text);
    const preview = el("button", { type: "button", id: "message-preview-show", on: { click: async () => {
      if (!booking.value) { say(T.messageNoBooking, true); return; }
      const req = { template: value(), booking_id: Number(booking.value) };
      if (locale.value) req.locale = locale.value;
      const p = await call("POST", "/message-preview", req);
      subject.replaceChildren(el("strong", {}, T.messageSubject + ": "), p.subject);
      frame.srcdoc = p.html;
      text.textContent = p.text;
      out.hidden = false;
    } } }, T.messagePreview);
    const save = el("button", { type: "submit", id: "message-save" }, T.messageSave);
    const form = el("form", { id: "message-form", on: { submit: async (ev) => {
      ev.preventDefault();
      save.disabled = true;
      try {
        if (t) await call("PUT", "/message-templates/" + t.id, value());
        else await call("POST", "/message-templates", value());
      } finally {
        save.disabled = false;
      }
      await show("messages");
      say(T.messageSaved);
    } } },
      el("h2", {}, t ? t.name : T.messageNew),
      el("div", { class: "stack" }, label(T.messageName, name), label(T.messageWhen, when), timed, onEvent, label(T.messageProperty, property),
        el("label", {}, active, " ", T.messageActive)),
      el("p", { class: "hint" }, T.messagePlaceholders + " " + placeholders.map((p) => "{{" + p + "}}").join(" ")),
      ...textFields,
      el("section", { id: "message-previews" }, el("h3", {}, T.messagePreview),
        el("div", { class: "stack" }, label(T.messagePreviewBooking, booking), label(T.messagePreviewLocale, locale), preview), out),
      el("p", {}, save, " ", el("button", { type: "button", class: "cancel", on: { click: () => show("messages") } }, T.messageCancel)));
    main.replaceChildren(form);
  }

  // The property page's check-in instructions: saved on their own, never
  // part of the property's PATCH.
  propertySections.push(function (p) {
    const section = el("fieldset", { id: "checkin" }, el("legend", {}, T.checkinTitle));
    if (p.id) {
      (async () => {
        const c = await call("GET", "/properties/" + p.id + "/checkin-instructions");
        const instructions = el("textarea", { id: "checkin-instructions", rows: "4", cols: "60" }, c.checkin_instructions);
        const door = el("input", { id: "checkin-door-code", value: c.door_code, maxlength: "100", autocomplete: "off" });
        const days = el("input", { id: "checkin-days", type: "number", min: "0", max: "30", value: String(c.days_before) });
        const at = el("input", { id: "checkin-at", type: "time", value: c.at });
        const saveButton = el("button", { type: "button", id: "checkin-save", on: { click: async () => {
          await call("PUT", "/properties/" + p.id + "/checkin-instructions", { checkin_instructions: instructions.value, door_code: door.value,
            days_before: Number(days.value) || 0, at: at.value });
          say(T.checkinSaved);
        } } }, T.checkinSave);
        section.append(label(T.checkinInstructions, instructions), el("br"), label(T.checkinDoorCode, door), " ",
          label(T.checkinDays, days), " ", label(T.checkinAt, at), el("p", { class: "hint" }, T.checkinHint), saveButton);
      })();
    }
    return { nodes: [section], change: () => ({}) };
  });
});
