// The property page's rates editor: the property's facts (city, country,
// bedrooms, guests), base and weekend prices, seasons, weekly and monthly
// discounts and stay limits, with a live preview of the nightly prices and
// of a sample stay's quote under the rates being edited
// (POST /properties/{id}/preview), before anything is saved. Loaded before
// app.js, which adds the section to the property page.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, call, propertySections, moneyText, todayISO, addDays }) {
  Object.assign(T, {
    fr: {
      ratesTitle: "Prix et séjours", factsTitle: "Le logement", city: "Ville", country: "Pays (code ISO, ex. FR)",
      bedrooms: "Chambres", weekendRate: "Prix des nuits de week-end (vide : prix de base)", weekendNights: "Nuits de week-end",
      weeklyDiscount: "Réduction à la semaine, 7 nuits et plus (%)", monthlyDiscount: "Réduction au mois, 28 nuits et plus (%)",
      minStay: "Séjour minimum (nuits, 0 : aucun)", maxStay: "Séjour maximum (nuits, 0 : aucun)",
      seasons: "Saisons", seasonName: "Nom", seasonStart: "Du", seasonEnd: "Au (inclus)", seasonRate: "Prix par nuit",
      seasonMinStay: "Séjour min.", addSeason: "Ajouter une saison", removeSeason: "Retirer",
      previewTitle: "Aperçu avant enregistrement", previewNights: "Prix des 28 prochaines nuits",
      sampleStay: "Séjour d'exemple", checkIn: "Arrivée", checkOut: "Départ", accommodation: "Hébergement",
      totalLine: "Total", chargeLine: "Payé à la réservation", previewError: "Aperçu impossible : ",
      weekdaysLong: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
    },
    en: {
      ratesTitle: "Prices and stays", factsTitle: "The property", city: "City", country: "Country (ISO code, e.g. FR)",
      bedrooms: "Bedrooms", weekendRate: "Weekend nights' price (empty: the base rate)", weekendNights: "Weekend nights",
      weeklyDiscount: "Weekly discount, 7 nights or more (%)", monthlyDiscount: "Monthly discount, 28 nights or more (%)",
      minStay: "Minimum stay (nights, 0: none)", maxStay: "Maximum stay (nights, 0: none)",
      seasons: "Seasons", seasonName: "Name", seasonStart: "From", seasonEnd: "To (included)", seasonRate: "Nightly price",
      seasonMinStay: "Min. stay", addSeason: "Add a season", removeSeason: "Remove",
      previewTitle: "Preview before saving", previewNights: "The next 28 nights' prices",
      sampleStay: "Sample stay", checkIn: "Check-in", checkOut: "Check-out", accommodation: "Accommodation",
      totalLine: "Total", chargeLine: "Paid when booking", previewError: "No preview: ",
      weekdaysLong: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    },
  }[lang]);

  const dayFormat = new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

  propertySections.push(function (p, org, all) {
    const cur = org.currency;
    const r = p.rates;
    const num = (id, value, attrs) => el("input", Object.assign({ id, type: "number", min: "0", value: value == null ? "" : value }, attrs || {}));
    const money = (id, value) => num(id, value, { step: "0.01", inputmode: "decimal" });
    const label = (text, input) => el("label", {}, text, " ", input);
    const f = {
      city: el("input", { id: "prop-city", value: p.city || "" }),
      country: el("input", { id: "prop-country", value: p.country || "", maxlength: "2", size: "3" }),
      bedrooms: num("prop-bedrooms", p.bedrooms, { step: "1" }),
      max_guests: num("prop-max-guests", p.max_guests, { step: "1", min: "1" }),
      base: money("rate-base", r.base_rate),
      weekend: money("rate-weekend", r.weekend_rate),
      weekly: num("rate-weekly", r.weekly_discount_percent, { step: "0.01", max: "100" }),
      monthly: num("rate-monthly", r.monthly_discount_percent, { step: "0.01", max: "100" }),
      min_stay: num("prop-min-stay", p.min_stay_nights || 0, { step: "1" }),
      max_stay: num("prop-max-stay", p.max_stay_nights || 0, { step: "1" }),
    };
    // Weekend nights: Friday and Saturday unless the plan says otherwise
    // (0 is Sunday, as the API counts).
    const weekendNights = r.weekend_nights || [5, 6];
    const nights = [1, 2, 3, 4, 5, 6, 0].map((d) => el("label", { class: "check" },
      el("input", { type: "checkbox", class: "weekend-night", value: String(d), checked: weekendNights.includes(d) }), " ", T.weekdaysLong[d]));

    const seasonRows = el("tbody", { id: "seasons" });
    const addSeason = (s) => {
      const cell = (input, name) => el("td", { "data-label": name }, input);
      const tr = el("tr", { class: "season" },
        cell(el("input", { class: "season-name", value: s.name || "", "aria-label": T.seasonName }), T.seasonName),
        cell(el("input", { class: "season-start", type: "date", value: s.start || "", "aria-label": T.seasonStart }), T.seasonStart),
        cell(el("input", { class: "season-end", type: "date", value: s.end || "", "aria-label": T.seasonEnd }), T.seasonEnd),
        cell(num(null, s.rate, { class: "season-rate", step: "0.01", inputmode: "decimal", "aria-label": T.seasonRate }), T.seasonRate + " (" + cur + ")"),
        cell(num(null, s.min_stay_nights || "", { class: "season-min-stay", step: "1", "aria-label": T.seasonMinStay }), T.seasonMinStay),
        el("td", {}, el("button", { type: "button", class: "season-remove", on: { click: () => { tr.remove(); schedule(); } } }, T.removeSeason)));
      seasonRows.append(tr);
    };
    for (const s of r.seasons || []) addSeason(s);

    // The sample stay: next Friday, two nights, two guests.
    const today = todayISO();
    const friday = addDays(today, ((5 - new Date(today + "T00:00:00Z").getUTCDay() + 7) % 7) || 7);
    const sample = {
      check_in: el("input", { id: "sample-check-in", type: "date", value: friday }),
      check_out: el("input", { id: "sample-check-out", type: "date", value: addDays(friday, 2) }),
      guests: num("sample-guests", Math.min(2, p.max_guests || 2), { step: "1", min: "1" }),
    };
    const previewNights = el("div", { id: "preview-nights", class: "preview-nights" });
    const previewQuote = el("table", { id: "preview-quote", class: "facts" });
    const previewProblem = el("p", { id: "preview-error", class: "error", hidden: true });

    const change = () => {
      const rates = Object.assign({}, r, {
        base_rate: f.base.value || "0",
        weekend_rate: f.weekend.value === "" ? null : f.weekend.value,
        weekend_nights: [...nights].map((l) => l.querySelector("input")).filter((c) => c.checked).map((c) => Number(c.value)),
        weekly_discount_percent: f.weekly.value || "0",
        monthly_discount_percent: f.monthly.value || "0",
        seasons: [...seasonRows.querySelectorAll("tr.season")].map((tr) => {
          const v = (cls) => tr.querySelector("." + cls).value;
          const s = { name: v("season-name"), start: v("season-start"), end: v("season-end"), rate: v("season-rate") || "0" };
          if (v("season-min-stay")) s.min_stay_nights = Number(v("season-min-stay"));
          return s;
        }),
      });
      // The nightly prices set on the calendar are kept as they are.
      delete rates.overrides;
      return { city: f.city.value, country: f.country.value.toUpperCase(), bedrooms: Number(f.bedrooms.value || 0),
        max_guests: Number(f.max_guests.value || 1), min_stay_nights: Number(f.min_stay.value || 0),
        max_stay_nights: Number(f.max_stay.value || 0), rates };
    };

    let timer = null, seq = 0;
    const schedule = () => { clearTimeout(timer); timer = setTimeout(preview, 250); };
    async function preview() {
      const mine = ++seq;
      const body = Object.assign(all(), { check_in: sample.check_in.value, check_out: sample.check_out.value,
        guests: Number(sample.guests.value || 1), days: 28 });
      delete body.terms;
      let data;
      try {
        data = await call("POST", "/properties/" + p.id + "/preview", body, true);
      } catch (e) {
        if (mine !== seq) return;
        previewProblem.textContent = T.previewError + e.message;
        previewProblem.hidden = false;
        return;
      }
      if (mine !== seq) return; // an older answer after a newer request
      previewProblem.hidden = true;
      previewNights.replaceChildren(...data.nights.map((n) => el("span", { class: "night", "data-date": n.date, "data-amount": n.price },
        el("small", {}, dayFormat.format(new Date(n.date + "T00:00:00Z"))), el("strong", {}, moneyText(n.price, cur)))));
      const q = data.quote;
      const line = (label, amount, cls) => el("tr", { class: cls || "" }, el("th", {}, label),
        el("td", { class: "amt", "data-amount": amount }, moneyText(amount, q.currency)));
      previewQuote.replaceChildren(el("tbody", {},
        line(T.accommodation + " (" + q.nights + ")", q.accommodation, "q-accommodation"),
        q.discounts.map((l) => line(l.label || l.code, "-" + l.amount, "q-discount")),
        q.fees.map((l) => line(l.label || l.code, l.amount, "q-fee")),
        q.taxes.map((l) => line(l.label || l.code, l.amount, "q-tax")),
        line(T.totalLine, q.total_amount, "q-total"),
        q.charge_amount !== q.total_amount ? line(T.chargeLine, q.charge_amount, "q-charge") : null));
    }

    const section = el("section", { id: "rates-editor" },
      el("h3", {}, T.factsTitle),
      label(T.city, f.city), label(T.country, f.country), label(T.bedrooms, f.bedrooms), label(T.maxGuests, f.max_guests),
      el("h3", {}, T.ratesTitle),
      label(T.baseRate + " (" + cur + ")", f.base), label(T.weekendRate + " (" + cur + ")", f.weekend),
      el("fieldset", { class: "weekend-nights" }, el("legend", {}, T.weekendNights), nights),
      label(T.weeklyDiscount, f.weekly), label(T.monthlyDiscount, f.monthly),
      label(T.minStay, f.min_stay), label(T.maxStay, f.max_stay),
      el("h4", {}, T.seasons),
      el("div", { class: "scroll" }, el("table", { class: "cards seasons" },
        el("thead", {}, el("tr", {}, [T.seasonName, T.seasonStart, T.seasonEnd, T.seasonRate + " (" + cur + ")", T.seasonMinStay, ""].map((h) => el("th", {}, h)))),
        seasonRows)),
      el("p", {}, el("button", { type: "button", id: "season-add", on: { click: () => { addSeason({}); schedule(); } } }, T.addSeason)),
      el("aside", { class: "preview", "aria-live": "polite" },
        el("h4", {}, T.previewTitle),
        el("p", {}, T.previewNights), previewNights,
        el("p", { class: "bar" }, T.sampleStay, label(T.checkIn, sample.check_in), label(T.checkOut, sample.check_out), label(T.guests, sample.guests)),
        previewProblem, previewQuote));
    // Any field of the form (fees and taxes too) updates the preview.
    const shown = () => {
      const form = section.closest("form");
      form.addEventListener("input", schedule);
      form.addEventListener("change", schedule);
      preview();
    };
    return { nodes: [section], change, shown };
  });
});
