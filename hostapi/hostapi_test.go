package hostapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/hostapi"
)

// forEachStore runs a test on a fresh env over each store.
func forEachStore(t *testing.T, run func(t *testing.T, e *env)) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) { run(t, newEnv(t, open(t, 1))) })
	}
}

func TestAuthentication(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		settings := hostPath("villa", "/settings")
		r := e.do("villa", req{method: "GET", path: settings, key: "-"})
		want(t, r, http.StatusUnauthorized, "unauthorized")
		if r.header.Get("WWW-Authenticate") == "" {
			t.Error("401 without WWW-Authenticate")
		}
		want(t, e.do("villa", req{method: "GET", path: settings, key: "sk_host_nope"}), http.StatusUnauthorized, "unauthorized")
		want(t, e.do("villa", req{method: "GET", path: settings, key: e.keys["other"]}), http.StatusForbidden, "forbidden")
		ok := e.do("villa", req{method: "GET", path: settings})
		want(t, ok, http.StatusOK)
		if got := ok.data(t)["slug"]; got != "villa" {
			t.Errorf("slug = %v, want villa", got)
		}
		// French by default for a French organisation, English on request.
		fr := e.do("villa", req{method: "GET", path: hostPath("villa", "/properties/999999")})
		want(t, fr, http.StatusNotFound, "not_found")
		if !strings.Contains(string(fr.body), "Ce logement n'existe pas") {
			t.Errorf("404 in the organisation's French: %s", fr.body)
		}
		en := e.do("villa", req{method: "GET", path: hostPath("villa", "/properties/999999?locale=en")})
		if !strings.Contains(string(en.body), "This property does not exist") {
			t.Errorf("404 with ?locale=en: %s", en.body)
		}
	})
}

func TestRevokedKeyIsRefusedAtOnce(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		created := e.do("villa", req{method: "POST", path: hostPath("villa", "/api-keys"), body: map[string]string{"name": "pms"}})
		want(t, created, http.StatusCreated)
		d := created.data(t)
		secret := d["key"].(string)
		if !strings.HasPrefix(secret, "sk_host_") || !strings.HasPrefix(secret, d["prefix"].(string)) {
			t.Fatalf("key %q, prefix %v", secret, d["prefix"])
		}
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/settings"), key: secret}), http.StatusOK)
		list := e.do("villa", req{method: "GET", path: hostPath("villa", "/api-keys")})
		want(t, list, http.StatusOK)
		if strings.Contains(string(list.body), secret) {
			t.Error("the key list shows a secret")
		}
		id := int64(d["id"].(float64))
		if !strings.Contains(string(list.body), `"last_used_at":"2026-05-01T10:00:00Z"`) {
			t.Errorf("last use not recorded: %s", list.body)
		}
		want(t, e.do("villa", req{method: "DELETE", path: hostPath("villa", fmt.Sprintf("/api-keys/%d", id))}), http.StatusOK)
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/settings"), key: secret}), http.StatusUnauthorized, "unauthorized")
		want(t, e.do("other", req{method: "DELETE", path: hostPath("other", fmt.Sprintf("/api-keys/%d", id))}), http.StatusNotFound, "not_found")
	})
}

func TestFailedAuthenticationIsRateLimited(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	path := hostPath("villa", "/settings")
	for i := range hostapi.DefaultAuthFailures.Requests {
		want(t, e.do("villa", req{method: "GET", path: path, key: fmt.Sprintf("sk_host_guess%d", i)}), http.StatusUnauthorized)
	}
	r := e.do("villa", req{method: "GET", path: path, key: "sk_host_guess"})
	want(t, r, http.StatusTooManyRequests, "rate_limited")
	if r.header.Get("Retry-After") == "" || r.header.Get("RateLimit-Limit") != "10" || r.header.Get("RateLimit-Remaining") != "0" {
		t.Errorf("429 headers %v, want Retry-After and RateLimit-* of the failures' limit", r.header)
	}
	// Valid keys are not counted.
	e.clock.Advance(2 * 60e9)
	for range hostapi.DefaultAuthFailures.Requests + 2 {
		want(t, e.do("villa", req{method: "GET", path: path}), http.StatusOK)
	}
}

