package hostapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestChangesSeenAtOnceByPublicAPI changes a price, a block and a coupon
// through the host API and sees each in the public API at once: on
// SQLite, and on two replicas over PostgreSQL (changes on one, reads on
// the other).
func TestChangesSeenAtOnceByPublicAPI(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, open(t, 2))
			const writer, reader = 0, 1
			soleil := e.props["soleil"]
			quote := fmt.Sprintf("/api/v1/book/villa/properties/%d/price?check_in=2026-07-01&check_out=2026-07-03&guests_count=2", soleil)
			before := e.do("villa", req{method: "GET", path: quote, replica: reader})
			want(t, before, http.StatusOK)
			if got := before.data(t)["accommodation"]; got != 200.0 {
				t.Fatalf("accommodation before = %v, want 200", got)
			}

			// A price.
			want(t, e.do("villa", req{method: "POST", replica: writer, path: hostPath("villa", fmt.Sprintf("/properties/%d/calendar", soleil)),
				body: map[string]any{"from": "2026-07-01", "to": "2026-07-03", "price": "175.50"}}), http.StatusOK)
			after := e.do("villa", req{method: "GET", path: quote, replica: reader})
			want(t, after, http.StatusOK)
			if got := after.data(t)["accommodation"]; got != 351.0 {
				t.Errorf("accommodation after the price change = %v, want 351", got)
			}

			// A block.
			avail := fmt.Sprintf("/api/v1/book/villa/properties/%d/availability?from=2026-08&months=1", soleil)
			if !strings.Contains(string(e.do("villa", req{method: "GET", path: avail, replica: reader}).body), `{"date":"2026-08-10","available":true`) {
				t.Fatal("2026-08-10 not available before the block")
			}
			want(t, e.do("villa", req{method: "POST", replica: writer, path: hostPath("villa", fmt.Sprintf("/properties/%d/blocks", soleil)),
				body: map[string]any{"start": "2026-08-09", "end": "2026-08-12", "reason": "family"}}), http.StatusCreated)
			if !strings.Contains(string(e.do("villa", req{method: "GET", path: avail, replica: reader}).body), `{"date":"2026-08-10","available":false`) {
				t.Error("2026-08-10 still available after the block")
			}

			// Closed and closed-to-arrival days, set on the calendar.
			want(t, e.do("villa", req{method: "POST", replica: writer, path: hostPath("villa", fmt.Sprintf("/properties/%d/calendar", soleil)),
				body: map[string]any{"from": "2026-08-20", "to": "2026-08-22", "closed": true}}), http.StatusOK)
			if !strings.Contains(string(e.do("villa", req{method: "GET", path: avail, replica: reader}).body), `{"date":"2026-08-21","available":false`) {
				t.Error("2026-08-21 still available after closing it on the calendar")
			}
			arrival := fmt.Sprintf("/api/v1/book/villa/properties/%d/price?check_in=2026-07-20&check_out=2026-07-23&guests_count=2", soleil)
			want(t, e.do("villa", req{method: "GET", path: arrival, replica: reader}), http.StatusOK)
			want(t, e.do("villa", req{method: "POST", replica: writer, path: hostPath("villa", fmt.Sprintf("/properties/%d/calendar", soleil)),
				body: map[string]any{"from": "2026-07-20", "to": "2026-07-21", "closed_to_arrival": true}}), http.StatusOK)
			if r := e.do("villa", req{method: "GET", path: arrival, replica: reader}); r.status == http.StatusOK {
				t.Errorf("a quote arriving on a day closed to arrival = %d %s, want refused", r.status, r.body)
			}

			// A coupon: created, then disabled.
			check := func() response {
				return e.do("villa", req{method: "POST", path: "/api/v1/book/villa/validate-coupon", replica: reader,
					body: map[string]any{"code": "fresh20", "property_id": soleil, "check_in": "2026-07-01", "check_out": "2026-07-03", "guests_count": 2}})
			}
			want(t, check(), http.StatusUnprocessableEntity, "coupon_not_found")
			c := e.do("villa", req{method: "POST", replica: writer, path: hostPath("villa", "/coupons"),
				body: map[string]any{"code": "FRESH20", "kind": "percent", "value": "20"}})
			want(t, c, http.StatusCreated)
			want(t, check(), http.StatusOK)
			want(t, e.do("villa", req{method: "POST", replica: writer, path: hostPath("villa", fmt.Sprintf("/coupons/%v/disable", c.data(t)["id"]))}), http.StatusOK)
			want(t, check(), http.StatusUnprocessableEntity, "coupon_inactive")
		})
	}
}
