// The dashboard's Planning: every property on one calendar (rows are
// properties, and under a property of several units one row per unit;
// columns days), bookings as bars labelled with the guest and coloured by
// status, owner blocks and channels' imported events (named
// by their calendar: "Airbnb") apart, each day's price. A host selects
// days — a tap, then a tap on the last day of the range; shift-click or a
// drag; across several properties by shift-clicking another row — and
// blocks, unblocks, prices, sets a minimum stay or closes them to arrival
// or departure at once. Loaded before app.js, which calls it with its
// helpers.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, say, shown, loadProperties, main, moneyText, todayISO, addDays }) {
  Object.assign(T, {
    fr: {
      planning: "Planning", window: "jours", earlier: "‹ Avant", later: "Après ›", fromToday: "Aujourd'hui",
      selectHint: "Touchez un jour puis le dernier jour de la période ; Maj+clic ou glisser ; Maj+clic sur un autre logement pour plusieurs logements.",
      nightsSelected: "{n} nuit(s) sur {p} logement(s)", clearSelection: "Effacer",
      blockAction: "Bloquer", unblockAction: "Débloquer", priceAction: "Fixer le prix", minStayAction: "Séjour min.",
      closeArrival: "Fermer aux arrivées", closeDeparture: "Fermer aux départs", reopen: "Rouvrir arrivées et départs",
      ownerBlock: "Bloqué", done: "Fait : {n} période(s) mise(s) à jour.", linkedHold: "Lié : {p}",
    },
    en: {
      planning: "Planning", window: "days", earlier: "‹ Earlier", later: "Later ›", fromToday: "Today",
      selectHint: "Tap a day, then the last day of the range; shift-click or drag; shift-click another property's row for several properties.",
      nightsSelected: "{n} night(s) on {p} propert(y/ies)", clearSelection: "Clear",
      blockAction: "Block", unblockAction: "Unblock", priceAction: "Set price", minStayAction: "Min. stay",
      closeArrival: "Close to arrival", closeDeparture: "Close to departure", reopen: "Reopen arrivals and departures",
      ownerBlock: "Blocked", done: "Done: {n} range(s) updated.", linkedHold: "Linked: {p}",
    },
  }[lang]);
  const fill = (s, params) => s.replace(/\{(\w+)\}/g, (_, k) => params[k]);
  // at places a node on the grid (row, column, span of columns): through
  // the CSSOM, which the dashboard's CSP allows where a style attribute
  // is refused.
  const at = (node, row, col, span) => {
    if (row) node.style.gridRow = String(row);
    if (col) node.style.gridColumn = col + (span ? " / span " + span : "");
    return node;
  };
  const DAYS = 28;
  const state = { from: todayISO() };
  const headFormat = new Intl.DateTimeFormat(lang, { weekday: "narrow", day: "numeric", timeZone: "UTC" });
  const monthFormat = new Intl.DateTimeFormat(lang, { month: "long", year: "numeric", timeZone: "UTC" });
  const longFormat = new Intl.DateTimeFormat(lang, { dateStyle: "full", timeZone: "UTC" });
  // drag is the mouse selection under way: the cell it began on, and
  // whether it moved; dragged says the one that just ended moved, so the
  // click that ends it selects nothing more. Both change synchronously:
  // a timer could run after the next press.
  let drag = null, dragged = false;
  document.addEventListener("pointerup", () => { dragged = !!(drag && drag.moved); drag = null; });

  views.planning = async function () {
    const props = (await loadProperties()).filter((p) => p.active);
    const from = state.from, to = addDays(from, DAYS);
    const dates = Array.from({ length: DAYS }, (_, i) => addDays(from, i));
    const [calendars, bookings] = await Promise.all([
      Promise.all(props.map((p) => call("GET", "/properties/" + p.id + "/calendar?from=" + from + "&to=" + to))),
      call("GET", "/bookings?status=pending,requested,confirmed&from=" + from + "&to=" + to + "&limit=100"),
    ]);
    // The host went to another view meanwhile: it is on screen, not this.
    if (shown() !== "planning") return;
    const guest = new Map(bookings.items.map((b) => [b.id, b.guest_name]));

    // The selection: "propertyID|date" keys; anchor is the last day
    // tapped alone.
    const selected = new Set();
    let anchor = null;
    const grid = el("div", { class: "planning", id: "planning", "aria-label": T.planning });
    grid.style.setProperty("--days", String(DAYS));
    grid.append(el("div", { class: "corner" }, monthFormat.format(new Date(from + "T00:00:00Z"))),
      ...dates.map((d, i) => at(el("div", { class: "head" + (new Date(d + "T00:00:00Z").getUTCDay() % 6 === 0 ? " weekend" : ""),
        "aria-hidden": "true" }, headFormat.format(new Date(d + "T00:00:00Z"))), 1, i + 2)));
    // A property of several units (issue #27) has a row of its own (its
    // prices, the selection) and one row per unit under it, with that
    // unit's bars; a night a linked property takes shows on the row.
    let gridRow = 1;
    const nameOf = (id) => (props.find((x) => x.id === id) || { name: "#" + id }).name;
    const bars = (days, gridRow, holderOf) => {
      const holder = (x) => {
        const h = holderOf(x);
        return h.booking_id ? "b" + h.booking_id : h.block_id ? "k" + h.block_id : h.feed_id ? "f" + h.feed_id : h.linked ? "l" + h.linked : "";
      };
      for (let i = 0; i < days.length;) {
        const d = holderOf(days[i]);
        const key = holder(days[i]);
        let j = i + 1;
        while (key && j < days.length && holder(days[j]) === key) j++;
        if (key) {
          if (d.booking_id) {
            grid.append(at(el("button", { type: "button", class: "bar booking st-" + d.booking_status, "data-booking": d.booking_id,
              title: (guest.get(d.booking_id) || "#" + d.booking_id) + " — " + (T.st[d.booking_status] || d.booking_status),
              on: { click: () => { location.hash = "bookings/" + d.booking_id; } } }, guest.get(d.booking_id) || "#" + d.booking_id), gridRow, i + 2, j - i));
          } else if (d.block_id) {
            grid.append(at(el("div", { class: "bar block", "data-block": d.block_id }, T.ownerBlock), gridRow, i + 2, j - i));
          } else if (d.feed_id) {
            grid.append(at(el("div", { class: "bar channel", "data-feed": d.feed_id, title: d.channel }, d.channel), gridRow, i + 2, j - i));
          } else {
            grid.append(at(el("div", { class: "bar linked", "data-linked": d.linked }, fill(T.linkedHold, { p: nameOf(d.linked) })), gridRow, i + 2, j - i));
          }
        }
        i = j;
      }
    };
    props.forEach((p, row) => {
      gridRow++;
      const days = calendars[row].days;
      const units = p.units || [];
      grid.append(at(el("div", { class: "prop" }, p.name), gridRow));
      days.forEach((day, i) => {
        const cls = ["cell"];
        if (day.closed) cls.push("closed");
        if (day.price_override) cls.push("override");
        if (day.closed_to_arrival) cls.push("no-arrival");
        if (day.closed_to_departure) cls.push("no-departure");
        const price = moneyText(day.price, calendars[row].currency);
        grid.append(at(el("button", { type: "button", class: cls.join(" "), "data-property": p.id, "data-date": day.date,
          "data-row": row, "data-col": i, "data-amount": day.price,
          "aria-label": p.name + ", " + longFormat.format(new Date(day.date + "T00:00:00Z")) + ", " + price,
          title: p.name + " — " + day.date + (day.min_stay_nights ? " — min. " + day.min_stay_nights : "") },
        el("span", { class: "price", "aria-hidden": "true" }, price.replace(/[.,]00(?=\D*$)/, ""))), gridRow, i + 2));
      });
      // Bars: a run of nights held by one booking, one owner block, one
      // channel's imported calendar or a linked property. With several
      // units, the property's row shows the linked holds alone and each
      // unit's row its own.
      if (units.length <= 1) {
        bars(days, gridRow, (x) => Object.assign({}, x, { linked: x.linked_property_id }));
        return;
      }
      bars(days, gridRow, (x) => ({ linked: x.linked_property_id }));
      units.forEach((u, k) => {
        gridRow++;
        grid.append(at(el("div", { class: "prop unit", "data-unit": u.id, title: p.name + " — " + u.name }, u.name), gridRow));
        days.forEach((_, i) => grid.append(at(el("div", { class: "ucell", "aria-hidden": "true" }), gridRow, i + 2)));
        bars(days, gridRow, (x) => (x.units && x.units[k]) || {});
      });
    });

    const cells = () => [...grid.querySelectorAll("button.cell")];
    const cellAt = (row, col) => grid.querySelector(`button.cell[data-row="${row}"][data-col="${col}"]`);
    const paint = () => {
      for (const c of cells()) {
        const on = selected.has(c.dataset.property + "|" + c.dataset.date);
        c.classList.toggle("selected", on);
        c.setAttribute("aria-pressed", String(on));
      }
      const nights = selected.size, properties = new Set([...selected].map((k) => k.split("|")[0])).size;
      count.textContent = nights ? fill(T.nightsSelected, { n: nights, p: properties }) : T.selectHint;
      bar.hidden = nights === 0;
    };
    // rect selects every day between two cells, on every row between.
    const rect = (a, b) => {
      const [r1, r2] = [Number(a.dataset.row), Number(b.dataset.row)].sort((x, y) => x - y);
      const [c1, c2] = [Number(a.dataset.col), Number(b.dataset.col)].sort((x, y) => x - y);
      for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) {
        const cell = cellAt(r, c);
        if (cell) selected.add(cell.dataset.property + "|" + cell.dataset.date);
      }
    };
    const keyOf = (c) => c.dataset.property + "|" + c.dataset.date;
    grid.addEventListener("pointerdown", (ev) => {
      const c = ev.target.closest("button.cell");
      dragged = false;
      if (!c || ev.pointerType === "touch") return;
      drag = { from: c, moved: false };
    });
    grid.addEventListener("pointerover", (ev) => {
      const c = ev.target.closest("button.cell");
      // A drag is the primary button held down over other days.
      if (!drag || !c || c === drag.from || !(ev.buttons & 1)) return;
      drag.moved = true;
      selected.clear();
      rect(drag.from, c);
      anchor = null;
      paint();
    });
    grid.addEventListener("click", (ev) => {
      const c = ev.target.closest("button.cell");
      if (!c || dragged) return;
      const k = keyOf(c);
      if (ev.shiftKey && anchor) {
        rect(anchor, c);
      } else if (ev.ctrlKey || ev.metaKey) {
        if (selected.has(k)) selected.delete(k); else selected.add(k);
        anchor = c;
      } else if (anchor && selected.size === 1 && anchor.dataset.row === c.dataset.row && anchor !== c) {
        // The second tap ends the range begun by the first.
        rect(anchor, c);
        anchor = null;
      } else if (selected.size === 1 && selected.has(k)) {
        selected.clear();
        anchor = null;
      } else {
        selected.clear();
        selected.add(k);
        anchor = c;
      }
      paint();
    });

    // runs are the selection as ranges [from, to) per property.
    const runs = () => {
      const byProp = new Map();
      for (const k of selected) {
        const [p, d] = k.split("|");
        (byProp.get(p) || byProp.set(p, []).get(p)).push(d);
      }
      const out = [];
      for (const [p, ds] of byProp) {
        ds.sort();
        let start = ds[0], prev = ds[0];
        for (const d of ds.slice(1).concat([null])) {
          if (d && d === addDays(prev, 1)) { prev = d; continue; }
          out.push({ property: p, from: start, to: addDays(prev, 1) });
          start = prev = d;
        }
      }
      return out;
    };
    const apply = async (change) => {
      const rs = runs();
      for (const r of rs) await call("POST", "/properties/" + r.property + "/calendar", Object.assign({ from: r.from, to: r.to }, change));
      await views.planning.reload();
      say(fill(T.done, { n: rs.length }));
    };
    const price = el("input", { id: "plan-price", type: "number", min: "0", step: "0.01", inputmode: "decimal", "aria-label": T.price, placeholder: T.price });
    const minStay = el("input", { id: "plan-min-stay", type: "number", min: "0", step: "1", "aria-label": T.minStayAction, placeholder: T.minStayAction });
    const act = (id, label, change) => el("button", { type: "button", id, on: { click: () => apply(change()).catch(() => {}) } }, label);
    const count = el("p", { id: "plan-count" });
    const bar = el("div", { class: "bar plan-actions", id: "plan-actions", hidden: true },
      act("plan-block", T.blockAction, () => ({ closed: true })),
      act("plan-unblock", T.unblockAction, () => ({ closed: false })),
      el("span", { class: "bar" }, price, act("plan-set-price", T.priceAction, () => (price.value === "" ? { clear_price: true } : { price: price.value }))),
      el("span", { class: "bar" }, minStay, act("plan-set-min-stay", T.minStayAction, () => ({ min_stay_nights: Number(minStay.value || 0) }))),
      act("plan-close-arrival", T.closeArrival, () => ({ closed_to_arrival: true })),
      act("plan-close-departure", T.closeDeparture, () => ({ closed_to_departure: true })),
      act("plan-reopen", T.reopen, () => ({ closed_to_arrival: false, closed_to_departure: false })),
      el("button", { type: "button", id: "plan-clear", on: { click: () => { selected.clear(); anchor = null; paint(); } } }, T.clearSelection));
    const move = (id, label, days) => el("button", { type: "button", id, on: { click: () => { state.from = days === null ? todayISO() : addDays(state.from, days); views.planning.reload(); } } }, label);
    main.append(el("h2", {}, T.planning),
      el("div", { class: "bar" }, move("plan-earlier", T.earlier, -14), move("plan-today", T.fromToday, null), move("plan-later", T.later, 14)),
      el("div", { class: "planning-scroll" }, grid), count, bar);
    paint();
  };
  // reload draws the planning again in place (after an action).
  views.planning.reload = async () => {
    main.replaceChildren();
    await views.planning();
  };
});
