// The dashboard's Reports page: revenue booked and collected, occupancy,
// ADR and RevPAR per month (GET /reports/monthly) as hand-made SVG bar
// charts and a table per property, the taxes of the period with CSV
// downloads (GET /reports/taxes, /reports/tourist-tax per municipality,
// /reports/vat per rate), and the arrivals and departures of the
// coming week (GET /reports/movements). Loaded before app.js, which calls
// each registered page with its helpers.
//
// The charts are drawn by hand in SVG rather than with a charting
// library: two bar charts need ~100 lines, no dependency to vet, ship or
// allow in the Content-Security-Policy, and every bar keeps the API's
// exact amount (data-amount) for scripts and tests. They are drawn at
// the width they are given, so their text stays legible on a phone.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, show, shown, table, main, moneyText }) {
  // R are this page's words; T (the dashboard's) gets the menu's label
  // only, so that no word of another page changes.
  const R = {
    fr: {
      reports: "Rapports", period: "Période", from: "Du mois", to: "Au mois", allProperties: "Tous les logements", apply: "Afficher",
      revenueTitle: "Chiffre d'affaires par mois", occupancyTitle: "Taux d'occupation par mois",
      booked: "Réservé", collected: "Encaissé", occupancy: "Occupation", adr: "Prix moyen par nuit (ADR)", revpar: "RevPAR",
      revenueBooked: "CA réservé", revenueCollected: "Encaissé", nights: "Nuits réservées / disponibles", month: "Mois",
      totalRow: "Total", taxesTitle: "Taxes de la période", tax: "Taxe", included: "Incluse dans les prix", addedOn: "Ajoutée au prix",
      csv: "Télécharger les taxes (CSV)", movementsTitle: "Arrivées et départs des 7 prochains jours", arrival: "Arrivée", departure: "Départ",
      movement: "Mouvement", taxMode: "Application", noTaxes: "Aucune taxe sur la période.",
      touristCsv: "Taxe de séjour par commune (CSV)", vatCsv: "TVA par taux (CSV)",
      help: "CA réservé : nuits des séjours confirmés (hors taxes) et ce que les annulations ont conservé. Encaissé : paiements reçus moins remboursements, le mois où l'argent a bougé. Occupation : nuits réservées sur nuits non fermées.",
    },
    en: {
      reports: "Reports", period: "Period", from: "From month", to: "To month", allProperties: "All properties", apply: "Show",
      revenueTitle: "Revenue per month", occupancyTitle: "Occupancy per month",
      booked: "Booked", collected: "Collected", occupancy: "Occupancy", adr: "Average daily rate (ADR)", revpar: "RevPAR",
      revenueBooked: "Revenue booked", revenueCollected: "Collected", nights: "Nights booked / available", month: "Month",
      totalRow: "Total", taxesTitle: "Taxes of the period", tax: "Tax", included: "Included in prices", addedOn: "Added to prices",
      csv: "Download the taxes (CSV)", movementsTitle: "Arrivals and departures in the next 7 days", arrival: "Arrival", departure: "Departure",
      movement: "Movement", taxMode: "Applies", noTaxes: "No tax in the period.",
      touristCsv: "Tourist tax per municipality (CSV)", vatCsv: "VAT per rate (CSV)",
      help: "Revenue booked: nights of confirmed stays (taxes excluded) and what cancellations kept. Collected: payments received less refunds, in the month the money moved. Occupancy: booked nights over nights not closed.",
    },
  }[lang];
  T.reports = R.reports;

  // moneyText (app.js's) formats an exact decimal string from the API as
  // it is: Intl reads the string as an exact decimal, never a float.
  const money = (v, currency) => el("span", { class: "money", "data-amount": String(v) }, moneyText(v, currency));
  const pctText = (v) => (v == null ? "—" : new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(String(v)) + (lang === "fr" ? "\u202f%" : "%"));
  const pct = (v) => el("span", { class: "percent", "data-value": v == null ? "" : String(v) }, pctText(v));
  const optMoney = (v, currency) => (v == null ? "—" : money(v, currency));
  const monthLong = new Intl.DateTimeFormat(lang, { month: "long", year: "numeric", timeZone: "UTC" });
  const monthShort = new Intl.DateTimeFormat(lang, { month: "short", timeZone: "UTC" });
  const monthDate = (m) => new Date(m + "-01T00:00:00Z");
  const dayFormat = new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  const day = (iso) => el("time", { datetime: iso }, dayFormat.format(new Date(iso + "T00:00:00Z")));

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v != null) e.setAttribute(k, v);
    for (const c of children.flat()) if (c != null) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }

  // niceMax rounds a chart's top up to 1, 2 or 5 × 10^k.
  function niceMax(v) {
    if (v <= 0) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
    return 10 * p;
  }

  // barChart draws months × series as grouped bars in box, at box's
  // width. Each series: {key, label, color, values (API strings or
  // null), text (a value as words), tick (an axis label)}. top, when
  // given, is the axis' top (100 for percents).
  function barChart(box, id, months, series, top) {
    const width = Math.max(240, Math.floor((box.clientWidth || 328) - 8));
    const height = width < 500 ? 200 : 240;
    const left = 58, right = 6, upper = 10, lower = 24;
    const plotW = width - left - right, plotH = height - upper - lower;
    const nums = series.flatMap((s) => s.values.map((v) => (v == null ? 0 : Number(v))));
    const lo = Math.min(0, ...nums);
    const hi = top || niceMax(Math.max(0, ...nums));
    const y = (v) => upper + plotH * (hi - v) / (hi - lo || 1);
    const group = plotW / months.length;
    const barW = Math.max(2, (group * 0.78) / series.length);
    const chart = svg("svg", { id, class: "chart", width, height, viewBox: "0 0 " + width + " " + height, role: "img",
      "aria-label": series.map((s) => s.label).join(", "), "data-top": String(hi), "data-bottom": String(lo) });
    // Grid lines and axis labels: the top, the middle, zero (and the
    // lowest value when money went back).
    const ticks = [...new Set([hi, hi / 2, 0, lo])];
    for (const t of ticks) {
      chart.append(svg("line", { x1: left, x2: width - right, y1: y(t), y2: y(t), stroke: t === 0 ? "#8c8f94" : "#dcdcde", "stroke-width": 1 }),
        svg("text", { x: left - 4, y: y(t) + 4, "text-anchor": "end", "font-size": 11, fill: "#50575e" }, series[0].tick(t)));
    }
    const every = Math.ceil(months.length * 36 / plotW);
    months.forEach((m, i) => {
      const x0 = left + group * i + (group - barW * series.length) / 2;
      series.forEach((s, k) => {
        const raw = s.values[i];
        const v = raw == null ? 0 : Number(raw);
        const y0 = y(Math.max(v, 0)), y1 = y(Math.min(v, 0));
        chart.append(svg("rect", { class: "bar-" + s.key, x: (x0 + k * barW).toFixed(2), y: y0.toFixed(2), width: (barW - 1).toFixed(2),
          height: Math.max(0, y1 - y0).toFixed(2), fill: s.color, "data-month": m, "data-series": s.key, "data-amount": raw == null ? "" : String(raw) },
        svg("title", {}, monthLong.format(monthDate(m)) + " — " + s.label + " : " + s.text(raw))));
      });
      // Every few months a label, the last month always.
      if ((months.length - 1 - i) % every === 0) {
        chart.append(svg("text", { x: (left + group * (i + 0.5)).toFixed(2), y: height - 8, "text-anchor": "middle", "font-size": 11, fill: "#50575e" },
          monthShort.format(monthDate(m))));
      }
    });
    const legend = el("p", { class: "legend" }, series.map((s) => el("span", {}, el("span", { class: "swatch swatch-" + s.key }), " " + s.label)));
    box.replaceChildren(chart, series.length > 1 ? legend : "");
  }

  // figureCells are a period's cells: nights, occupancy, revenue booked
  // and collected, ADR and RevPAR.
  const figureCells = (f, cur) => [
    el("td", { class: "nights" }, f.nights_booked + " / " + f.nights_available),
    el("td", { class: "amt occupancy" }, pct(f.occupancy_percent)),
    el("td", { class: "amt booked" }, money(f.revenue_booked, cur)),
    el("td", { class: "amt collected" }, money(f.revenue_collected, cur)),
    el("td", { class: "amt adr" }, optMoney(f.adr, cur)),
    el("td", { class: "amt revpar" }, optMoney(f.revpar, cur)),
  ];
  const figureHead = () => [R.month, R.nights, R.occupancy, R.revenueBooked, R.revenueCollected, R.adr, R.revpar];

  views.reports = async function () {
    const state = views.reports.state || (views.reports.state = { from: "", to: "", property: "" });
    const q = new URLSearchParams();
    if (state.from) q.set("from", state.from);
    if (state.to) q.set("to", state.to);
    if (state.property) q.set("property_id", state.property);
    const [rep, taxes, moves, props] = await Promise.all([
      call("GET", "/reports/monthly?" + q), call("GET", "/reports/taxes?" + q), call("GET", "/reports/movements?days=7"),
      call("GET", "/properties?limit=100")]);
    if (shown() !== "reports") return; // the host moved on meanwhile
    state.from = rep.from;
    state.to = rep.to;
    const cur = rep.currency;

    const from = el("input", { id: "rp-from", type: "month", value: rep.from, required: true, "aria-label": R.from });
    const to = el("input", { id: "rp-to", type: "month", value: rep.to, required: true, "aria-label": R.to });
    const prop = el("select", { id: "rp-property", "aria-label": T.property },
      el("option", { value: "" }, R.allProperties),
      props.items.map((p) => el("option", { value: p.id, selected: String(p.id) === String(state.property) }, p.name)));
    const form = el("form", { class: "bar", id: "rp-form", on: { submit: (ev) => {
      ev.preventDefault();
      Object.assign(state, { from: from.value, to: to.value, property: prop.value });
      show("reports");
    } } }, from, to, prop, el("button", { type: "submit", id: "rp-apply" }, R.apply));

    const t = rep.total;
    const kpi = (id, label, value) => el("div", { class: "kpi", id }, el("small", {}, label), el("strong", {}, value));
    const kpis = el("div", { class: "kpis" },
      kpi("kpi-booked", R.revenueBooked, money(t.revenue_booked, cur)),
      kpi("kpi-collected", R.revenueCollected, money(t.revenue_collected, cur)),
      kpi("kpi-occupancy", R.occupancy, pct(t.occupancy_percent)),
      kpi("kpi-adr", R.adr, optMoney(t.adr, cur)),
      kpi("kpi-revpar", R.revpar, optMoney(t.revpar, cur)));

    const months = rep.months.map((m) => m.month);
    const revenueBox = el("div", { class: "chart-box", id: "revenue-box" });
    const occupancyBox = el("div", { class: "chart-box", id: "occupancy-box" });
    main.append(el("h2", {}, R.reports + " — " + monthLong.format(monthDate(rep.from)) + " → " + monthLong.format(monthDate(rep.to))),
      form, kpis, el("p", { class: "help" }, R.help),
      el("h3", {}, R.revenueTitle), revenueBox,
      el("h3", {}, R.occupancyTitle), occupancyBox);
    const compact = new Intl.NumberFormat(lang, { style: "currency", currency: cur, notation: "compact", maximumFractionDigits: 1 });
    const draw = () => {
      barChart(revenueBox, "revenue-chart", months, [
        { key: "booked", label: R.booked, color: "#2271b1", values: rep.months.map((m) => m.revenue_booked), text: (v) => moneyText(v, cur), tick: (v) => compact.format(v) },
        { key: "collected", label: R.collected, color: "#00a32a", values: rep.months.map((m) => m.revenue_collected), text: (v) => moneyText(v, cur), tick: (v) => compact.format(v) },
      ]);
      barChart(occupancyBox, "occupancy-chart", months, [
        { key: "occupancy", label: R.occupancy, color: "#996800", values: rep.months.map((m) => m.occupancy_percent), text: pctText, tick: (v) => pctText(v) },
      ], 100);
    };
    draw();
    views.reports.redraw = draw;

    for (const p of rep.properties) {
      const rows = p.months.map((m) => el("tr", { "data-month": m.month }, el("td", {}, monthLong.format(monthDate(m.month))), figureCells(m, cur)));
      rows.push(el("tr", { class: "total" }, el("td", {}, el("strong", {}, R.totalRow)), figureCells(p.total, cur)));
      main.append(el("h3", {}, p.name), el("div", { class: "report-property", "data-property": p.property_id }, table(figureHead(), rows)));
    }

    // The CSV downloads of the period: the taxes per property, and the
    // declarations (tourist tax per municipality, VAT per rate).
    const csvOf = (report) => "/api/v1/host/" + encodeURIComponent(document.body.dataset.org) + "/reports/" + report + "?" +
      new URLSearchParams([...q.entries(), ["from", rep.from], ["to", rep.to], ["format", "csv"], ["locale", lang]]);
    const csv = csvOf("taxes");
    const taxRows = taxes.totals.map((x) => el("tr", { "data-code": x.code, "data-inclusive": String(x.inclusive) },
      el("td", {}, x.label), el("td", {}, x.inclusive ? R.included : R.addedOn), el("td", { class: "amt" }, money(x.amount, cur))));
    main.append(el("h3", {}, R.taxesTitle), taxRows.length ? table([R.tax, R.taxMode, T.amount], taxRows) : el("p", {}, R.noTaxes),
      el("p", {}, el("a", { id: "taxes-csv", href: csv, download: "" }, R.csv)),
      el("p", {}, el("a", { id: "tourist-tax-csv", href: csvOf("tourist-tax"), download: "" }, R.touristCsv)),
      el("p", {}, el("a", { id: "vat-csv", href: csvOf("vat"), download: "" }, R.vatCsv)));

    const moveRows = [...moves.arrivals.map((s) => [s, R.arrival]), ...moves.departures.map((s) => [s, R.departure])]
      .sort((a, b) => a[0].date.localeCompare(b[0].date))
      .map(([s, kind]) => el("tr", { "data-booking": s.booking_id }, el("td", {}, day(s.date)), el("td", {}, kind), el("td", {}, s.property_name),
        el("td", {}, s.guest_name + " (" + s.guests + ")")));
    main.append(el("h3", {}, R.movementsTitle), moveRows.length ? table([T.date, R.movement, T.property, T.guest], moveRows) : el("p", {}, T.none));
  };
  // The menu lists the views in their order: Reports comes after the
  // calendar, the views registered after it (by app.js and the pages
  // loaded before this one) are put back behind it.
  const keys = Object.keys(views);
  const at = keys.indexOf("calendar");
  if (at >= 0) {
    for (const k of keys.slice(at + 1)) {
      if (k === "reports") continue;
      const v = views[k];
      delete views[k];
      views[k] = v;
    }
  }

  // The charts are drawn at their box's width: drawn again when it changes.
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (document.getElementById("revenue-chart") && views.reports.redraw) views.reports.redraw(); }, 150);
  });
});
