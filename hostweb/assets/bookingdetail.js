// The booking page's history and notes (issue #26): everything that
// happened to the booking's money in one chronological list — its
// creation, confirmation, each payment, refund, hold, release, claim and
// dispute from the ledger — with what is still to come (the balance
// charged on its due date); and the host's private notes on the stay,
// written by a member of the team or an API key, never shown to the guest.
// The booking's invoice and credit notes (issue #29), each with its PDF.
// Loaded before app.js, which adds the sections to the booking page.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, call, say, bookingSections, moneyText }) {
  Object.assign(T, {
    fr: {
      historyTitle: "Historique", upcoming: "à venir", tlCreated: "Réservation faite", tlConfirmed: "Réservation confirmée",
      tlBalanceDue: "Solde prélevé sur la carte", tlBalanceManual: "Solde à encaisser par l'hôte",
      notesTitle: "Notes internes", notesHint: "Visibles par l'équipe seulement, jamais par le voyageur.",
      noteLabel: "Nouvelle note", addNote: "Ajouter la note", noNotes: "Aucune note.", noteSaved: "Note ajoutée.",
      invoicesTitle: "Factures", noInvoices: "Aucune facture pour l'instant : elle est émise dans la minute qui suit la confirmation.",
      invoiceKind: { invoice: "Facture", credit_note: "Avoir" }, pdf: "PDF",
    },
    en: {
      historyTitle: "History", upcoming: "upcoming", tlCreated: "Booking made", tlConfirmed: "Booking confirmed",
      tlBalanceDue: "Balance charged to the card", tlBalanceManual: "Balance to be collected by the host",
      notesTitle: "Internal notes", notesHint: "Seen by the team only, never by the guest.",
      noteLabel: "New note", addNote: "Add the note", noNotes: "No notes.", noteSaved: "Note added.",
      invoicesTitle: "Invoices", noInvoices: "No invoice yet: it is issued within a minute of the confirmation.",
      invoiceKind: { invoice: "Invoice", credit_note: "Credit note" }, pdf: "PDF",
    },
  }[lang]);

  const momentFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const dayFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });

  // history lists the booking's events, oldest first: {at (ms), when
  // (text), kind, text, upcoming}.
  function history(b) {
    const events = [];
    const at = (ts, kind, text) => events.push({ at: Date.parse(ts), when: momentFormat.format(new Date(ts)), kind, text, upcoming: false });
    const bal = b.balance;
    const balanceToCome = bal && ["scheduled", "manual"].includes(bal.status) && bal.due_date;
    at(b.created_at, "created", T.tlCreated);
    for (const p of b.payments) {
      // A balance not sent yet is shown once, on its due date, below.
      if (balanceToCome && p.kind === "balance" && p.status === "pending") continue;
      at(p.created_at, "payment", [(T.pk && T.pk[p.kind]) || p.kind, moneyText(p.amount, p.currency),
        (T.ps && T.ps[p.status]) || p.status].join(" — "));
    }
    // After the payments: a confirmation follows the payment made at the
    // same moment (the sort keeps this order for equal times).
    if (b.confirmed_at) at(b.confirmed_at, "confirmed", T.tlConfirmed);
    if (balanceToCome) {
      const due = Date.parse(bal.due_date + "T00:00:00Z");
      events.push({ at: due, when: dayFormat.format(new Date(due)), kind: "balance", upcoming: true,
        text: (bal.status === "scheduled" ? T.tlBalanceDue : T.tlBalanceManual) + " — " + moneyText(bal.amount, b.currency) });
    }
    return events.sort((x, y) => x.at - y.at);
  }

  bookingSections.push(function (b) {
    const items = history(b).map((e) => el("li", { class: e.upcoming ? "event upcoming" : "event", "data-kind": e.kind },
      el("span", { class: "when" }, e.when), " ", el("span", { class: "what" }, e.text),
      e.upcoming ? [" ", el("span", { class: "badge" }, T.upcoming)] : null));
    return el("section", { id: "booking-history" }, el("h3", {}, T.historyTitle), el("ol", { class: "timeline" }, items));
  });

  bookingSections.push(function (b) {
    const list = el("ol", { id: "notes-list", class: "notes" });
    const show = (notes) => {
      list.replaceChildren(...notes.map((n) => el("li", { class: "note", "data-id": n.id },
        el("p", { class: "note-body" }, n.body),
        el("small", {}, n.author + " — " + momentFormat.format(new Date(n.created_at))))));
      if (!notes.length) list.append(el("li", { class: "hint" }, T.noNotes));
    };
    const load = async () => show((await call("GET", "/bookings/" + b.id + "/notes")).items);
    const text = el("textarea", { id: "note-body", rows: "3", maxlength: "2000", required: true, "aria-label": T.noteLabel, placeholder: T.noteLabel });
    const submit = el("button", { type: "submit", id: "note-add" }, T.addNote);
    const form = el("form", { id: "note-form", on: { submit: async (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      try {
        await call("POST", "/bookings/" + b.id + "/notes", { body: text.value });
        text.value = "";
        await load();
        say(T.noteSaved);
      } finally {
        submit.disabled = false;
      }
    } } }, text, el("p", { class: "bar" }, submit));
    load();
    return el("section", { id: "booking-notes" }, el("h3", {}, T.notesTitle), el("p", { class: "hint" }, T.notesHint), list, form);
  });

  bookingSections.push(function (b) {
    const list = el("ul", { id: "invoices-list", class: "invoices" });
    const pdf = (id) => "/api/v1/host/" + encodeURIComponent(document.body.dataset.org) + "/invoices/" + id + "/pdf";
    (async () => {
      const items = (await call("GET", "/bookings/" + b.id + "/invoices", undefined, true)).items;
      list.replaceChildren(...items.map((inv) => el("li", { class: "invoice", "data-kind": inv.kind, "data-number": inv.number },
        T.invoiceKind[inv.kind] + " n° " + inv.number + " — " + dayFormat.format(new Date(inv.issue_date + "T00:00:00Z")) +
        " — " + moneyText(inv.total, inv.currency) + " ",
        el("a", { href: pdf(inv.id), download: "" }, T.pdf))));
      if (!items.length) list.append(el("li", { class: "hint" }, T.noInvoices));
    })().catch(() => list.replaceChildren());
    return el("section", { id: "booking-invoices" }, el("h3", {}, T.invoicesTitle), list);
  });
});