func TestSettings(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		r := e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{
			"name": "Villa Soleil", "logo": "https://example.com/logo.png", "branding": map[string]string{"primary_color": "#123456"},
			"default_locale": "en", "payment_mode": "deposit", "deposit_percent": "30", "min_stay_nights": 2, "max_stay_nights": 21,
			"allowed_origins": []string{"https://partner.example.com"}, "custom_domain": "villa-soleil.fr",
			"terms_url": "https://villa-soleil.fr/terms",
		}})
		want(t, r, http.StatusOK)
		d := r.data(t)
		if d["name"] != "Villa Soleil" || d["payment_mode"] != "deposit" || d["deposit_percent"] != "30" || d["min_stay_nights"] != 2.0 {
			t.Errorf("settings = %v", d)
		}
		// The public API sees it at once.
		pub := e.do("villa", req{method: "GET", path: "/api/v1/book/villa"})
		want(t, pub, http.StatusOK)
		if !strings.Contains(string(pub.body), "Villa Soleil") || !strings.Contains(string(pub.body), `"payment_mode":"deposit"`) {
			t.Errorf("public config after the change: %s", pub.body)
		}
		bad := e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{
			"logo": "javascript:alert(1)", "allowed_origins": []string{"https://x.example.com/path"}, "payment_mode": "barter"}})
		want(t, bad, http.StatusUnprocessableEntity, "invalid")
		for _, f := range []string{"logo", "allowed_origins"} {
			if !strings.Contains(string(bad.body), `"`+f+`"`) {
				t.Errorf("no problem reported for %s: %s", f, bad.body)
			}
		}
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{"nmae": "typo"}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: "[1]"}), http.StatusBadRequest, "malformed_json")
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{"name": 3}}), http.StatusUnprocessableEntity, "invalid")
		// Turning the public engine off hides the organisation publicly, not from its host.
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{"public_engine_enabled": false}}), http.StatusOK)
		want(t, e.do("villa", req{method: "GET", path: "/api/v1/book/villa"}), http.StatusNotFound)
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/settings")}), http.StatusOK)
	})
}

func TestPropertiesAndDeactivation(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		created := e.do("villa", req{method: "POST", path: hostPath("villa", "/properties"), body: map[string]any{
			"name": "Cabane", "max_guests": 2, "photos": []string{"https://example.com/cabane.jpg"},
			"rates": map[string]any{"base_rate": "80", "weekend_rate": 95.5}, "fees": map[string]any{"cleaning": "20"},
			"tax": map[string]any{"per_guest_per_night": "1.5"}}})
		want(t, created, http.StatusCreated)
		d := created.data(t)
		id := int64(d["id"].(float64))
		if d["active"] != true || d["rates"].(map[string]any)["weekend_rate"] != "95.5" {
			t.Errorf("created = %v", d)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/properties"), body: map[string]any{"name": ""}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/properties"), body: map[string]any{
			"name": "X", "max_guests": 2, "rates": map[string]any{"base_rate": "80"}, "photos": []string{"ftp://x"}}}), http.StatusUnprocessableEntity, "invalid")

		upd := e.do("villa", req{method: "PATCH", path: hostPath("villa", fmt.Sprintf("/properties/%d", id)), body: map[string]any{"description": "Dans les bois", "max_guests": 3}})
		want(t, upd, http.StatusOK)
		if d := upd.data(t); d["description"] != "Dans les bois" || d["max_guests"] != 3.0 || d["name"] != "Cabane" {
			t.Errorf("updated = %v", d)
		}
		list := e.do("villa", req{method: "GET", path: hostPath("villa", "/properties?limit=1")})
		want(t, list, http.StatusOK)
		l := list.data(t)
		if len(l["items"].([]any)) != 1 || l["next_cursor"] == nil {
			t.Fatalf("first page = %v", l)
		}
		next := e.do("villa", req{method: "GET", path: hostPath("villa", "/properties?limit=1&cursor="+l["next_cursor"].(string))})
		if items := next.data(t)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != float64(id) || next.data(t)["next_cursor"] != nil {
			t.Errorf("second page = %s", next.body)
		}
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/properties?limit=0")}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("other", req{method: "GET", path: hostPath("other", fmt.Sprintf("/properties/%d", id))}), http.StatusNotFound, "not_found")

		// A deactivated property takes no checkout but keeps its bookings.
		soleil := e.props["soleil"]
		bookingID := e.paidBooking("villa", "soleil", "2026-06-01", "2026-06-04")
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/properties/%d/deactivate", soleil))}), http.StatusOK)
		want(t, e.do("villa", req{method: "GET", path: fmt.Sprintf("/api/v1/book/villa/properties/%d/price?check_in=2026-07-01&check_out=2026-07-04", soleil)}), http.StatusNotFound)
		checkout := e.do("villa", req{method: "POST", path: "/api/v1/book/villa/checkout", body: map[string]any{
			"property_id": soleil, "check_in": "2026-07-01", "check_out": "2026-07-04", "guests_count": 2,
			"guest_name": "Ana", "guest_email": "ana@example.com", "guest_phone": "+33612345678"}})
		want(t, checkout, http.StatusNotFound)
		got := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d", bookingID))})
		want(t, got, http.StatusOK)
		if got.data(t)["status"] != "confirmed" {
			t.Errorf("booking of the deactivated property: %s", got.body)
		}
	})
}

