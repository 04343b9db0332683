package bookingpage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"time"
)

// The booking widget is /widget.js: one script a web developer pastes into
// any page of an allowed origin, with the element that shows it:
//
//	<script src="https://book.example.com/widget.js" defer></script>
//	<staykit-booking org="demo" locale="fr"></staykit-booking>
//
// It is built from the booking page's own files, so the two never differ:
// the API client (web/staykit-client.js, built from clients/js), the flow
// (web/app.js), index.html's body as the markup, style.css as the
// stylesheet (its :root and body rules moved to the shadow root's host and
// frame), and the element (web/widget-element.js).

// widgetServer is what the widget knows of this server before it calls the
// API: the same as /app-config.json's payment fields.
type widgetServer struct {
	Payments             string `json:"payments"`
	StripePublishableKey string `json:"stripe_publishable_key,omitempty"`
}

// widgetCSSExtra fits the booking page's stylesheet to a box in someone
// else's page: no inherited font or colour from the host page, no full
// viewport height, no bar sticking to the top of the host's window.
const widgetCSSExtra = `
/* The widget: a box in the host page. */
.sk-root { min-height: 0; border-radius: var(--radius); }
.topbar { position: static; border-radius: var(--radius) var(--radius) 0 0; }
`

// buildWidget assembles /widget.js from the embedded page files.
func buildWidget(files fs.FS, stripeKey string) ([]byte, error) {
	read := func(name string) (string, error) {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return "", fmt.Errorf("widget: %w", err)
		}
		return string(b), nil
	}
	page, err := read("index.html")
	if err != nil {
		return nil, err
	}
	_, afterBody, ok1 := strings.Cut(page, "<body>")
	markup, _, ok2 := strings.Cut(afterBody, "</body>")
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("widget: index.html has no <body>…</body>")
	}
	css, err := read("style.css")
	if err != nil {
		return nil, err
	}
	// The page's root rules become the shadow host's (an all: initial
	// first, so that nothing inherits from the host page) and its body's
	// the frame's.
	for _, r := range []struct{ old, new string }{{":root {", ":host {"}, {"\nbody {", "\n.sk-root {"}} {
		if !strings.Contains(css, r.old) {
			return nil, fmt.Errorf("widget: style.css has no %q rule", r.old)
		}
		css = strings.Replace(css, r.old, r.new, 1)
	}
	css = ":host { all: initial; display: block; }\n" + css + widgetCSSExtra

	server := widgetServer{Payments: "fake"}
	if stripeKey != "" {
		server = widgetServer{Payments: "stripe", StripePublishableKey: stripeKey}
	}
	conf, err := json.Marshal(map[string]any{"server": server, "html": strings.TrimSpace(markup), "css": css})
	if err != nil {
		return nil, fmt.Errorf("widget: %w", err)
	}

	var b bytes.Buffer
	b.WriteString("// staykit booking widget: <staykit-booking org=\"…\" locale=\"fr|en\" property=\"…\" api=\"https://…\">.\n")
	b.WriteString("// Built by the reference server from its booking page (bookingpage/widget.go).\n")
	b.WriteString("(function () {\n'use strict';\nconst STAYKIT_WIDGET = ")
	b.Write(conf)
	b.WriteString(";\n// The API is where this script came from, unless the element says otherwise.\n")
	b.WriteString("STAYKIT_WIDGET.origin = (function () { try { return new URL(document.currentScript.src).origin; } catch (e) { return location.origin; } })();\n")
	for _, name := range []string{"staykit-client.js", "app.js", "widget-element.js"} {
		src, err := read(name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n// ---- %s\n%s\n", name, src)
	}
	b.WriteString("})();\n")
	return b.Bytes(), nil
}

// WidgetGzipBudget is the performance budget of /widget.js: its size
// gzipped (default level), in bytes, which a test keeps it under. It was
// 27,276 bytes (98,994 raw) when the budget was set; raise it only on
// purpose, in the same change as what needs it.
const WidgetGzipBudget = 32 << 10

// Widget serves /widget.js, which pays with Stripe when stripeKey (the
// publishable key) is set, else with fake payments. Any site may load it
// (it holds nothing secret); whether a site may book is the API's
// decision, by origin.
func Widget(stripeKey string) http.Handler {
	script, err := buildWidget(Files(), stripeKey)
	if err != nil {
		panic(err) // the embedded files are fixed at build time; a test builds them
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Cross-Origin-Resource-Policy", "cross-origin")
		http.ServeContent(w, r, "widget.js", time.Time{}, bytes.NewReader(script))
	})
}
