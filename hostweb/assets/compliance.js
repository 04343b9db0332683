// The property page's legal section (issue #29): the registration number
// the authorities gave the property as a short-term rental (Regulation
// (EU) 2024/1028), which the public listing, the booking page and the
// widget show. The host API checks it against the property's country.
// Loaded before app.js, which adds the section to the property page.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, propertySections }) {
  Object.assign(T, {
    fr: {
      complianceTitle: "Obligations légales", registrationNumber: "Numéro d'enregistrement",
      registrationHint: "Affiché sur la page de réservation et le widget. France : 13 caractères, ex. 75056 123456 AB ; Italie : le CIN, ex. IT039007B100001. Vide : aucun.",
    },
    en: {
      complianceTitle: "Legal duties", registrationNumber: "Registration number",
      registrationHint: "Shown on the booking page and the widget. France: 13 characters, e.g. 75056 123456 AB; Italy: the CIN, e.g. IT039007B100001. Empty: none.",
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
});