func TestCalendarAndBlocks(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		cal := hostPath("villa", fmt.Sprintf("/properties/%d/calendar", soleil))
		set := e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-07-01", "to": "2026-07-04", "price": "150", "closed": true, "reason": "family"}})
		want(t, set, http.StatusOK)
		days := set.data(t)["days"].([]any)
		if len(days) != 3 {
			t.Fatalf("%d days, want 3", len(days))
		}
		for _, d := range days {
			d := d.(map[string]any)
			if d["price"] != "150" || d["price_override"] != true || d["closed"] != true || d["block_id"] != nil {
				t.Errorf("day = %v, want 150, override, closed, no block", d)
			}
		}
		read := e.do("villa", req{method: "GET", path: cal + "?from=2026-07-03&to=2026-07-05"})
		want(t, read, http.StatusOK)
		rd := read.data(t)["days"].([]any)
		if rd[0].(map[string]any)["closed"] != true || rd[1].(map[string]any)["closed"] != false || rd[1].(map[string]any)["price"] != "100" {
			t.Errorf("calendar 07-03..07-05 = %s", read.body)
		}
		want(t, e.do("villa", req{method: "GET", path: cal + "?from=2026-07-05&to=2026-07-01"}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "GET", path: cal}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-07-01", "to": "2026-07-04"}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-07-01", "to": "2026-07-04", "price": "-1"}}), http.StatusUnprocessableEntity, "invalid")

		// Stay rules on the same days, without touching price or closed.
		rules := e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-07-02", "to": "2026-07-03",
			"min_stay_nights": 3, "max_stay_nights": 7, "closed_to_arrival": true, "closed_to_departure": true}})
		want(t, rules, http.StatusOK)
		if d := rules.data(t)["days"].([]any)[0].(map[string]any); d["min_stay_nights"] != 3.0 || d["max_stay_nights"] != 7.0 ||
			d["closed_to_arrival"] != true || d["closed_to_departure"] != true || d["closed"] != true || d["price"] != "150" {
			t.Errorf("07-02 after the stay rules = %v", d)
		}
		want(t, e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-07-01", "to": "2026-07-04", "min_stay_nights": -1}}), http.StatusUnprocessableEntity, "invalid")

		// Reopen and clear: back to the rate plan.
		reopened := e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-07-01", "to": "2026-07-04",
			"clear_price": true, "closed": false, "min_stay_nights": 0, "max_stay_nights": 0, "closed_to_arrival": false, "closed_to_departure": false}})
		want(t, reopened, http.StatusOK)
		for _, d := range reopened.data(t)["days"].([]any) {
			d := d.(map[string]any)
			if d["price"] != "100" || d["price_override"] != false || d["closed"] != false || d["min_stay_nights"] != nil || d["closed_to_arrival"] != false {
				t.Errorf("day after reopening = %v, want the rate plan's", d)
			}
		}
		p := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d", soleil))}).data(t)
		if ov, _ := p["rates"].(map[string]any)["overrides"].([]any); len(p["blocks"].([]any)) != 0 || len(ov) != 0 {
			t.Errorf("after reopening: %v", p)
		}

		// Blocks: created with a reason, refused over a confirmed booking.
		blocks := hostPath("villa", fmt.Sprintf("/properties/%d/blocks", soleil))
		b := e.do("villa", req{method: "POST", path: blocks, body: map[string]any{"start": "2026-08-01", "end": "2026-08-03", "reason": "works"}})
		want(t, b, http.StatusCreated)
		blockID := int64(b.data(t)["id"].(float64))
		e.paidBooking("villa", "soleil", "2026-09-01", "2026-09-05")
		over := e.do("villa", req{method: "POST", path: blocks, body: map[string]any{"start": "2026-09-03", "end": "2026-09-10"}})
		want(t, over, http.StatusConflict, "conflict")
		closeOver := e.do("villa", req{method: "POST", path: cal, body: map[string]any{"from": "2026-09-04", "to": "2026-09-06", "closed": true}})
		want(t, closeOver, http.StatusConflict, "conflict")
		want(t, e.do("villa", req{method: "POST", path: blocks, body: map[string]any{"start": "2026-09-03"}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "DELETE", path: fmt.Sprintf("%s/%d", blocks, blockID)}), http.StatusNoContent)
		want(t, e.do("villa", req{method: "DELETE", path: fmt.Sprintf("%s/%d", blocks, blockID)}), http.StatusNotFound, "not_found")
	})
}

