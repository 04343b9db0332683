package hostapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
)

// wantField fails the test unless r is a 422 invalid naming field with
// reason.
func wantField(t *testing.T, what string, r response, field, reason string) {
	t.Helper()
	var f struct {
		Code       string              `json:"code"`
		FieldCodes map[string][]string `json:"field_codes"`
		Errors     map[string][]string `json:"errors"`
	}
	json.Unmarshal(r.body, &f)
	if r.status != http.StatusUnprocessableEntity || f.Code != "invalid" || !slices.Contains(f.FieldCodes[field], reason) || len(f.Errors[field]) == 0 {
		t.Errorf("%s: %d %s, want 422 with %s: %s", what, r.status, r.body, field, reason)
	}
}

// TestHostValuesBounded: every number and string a host enters is
// bounded: amounts within what a card payment can charge, counts and
// nights within sane limits, texts short and free of control and format
// characters (as the public API refuses them in a guest's details). None
// is stored, so none can make a public answer fail.
func TestHostValuesBounded(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		prop := hostPath("villa", fmt.Sprintf("/properties/%d", soleil))
		patch := func(body any) response { return e.do("villa", req{method: "PATCH", path: prop, body: body}) }
		for _, tt := range []struct {
			what          string
			body          any
			field, reason string
		}{
			{"10,000-character name", map[string]any{"name": strings.Repeat("x", 10_000)}, "name", "too_long"},
			{"NUL in the name", map[string]any{"name": "Villa\x00"}, "name", booking.ReasonInvalidCharacters},
			{"bidi override in the name", map[string]any{"name": "Villa \u202eevil"}, "name", booking.ReasonInvalidCharacters},
			{"CR LF in the city", map[string]any{"city": "Nice\r\nSet-Cookie: x"}, "city", booking.ReasonInvalidCharacters},
			{"max_guests 2^62", `{"max_guests": 4611686018427387904}`, "max_guests", "out_of_range"},
			{"bedrooms 1e6", map[string]any{"bedrooms": 1_000_000}, "bedrooms", "out_of_range"},
			{"a night at 1e308", `{"rates": {"base_rate": 1e308}}`, "rates", booking.ReasonAmountTooLarge},
			{"a season at 1e308", `{"rates": {"base_rate": 100, "seasons": [{"name": "x", "start": "2026-07-01", "end": "2026-07-31", "rate": 1e308}]}}`, "rates", booking.ReasonAmountTooLarge},
			{"cleaning over the maximum", map[string]any{"fees": map[string]any{"cleaning": "1000000"}}, "fees", booking.ReasonAmountTooLarge},
			{"tourist tax with 7 decimals", map[string]any{"tax": map[string]any{"per_guest_per_night": "1.1234567"}}, "tax", booking.ReasonTooManyDecimals},
			{"minimum stay of 100,000 nights", map[string]any{"min_stay_nights": 100_000}, "min_stay_nights", "out_of_range"},
		} {
			wantField(t, "property with "+tt.what, patch(tt.body), tt.field, tt.reason)
		}
		wantField(t, "new property named with a NUL", e.do("villa", req{method: "POST", path: hostPath("villa", "/properties"),
			body: map[string]any{"name": "A\x00", "max_guests": 2, "rates": map[string]any{"base_rate": "80"}}}), "name", booking.ReasonInvalidCharacters)
		cal := prop + "/calendar"
		wantField(t, "a calendar night at 1e308", e.do("villa", req{method: "POST", path: cal,
			body: `{"from": "2026-07-01", "to": "2026-07-04", "price": 1e308}`}), "price", booking.ReasonAmountTooLarge)
		wantField(t, "a calendar reason with CR LF", e.do("villa", req{method: "POST", path: cal,
			body: map[string]any{"from": "2026-07-01", "to": "2026-07-04", "closed": true, "reason": "a\r\nb"}}), "reason", booking.ReasonInvalidCharacters)
		wantField(t, "a block's reason with a bidi isolate", e.do("villa", req{method: "POST", path: prop + "/blocks",
			body: map[string]any{"start": "2026-08-01", "end": "2026-08-03", "reason": "\u2066works"}}), "reason", booking.ReasonInvalidCharacters)
		coupons := hostPath("villa", "/coupons")
		wantField(t, "a fixed coupon of 1e308", e.do("villa", req{method: "POST", path: coupons,
			body: `{"code": "HUGE", "kind": "fixed", "value": 1e308}`}), "value", booking.ReasonAmountTooLarge)
		wantField(t, "a coupon label with NUL", e.do("villa", req{method: "POST", path: coupons,
			body: map[string]any{"code": "NUL", "kind": "fixed", "value": "5", "label": "a\x00"}}), "label", booking.ReasonInvalidCharacters)
		wantField(t, "a redemption cap of 2^40", e.do("villa", req{method: "POST", path: coupons,
			body: map[string]any{"code": "CAP", "kind": "fixed", "value": "5", "max_redemptions": 1 << 40}}), "max_redemptions", "out_of_range")
		settings := hostPath("villa", "/settings")
		wantField(t, "an organisation name with CR LF", e.do("villa", req{method: "PATCH", path: settings,
			body: map[string]any{"name": "Villa\r\nX"}}), "name", booking.ReasonInvalidCharacters)
		wantField(t, "a security deposit of 1e308", e.do("villa", req{method: "PATCH", path: settings,
			body: `{"security_deposit": 1e308}`}), "security_deposit", booking.ReasonAmountTooLarge)
		wantField(t, "a feed named with a NUL", e.do("villa", req{method: "POST", path: prop + "/feeds",
			body: map[string]any{"name": "Air\x00bnb", "url": "https://calendar.example/a.ics"}}), "name", booking.ReasonInvalidCharacters)
		wantField(t, "an API key named with a bidi override", e.do("villa", req{method: "POST", path: hostPath("villa", "/api-keys"),
			body: map[string]any{"name": "pms\u202e"}}), "name", booking.ReasonInvalidCharacters)

		// Nothing was stored: the settings and the property are as they were.
		if d := e.do("villa", req{method: "GET", path: prop}).data(t); d["name"] != "soleil" || d["max_guests"] != 4.0 || d["rates"].(map[string]any)["base_rate"] != "100" {
			t.Errorf("property after the refusals: %v", d)
		}

		// At the bounds, the host's values are accepted, and the public
		// side answers: a stay that costs more than a card payment can
		// charge is refused with a 422, never a 500.
		want(t, patch(map[string]any{"max_guests": booking.MaxCount, "rates": map[string]any{"base_rate": "999999.99"},
			"fees": map[string]any{"cleaning": "999999.99", "extra_guest": "999999.99", "guests_included": 1},
			"tax":  map[string]any{"per_guest_per_night": "999999.99"}}), http.StatusOK)
		want(t, e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-07-01", "to": "2026-07-02", "price": "999999.99"}}), http.StatusOK)
		quote := e.do("villa", req{method: "GET", path: fmt.Sprintf("/api/v1/book/villa/properties/%d/price?check_in=2026-06-20&check_out=2026-07-20&guests_count=1000", soleil)})
		want(t, quote, http.StatusOK)
		avail := e.do("villa", req{method: "GET", path: fmt.Sprintf("/api/v1/book/villa/properties/%d/availability?from=2026-06&months=2", soleil)})
		want(t, avail, http.StatusOK)
		want(t, e.do("villa", req{method: "GET", path: "/api/v1/book/villa/properties"}), http.StatusOK)
		checkout := e.do("villa", req{method: "POST", path: "/api/v1/book/villa/checkout", body: map[string]any{
			"property_id": soleil, "check_in": "2026-06-20", "check_out": "2026-07-20", "guests_count": 1000,
			"guest_name": "Ana", "guest_email": "ana@example.com", "guest_phone": "+33612345678"}})
		want(t, checkout, http.StatusUnprocessableEntity, "amount_not_chargeable")
	})
}

// TestPriceStoredBeforeTheBoundsIsNo500: a night priced at 1e308 before
// hosts' amounts were bounded makes a checkout over it 422
// amount_not_chargeable, not 500.
func TestPriceStoredBeforeTheBoundsIsNo500(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		st := e.replicas[0].store
		p, err := st.Property(t.Context(), e.orgs["villa"].ID, e.props["soleil"])
		if err != nil {
			t.Fatal(err)
		}
		p.Rates.BaseRate = decimal.RequireFromString("1e308")
		if err := st.UpdateProperty(t.Context(), p); err != nil {
			t.Fatal(err)
		}
		checkout := e.do("villa", req{method: "POST", path: "/api/v1/book/villa/checkout", body: map[string]any{
			"property_id": p.ID, "check_in": "2026-06-20", "check_out": "2026-06-23", "guests_count": 2,
			"guest_name": "Ana", "guest_email": "ana@example.com", "guest_phone": "+33612345678"}})
		want(t, checkout, http.StatusUnprocessableEntity, "amount_not_chargeable")
	})
}
