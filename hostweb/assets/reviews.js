// The guests' reviews in the dashboard (issue #28): every review, newest
// first, with its stay; the host publishes one on its property (the
// public API shows it, with the guest's first name and the month of the
// stay) or withdraws it. Loaded before app.js.
"use strict";

(window.staykitHostPages = window.staykitHostPages || []).push(function ({ views, T, lang, el, call, say, show, shown, table, loadProperties, main }) {
  Object.assign(T, {
    fr: {
      reviews: "Avis", reviewsHint: "Les avis des voyageurs, du plus récent au plus ancien. Un avis publié s'affiche sur la page du logement avec le prénom du voyageur et le mois du séjour.",
      reviewsNone: "Aucun avis pour le moment : les voyageurs peuvent en laisser un une fois leur séjour terminé.",
      reviewProperty: "Logement", reviewStay: "Séjour", reviewRating: "Note", reviewAuthor: "Voyageur", reviewComment: "Commentaire",
      reviewState: "Publication", reviewPublished: "Publié", reviewHidden: "Non publié",
      publish: "Publier", unpublish: "Retirer", reviewDone: "Avis publié.", reviewWithdrawn: "Avis retiré.",
    },
    en: {
      reviews: "Reviews", reviewsHint: "The guests' reviews, newest first. A published review shows on the property's page with the guest's first name and the month of the stay.",
      reviewsNone: "No review yet: guests can leave one once their stay is over.",
      reviewProperty: "Property", reviewStay: "Stay", reviewRating: "Rating", reviewAuthor: "Guest", reviewComment: "Comment",
      reviewState: "Publication", reviewPublished: "Published", reviewHidden: "Not published",
      publish: "Publish", unpublish: "Withdraw", reviewDone: "Review published.", reviewWithdrawn: "Review withdrawn.",
    },
  }[lang]);

  const day = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
  const date = (iso) => day.format(new Date(iso + "T00:00:00Z"));

  views.reviews = async function () {
    const [page, props] = await Promise.all([call("GET", "/reviews?limit=100"), loadProperties()]);
    if (shown() !== "reviews") return;
    const name = (id) => (props.find((p) => p.id === id) || { name: "#" + id }).name;
    main.append(el("h2", {}, T.reviews), el("p", { class: "hint" }, T.reviewsHint));
    if (!page.items.length) {
      main.append(el("p", { id: "reviews-none" }, T.reviewsNone));
      return;
    }
    const rows = page.items.map((r) => {
      const published = r.published_at !== null;
      const toggle = el("button", { type: "button", class: published ? "unpublish" : "publish", on: { click: async () => {
        toggle.disabled = true;
        try {
          await call("POST", "/reviews/" + r.id + (published ? "/unpublish" : "/publish"));
        } finally {
          toggle.disabled = false;
        }
        await show("reviews");
        say(published ? T.reviewWithdrawn : T.reviewDone);
      } } }, published ? T.unpublish : T.publish);
      return el("tr", { "data-id": r.id, "data-published": String(published) },
        el("td", {}, name(r.property_id)),
        el("td", {}, el("a", { href: "#bookings/" + r.booking_id }, date(r.check_in) + " → " + date(r.check_out))),
        el("td", { class: "rating", "aria-label": r.rating + "/5" }, "★".repeat(r.rating) + "☆".repeat(5 - r.rating)),
        el("td", {}, r.author),
        el("td", { class: "comment" }, r.comment || "—"),
        el("td", {}, published ? T.reviewPublished : T.reviewHidden),
        el("td", { class: "actions" }, toggle));
    });
    main.append(table([T.reviewProperty, T.reviewStay, T.reviewRating, T.reviewAuthor, T.reviewComment, T.reviewState, ""], rows));
  };
});
