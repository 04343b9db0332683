// Units and linked listings (issue #27). On the property page: its
// identical units (add, rename, retire, and their own nightly prices) and
// its links (the parts a whole is made of, or the whole a part belongs
// to). On the booking page: the
// unit the stay holds, and a move to another free unit. Loaded before
// app.js, which adds the sections to the pages.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ T, lang, el, call, say, loadProperties, propertySections, bookingSections, todayISO, addDays }) {
  Object.assign(T, {
    fr: {
      unitsTitle: "Lots", unitsHint: "Des lots identiques vendus séparément : autant de séjours peuvent partager une nuit. Chaque séjour occupe un lot, choisi à la réservation.",
      unitName: "Nom du lot", addUnit: "Ajouter un lot", rename: "Renommer", retire: "Retirer", retired: "retiré",
      linksTitle: "Logements liés", linksHint: "Un logement loué entier (la villa) est fait d'autres logements (ses chambres) : réserver l'un bloque les autres pour ces nuits.",
      partOf: "Partie de : {p}", partsOf: "Parties : ", addPart: "Ajouter une partie", unlink: "Délier", noLinks: "Aucun lien.",
      unitTitle: "Lot", moveTo: "Déplacer vers", move: "Déplacer", moved: "Réservation déplacée.",
      taken: "occupé", moveUnavailable: "{u} n'est pas libre pour ce séjour (un autre séjour, un blocage ou les jours de préparation) : la réservation reste sur {c}. Choisissez un autre lot.",
      unitPrices: "Prix propres", unitPricesHint: "Les nuits où ce lot a son propre prix ; les autres suivent le prix du logement. Un voyageur paie le lot libre le moins cher.",
      priceFrom: "Du", priceTo: "au (exclu)", nightPrice: "Prix par nuit", setPrice: "Fixer le prix", clearPrice: "Revenir au prix du logement",
      noUnitPrices: "Aucun prix propre dans l'année.", ownPrices: "prix propres", nightsOf: "{n} nuit(s)",
    },
    en: {
      unitsTitle: "Units", unitsHint: "Identical units sold apart: as many stays can share a night. Each stay holds one unit, chosen at booking.",
      unitName: "Unit name", addUnit: "Add a unit", rename: "Rename", retire: "Retire", retired: "retired",
      linksTitle: "Linked listings", linksHint: "A property let whole (the villa) is made of others (its rooms): booking one blocks the others for those nights.",
      partOf: "Part of: {p}", partsOf: "Parts: ", addPart: "Add a part", unlink: "Unlink", noLinks: "No link.",
      unitTitle: "Unit", moveTo: "Move to", move: "Move", moved: "Booking moved.",
      taken: "taken", moveUnavailable: "{u} is not free for this stay (another stay, a block or the preparation days): the booking stays on {c}. Choose another unit.",
      unitPrices: "Own prices", unitPricesHint: "The nights this unit has a price of its own; the others follow the property's price. A guest pays the cheapest free unit.",
      priceFrom: "From", priceTo: "to (excluded)", nightPrice: "Price a night", setPrice: "Set the price", clearPrice: "Back to the property's price",
      noUnitPrices: "No price of its own this year.", ownPrices: "own prices", nightsOf: "{n} night(s)",
    },
  }[lang]);
  const fill = (s, params) => s.replace(/\{(\w+)\}/g, (_, k) => params[k]);

  propertySections.push(function (p) {
    const box = el("fieldset", { id: "units" }, el("legend", {}, T.unitsTitle));
    const linkBox = el("fieldset", { id: "links" }, el("legend", {}, T.linksTitle));
    // Buttons of the sections act at once (type button): the property's
    // form saves the rest.
    const act = (id, label, fn) => el("button", { type: "button", id, on: { click: () => fn().catch(() => {}) } }, label);
    async function drawUnits() {
      const units = (await call("GET", "/properties/" + p.id + "/units")).items;
      const rows = units.map((u) => {
        const name = el("input", { id: "unit-name-" + u.id, value: u.name, maxlength: "100", "aria-label": T.unitName, disabled: !u.active });
        return el("li", { class: "unit", "data-unit": u.id, "data-active": String(u.active), "data-priced": String(u.priced) }, name, " ",
          u.active ? [act("unit-rename-" + u.id, T.rename, async () => {
            await call("PATCH", "/properties/" + p.id + "/units/" + u.id, { name: name.value });
            await drawUnits();
            say(T.saved);
          }), " ", act("unit-retire-" + u.id, T.retire, async () => {
            await call("POST", "/properties/" + p.id + "/units/" + u.id + "/retire");
            await drawUnits();
            say(T.saved);
          }), ...(u.priced ? [" ", el("small", { class: "tag" }, T.ownPrices)] : []), unitPrices(u)] : el("small", {}, "(" + T.retired + ")"));
      });
      const added = el("input", { id: "unit-new", maxlength: "100", placeholder: T.unitName, "aria-label": T.unitName });
      box.replaceChildren(el("legend", {}, T.unitsTitle), el("p", { class: "hint" }, T.unitsHint),
        el("ul", { class: "units" }, rows),
        el("p", { class: "bar" }, added, act("unit-add", T.addUnit, async () => {
          await call("POST", "/properties/" + p.id + "/units", { name: added.value });
          await drawUnits();
          say(T.saved);
        })));
    }
    // unitPrices is a unit's own nightly prices: those of the coming year,
    // nights of one price in a row shown as one range, and a form that
    // sets or clears a range's.
    // What the host entered in each unit's form outlives the redraws.
    const entered = new Map();
    function unitPrices(u) {
      const path = "/properties/" + p.id + "/units/" + u.id + "/prices";
      const list = el("ul", { class: "unit-prices", id: "unit-prices-" + u.id });
      const box = el("details", { class: "unit-price-box", id: "unit-price-box-" + u.id });
      const today = todayISO();
      const was = entered.get(u.id) || { from: today, to: addDays(today, 7), price: "" };
      const from = el("input", { type: "date", id: "unit-price-from-" + u.id, value: was.from, "aria-label": T.priceFrom });
      const to = el("input", { type: "date", id: "unit-price-to-" + u.id, value: was.to, "aria-label": T.priceTo });
      const price = el("input", { type: "text", inputmode: "decimal", id: "unit-price-" + u.id, size: "8", value: was.price, "aria-label": T.nightPrice, placeholder: T.nightPrice });
      async function drawPrices() {
        const res = await call("GET", path + "?from=" + today + "&to=" + addDays(today, 366));
        // Nights in a row at one price make one range [start, end).
        const ranges = [];
        for (const d of res.days) {
          const last = ranges[ranges.length - 1];
          if (last && last.end === d.date && last.price === d.price) last.end = addDays(d.date, 1);
          else ranges.push({ start: d.date, end: addDays(d.date, 1), price: d.price, nights: 0 });
          ranges[ranges.length - 1].nights++;
        }
        list.replaceChildren(...(ranges.length ? ranges.map((r) => el("li", { "data-start": r.start, "data-end": r.end, "data-price": r.price },
          r.start + " → " + r.end + " (" + fill(T.nightsOf, { n: r.nights }) + ") : " + r.price + " " + res.currency)) : [el("li", { class: "none" }, T.noUnitPrices)]));
      }
      const send = (body) => async () => {
        entered.set(u.id, { from: from.value, to: to.value, price: price.value });
        await call("POST", path, Object.assign({ from: from.value, to: to.value }, body()));
        await drawUnits();
        const again = document.getElementById("unit-price-box-" + u.id);
        if (again) again.open = true;
        say(T.saved);
      };
      box.addEventListener("toggle", () => { if (box.open) drawPrices().catch(() => {}); });
      box.append(el("summary", {}, T.unitPrices), el("p", { class: "hint" }, T.unitPricesHint), list,
        el("p", { class: "bar" }, el("label", {}, T.priceFrom, " ", from), " ", el("label", {}, T.priceTo, " ", to), " ", price, " ",
          act("unit-price-set-" + u.id, T.setPrice, send(() => ({ price: price.value.trim().replace(",", ".") }))), " ",
          act("unit-price-clear-" + u.id, T.clearPrice, send(() => ({ clear_price: true })))));
      return box;
    }
    async function drawLinks() {
      const [links, props] = await Promise.all([call("GET", "/links"), loadProperties()]);
      const name = (id) => (props.find((x) => x.id === id) || { name: "#" + id }).name;
      const whole = links.items.find((l) => l.part_id === p.id);
      const parts = links.items.filter((l) => l.whole_id === p.id);
      const nodes = [el("legend", {}, T.linksTitle), el("p", { class: "hint" }, T.linksHint)];
      const unlink = (part) => act("link-remove-" + part, T.unlink, async () => {
        await call("DELETE", "/links/" + part);
        await drawLinks();
        say(T.saved);
      });
      if (whole) nodes.push(el("p", { id: "link-whole" }, fill(T.partOf, { p: name(whole.whole_id) }), " ", unlink(p.id)));
      if (parts.length) {
        nodes.push(el("ul", { id: "link-parts" }, parts.map((l) => el("li", { "data-part": l.part_id }, name(l.part_id), " ", unlink(l.part_id)))));
      }
      if (!whole && !parts.length) nodes.push(el("p", {}, T.noLinks));
      if (!whole) {
        // A whole takes parts that are not linked yet.
        const linked = new Set(links.items.flatMap((l) => [l.whole_id, l.part_id]));
        const free = props.filter((x) => x.id !== p.id && !linked.has(x.id));
        if (free.length) {
          const pick = el("select", { id: "link-part", "aria-label": T.addPart }, free.map((x) => el("option", { value: x.id }, x.name)));
          nodes.push(el("p", { class: "bar" }, pick, act("link-add", T.addPart, async () => {
            await call("POST", "/links", { whole_id: p.id, part_id: Number(pick.value) });
            await drawLinks();
            say(T.saved);
          })));
        }
      }
      linkBox.replaceChildren(...nodes);
    }
    return {
      nodes: [box, linkBox],
      change: () => ({}),
      shown: () => { drawUnits().catch(() => {}); drawLinks().catch(() => {}); },
    };
  });

  bookingSections.push(function (b, reshow) {
    const box = el("section", { id: "booking-unit" });
    if (!b.unit_id) return box;
    // The units, and the stay's nights on each: a unit another stay, a
    // block or a channel holds then is said taken (the move decides, with
    // the preparation days); without the calendar, none is.
    Promise.all([call("GET", "/properties/" + b.property_id + "/units"),
      call("GET", "/properties/" + b.property_id + "/calendar?from=" + b.check_in + "&to=" + b.check_out, undefined, true).catch(() => ({ days: [] }))]).then(([res, cal]) => {
      const units = res.items;
      const taken = new Set();
      for (const d of cal.days) {
        for (const u of d.units || []) if ((u.booking_id && u.booking_id !== b.id) || u.block_id || u.feed_id) taken.add(u.unit_id);
      }
      const current = units.find((u) => u.id === b.unit_id);
      const currentName = current ? current.name : "#" + b.unit_id;
      const nodes = [el("h3", {}, T.unitTitle), el("p", { id: "bk-unit", "data-unit": b.unit_id }, currentName)];
      const others = units.filter((u) => u.active && u.id !== b.unit_id);
      if (others.length && ["pending", "requested", "confirmed"].includes(b.status)) {
        const pick = el("select", { id: "bk-move-unit", "aria-label": T.moveTo }, others.map((u) => el("option", { value: u.id, "data-taken": String(taken.has(u.id)) },
          u.name + (taken.has(u.id) ? " (" + T.taken + ")" : ""))));
        // The first free unit is offered first.
        const free = others.find((u) => !taken.has(u.id));
        if (free) pick.value = String(free.id);
        nodes.push(el("form", { class: "bar", id: "bk-move", on: { submit: async (ev) => {
          ev.preventDefault();
          let moved;
          try {
            moved = await call("POST", "/bookings/" + b.id + "/move", { unit_id: Number(pick.value) }, true);
          } catch (e) {
            // Not free: said with the unit's name; any other refusal as
            // the API says it.
            const chosen = units.find((u) => String(u.id) === pick.value);
            say(e.code === "unavailable" ? fill(T.moveUnavailable, { u: chosen ? chosen.name : "#" + pick.value, c: currentName }) : e.message, true);
            return;
          }
          b.unit_id = moved.unit_id;
          await reshow(Object.assign({}, b, moved, { payments: b.payments }));
          say(T.moved);
        } } }, el("label", {}, T.moveTo, " ", pick), el("button", { type: "submit", id: "bk-move-submit" }, T.move)));
      }
      box.replaceChildren(...nodes);
    }).catch(() => {});
    return box;
  });
});
