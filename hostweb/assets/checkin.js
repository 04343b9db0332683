// The booking page's check-in section (issue #29): how complete the
// guests' identity data is, a form to fill it in at arrival, and the file
// for the authorities of the property's country (SES.HOSPEDAJES in Spain,
// Alloggiati Web in Italy, the fiches de police in France). The data is
// read only when the host opens the form: every read is audited.
// Loaded before app.js, which adds the section to the booking page.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, call, say, bookingSections }) {
  Object.assign(T, {
    fr: {
      guestCheckinTitle: "Enregistrement des voyageurs", checkinOf: (c) => `${c.valid} voyageur(s) sur ${c.expected} complet(s)` + (c.entered > c.valid ? `, ${c.entered - c.valid} incomplet(s)` : ""),
      checkinComplete: "✓", checkinOpen: "Voir ou remplir les pièces d'identité", guestCheckinSave: "Enregistrer",
      checkinAdd: "Ajouter un voyageur", checkinGuest: (n) => `Voyageur ${n}`, guestCheckinSaved: "Enregistrement sauvegardé.",
      checkinFile: "Télécharger le fichier pour les autorités", checkinCode: "Code d'établissement SES.HOSPEDAJES",
      checkinNone: "Pas de fichier pour les autorités de ce pays.", checkinRead: "Chaque lecture est inscrite au journal.",
      authority: { ses_hospedajes: "SES.HOSPEDAJES (Espagne)", alloggiati_web: "Alloggiati Web (Italie)", fiche_police: "Fiches de police (France)" },
    },
    en: {
      guestCheckinTitle: "Guest check-in", checkinOf: (c) => `${c.valid} of ${c.expected} guest(s) complete` + (c.entered > c.valid ? `, ${c.entered - c.valid} incomplete` : ""),
      checkinComplete: "✓", checkinOpen: "Show or fill in the identity data", guestCheckinSave: "Save",
      checkinAdd: "Add a guest", checkinGuest: (n) => `Guest ${n}`, guestCheckinSaved: "Check-in saved.",
      checkinFile: "Download the file for the authorities", checkinCode: "SES.HOSPEDAJES establishment code",
      checkinNone: "No authority file for this country.", checkinRead: "Every read is written to the audit log.",
      authority: { ses_hospedajes: "SES.HOSPEDAJES (Spain)", alloggiati_web: "Alloggiati Web (Italy)", fiche_police: "Police forms (France)" },
    },
  }[lang]);

  // The fields of a guest: [name, French label, English label, input type
  // or the options of a select].
  const fields = [
    ["given_names", "Prénoms", "Given names"], ["surname", "Nom", "Surname"], ["second_surname", "Second nom (Espagne)", "Second surname (Spain)"],
    ["sex", "Sexe", "Sex", ["", "M", "F", "X"]], ["birth_date", "Date de naissance", "Birth date", "date"],
    ["birth_place", "Lieu de naissance", "Place of birth"], ["birth_country", "Pays de naissance (FR, DE…)", "Country of birth (FR, DE…)"],
    ["birth_municipality_code", "Code commune de naissance (Italie)", "Comune of birth code (Italy)"], ["birth_province", "Province de naissance (Italie)", "Province of birth (Italy)"],
    ["nationality", "Nationalité (FR, DE…)", "Nationality (FR, DE…)"],
    ["document_type", "Pièce d'identité", "Document", ["", "passport", "id_card", "residence_permit", "driving_licence", "other"]],
    ["document_number", "Numéro", "Number"], ["document_support", "N° de support (DNI/NIE)", "Support number (DNI/NIE)"],
    ["document_country", "Pays de délivrance", "Issuing country"], ["document_issue_place_code", "Code commune de délivrance (Italie)", "Issuing comune code (Italy)"],
    ["document_issue_date", "Date de délivrance", "Issue date", "date"],
    ["address", "Adresse", "Address"], ["postal_code", "Code postal", "Postal code"], ["city", "Ville", "City"],
    ["municipality_code", "Code INE de la commune (Espagne)", "INE municipality code (Spain)"], ["address_country", "Pays de résidence", "Country of residence"],
    ["phone", "Téléphone mobile", "Mobile phone"], ["email", "E-mail", "E-mail"],
    ["relationship", "Lien avec un adulte, mineur (Espagne : HJ, PM…)", "Relationship to an adult, minor (Spain: HJ, PM…)"],
  ];

  function guestFieldset(n, g) {
    const inputs = fields.map(([name, fr, en, kind]) => {
      const value = g[name] || "";
      const input = Array.isArray(kind)
        ? el("select", { name }, kind.map((o) => el("option", { value: o, selected: o === value }, o)))
        : el("input", { name, type: kind || "text", value, autocomplete: "off" });
      return el("label", {}, lang === "fr" ? fr : en, " ", input);
    });
    return el("fieldset", { class: "checkin-guest" }, el("legend", {}, T.checkinGuest(n)), inputs);
  }

  bookingSections.push(function (b) {
    const status = el("p", { id: "checkin-status" });
    const formBox = el("div", { id: "checkin-form-box" });
    const code = el("input", { id: "checkin-code", maxlength: "10", autocomplete: "off" });
    const codeLabel = el("label", { hidden: true }, T.checkinCode, " ", code);
    const fileButton = el("button", { type: "button", id: "checkin-file", on: { click: download } }, T.checkinFile);
    const section = el("section", { id: "checkin" }, el("h3", {}, T.guestCheckinTitle), status,
      el("p", { class: "bar" }, el("button", { type: "button", id: "checkin-open", on: { click: open } }, T.checkinOpen), codeLabel, fileButton),
      el("p", { class: "hint" }, T.checkinRead), formBox);

    function showStatus(v) {
      const c = v.completeness;
      status.textContent = T.checkinOf(c) + (c.complete ? " " + T.checkinComplete : "") +
        (v.authority ? " — " + T.authority[v.authority] : " — " + T.checkinNone);
      status.dataset.complete = String(c.complete);
      codeLabel.hidden = v.authority !== "ses_hospedajes";
      fileButton.disabled = !v.authority;
    }

    (async () => {
      const v = await call("GET", "/bookings/" + b.id + "/checkin/status", undefined, true).catch(() => null);
      if (v && section.isConnected) showStatus(v);
    })();

    async function open() {
      const v = await call("GET", "/bookings/" + b.id + "/checkin");
      if (!section.isConnected) return;
      showStatus(v);
      const guests = v.guests.length ? v.guests : Array.from({ length: Math.max(1, b.guests) }, () => ({}));
      const list = el("div", { id: "checkin-guests" }, guests.map((g, i) => guestFieldset(i + 1, g)));
      const add = el("button", { type: "button", id: "checkin-add", on: { click: () => list.append(guestFieldset(list.children.length + 1, {})) } }, T.checkinAdd);
      const form = el("form", { id: "checkin-form", on: { submit: async (ev) => {
        ev.preventDefault();
        const body = { guests: [...list.querySelectorAll("fieldset")].map((fs) => {
          const g = {};
          for (const input of fs.querySelectorAll("input, select")) if (input.value.trim() !== "") g[input.name] = input.value.trim();
          return g;
        }) };
        const saved = await call("PUT", "/bookings/" + b.id + "/checkin", body);
        if (!section.isConnected) return;
        showStatus(saved);
        say(T.guestCheckinSaved);
      } } }, list, el("p", { class: "bar" }, add, el("button", { type: "submit", id: "checkin-save" }, T.guestCheckinSave)));
      formBox.replaceChildren(form);
    }

    // The file comes as it is (XML, text or HTML), not in the JSON
    // envelope: fetched, then saved under the name the API gives it.
    async function download() {
      const q = code.value.trim() ? "?establishment_code=" + encodeURIComponent(code.value.trim()) : "";
      const res = await fetch("/api/v1/host/" + encodeURIComponent(document.body.dataset.org) + "/bookings/" + b.id + "/checkin/file" + q,
        { credentials: "same-origin", headers: { "Accept-Language": lang } });
      if (!res.ok) {
        const env = await res.json().catch(() => ({ message: res.statusText }));
        const detail = env.errors ? " " + Object.entries(env.errors).map(([f, m]) => f + ": " + m.join(", ")).join("; ") : "";
        say(env.message + detail, true);
        return;
      }
      const name = (/filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") || "") || [])[1] || "checkin";
      const url = URL.createObjectURL(await res.blob());
      const a = el("a", { href: url, download: name });
      document.body.append(a);
      a.click();
      a.remove();
      URL.revokeObjectURL(url);
      section.dataset.downloaded = name;
    }
    return section;
  });
});
