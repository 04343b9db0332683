package hostapi_test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestUnitPricesThroughTheAPI: a host prices a unit on its own through
// the API (validated against the OpenAPI document); a guest's stay is
// then sold at the cheapest free unit's price and held on it, the next at
// the other's; clearing the prices gives the nights back to the property.
func TestUnitPricesThroughTheAPI(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		unitsPath := hostPath("villa", fmt.Sprintf("/properties/%d/units", soleil))
		num := func(v any) int64 { return int64(v.(float64)) }
		r := e.do("villa", req{method: "POST", path: unitsPath, body: map[string]any{"name": "Soleil B"}})
		want(t, r, http.StatusCreated)
		second := num(r.data(t)["id"])
		pricesPath := fmt.Sprintf("%s/%d/prices", unitsPath, second)

		r = e.do("villa", req{method: "POST", path: pricesPath, body: map[string]any{"from": "2026-06-10", "to": "2026-06-12", "price": "70.50"}})
		want(t, r, http.StatusOK)
		days := r.data(t)["days"].([]any)
		if len(days) != 2 || days[0].(map[string]any)["date"] != "2026-06-10" || days[1].(map[string]any)["price"] != "70.5" {
			t.Fatalf("prices set: %v", r.data(t))
		}
		r = e.do("villa", req{method: "GET", path: pricesPath + "?from=2026-06-01&to=2026-07-01"})
		want(t, r, http.StatusOK)
		if n := len(r.data(t)["days"].([]any)); n != 2 {
			t.Fatalf("GET prices lists %d nights, want 2: %v", n, r.data(t))
		}
		priced := func() map[int64]bool {
			t.Helper()
			r := e.do("villa", req{method: "GET", path: unitsPath})
			want(t, r, http.StatusOK)
			out := map[int64]bool{}
			for _, x := range r.data(t)["items"].([]any) {
				u := x.(map[string]any)
				out[num(u["id"])] = u["priced"].(bool)
			}
			return out
		}
		if p := priced(); !p[second] || len(p) != 2 {
			t.Fatalf("units' priced flags %v, want only unit %d priced", p, second)
		}

		for name, body := range map[string]map[string]any{
			"negative price":    {"from": "2026-06-10", "to": "2026-06-12", "price": "-1"},
			"zero price":        {"from": "2026-06-10", "to": "2026-06-12", "price": "0"},
			"price and clear":   {"from": "2026-06-10", "to": "2026-06-12", "price": "80", "clear_price": true},
			"neither":           {"from": "2026-06-10", "to": "2026-06-12"},
			"inverted range":    {"from": "2026-06-12", "to": "2026-06-10", "price": "80"},
			"more than a year":  {"from": "2026-06-10", "to": "2027-06-12", "price": "80"},
			"too many decimals": {"from": "2026-06-10", "to": "2026-06-12", "price": "80.1234567"},
			"a night at 1e308":  {"from": "2026-06-10", "to": "2026-06-12", "price": "1e308"},
			"an unknown field":  {"from": "2026-06-10", "to": "2026-06-12", "price": "80", "unit": 1},
			"no dates":          {"price": "80"},
		} {
			r := e.do("villa", req{method: "POST", path: pricesPath, body: body})
			if r.status != http.StatusUnprocessableEntity && r.status != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 422 or 400: %s", name, r.status, r.body)
			}
		}
		want(t, e.do("villa", req{method: "GET", path: pricesPath}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "POST", path: fmt.Sprintf("%s/%d/prices", unitsPath, second+1000),
			body: map[string]any{"from": "2026-06-10", "to": "2026-06-12", "price": "80"}}), http.StatusNotFound, "not_found")
		want(t, e.do("other", req{method: "POST", path: hostPath("other", fmt.Sprintf("/properties/%d/units/%d/prices", soleil, second)),
			body: map[string]any{"from": "2026-06-10", "to": "2026-06-12", "price": "80"}}), http.StatusNotFound, "not_found")
		// The refusals wrote nothing.
		r = e.do("villa", req{method: "GET", path: pricesPath + "?from=2026-06-01&to=2026-07-01"})
		if n := len(r.data(t)["days"].([]any)); n != 2 {
			t.Fatalf("after the refusals the unit has %d priced nights, want 2", n)
		}

		// The first stay of the nights goes to the cheap unit at its
		// price, the second to the first unit at the property's.
		stay := func(id int64) (unit int64, total string) {
			t.Helper()
			r := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d", id))})
			want(t, r, http.StatusOK)
			return num(r.data(t)["unit_id"]), fmt.Sprint(r.data(t)["total_amount"])
		}
		ua, ta := stay(e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12"))
		ub, tb := stay(e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12"))
		if ua != second || ub == second || ta == tb {
			t.Fatalf("stays on units %d at %s and %d at %s, want the first on unit %d, cheaper", ua, ta, ub, tb, second)
		}

		r = e.do("villa", req{method: "POST", path: pricesPath, body: map[string]any{"from": "2026-06-01", "to": "2026-07-01", "clear_price": true}})
		want(t, r, http.StatusOK)
		if n := len(r.data(t)["days"].([]any)); n != 0 {
			t.Fatalf("after clearing, %d priced nights are left", n)
		}
		if p := priced(); p[second] {
			t.Fatalf("unit %d still priced after its prices were cleared", second)
		}
	})
}
