// The booking page's changes of dates or party (issue #28): what the
// guest asked for from their booking page, with what it charges or
// refunds; a change waiting for the host's approval is approved or
// declined here (the host API's /changes/{id}/approve and /decline).
// Loaded before app.js, which adds the section to the booking page.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, call, say, bookingSections, moneyText }) {
  Object.assign(T, {
    fr: {
      changesTitle: "Modifications du séjour", noChanges: "Aucune modification demandée.",
      changeStatus: { requested: "à approuver", paying: "paiement en cours", applied: "appliquée", declined: "refusée", expired: "expirée", refused: "impossible, remboursée" },
      changeLine: "Du {from} au {to} (avant : {oldFrom} au {oldTo}), {guests} voyageur(s) — total {total}",
      changeCharge: "à payer {amount}", changeRefund: "remboursé {amount}",
      approveChange: "Approuver", declineChange: "Refuser", changeApproved: "Modification approuvée.", changeDeclined: "Modification refusée.",
    },
    en: {
      changesTitle: "Changes of stay", noChanges: "No change asked for.",
      changeStatus: { requested: "to approve", paying: "payment under way", applied: "applied", declined: "declined", expired: "expired", refused: "not possible, refunded" },
      changeLine: "{from} to {to} (was {oldFrom} to {oldTo}), {guests} guest(s) — total {total}",
      changeCharge: "to pay {amount}", changeRefund: "refunded {amount}",
      approveChange: "Approve", declineChange: "Decline", changeApproved: "Change approved.", changeDeclined: "Change declined.",
    },
  }[lang]);

  const dayFormat = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
  const day = (iso) => dayFormat.format(new Date(iso + "T00:00:00Z"));
  const fill = (s, params) => Object.entries(params).reduce((acc, [k, v]) => acc.replace("{" + k + "}", v), s);

  bookingSections.push(function (b, refresh) {
    const list = el("ul", { id: "changes-list", class: "changes" });
    const answer = async (c, action) => {
      await call("POST", "/changes/" + c.id + "/" + action, action === "decline" ? {} : undefined);
      say(action === "approve" ? T.changeApproved : T.changeDeclined);
      refresh();
    };
    (async () => {
      const items = (await call("GET", "/bookings/" + b.id + "/changes", undefined, true)).items;
      list.replaceChildren(...items.map((c) => {
        const money = [];
        if (Number(c.charge_amount) > 0) money.push(fill(T.changeCharge, { amount: moneyText(c.charge_amount, c.currency) }));
        if (Number(c.refund_amount) > 0) money.push(fill(T.changeRefund, { amount: moneyText(c.refund_amount, c.currency) }));
        const li = el("li", { class: "change", "data-id": c.id, "data-status": c.status },
          el("span", { class: "badge" }, T.changeStatus[c.status] || c.status), " ",
          fill(T.changeLine, { from: day(c.check_in), to: day(c.check_out), oldFrom: day(c.old_check_in), oldTo: day(c.old_check_out),
            guests: c.guests_count, total: moneyText(c.total_amount, c.currency) }) + (money.length ? " — " + money.join(", ") : ""));
        if (c.status === "requested") {
          li.append(" ", el("button", { type: "button", class: "approve-change", on: { click: () => answer(c, "approve") } }, T.approveChange),
            " ", el("button", { type: "button", class: "decline-change", on: { click: () => answer(c, "decline") } }, T.declineChange));
        }
        return li;
      }));
      if (!items.length) list.append(el("li", { class: "hint" }, T.noChanges));
    })().catch(() => list.replaceChildren());
    return el("section", { id: "booking-changes" }, el("h3", {}, T.changesTitle), list);
  });
});
