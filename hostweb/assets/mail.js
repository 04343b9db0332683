// The organisation's e-mail (issue #26): its own SMTP server in Settings
// (the password write-only: never shown, only whether one is saved), a
// test e-mail whose outcome is told in a sentence, the previews of the
// e-mails per kind and locale (rendered by the server, never sent, shown
// in a sandboxed frame), and the booking page's "send the e-mail again".
// Loaded before app.js, which runs it.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, role, T, lang, el, call, say, main, bookingSections }) {
  Object.assign(T, {
    fr: {
      smtpTitle: "Serveur d'envoi des e-mails (SMTP)",
      smtpHint: "Vide : les e-mails partent par le serveur de staykit. Renseigné : les e-mails de votre établissement (aux voyageurs et à vous) partent par votre serveur.",
      smtpHost: "Serveur", smtpPort: "Port", smtpTLS: "Sécurité", smtpUser: "Utilisateur", smtpPassword: "Mot de passe",
      smtpPasswordSaved: "enregistré — laisser vide pour le garder", smtpFrom: "Adresse d'expéditeur",
      smtpSave: "Enregistrer le SMTP", smtpDelete: "Revenir au serveur de staykit", smtpSaved: "Réglages SMTP enregistrés.",
      smtpDeleted: "Les e-mails partent de nouveau par le serveur de staykit.",
      smtpTestTo: "Envoyer un e-mail de test à", smtpTestHint: "Vide : votre adresse de contact.", smtpTest: "Envoyer un e-mail de test",
      smtpTesting: "Envoi en cours…", smtpStatusOwn: "Les e-mails partent par votre serveur.", smtpStatusServer: "Les e-mails partent par le serveur de staykit.",
      previewTitle: "Aperçu des e-mails", previewKind: "E-mail", previewLocale: "Langue", previewTo: "Destinataire",
      previewGuest: "voyageur", previewHost: "vous (l'hôte)", preview: "Afficher l'aperçu", previewSubject: "Objet",
      previewText: "Version texte", previewSample: "Réservation fictive : l'aperçu d'une vraie réservation est sur sa page.",
      resendTitle: "E-mail au voyageur", resend: "Renvoyer le dernier e-mail au voyageur", resent: "E-mail renvoyé au voyageur : ",
    },
    en: {
      smtpTitle: "Server sending the e-mails (SMTP)",
      smtpHint: "Empty: e-mails leave through staykit's server. Filled in: your organisation's e-mails (to guests and to you) leave through your server.",
      smtpHost: "Server", smtpPort: "Port", smtpTLS: "Security", smtpUser: "User", smtpPassword: "Password",
      smtpPasswordSaved: "saved — leave empty to keep it", smtpFrom: "Sender address",
      smtpSave: "Save SMTP", smtpDelete: "Go back to staykit's server", smtpSaved: "SMTP settings saved.",
      smtpDeleted: "E-mails leave through staykit's server again.",
      smtpTestTo: "Send a test e-mail to", smtpTestHint: "Empty: your contact address.", smtpTest: "Send a test e-mail",
      smtpTesting: "Sending…", smtpStatusOwn: "E-mails leave through your server.", smtpStatusServer: "E-mails leave through staykit's server.",
      previewTitle: "E-mail previews", previewKind: "E-mail", previewLocale: "Language", previewTo: "Recipient",
      previewGuest: "guest", previewHost: "you (the host)", preview: "Show the preview", previewSubject: "Subject",
      previewText: "Text version", previewSample: "A sample booking: a real booking's preview is on its page.",
      resendTitle: "E-mail to the guest", resend: "Send the guest's last e-mail again", resent: "E-mail sent to the guest again: ",
    },
  }[lang]);

  // The kinds of e-mail, in the order of a stay; the host-only ones last.
  const kinds = ["booking.requested", "booking.confirmed", "booking.declined", "booking.expired", "booking.reminder",
    "balance.action_required", "balance.paid", "booking.cancelled", "payment.refunded", "deposit.claimed",
    "payment.failed", "payment.disputed", "calendar.conflict"];
  const hostOnly = ["payment.failed", "payment.disputed", "calendar.conflict"];
  const label = (text, input) => el("label", {}, text, " ", input);

  async function smtpSection() {
    const box = el("section", { id: "smtp" }, el("h3", {}, T.smtpTitle));
    let s;
    try {
      s = await call("GET", "/settings/smtp", undefined, true);
    } catch (e) {
      // 503 not_configured: the server has no secrets key; say why.
      box.append(el("p", { class: "hint", id: "smtp-unavailable" }, e.message));
      return box;
    }
    const f = {
      host: el("input", { id: "smtp-host", value: s.host, autocomplete: "off", spellcheck: "false", placeholder: "smtp.example.com" }),
      port: el("input", { id: "smtp-port", type: "number", min: "1", max: "65535", value: s.configured ? s.port : "", placeholder: "587" }),
      tls: el("select", { id: "smtp-tls" }, ["starttls", "tls", "none"].map((m) => el("option", { value: m, selected: s.tls === m }, m))),
      user: el("input", { id: "smtp-user", value: s.username, autocomplete: "off", spellcheck: "false" }),
      password: el("input", { id: "smtp-password", type: "password", autocomplete: "new-password", placeholder: s.password_set ? T.smtpPasswordSaved : "" }),
      from: el("input", { id: "smtp-from", value: s.from, autocomplete: "off", placeholder: "Villa <bonjour@example.com>" }),
      to: el("input", { id: "smtp-test-to", type: "email", autocomplete: "email" }),
    };
    const status = el("p", { id: "smtp-status", class: "hint" }, s.configured ? T.smtpStatusOwn : T.smtpStatusServer);
    const result = el("p", { id: "smtp-test-result", role: "status", hidden: true });
    const form = el("form", { class: "stack", id: "smtp-form", on: { submit: async (ev) => {
      ev.preventDefault();
      const body = { host: f.host.value.trim(), port: Number(f.port.value) || 0, tls: f.tls.value, username: f.user.value.trim(), from: f.from.value.trim() };
      // Sent only when typed: an empty field keeps the saved password.
      if (f.password.value !== "") body.password = f.password.value;
      await call("PUT", "/settings/smtp", body);
      say(T.smtpSaved);
      box.replaceWith(await smtpSection());
    } } },
    el("p", { class: "hint" }, T.smtpHint), status,
    label(T.smtpHost, f.host), label(T.smtpPort, f.port), label(T.smtpTLS, f.tls), label(T.smtpUser, f.user),
    label(T.smtpPassword, f.password), label(T.smtpFrom, f.from),
    el("button", { type: "submit", id: "smtp-save" }, T.smtpSave));
    const test = el("button", { type: "button", id: "smtp-test", disabled: !s.configured, on: { click: async () => {
      test.disabled = true;
      result.hidden = false;
      result.className = "";
      result.textContent = T.smtpTesting;
      try {
        const r = await call("POST", "/settings/smtp/test", f.to.value.trim() ? { to: f.to.value.trim() } : {});
        result.className = r.ok ? "ok" : "error";
        result.textContent = r.message + (r.detail ? " (" + r.detail + ")" : "");
      } catch (e) {
        result.className = "error";
        result.textContent = e.message;
      } finally {
        test.disabled = false;
      }
    } } }, T.smtpTest);
    box.append(form, el("div", { class: "stack" }, label(T.smtpTestTo, f.to), el("p", { class: "hint" }, T.smtpTestHint), test, result));
    if (s.configured) {
      box.append(el("button", { type: "button", id: "smtp-delete", class: "cancel", on: { click: async () => {
        await call("DELETE", "/settings/smtp");
        say(T.smtpDeleted);
        box.replaceWith(await smtpSection());
      } } }, T.smtpDelete));
    }
    return box;
  }

  // previewSection shows an e-mail rendered by the server in a sandboxed
  // frame: no script runs in it, it cannot navigate the dashboard, submit
  // forms nor open windows (sandbox="allow-same-origin" alone, so that
  // this page can style it). The frame inherits the dashboard's CSP, which
  // refuses style attributes: the e-mail's are moved aside before it is
  // parsed (data-mail-style) and applied through the CSSOM once loaded,
  // which the CSP allows. The frame itself is sized through the CSSOM too.
  // mailDocument renames the style attributes of the e-mail's HTML before
  // anything parses it (a quote inside an attribute or a text is escaped
  // by the server's templates, so a literal style=" is an attribute).
  function mailDocument(html) {
    return html.replace(/(\s)style=(["'])/gi, "$1data-mail-style=$2");
  }
  function styleMail(frame) {
    const doc = frame.contentDocument;
    if (!doc) return;
    for (const node of doc.querySelectorAll("[data-mail-style]")) node.style.cssText = node.getAttribute("data-mail-style");
  }
  function previewSection(bookingID) {
    const kind = el("select", { id: "mail-kind" }, kinds.map((k) => el("option", { value: k, selected: k === "booking.confirmed" }, k)));
    const locale = el("select", { id: "mail-locale" }, ["fr", "en"].map((l) => el("option", { value: l, selected: l === lang }, l)));
    const to = el("select", { id: "mail-to" }, [["guest", T.previewGuest], ["host", T.previewHost]].map(([v, l]) => el("option", { value: v }, l)));
    const subject = el("p", { id: "mail-subject" });
    const frame = el("iframe", { id: "mail-frame", sandbox: "allow-same-origin", title: T.previewTitle, referrerpolicy: "no-referrer",
      on: { load: () => styleMail(frame) } });
    Object.assign(frame.style, { width: "100%", height: "28rem", border: "1px solid #d0d7de", borderRadius: "6px", background: "#fff" });
    const text = el("pre", { id: "mail-text" });
    Object.assign(text.style, { whiteSpace: "pre-wrap", overflowWrap: "anywhere" });
    const out = el("div", { id: "mail-preview", hidden: true }, subject, frame, el("details", {}, el("summary", {}, T.previewText), text));
    const sync = () => { if (hostOnly.includes(kind.value)) to.value = "host"; };
    kind.addEventListener("change", sync);
    const go = el("button", { type: "button", id: "mail-preview-show", on: { click: async () => {
      sync();
      const q = new URLSearchParams({ kind: kind.value, locale: locale.value, to: to.value });
      if (bookingID) q.set("booking_id", String(bookingID));
      const p = await call("GET", "/mail-templates/preview?" + q);
      subject.replaceChildren(el("strong", {}, T.previewSubject + ": "), p.subject);
      frame.srcdoc = mailDocument(p.html);
      text.textContent = p.text;
      out.hidden = false;
    } } }, T.preview);
    return el("section", { id: "mail-previews" }, el("h3", {}, T.previewTitle),
      bookingID ? null : el("p", { class: "hint" }, T.previewSample),
      el("div", { class: "stack" }, label(T.previewKind, kind), label(T.previewLocale, locale), label(T.previewTo, to), go), out);
  }

  const settings = views.settings;
  views.settings = async function () {
    await settings();
    // The SMTP server's credentials are the owner's, as the API keys.
    if (role === "owner") main.append(await smtpSection());
    main.append(previewSection(0));
  };

  bookingSections.push(function (b) {
    const button = el("button", { type: "button", id: "resend-email", on: { click: async () => {
      button.disabled = true;
      try {
        const d = await call("POST", "/bookings/" + b.id + "/resend-email");
        say(T.resent + d.event_type);
      } catch (e) {
        // call said why (409: nothing sent yet, or the guest erased).
      } finally {
        button.disabled = false;
      }
    } } }, T.resend);
    return el("section", { id: "booking-mail" }, el("h3", {}, T.resendTitle), button, previewSection(b.id));
  });
});