func TestCoupons(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		c := e.do("villa", req{method: "POST", path: hostPath("villa", "/coupons"), body: map[string]any{
			"code": " autumn ", "label": "Autumn", "kind": "fixed", "value": "25", "max_redemptions": 5,
			"stay_from": "2026-09-01", "property_ids": []int64{e.props["soleil"]}}})
		want(t, c, http.StatusCreated)
		d := c.data(t)
		id := int64(d["id"].(float64))
		if d["code"] != "AUTUMN" || d["redemptions"] != 0.0 || d["stay_from"] != "2026-09-01" || d["valid_from"] != nil {
			t.Errorf("created = %v", d)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/coupons"), body: map[string]any{"code": "AUTUMN", "kind": "fixed", "value": "5"}}), http.StatusConflict, "conflict")
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/coupons"), body: map[string]any{"code": "BAD CODE", "kind": "percent", "value": "150"}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/coupons"), body: map[string]any{"code": "X", "kind": "fixed", "value": "5", "property_ids": []int64{e.props["bastide"]}}}), http.StatusUnprocessableEntity, "invalid")

		// Redemptions count the bookings holding the coupon.
		sum := e.do("villa", req{method: "GET", path: hostPath("villa", "/coupons")})
		want(t, sum, http.StatusOK)
		var summerID int64
		for _, it := range sum.data(t)["items"].([]any) {
			if it.(map[string]any)["code"] == "SUMMER" {
				summerID = int64(it.(map[string]any)["id"].(float64))
			}
		}
		ctx := t.Context()
		_, err := e.replicas[0].svc.Checkout(ctx, "villa", booking.CheckoutRequest{PropertyID: e.props["soleil"],
			Stay: booking.Stay{CheckIn: day("2026-06-10"), CheckOut: day("2026-06-13"), Guests: 2}, CouponCode: "summer",
			GuestName: "Ana", GuestEmail: "ana@example.com", GuestPhone: "+33612345678"})
		if err != nil {
			t.Fatal(err)
		}
		got := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/coupons/%d", summerID))})
		if got.data(t)["redemptions"] != 1.0 {
			t.Errorf("SUMMER after one checkout: %s", got.body)
		}
		upd := e.do("villa", req{method: "PATCH", path: hostPath("villa", fmt.Sprintf("/coupons/%d", id)), body: map[string]any{"value": "30"}})
		want(t, upd, http.StatusOK)
		if upd.data(t)["value"] != "30" || upd.data(t)["label"] != "Autumn" {
			t.Errorf("updated = %s", upd.body)
		}
		dis := e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/coupons/%d/disable", id))})
		want(t, dis, http.StatusOK)
		if dis.data(t)["active"] != false {
			t.Errorf("disabled = %s", dis.body)
		}
		want(t, e.do("other", req{method: "GET", path: hostPath("other", fmt.Sprintf("/coupons/%d", id))}), http.StatusNotFound, "not_found")
		page := e.do("villa", req{method: "GET", path: hostPath("villa", "/coupons?limit=1")})
		if len(page.data(t)["items"].([]any)) != 1 || page.data(t)["next_cursor"] == nil {
			t.Errorf("page of one: %s", page.body)
		}
	})
}

