// Package bookingpage is the guest's booking page of the reference
// server and its embeddable widget, built from the same files: plain
// HTML, CSS and JavaScript (the flow in web/app.js over the API client
// web/staykit-client.js, built from clients/js), no build step, nothing
// loaded from a CDN. A host without its own site mounts Handler at /,
// AppConfig at /app-config.json (the page reads it first) and Widget at
// /widget.js, beside the public API (package httpapi) at /api/.
package bookingpage

import (
	"context"
	"embed"
	"io/fs"
	"net/http"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/httpserve"
)

// web holds the booking page.
//
//go:embed web
var web embed.FS

// Files are the booking page's files: index.html, app.js, style.css,
// staykit-client.js, widget-element.js, terms.js, review.js,
// conversation.js, conversation.css, datechange.js and img/.
func Files() fs.FS {
	sub, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded tree always has web/
	}
	return sub
}

// Handler serves the booking page and its assets (GET and HEAD). The
// Content Security Policy allows scripts from this server only, plus
// Stripe.js (the one external script) when stripeMode says real payments
// are on.
func Handler(stripeMode bool) http.Handler {
	files := http.FileServerFS(Files())
	csp := "default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'"
	if stripeMode {
		csp = "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; " +
			"script-src 'self' https://js.stripe.com; connect-src 'self' https://api.stripe.com; " +
			"frame-src https://js.stripe.com https://hooks.stripe.com; frame-ancestors 'self'; base-uri 'none'; form-action 'self'"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		// The page's URL may hold a booking token: never send it on.
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// appConfig is /app-config.json: what the booking page needs to know about
// this server before it calls the API.
type appConfig struct {
	// Payments is "fake" (pay with test cards through /fakepay) or
	// "stripe" (Stripe's Payment Element).
	Payments string `json:"payments"`
	// StripePublishableKey is set in Stripe mode.
	StripePublishableKey string       `json:"stripe_publishable_key,omitempty"`
	APIBase              string       `json:"api_base"`
	Organizations        []appOrgView `json:"organizations"`
}

type appOrgView struct {
	Slug          string `json:"slug"`
	Name          string `json:"name"`
	DefaultLocale string `json:"default_locale"`
	PaymentMode   string `json:"payment_mode"`
}

// AppConfig serves /app-config.json, what the page needs to know before
// it calls the API: the payments ("fake", or "stripe" with stripeKey, the
// publishable key, when it is set) and the organisations of store whose
// public engine is on.
func AppConfig(store OrganizationLister, stripeKey string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		orgs, err := store.Organizations(r.Context())
		if err != nil {
			httpserve.WriteJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal", "message": "The configuration could not be read."})
			return
		}
		cfg := appConfig{Payments: "fake", APIBase: "/api/v1", Organizations: []appOrgView{}}
		if stripeKey != "" {
			cfg.Payments, cfg.StripePublishableKey = "stripe", stripeKey
		}
		for _, o := range orgs {
			if o.PublicEngineEnabled {
				cfg.Organizations = append(cfg.Organizations, appOrgView{
					Slug: o.Slug, Name: o.Name, DefaultLocale: o.DefaultLocale, PaymentMode: string(o.PaymentMode),
				})
			}
		}
		httpserve.WriteJSON(w, http.StatusOK, cfg)
	})
}

// OrganizationLister is the one store method AppConfig uses.
type OrganizationLister interface {
	Organizations(ctx context.Context) ([]booking.Organization, error)
}
