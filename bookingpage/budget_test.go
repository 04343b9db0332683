package bookingpage_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/staykit/staykit/bookingpage"
)

// TestWidgetWithinBudget: /widget.js as served (fake payments or
// Stripe) stays under WidgetGzipBudget once gzipped at the default level,
// what a compressing proxy sends; the figures are logged for the README.
func TestWidgetWithinBudget(t *testing.T) {
	for _, tc := range []struct {
		name, stripeKey string
	}{
		{"fake payments", ""},
		{"stripe", "pk_test_51AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			bookingpage.Widget(tc.stripeKey).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/widget.js", nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("GET /widget.js: %d", rec.Code)
			}
			script, _ := io.ReadAll(rec.Body)
			var zipped bytes.Buffer
			zw := gzip.NewWriter(&zipped)
			if _, err := zw.Write(script); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			t.Logf("widget.js: %d bytes, %d gzipped (budget %d)", len(script), zipped.Len(), bookingpage.WidgetGzipBudget)
			if len(script) < 10_000 {
				t.Fatalf("widget.js is %d bytes: not the whole script", len(script))
			}
			if zipped.Len() > bookingpage.WidgetGzipBudget {
				t.Errorf("widget.js is %d bytes gzipped, over its budget of %d: make it smaller, or raise bookingpage.WidgetGzipBudget on purpose",
					zipped.Len(), bookingpage.WidgetGzipBudget)
			}
		})
	}
}
