package main

import (
	"net/http"
	"testing"
)

// TestNoRateLimitsFlag: the 11th checkout of a minute from one address is
// refused by default, and accepted with -no-rate-limits, the flag the load
// harness (examples/loadtest) starts the server with.
func TestNoRateLimitsFlag(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantStatus int
	}{
		{name: "default limits", wantStatus: http.StatusTooManyRequests},
		{name: "no-rate-limits", args: []string{"-no-rate-limits"}, wantStatus: http.StatusCreated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil, tt.args...)
			for i := range 10 {
				checkout(t, ts, "demo", 1, 20+2*i, 2, 2)
			}
			in, out := stayDates(60, 2)
			r := call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/checkout", map[string]any{
				"property_id": 1, "check_in": in, "check_out": out, "guests_count": 2,
				"guest_name": "Ada Lovelace", "guest_email": "ada@example.com", "guest_phone": "+33612345678",
			}, nil)
			if r.Status != tt.wantStatus {
				t.Errorf("11th checkout: status %d, want %d: %s", r.Status, tt.wantStatus, r.Raw)
			}
		})
	}
}
