// The dashboard's Planning: every property on one calendar (rows are
// properties, and under a property of several units one row per unit;
// columns days), bookings as bars labelled with the guest and coloured by
// status, owner blocks and channels' imported events (named
// by their calendar: "Airbnb") apart, each day's price. A host selects
// days — a tap, then a tap on the last day of the range; shift-click or a
// drag; across several properties by shift-clicking another row — and
// blocks, unblocks, prices, sets a minimum stay or closes them to arrival
// or departure at once. Under a property of several units (issue #27),
// a unit's row is selectable too: nights selected there are blocked or
// unblocked for that unit alone (owner blocks with its unit_id), while
// the property's row keeps its actions for every unit; a selection is on
// property rows or on unit rows, never both. A tap on an owner block's bar
// offers to remove it. Loaded before app.js, which calls it with its
// helpers.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, say, shown, loadProperties, main, moneyText, todayISO, addDays, dayRuns }) {
  Object.assign(T, {
    fr: {
      planning: "Planning", window: "jours", earlier: "‹ Avant", later: "Après ›", fromToday: "Aujourd'hui",
      selectHint: "Touchez un jour puis le dernier jour de la période ; Maj+clic ou glisser ; Maj+clic sur un autre logement pour plusieurs logements. Sur la ligne d'un lot : ce lot seul ; touchez un blocage pour le retirer.",
      nightsSelected: "{n} nuit(s) sur {p} logement(s)", clearSelection: "Effacer",
      blockAction: "Bloquer", unblockAction: "Débloquer", priceAction: "Fixer le prix", minStayAction: "Séjour min.",
      closeArrival: "Fermer aux arrivées", closeDeparture: "Fermer aux départs", reopen: "Rouvrir arrivées et départs",
      ownerBlock: "Bloqué", done: "Fait : {n} période(s) mise(s) à jour.", linkedHold: "Lié : {p}",
      unitNightsSelected: "{n} nuit(s) sur {u} lot(s) : {names}",
      scopeProperty: "Tout le logement : chaque lot", scopeUnit: "Ce lot seul : les autres lots restent ouverts.",
      blockOf: "Bloqué : {u} — {n} nuit(s), {from} → {to}", blockEveryUnit: "tous les lots", removeBlock: "Retirer ce blocage", keepBlock: "Garder",
      blockRemoved: "Blocage retiré.", wholeBlocked: "Certaines nuits sont bloquées pour tous les lots : touchez ce blocage pour le retirer.",
      free: "libre",
    },
    en: {
      planning: "Planning", window: "days", earlier: "‹ Earlier", later: "Later ›", fromToday: "Today",
      selectHint: "Tap a day, then the last day of the range; shift-click or drag; shift-click another property's row for several properties. On a unit's row: that unit alone; tap a block to remove it.",
      nightsSelected: "{n} night(s) on {p} propert(y/ies)", clearSelection: "Clear",
      blockAction: "Block", unblockAction: "Unblock", priceAction: "Set price", minStayAction: "Min. stay",
      closeArrival: "Close to arrival", closeDeparture: "Close to departure", reopen: "Reopen arrivals and departures",
      ownerBlock: "Blocked", done: "Done: {n} range(s) updated.", linkedHold: "Linked: {p}",
      unitNightsSelected: "{n} night(s) on {u} unit(s): {names}",
      scopeProperty: "The whole property: every unit", scopeUnit: "This unit alone: the other units stay open.",
      blockOf: "Blocked: {u} — {n} night(s), {from} → {to}", blockEveryUnit: "every unit", removeBlock: "Remove this block", keepBlock: "Keep",
      blockRemoved: "Block removed.", wholeBlocked: "Some nights are blocked for every unit: tap that block to remove it.",
      free: "free",
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

    // The selection: "propertyID|unitID|date" keys (unitID empty on a
    // property's row), all on property rows or all on unit rows; anchor
    // is the last day tapped alone.
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
    // bars draws the runs of days of prop's row (unitOf: the unit of a
    // unit's row).
    const bars = (prop, unitOf, days, gridRow, holderOf) => {
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
            // A tap offers to remove the block (blockOffer).
            const blockID = d.block_id;
            const label = T.ownerBlock + " — " + (unitOf ? prop.name + " — " + unitOf.name : prop.name) + ", " +
              longFormat.format(new Date(days[i].date + "T00:00:00Z")) + " (" + T.removeBlock + ")";
            grid.append(at(el("button", { type: "button", class: "bar block", "data-block": blockID, "data-property": prop.id,
              "data-unit": unitOf ? unitOf.id : "", "aria-label": label, title: label,
              on: { click: () => blockOffer(prop, blockID) } }, T.ownerBlock), gridRow, i + 2, j - i));
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
      grid.append(at(el("div", { class: "prop", "data-row": gridRow, "data-property": p.id }, p.name), gridRow));
      days.forEach((day, i) => {
        const cls = ["cell"];
        if (day.closed) cls.push("closed");
        if (day.price_override) cls.push("override");
        if (day.closed_to_arrival) cls.push("no-arrival");
        if (day.closed_to_departure) cls.push("no-departure");
        const price = moneyText(day.price, calendars[row].currency);
        grid.append(at(el("button", { type: "button", class: cls.join(" "), "data-property": p.id, "data-unit": "", "data-date": day.date,
          "data-row": gridRow, "data-col": i, "data-amount": day.price,
          "aria-label": p.name + ", " + longFormat.format(new Date(day.date + "T00:00:00Z")) + ", " + price,
          title: p.name + " — " + day.date + (day.min_stay_nights ? " — min. " + day.min_stay_nights : "") },
        el("span", { class: "price", "aria-hidden": "true" }, price.replace(/[.,]00(?=\D*$)/, ""))), gridRow, i + 2));
      });
      // Bars: a run of nights held by one booking, one owner block, one
      // channel's imported calendar or a linked property. With several
      // units, the property's row shows the linked holds alone and each
      // unit's row its own.
      if (units.length <= 1) {
        bars(p, null, days, gridRow, (x) => Object.assign({}, x, { linked: x.linked_property_id }));
        return;
      }
      bars(p, null, days, gridRow, (x) => ({ linked: x.linked_property_id }));
      // A unit's row: a cell per night to select, named by the unit and
      // saying what holds it, under its bars.
      units.forEach((u, k) => {
        gridRow++;
        grid.append(at(el("div", { class: "prop unit", "data-row": gridRow, "data-property": p.id, "data-unit": u.id, title: p.name + " — " + u.name }, u.name), gridRow));
        days.forEach((day, i) => {
          const h = (day.units && day.units[k]) || {};
          const what = h.booking_id ? guest.get(h.booking_id) || "#" + h.booking_id : h.block_id ? T.ownerBlock : h.feed_id ? h.channel
            : day.linked_property_id ? fill(T.linkedHold, { p: nameOf(day.linked_property_id) }) : day.closed ? T.closed : T.free;
          grid.append(at(el("button", { type: "button", class: "cell ucell", "data-property": p.id, "data-unit": u.id, "data-date": day.date,
            "data-row": gridRow, "data-col": i,
            "aria-label": p.name + " — " + u.name + ", " + longFormat.format(new Date(day.date + "T00:00:00Z")) + ", " + what,
            title: p.name + " — " + u.name + " — " + day.date }), gridRow, i + 2));
        });
        bars(p, u, days, gridRow, (x) => (x.units && x.units[k]) || {});
      });
    });

    const cells = () => [...grid.querySelectorAll("button.cell")];
    const cellAt = (row, col) => grid.querySelector(`button.cell[data-row="${row}"][data-col="${col}"]`);
    const keyOf = (c) => c.dataset.property + "|" + c.dataset.unit + "|" + c.dataset.date;
    // onUnits: the selection is on unit rows (else on property rows).
    const onUnits = () => selected.size > 0 && [...selected][0].split("|")[1] !== "";
    const unitName = (pid, uid) => {
      const p = props.find((x) => String(x.id) === pid);
      const u = p && (p.units || []).find((x) => String(x.id) === uid);
      return (u ? u.name : "#" + uid) + " (" + (p ? p.name : "#" + pid) + ")";
    };
    const paint = () => {
      const rows = new Set();
      for (const c of cells()) {
        const on = selected.has(keyOf(c));
        c.classList.toggle("selected", on);
        c.setAttribute("aria-pressed", String(on));
        if (on) rows.add(c.dataset.row);
      }
      // The rows holding the selection are marked at their name.
      for (const h of grid.querySelectorAll(".prop")) h.classList.toggle("selected-row", rows.has(h.dataset.row));
      const nights = selected.size, units = onUnits();
      if (!nights) {
        count.textContent = T.selectHint;
      } else if (units) {
        const list = [...new Set([...selected].map((k) => k.split("|").slice(0, 2).join("|")))];
        count.textContent = fill(T.unitNightsSelected, { n: nights, u: list.length, names: list.map((x) => unitName(...x.split("|"))).join(", ") });
      } else {
        count.textContent = fill(T.nightsSelected, { n: nights, p: new Set([...selected].map((k) => k.split("|")[0])).size });
      }
      bar.hidden = nights === 0;
      bar.dataset.scope = units ? "unit" : "property";
      scope.textContent = units ? T.scopeUnit : T.scopeProperty;
      for (const x of propertyOnly) x.hidden = units;
      if (nights) offer.hidden = true;
    };
    // rect selects every day between two cells, on every row between of
    // a's kind (property rows, or unit rows).
    const rect = (a, b) => {
      const [r1, r2] = [Number(a.dataset.row), Number(b.dataset.row)].sort((x, y) => x - y);
      const [c1, c2] = [Number(a.dataset.col), Number(b.dataset.col)].sort((x, y) => x - y);
      const unitRows = a.dataset.unit !== "";
      for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) {
        const cell = cellAt(r, c);
        if (cell && (cell.dataset.unit !== "") === unitRows) selected.add(keyOf(cell));
      }
    };
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
      // A tap on the other kind of row starts a new selection there.
      if (selected.size && onUnits() !== (c.dataset.unit !== "")) {
        selected.clear();
        anchor = null;
      }
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

    // runs are the selection as ranges [from, to) per property, or per
    // unit of a property.
    const runs = () => {
      const byRow = new Map();
      for (const k of selected) {
        const [p, u, d] = k.split("|");
        const row = p + "|" + u;
        (byRow.get(row) || byRow.set(row, []).get(row)).push(d);
      }
      const out = [];
      for (const [row, ds] of byRow) {
        const [p, u] = row.split("|");
        for (const [from, to] of dayRuns(ds.sort())) out.push({ property: p, unit: u ? Number(u) : 0, from, to });
      }
      return out;
    };
    // unblockUnit gives a unit's nights [r.from, r.to) back: each of its
    // blocks over them is removed, and what it held outside them blocked
    // again. A block of every unit stays (its bar removes it); it is said.
    const unblockUnit = async (r) => {
      const p = await call("GET", "/properties/" + r.property);
      let whole = false;
      for (const b of p.blocks.filter((x) => x.start < r.to && r.from < x.end)) {
        if (b.unit_id === null) { whole = true; continue; }
        if (b.unit_id !== r.unit) continue;
        await call("DELETE", "/properties/" + r.property + "/blocks/" + b.id);
        for (const [start, end] of [[b.start, r.from], [r.to, b.end]]) {
          if (start < end) await call("POST", "/properties/" + r.property + "/blocks", { start, end, reason: b.reason, unit_id: r.unit });
        }
      }
      return whole;
    };
    const apply = async (change) => {
      const rs = runs();
      let whole = false;
      // Drawn again even after a refusal (said by call): the ranges done
      // before it are shown.
      try {
        for (const r of rs) {
          if (!r.unit) await call("POST", "/properties/" + r.property + "/calendar", Object.assign({ from: r.from, to: r.to }, change));
          else if (change.closed) await call("POST", "/properties/" + r.property + "/blocks", { start: r.from, end: r.to, unit_id: r.unit });
          else whole = (await unblockUnit(r)) || whole;
        }
      } finally {
        await views.planning.reload();
      }
      if (whole) say(T.wholeBlocked, true);
      else say(fill(T.done, { n: rs.length }));
    };
    // blockOffer offers to remove an owner block (the bar tapped): its
    // unit (or every unit) and its nights, and the button that removes it.
    const blockOffer = (prop, blockID) => {
      const b = (prop.blocks || []).find((x) => x.id === blockID);
      const units = prop.units || [];
      const whose = units.length <= 1 ? prop.name : prop.name + " — " + (b && b.unit_id
        ? (units.find((u) => u.id === b.unit_id) || { name: "#" + b.unit_id }).name : T.blockEveryUnit);
      const fmt = (d) => longFormat.format(new Date(d + "T00:00:00Z"));
      const nightsOf = (x) => Math.round((Date.parse(x.end + "T00:00:00Z") - Date.parse(x.start + "T00:00:00Z")) / 86400000);
      selected.clear();
      anchor = null;
      paint();
      const remove = el("button", { type: "button", id: "plan-remove-block", on: { click: async () => {
        try {
          await call("DELETE", "/properties/" + prop.id + "/blocks/" + blockID);
        } catch {
          return;
        }
        await views.planning.reload();
        say(T.blockRemoved);
      } } }, T.removeBlock);
      offer.dataset.block = String(blockID);
      offer.replaceChildren(el("span", { id: "plan-block-what" }, b ? fill(T.blockOf, { u: whose, n: nightsOf(b), from: fmt(b.start), to: fmt(b.end) }) : T.ownerBlock),
        remove, el("button", { type: "button", id: "plan-keep-block", on: { click: () => { offer.hidden = true; } } }, T.keepBlock));
      offer.hidden = false;
      remove.focus();
    };
    const price = el("input", { id: "plan-price", type: "number", min: "0", step: "0.01", inputmode: "decimal", "aria-label": T.price, placeholder: T.price });
    const minStay = el("input", { id: "plan-min-stay", type: "number", min: "0", step: "1", "aria-label": T.minStayAction, placeholder: T.minStayAction });
    const act = (id, label, change) => el("button", { type: "button", id, on: { click: () => apply(change()).catch(() => {}) } }, label);
    const count = el("p", { id: "plan-count", "aria-live": "polite" });
    const scope = el("strong", { id: "plan-scope" });
    // The actions of a property's row alone: a unit's row blocks and
    // unblocks.
    const propertyOnly = [
      el("span", { class: "bar" }, price, act("plan-set-price", T.priceAction, () => (price.value === "" ? { clear_price: true } : { price: price.value }))),
      el("span", { class: "bar" }, minStay, act("plan-set-min-stay", T.minStayAction, () => ({ min_stay_nights: Number(minStay.value || 0) }))),
      act("plan-close-arrival", T.closeArrival, () => ({ closed_to_arrival: true })),
      act("plan-close-departure", T.closeDeparture, () => ({ closed_to_departure: true })),
      act("plan-reopen", T.reopen, () => ({ closed_to_arrival: false, closed_to_departure: false })),
    ];
    const bar = el("div", { class: "bar plan-actions", id: "plan-actions", hidden: true }, scope,
      act("plan-block", T.blockAction, () => ({ closed: true })),
      act("plan-unblock", T.unblockAction, () => ({ closed: false })),
      propertyOnly,
      el("button", { type: "button", id: "plan-clear", on: { click: () => { selected.clear(); anchor = null; paint(); } } }, T.clearSelection));
    const offer = el("div", { class: "bar plan-actions", id: "plan-block-offer", role: "group", "aria-label": T.ownerBlock, hidden: true });
    const move = (id, label, days) => el("button", { type: "button", id, on: { click: () => { state.from = days === null ? todayISO() : addDays(state.from, days); views.planning.reload(); } } }, label);
    main.append(el("h2", {}, T.planning),
      el("div", { class: "bar" }, move("plan-earlier", T.earlier, -14), move("plan-today", T.fromToday, null), move("plan-later", T.later, 14)),
      el("div", { class: "planning-scroll" }, grid), count, bar, offer);
    paint();
  };
  // reload draws the planning again in place (after an action).
  views.planning.reload = async () => {
    main.replaceChildren();
    await views.planning();
  };
});