func TestBookings(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		a := e.requestBooking("2026-06-01", "2026-06-04")
		b := e.requestBooking("2026-06-10", "2026-06-12")
		c := e.requestBooking("2026-07-01", "2026-07-03")
		list := e.do("request-org", req{method: "GET", path: hostPath("request-org", "/bookings?status=requested&limit=2")})
		want(t, list, http.StatusOK)
		items := list.data(t)["items"].([]any)
		if len(items) != 2 || items[0].(map[string]any)["id"] != float64(c) || list.data(t)["next_cursor"] == nil {
			t.Fatalf("first page = %s", list.body)
		}
		rest := e.do("request-org", req{method: "GET", path: hostPath("request-org", "/bookings?status=requested&limit=2&cursor="+list.data(t)["next_cursor"].(string))})
		if items := rest.data(t)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != float64(a) {
			t.Errorf("second page = %s", rest.body)
		}
		june := e.do("request-org", req{method: "GET", path: hostPath("request-org", fmt.Sprintf("/bookings?from=2026-06-05&to=2026-06-30&property_id=%d", e.props["loft"]))})
		if items := june.data(t)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != float64(b) {
			t.Errorf("bookings of 06-05..06-30 = %s", june.body)
		}
		want(t, e.do("request-org", req{method: "GET", path: hostPath("request-org", "/bookings?status=lost")}), http.StatusUnprocessableEntity, "invalid")

		ap := e.do("request-org", req{method: "POST", path: hostPath("request-org", fmt.Sprintf("/bookings/%d/approve", a))})
		want(t, ap, http.StatusOK)
		if d := ap.data(t); d["status"] != "confirmed" || len(d["payments"].([]any)) == 0 {
			t.Errorf("approved = %s", ap.body)
		}
		want(t, e.do("request-org", req{method: "POST", path: hostPath("request-org", fmt.Sprintf("/bookings/%d/approve", a))}), http.StatusUnprocessableEntity, "booking_closed")
		de := e.do("request-org", req{method: "POST", path: hostPath("request-org", fmt.Sprintf("/bookings/%d/decline", b))})
		want(t, de, http.StatusOK)
		if de.data(t)["status"] != "declined" {
			t.Errorf("declined = %s", de.body)
		}
		ca := e.do("request-org", req{method: "POST", path: hostPath("request-org", fmt.Sprintf("/bookings/%d/cancel", a)), body: map[string]any{"refund": true}})
		want(t, ca, http.StatusOK)
		if !strings.Contains(string(ca.body), `"kind":"refund"`) || ca.data(t)["status"] != "cancelled" {
			t.Errorf("cancelled with refund = %s", ca.body)
		}
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d", c))}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/bookings/abc")}), http.StatusNotFound, "not_found")
	})
}

func TestIdempotencyKey(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		path := hostPath("villa", "/coupons")
		body := map[string]any{"code": "ONCE", "kind": "fixed", "value": "5"}
		h := map[string]string{"Idempotency-Key": "abc-1"}
		first := e.do("villa", req{method: "POST", path: path, body: body, header: h})
		want(t, first, http.StatusCreated)
		again := e.do("villa", req{method: "POST", path: path, body: body, header: h})
		want(t, again, http.StatusCreated)
		if string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("replay = %s, want the first answer %s", again.body, first.body)
		}
		other := e.do("villa", req{method: "POST", path: path, body: map[string]any{"code": "TWICE", "kind": "fixed", "value": "5"}, header: h})
		want(t, other, http.StatusConflict, "conflict")
		// A refused request is replayed too; without a key, a retry is a new request.
		want(t, e.do("villa", req{method: "POST", path: path, body: body}), http.StatusConflict, "conflict")
		list := e.do("villa", req{method: "GET", path: path}).data(t)["items"].([]any)
		n := 0
		for _, it := range list {
			if it.(map[string]any)["code"] == "ONCE" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d coupons ONCE, want 1", n)
		}
		// Keys are per organisation.
		want(t, e.do("other", req{method: "POST", path: hostPath("other", "/coupons"), body: body, header: h}), http.StatusCreated)
	})
}

