// The booking page's messages with the guest (issue #28): what the guest
// wrote from their booking page and the team's answers, oldest first, and
// the form to answer. The guest gets each answer by e-mail with a link to
// their page, where they reply; the host gets the guest's messages by
// e-mail at the organisation's contact address. Messages are text, shown
// with textContent. Loaded before bookingdetail.js: its section comes
// first among the booking page's sections.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, call, say, bookingSections }) {
  Object.assign(T, {
    fr: {
      threadTitle: "Messages avec le voyageur",
      threadHint: "Le voyageur reçoit votre réponse par e-mail, avec le lien vers sa page de réservation où il vous répond. Ses messages vous arrivent par e-mail à l'adresse de contact ; une réponse à ces e-mails ne lui parvient pas : répondez ici.",
      threadEmpty: "Aucun message.", threadGuest: "Voyageur", threadLabel: "Votre réponse", threadSend: "Envoyer au voyageur",
      threadSent: "Message envoyé au voyageur.",
    },
    en: {
      threadTitle: "Messages with the guest",
      threadHint: "The guest gets your answer by e-mail, with the link to their booking page where they reply. Their messages reach you by e-mail at the contact address; a reply to those e-mails does not reach them: answer here.",
      threadEmpty: "No messages.", threadGuest: "Guest", threadLabel: "Your answer", threadSend: "Send to the guest",
      threadSent: "Message sent to the guest.",
    },
  }[lang]);

  const momentFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });

  bookingSections.push(function (b) {
    const list = el("ol", { id: "thread-list", class: "notes thread", "aria-live": "polite" });
    const show = (messages) => {
      list.replaceChildren(...messages.map((m) => el("li", { class: "note msg from-" + m.from, "data-id": m.id, "data-from": m.from },
        el("p", { class: "note-body" }, m.body),
        el("small", {}, (m.from === "guest" ? T.threadGuest + " (" + b.guest_name + ")" : m.author) + " — " + momentFormat.format(new Date(m.created_at))))));
      if (!messages.length) list.append(el("li", { class: "hint" }, T.threadEmpty));
    };
    const load = async () => show((await call("GET", "/bookings/" + b.id + "/messages", undefined, true)).items);
    const text = el("textarea", { id: "thread-body", rows: "3", maxlength: "2000", required: true, "aria-label": T.threadLabel, placeholder: T.threadLabel });
    const submit = el("button", { type: "submit", id: "thread-send" }, T.threadSend);
    const form = el("form", { id: "thread-form", on: { submit: async (ev) => {
      ev.preventDefault();
      if (!text.value.trim()) { text.focus(); return; }
      submit.disabled = true;
      try {
        await call("POST", "/bookings/" + b.id + "/messages", { body: text.value });
        text.value = "";
        await load();
        say(T.threadSent);
      } finally {
        submit.disabled = false;
      }
    } } }, text, el("p", { class: "bar" }, submit));
    load().catch(() => list.replaceChildren());
    return el("section", { id: "booking-messages" }, el("h3", {}, T.threadTitle), el("p", { class: "hint" }, T.threadHint), list, form);
  });
});
