// The dashboard's team: the organisation switcher (a user who belongs to
// several organisations picks one; /host/?org=SLUG, kept in a cookie),
// the Team page of an owner (members and their roles, invitations by
// e-mail: /team/... of the host API), and the Rota, the one page of a
// housekeeping member: arrivals, departures and the planning of the next
// two weeks without amounts or guest contact (GET /reports/movements,
// GET /planning). Loaded before app.js, which calls each registered page
// with its helpers and shows a member only the views of their role.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, say, show, table, main, todayISO, addDays }) {
  const body = document.body;
  const role = body.dataset.role || "owner";
  const orgs = JSON.parse(body.dataset.orgs || "[]");
  const W = {
    fr: {
      team: "Équipe", rota: "Planning ménage", switchOrg: "Établissement", members: "Membres", invitations: "Invitations",
      email: "Adresse e-mail", role: "Rôle", status: "Statut", expires: "Expire le", remove: "Retirer", revoke: "Révoquer",
      invite: "Inviter", invited: "Invitation envoyée.", notSent: "Invitation créée, mais l'e-mail n'a pas pu être envoyé : révoquez-la et réessayez plus tard.",
      confirmRemove: "Retirer ce membre de l'équipe ?", you: "(vous)",
      roles: { owner: "Propriétaire", manager: "Gestionnaire", housekeeping: "Ménage (lecture seule)" },
      rolesHelp: "Propriétaire : tout, dont l'équipe, les clés d'API et Stripe. Gestionnaire : tout sauf l'équipe, les clés d'API et Stripe. Ménage : arrivées, départs et planning, sans montants ni coordonnées des voyageurs.",
      ist: { pending: "en attente", accepted: "acceptée", revoked: "révoquée", expired: "expirée" },
      arrivals: "Arrivées (7 jours)", departures: "Départs (7 jours)", planning: "Séjours des 14 prochains jours", none: "Aucun.",
      guests: "voyageur(s)", closed: "fermé",
    },
    en: {
      team: "Team", rota: "Housekeeping", switchOrg: "Organisation", members: "Members", invitations: "Invitations",
      email: "E-mail address", role: "Role", status: "Status", expires: "Expires", remove: "Remove", revoke: "Revoke",
      invite: "Invite", invited: "Invitation sent.", notSent: "Invitation created, but the e-mail could not be sent: revoke it and try again later.",
      confirmRemove: "Remove this member from the team?", you: "(you)",
      roles: { owner: "Owner", manager: "Manager", housekeeping: "Housekeeping (read-only)" },
      rolesHelp: "Owner: everything, including the team, API keys and Stripe. Manager: everything but the team, API keys and Stripe. Housekeeping: arrivals, departures and the planning, without amounts or guest contact.",
      ist: { pending: "pending", accepted: "accepted", revoked: "revoked", expired: "expired" },
      arrivals: "Arrivals (7 days)", departures: "Departures (7 days)", planning: "Stays in the next 14 days", none: "None.",
      guests: "guest(s)", closed: "closed",
    },
  }[lang];
  T.team = W.team;
  T.rota = W.rota;

  const day = new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  const dayText = (s) => day.format(new Date(s + "T00:00:00Z"));
  const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });

  if (orgs.length > 1) {
    const sel = el("select", { id: "org-switch", "aria-label": W.switchOrg },
      orgs.map((o) => el("option", { value: o.slug, selected: o.slug === body.dataset.org }, o.name)));
    sel.addEventListener("change", () => { location.href = "/host/?org=" + encodeURIComponent(sel.value) + "&lang=" + lang; });
    document.getElementById("org-name").replaceWith(sel);
  }

  const roleSelect = (attrs, current) => el("select", attrs,
    ["owner", "manager", "housekeeping"].map((r) => el("option", { value: r, selected: r === current }, W.roles[r])));

  if (role === "owner") {
    views.team = async function () {
      const [members, invitations] = await Promise.all([call("GET", "/team/members"), call("GET", "/team/invitations")]);
      const memberRows = members.items.map((m) => {
        const sel = roleSelect({ class: "member-role", "aria-label": W.role }, m.role);
        sel.addEventListener("change", async () => {
          try { await call("PATCH", "/team/members/" + m.user_id, { role: sel.value }); say(T.saved); } catch { sel.value = m.role; }
        });
        return el("tr", { "data-id": m.user_id }, el("td", { class: "email" }, m.email, m.email === body.dataset.user ? " " + W.you : ""),
          el("td", {}, sel), el("td", { class: "actions" }, el("button", { type: "button", class: "remove", on: { click: async () => {
            if (!confirm(W.confirmRemove)) return;
            await call("DELETE", "/team/members/" + m.user_id);
            show("team");
          } } }, W.remove)));
      });
      const invRows = invitations.items.map((i) => el("tr", { "data-id": i.id }, el("td", { class: "email" }, i.email), el("td", {}, W.roles[i.role]),
        el("td", {}, el("span", { class: "badge ist-" + i.status }, W.ist[i.status])), el("td", {}, when.format(new Date(i.expires_at))),
        el("td", { class: "actions" }, i.status === "pending" ? el("button", { type: "button", class: "revoke", on: { click: async () => {
          await call("DELETE", "/team/invitations/" + i.id);
          show("team");
        } } }, W.revoke) : null)));
      const email = el("input", { id: "invite-email", type: "email", required: true, placeholder: W.email, autocomplete: "off" });
      const r = roleSelect({ id: "invite-role", "aria-label": W.role }, "housekeeping");
      main.append(el("h2", {}, W.team), el("p", { class: "help" }, W.rolesHelp),
        el("h3", {}, W.members), table([W.email, W.role, ""], memberRows),
        el("h3", {}, W.invitations),
        el("form", { class: "bar", id: "invite-form", on: { submit: async (ev) => {
          ev.preventDefault();
          const inv = await call("POST", "/team/invitations", { email: email.value.trim(), role: r.value });
          await show("team");
          say(inv.mail_sent ? W.invited : W.notSent, !inv.mail_sent);
        } } }, email, r, el("button", { type: "submit", id: "invite-send" }, W.invite)),
        invRows.length ? table([W.email, W.role, W.status, W.expires, ""], invRows) : null);
    };
  }

  if (role === "housekeeping") {
    views.rota = async function () {
      const from = todayISO();
      const [plan, moves] = await Promise.all([call("GET", "/planning?from=" + from + "&to=" + addDays(from, 14)), call("GET", "/reports/movements?days=7")]);
      const moveList = (id, list) => list.length
        ? el("ul", { id, class: "moves" }, list.map((s) => el("li", {}, el("strong", {}, dayText(s.date)), " · ", s.property_name, " · ", s.guest_name, " · ", s.guests, " ", W.guests)))
        : el("p", { id }, W.none);
      main.append(el("h2", {}, W.arrivals), moveList("rota-arrivals", moves.arrivals),
        el("h2", {}, W.departures), moveList("rota-departures", moves.departures),
        el("h2", {}, W.planning),
        ...plan.properties.map((p) => el("section", { class: "rota-property", "data-id": p.id }, el("h3", {}, p.name),
          p.stays.length || p.blocks.length ? el("ul", {},
            p.stays.map((s) => el("li", { class: "stay", "data-booking": s.booking_id }, dayText(s.check_in), " → ", dayText(s.check_out), " · ", s.guest_name, " · ", s.guests, " ", W.guests)),
            p.blocks.map((b) => el("li", { class: "block" }, dayText(b.start), " → ", dayText(b.end), " · ", W.closed))) : el("p", {}, W.none))));
    };
  }
});