func TestAuditLog(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: map[string]any{"name": "Villa Bleue"}}), http.StatusOK)
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/properties/%d/blocks", e.props["soleil"])), body: map[string]any{"start": "2026-08-01", "end": "2026-08-03"}}), http.StatusCreated)
		r := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=2")})
		want(t, r, http.StatusOK)
		items := r.data(t)["items"].([]any)
		if len(items) != 2 {
			t.Fatalf("audit = %s", r.body)
		}
		block, settings := items[0].(map[string]any), items[1].(map[string]any)
		if block["action"] != "block.create" || settings["action"] != "settings.update" || !strings.HasPrefix(settings["actor"].(string), "key:") || settings["actor_name"] != "test" {
			t.Errorf("audit entries = %s", r.body)
		}
		before, _ := json.Marshal(settings["before"])
		after, _ := json.Marshal(settings["after"])
		if !strings.Contains(string(before), `"name":"villa"`) || !strings.Contains(string(after), `"name":"Villa Bleue"`) {
			t.Errorf("before %s, after %s", before, after)
		}
		next := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=2&cursor="+r.data(t)["next_cursor"].(string))})
		if items := next.data(t)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["action"] != "api_key.create" {
			t.Errorf("oldest entry = %s", next.body)
		}
		// Another organisation sees none of it.
		other := e.do("other", req{method: "GET", path: hostPath("other", "/audit-log")}).data(t)["items"].([]any)
		if len(other) != 1 {
			t.Errorf("other's audit log has %d entries, want its own key's creation", len(other))
		}
	})
}

func TestRoutingAndDocument(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	r := e.do("villa", req{method: "PUT", path: hostPath("villa", "/settings")})
	want(t, r, http.StatusMethodNotAllowed, "method_not_allowed")
	if r.header.Get("Allow") != "GET, HEAD, PATCH" {
		t.Errorf("Allow = %q", r.header.Get("Allow"))
	}
	want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/nothing")}), http.StatusNotFound, "not_found")
	want(t, e.do("villa", req{method: "GET", path: hostPath("nobody", "/settings")}), http.StatusNotFound, "not_found")
	want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", "/settings"), body: "{}", header: map[string]string{"Content-Type": "text/plain"}}), http.StatusUnsupportedMediaType, "unsupported_media_type")
	doc := e.do("villa", req{method: "GET", path: hostapi.Prefix + "openapi.json", key: "-"})
	want(t, doc, http.StatusOK)
	var d struct {
		OpenAPI string `json:"openapi"`
	}
	if json.Unmarshal(doc.body, &d); d.OpenAPI != "3.1.0" {
		t.Errorf("served document: openapi %q", d.OpenAPI)
	}
}

// TestContractCatchesMismatches makes sure the contract check is not a
// no-op.
func TestContractCatchesMismatches(t *testing.T) {
	c := loadContract(t)
	hdr := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "X-Service-Api-Version": {"v1"}, "X-Request-Id": {"abc"}}
	good := `{"success":true,"data":{"items":[],"next_cursor":null}}`
	for name, tc := range map[string]struct {
		status int
		body   string
		ok     bool
	}{
		"documented":          {200, good, true},
		"undocumented field":  {200, `{"success":true,"data":{"items":[],"next_cursor":null,"extra":1}}`, false},
		"undocumented status": {418, good, false},
		"wrong code":          {401, `{"success":false,"message":"x","code":"not_found"}`, false},
	} {
		err := c.check("GET", hostPath("villa", "/audit-log"), http.Header{}, nil, response{status: tc.status, header: hdr, body: []byte(tc.body)})
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok=%v", name, err, tc.ok)
		}
	}
}

// TestPatchPropertyKeepsConcurrentBlock races a PATCH of a property with a
// new block, several times: the block always survives (the PATCH used to
// rewrite the blocks it had read).
func TestPatchPropertyKeepsConcurrentBlock(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		prop := hostPath("villa", fmt.Sprintf("/properties/%d", soleil))
		for round := range 5 {
			start := civil.MustParse("2027-02-01").AddDays(10 * round)
			var wg sync.WaitGroup
			release := make(chan struct{})
			var patch, block response
			wg.Go(func() {
				<-release
				patch = e.do("villa", req{method: "PATCH", path: prop, body: map[string]any{"name": fmt.Sprintf("Villa %d", round)}})
			})
			wg.Go(func() {
				<-release
				block = e.do("villa", req{method: "POST", path: prop + "/blocks", body: map[string]any{"start": start.String(), "end": start.AddDays(2).String()}})
			})
			close(release)
			wg.Wait()
			want(t, patch, http.StatusOK)
			want(t, block, http.StatusCreated)
			got := e.do("villa", req{method: "GET", path: prop})
			want(t, got, http.StatusOK)
			if n := len(got.data(t)["blocks"].([]any)); n != round+1 {
				t.Fatalf("round %d: %d blocks after a PATCH raced a new block, want %d: %s", round, n, round+1, got.body)
			}
		}
	})
}

