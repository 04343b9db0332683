// Invoicing and tax declarations (issue #29): in Settings, the seller's
// legal details every invoice prints (owners only, as the API allows);
// on the property page, where the property is for the tourist tax
// declared per commune (postal code, municipality code: the INSEE code
// in France). Loaded before app.js, which runs it.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, role, T, lang, el, call, say, main, propertySections }) {
  Object.assign(T, {
    fr: {
      sellerTitle: "Factures : vos mentions légales",
      sellerHint: "Imprimées sur chaque facture émise à partir de maintenant ; les factures déjà émises ne changent pas. Sans numéro de TVA, la facture porte « TVA non applicable, art. 293 B du CGI ».",
      legalName: "Raison sociale", legalForm: "Forme, capital, RCS", sellerAddress: "Adresse", vatID: "N° TVA intracommunautaire",
      sellerSave: "Enregistrer les mentions", sellerSaved: "Mentions légales enregistrées.",
      localityTitle: "Commune (taxe de séjour)", postalCode: "Code postal", municipalityCode: "Code commune (INSEE)",
      localityHint: "La taxe de séjour est déclarée par commune : France, le code INSEE à 5 caractères (ex. 06004 pour Antibes).",
    },
    en: {
      sellerTitle: "Invoices: your legal details",
      sellerHint: "Printed on every invoice issued from now on; invoices already issued do not change. Without a VAT number, invoices say VAT is not applicable (art. 293 B of the French tax code).",
      legalName: "Legal name", legalForm: "Legal form, capital, registration", sellerAddress: "Address", vatID: "VAT number",
      sellerSave: "Save the details", sellerSaved: "Legal details saved.",
      localityTitle: "Municipality (tourist tax)", postalCode: "Postal code", municipalityCode: "Municipality code (INSEE)",
      localityHint: "The tourist tax is declared per municipality: in France, the 5-character INSEE code (e.g. 06004 for Antibes).",
    },
  }[lang]);

  async function sellerSection() {
    const s = await call("GET", "/settings/invoicing");
    const field = (id, value, multi) => multi
      ? el("textarea", { id, rows: "3", maxlength: "500" }, value)
      : el("input", { id, value, maxlength: "500", autocomplete: "off" });
    const inputs = {
      legal_name: field("seller-legal-name", s.legal_name), legal_form: field("seller-legal-form", s.legal_form),
      address: field("seller-address", s.address, true), vat_id: field("seller-vat-id", s.vat_id),
    };
    const save = el("button", { type: "submit", id: "seller-save" }, T.sellerSave);
    const form = el("form", { class: "stack", id: "invoice-seller", on: { submit: async (ev) => {
      ev.preventDefault();
      save.disabled = true;
      try {
        await call("PUT", "/settings/invoicing", Object.fromEntries(Object.entries(inputs).map(([k, i]) => [k, i.value.trim()])));
        say(T.sellerSaved);
      } finally {
        save.disabled = false;
      }
    } } },
    el("label", {}, T.legalName, " ", inputs.legal_name), el("label", {}, T.legalForm, " ", inputs.legal_form),
    el("label", {}, T.sellerAddress, " ", inputs.address), el("label", {}, T.vatID, " ", inputs.vat_id), el("p", { class: "bar" }, save));
    return el("section", { id: "invoicing" }, el("h3", {}, T.sellerTitle), el("p", { class: "hint" }, T.sellerHint), form);
  }

  const settings = views.settings;
  views.settings = async function () {
    await settings();
    if (role === "owner") main.append(await sellerSection());
  };

  propertySections.push(function (p) {
    const start = { postal_code: p.postal_code || "", municipality_code: p.municipality_code || "" };
    const postal = el("input", { id: "prop-postal-code", value: start.postal_code, maxlength: "12", autocomplete: "off" });
    const code = el("input", { id: "prop-municipality-code", value: start.municipality_code, maxlength: "12", autocomplete: "off", spellcheck: "false" });
    const section = el("fieldset", { id: "locality" }, el("legend", {}, T.localityTitle),
      el("label", {}, T.postalCode, " ", postal), el("label", {}, T.municipalityCode, " ", code),
      el("p", { class: "hint" }, T.localityHint));
    // Sent only when changed.
    const change = () => {
      const c = {};
      if (postal.value.trim() !== start.postal_code) c.postal_code = postal.value.trim();
      if (code.value.trim() !== start.municipality_code) c.municipality_code = code.value.trim();
      return c;
    };
    return { nodes: [section], change };
  });
});
