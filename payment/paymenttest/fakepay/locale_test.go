package fakepay

import (
	"net/http"
	"testing"
)

func TestRequestLocale(t *testing.T) {
	tests := []struct{ query, accept, want string }{
		{"", "", "en"},
		{"?locale=fr", "en", "fr"},
		{"?locale=de", "fr-CA,fr;q=0.9", "fr"},
		{"", "de-DE, en;q=0.5", "en"},
		{"", "fr;q=0, en;q=0.8", "en"},
		{"", "FR-be;q=0.7", "fr"},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("POST", "/fakepay/intents/x"+tt.query, nil)
		r.Header.Set("Accept-Language", tt.accept)
		if got := requestLocale(r); got != tt.want {
			t.Errorf("requestLocale(%q, %q) = %q, want %q", tt.query, tt.accept, got, tt.want)
		}
	}
}