// TestCancellationPolicyAndDepositSettable sets the organisation's and a
// property's cancellation policy and security deposit through the host
// API, and sees the policy in the public quote at once.
func TestCancellationPolicyAndDepositSettable(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		quotePolicy := func() string {
			t.Helper()
			q := e.do("villa", req{method: "GET", path: fmt.Sprintf("/api/v1/book/villa/properties/%d/price?check_in=2026-07-01&check_out=2026-07-03&guests_count=2", soleil)})
			want(t, q, http.StatusOK)
			p, _ := q.data(t)["cancellation_policy"].(map[string]any)
			name, _ := p["name"].(string)
			return name
		}
		settings := hostPath("villa", "/settings")
		got := e.do("villa", req{method: "GET", path: settings})
		want(t, got, http.StatusOK)
		if p := got.data(t)["cancellation_policy"].(map[string]any); p["name"] != "flexible" || got.data(t)["security_deposit"] != "0" {
			t.Errorf("default settings = %s", got.body)
		}
		set := e.do("villa", req{method: "PATCH", path: settings, body: map[string]any{
			"cancellation_policy": map[string]any{"name": "strict"}, "security_deposit": "200", "deposit_hold_days": 2, "deposit_release_days": 3}})
		want(t, set, http.StatusOK)
		d := set.data(t)
		if p := d["cancellation_policy"].(map[string]any); p["name"] != "strict" || len(p["tiers"].([]any)) != 2 ||
			d["security_deposit"] != "200" || d["deposit_hold_days"] != 2.0 || d["deposit_release_days"] != 3.0 {
			t.Errorf("settings after PATCH = %s", set.body)
		}
		if got := quotePolicy(); got != "strict" {
			t.Errorf("public quote's policy = %q, want strict", got)
		}
		for _, body := range []map[string]any{
			{"cancellation_policy": map[string]any{"name": "lenient"}},
			{"cancellation_policy": map[string]any{"name": "custom", "tiers": []any{map[string]any{"days_before": 3, "refund_percent": "150"}}}},
			{"cancellation_policy": nil},
			{"deposit_hold_days": 9},
			{"security_deposit": "-1"},
		} {
			want(t, e.do("villa", req{method: "PATCH", path: settings, body: body}), http.StatusUnprocessableEntity, "invalid")
		}

		// A property's own policy, then back to the organisation's.
		prop := hostPath("villa", fmt.Sprintf("/properties/%d", soleil))
		if g := e.do("villa", req{method: "GET", path: prop}); g.data(t)["terms"] != nil {
			t.Errorf("terms of a property without its own = %v", g.data(t)["terms"])
		}
		custom := e.do("villa", req{method: "PATCH", path: prop, body: map[string]any{"terms": map[string]any{
			"cancellation_policy": map[string]any{"name": "custom", "tiers": []any{map[string]any{"days_before": 10, "refund_percent": "80"}}}}}})
		want(t, custom, http.StatusOK)
		terms := custom.data(t)["terms"].(map[string]any)
		if terms["cancellation_policy"].(map[string]any)["name"] != "custom" || terms["security_deposit"] != "200" || terms["deposit_hold_days"] != 2.0 {
			t.Errorf("property terms = %v, want custom and the organisation's deposit", terms)
		}
		if got := quotePolicy(); got != "custom" {
			t.Errorf("public quote's policy = %q, want the property's custom", got)
		}
		inherit := e.do("villa", req{method: "PATCH", path: prop, body: map[string]any{"terms": map[string]any{"cancellation_policy": nil, "security_deposit": "50"}}})
		want(t, inherit, http.StatusOK)
		if terms := inherit.data(t)["terms"].(map[string]any); terms["cancellation_policy"] != nil || terms["security_deposit"] != "50" {
			t.Errorf("property terms after inheriting = %v", terms)
		}
		if got := quotePolicy(); got != "strict" {
			t.Errorf("public quote's policy = %q, want the organisation's strict again", got)
		}
		want(t, e.do("villa", req{method: "PATCH", path: prop, body: map[string]any{"terms": map[string]any{"cancellation_policy": "strict"}}}), http.StatusUnprocessableEntity, "invalid")
	})
}
