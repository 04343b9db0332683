package bookingpage

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestBuildWidget(t *testing.T) {
	script, err := buildWidget(Files(), "pk_test_123")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), `"server":{"payments":"stripe","stripe_publishable_key":"pk_test_123"}`) {
		t.Error("with a Stripe key the widget does not pay with Stripe")
	}

	page := func(html, css string) fs.FS {
		files := fstest.MapFS{"index.html": {Data: []byte(html)}, "style.css": {Data: []byte(css)}}
		for _, name := range []string{"staykit-client.js", "app.js", "widget-element.js"} {
			files[name] = &fstest.MapFile{Data: []byte("//")}
		}
		return files
	}
	for _, tc := range []struct {
		name, html, css, want string
	}{
		{"no body", "<html></html>", ":root {}\nbody {}", "<body>"},
		{"no root rule", "<body></body>", "\nbody {}", ":root"},
		{"no body rule", "<body></body>", ":root {}", "body {"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildWidget(page(tc.html, tc.css), "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("buildWidget = %v, want an error naming %s", err, tc.want)
			}
		})
	}
	if _, err := buildWidget(page("<body><p>x</p></body>", ":root {}\nbody {}"), ""); err != nil {
		t.Errorf("buildWidget of a minimal page: %v", err)
	}
}
