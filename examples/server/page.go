package main

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"

	"github.com/staykit/staykit/booking"
)

// web holds the booking page: plain HTML, CSS and JavaScript, no build
// step, nothing loaded from a CDN.
//
//go:embed web
var web embed.FS

// pageHandler serves the booking page and its assets. The Content Security
// Policy allows scripts from this server only, plus Stripe.js (the one
// external script) when real payments are on.
func pageHandler(stripeMode bool) http.Handler {
	sub, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded tree always has web/
	}
	files := http.FileServerFS(sub)
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

// appConfigHandler lists the organisations whose public engine is on.
func appConfigHandler(store booking.CatalogStore, stripeKey string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		orgs, err := store.Organizations(r.Context())
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal", "message": "The configuration could not be read."})
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
		writeJSON(w, http.StatusOK, cfg)
	})
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1" || strings.HasPrefix(host, "127.")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
