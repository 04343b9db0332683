// The property page's legal section (issue #29): the registration number
// the authorities gave the property as a short-term rental (Regulation
// (EU) 2024/1028), which the public listing, the booking page and the
// widget show. The host API checks it against the property's country.
// Loaded before app.js, which adds the section to the property page.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, call, say, propertySections, bookingSections }) {
  Object.assign(T, {
    fr: {
      complianceTitle: "Obligations légales", registrationNumber: "Numéro d'enregistrement",
      registrationHint: "Affiché sur la page de réservation et le widget. France : 13 caractères, ex. 75056 123456 AB ; Italie : le CIN, ex. IT039007B100001. Vide : aucun.",
      privacyTitle: "Données du voyageur (RGPD)", exportGuest: "Exporter ses données (JSON)",
      eraseGuest: "Effacer le voyageur", eraseConfirm: "Confirmer l'effacement : nom, e-mail, téléphone et message seront effacés définitivement",
      erased: "Voyageur effacé. Les montants et les paiements sont conservés.",
      eraseLater: "L'effacement sera possible une fois le séjour terminé ou annulé.",
    },
    en: {
      complianceTitle: "Legal duties", registrationNumber: "Registration number",
      registrationHint: "Shown on the booking page and the widget. France: 13 characters, e.g. 75056 123456 AB; Italy: the CIN, e.g. IT039007B100001. Empty: none.",
      privacyTitle: "Guest data (GDPR)", exportGuest: "Export their data (JSON)",
      eraseGuest: "Erase the guest", eraseConfirm: "Confirm the erasure: name, e-mail, phone and message are erased for good",
      erased: "Guest erased. Amounts and payments are kept.",
      eraseLater: "The guest can be erased once the stay has ended or been cancelled.",
    },
  }[lang]);

  propertySections.push(function (p) {
    const start = p.registration_number || "";
    const input = el("input", { id: "prop-registration-number", value: start, maxlength: "64", autocomplete: "off", spellcheck: "false" });
    const section = el("fieldset", { id: "compliance" },
      el("legend", {}, T.complianceTitle),
      el("label", {}, T.registrationNumber, " ", input),
      el("p", { class: "hint" }, T.registrationHint));
    // Sent only when changed: the stored number is kept as it is.
    const change = () => (input.value.trim() === start ? {} : { registration_number: input.value.trim() });
    return { nodes: [section], change };
  });

  // The booking page's GDPR section: the guest's data as a JSON file, and
  // their erasure behind a second, confirming click. A stay ahead is
  // refused by the API (409); the page says so before the host tries.
  bookingSections.push(function (b, reshow) {
    const exportButton = el("button", { type: "button", id: "guest-export", on: { click: async () => {
      const data = await call("GET", "/bookings/" + b.id + "/guest-data");
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
      const a = el("a", { href: url, download: "guest-data-" + b.id + ".json" });
      document.body.append(a);
      a.click();
      a.remove();
      URL.revokeObjectURL(url);
    } } }, T.exportGuest);
    const today = new Date().toISOString().slice(0, 10);
    const live = ["pending", "requested", "confirmed"].includes(b.status) && b.check_out >= today;
    const confirm = el("button", { type: "button", id: "guest-erase-confirm", class: "cancel", hidden: true, on: { click: async () => {
      confirm.disabled = true;
      try {
        const updated = await call("POST", "/bookings/" + b.id + "/erase-guest");
        await reshow(updated);
        say(T.erased);
      } finally {
        confirm.disabled = false;
      }
    } } }, T.eraseConfirm);
    const start = el("button", { type: "button", id: "guest-erase", class: "cancel", disabled: live,
      on: { click: () => { start.hidden = true; confirm.hidden = false; } } }, T.eraseGuest);
    return el("section", { id: "guest-privacy" }, el("h3", {}, T.privacyTitle),
      el("p", { class: "bar" }, exportButton, start, confirm),
      live ? el("p", { class: "hint" }, T.eraseLater) : null);
  });
});
