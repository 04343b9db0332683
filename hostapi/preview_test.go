package hostapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// TestPreviewPricesAChangeWithoutSavingIt: the rates editor's preview
// prices the nights and a sample stay under rates not saved, as the guest
// would be quoted, and saves nothing; bad input is refused field by field.
func TestPreviewPricesAChangeWithoutSavingIt(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		path := hostPath("villa", fmt.Sprintf("/properties/%d/preview", soleil))
		change := map[string]any{
			// Weekend nights (Friday and Saturday by default) at 150, the
			// rest at 120, 10 % off a week; a 50 cleaning fee.
			"rates": map[string]any{"base_rate": "120", "weekend_rate": "150", "weekly_discount_percent": "10",
				"seasons": []any{map[string]any{"name": "summer", "start": "2026-07-01", "end": "2026-07-31", "rate": "200"}}},
			"fees": map[string]any{"cleaning": "50", "extra_guest": "0", "guests_included": 0},
			"from": "2026-06-29", "days": 4,
			"check_in": "2026-06-22", "check_out": "2026-06-29", "guests": 2,
		}
		r := e.do("villa", req{method: "POST", path: path, body: change})
		want(t, r, http.StatusOK)
		d := r.data(t)
		var nights []string
		for _, n := range d["nights"].([]any) {
			n := n.(map[string]any)
			nights = append(nights, n["date"].(string)+"="+n["price"].(string))
		}
		if got, want := fmt.Sprint(nights), "[2026-06-29=120 2026-06-30=120 2026-07-01=200 2026-07-02=200]"; got != want {
			t.Errorf("nights = %s, want %s (base, then the season)", got, want)
		}
		q := d["quote"].(map[string]any)
		// Mon–Thu 4 × 120, Fri and Sat 2 × 150, Sun 120 = 900; −10 %: 90;
		// +50 cleaning = 860, charged in full.
		for k, want := range map[string]any{"nights": 7.0, "guests": 2.0, "accommodation": "900", "total_amount": "860",
			"charge_amount": "860", "balance_amount": "0", "payment_mode": "full", "currency": "EUR"} {
			if q[k] != want {
				t.Errorf("quote %s = %v, want %v (quote %v)", k, q[k], want, q)
			}
		}
		if ds := q["discounts"].([]any); len(ds) != 1 || ds[0].(map[string]any)["code"] != "weekly_discount" || ds[0].(map[string]any)["amount"] != "90" {
			t.Errorf("discounts = %v, want the weekly 90", ds)
		}

		// Nothing was saved.
		p := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d", soleil))}).data(t)
		if got := p["rates"].(map[string]any)["base_rate"]; got != "100" {
			t.Errorf("base rate after a preview = %v, want 100 (unchanged)", got)
		}

		for name, tc := range map[string]struct {
			body   map[string]any
			status int
			field  string
		}{
			"no stay":         {map[string]any{"rates": map[string]any{"base_rate": "120"}}, 422, "check_in"},
			"stay backwards":  {map[string]any{"check_in": "2026-06-29", "check_out": "2026-06-22"}, 422, "check_out"},
			"window too long": {map[string]any{"check_in": "2026-06-22", "check_out": "2026-06-29", "days": 400}, 422, "days"},
			"too many guests": {map[string]any{"check_in": "2026-06-22", "check_out": "2026-06-29", "guests": 9}, 422, "guests"},
			"negative rate":   {map[string]any{"check_in": "2026-06-22", "check_out": "2026-06-29", "rates": map[string]any{"base_rate": "-1"}}, 422, ""},
		} {
			t.Run(name, func(t *testing.T) {
				r := e.do("villa", req{method: "POST", path: path, body: tc.body})
				want(t, r, tc.status, "invalid")
				if tc.field != "" && !hasFieldError(r, tc.field) {
					t.Errorf("errors = %s, want one on %s", r.body, tc.field)
				}
			})
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/properties/999999/preview"),
			body: map[string]any{"check_in": "2026-06-22", "check_out": "2026-06-29"}}), http.StatusNotFound, "not_found")
		// Another organisation's property is not found either.
		want(t, e.do("other", req{method: "POST", path: hostPath("other", fmt.Sprintf("/properties/%d/preview", soleil)),
			body: map[string]any{"check_in": "2026-06-22", "check_out": "2026-06-29"}}), http.StatusNotFound, "not_found")
	})
}

// hasFieldError reports whether a 422 names field.
func hasFieldError(r response, field string) bool {
	var env struct {
		Errors map[string][]string `json:"errors"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		return false
	}
	return len(env.Errors[field]) > 0
}
