package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
)

// Scenarios of the hardening of issue #10: input the API used to take or
// mishandle, and the headers of its responses.
func TestHardeningScenarios(t *testing.T) {
	validCheckout := func(e *testEnv) string { return soleilCheckout(e) }
	post := func(path string, body func(e *testEnv) string) func(t *testing.T, e *testEnv, c *call) {
		return func(_ *testing.T, e *testEnv, c *call) { c.path, c.body = e.expand(path), body(e) }
	}
	withGuest := func(field, value string) func(t *testing.T, e *testEnv, c *call) {
		return post(villa+"/checkout", func(e *testEnv) string { return soleilCheckout(e, field, value) })
	}
	noStore := wantHeader("Cache-Control", "no-store")
	cacheable := wantHeader("Cache-Control", "public, max-age=60")
	quoteLabels := func(labels ...string) func(t *testing.T, e *testEnv, r response) {
		return func(t *testing.T, _ *testEnv, r response) {
			t.Helper()
			for _, l := range labels {
				wantRaw(t, r, `"label":"`+l+`"`)
			}
		}
	}
	scenarios := []scenario{
		// Charset of a JSON body.
		{name: "body in latin-1 is refused", method: "POST", header: map[string]string{"Content-Type": "application/json; charset=iso-8859-1"},
			prepare: post(villa+"/checkout", validCheckout), wantStatus: 415, wantCode: "unsupported_media_type", check: wantBookings("villa", 1)},
		{name: "body in UTF-16 is refused", method: "POST", path: villa + "/validate-coupon", body: `{"code":"WELCOME10"}`,
			header: map[string]string{"Content-Type": "application/json;charset=utf-16"}, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "charset UTF-8 in upper case is accepted", method: "POST", header: map[string]string{"Content-Type": "application/json; charset=UTF-8"},
			prepare: post(villa+"/checkout", validCheckout), wantStatus: 201},
		{name: "charset utf-8 is accepted", method: "POST", path: villa + "/validate-coupon", body: `{"code":"WELCOME10"}`,
			header: map[string]string{"Content-Type": `application/json; charset="utf-8"`}, wantStatus: 200},
		{name: "no charset is accepted", method: "POST", path: villa + "/validate-coupon", body: `{"code":"WELCOME10"}`, wantStatus: 200},

		// Headers.
		{name: "checkout is not cached", method: "POST", prepare: post(villa+"/checkout", validCheckout), wantStatus: 201,
			check: all(noStore, wantHeader("X-Content-Type-Options", "nosniff"))},
		{name: "refused checkout is not cached", method: "POST", path: villa + "/checkout", body: `{}`, wantStatus: 422, wantCode: "invalid",
			check: all(noStore, wantHeader("X-Content-Type-Options", "nosniff"))},
		{name: "booking status is not cached", method: "GET", path: villa + "/booking/{pending}", wantStatus: 200, check: noStore},
		{name: "unknown booking is not cached", method: "GET", path: villa + "/booking/nope", wantStatus: 404, wantCode: "not_found", check: noStore},
		{name: "confirm is not cached", method: "POST", path: villa + "/booking/{pending}/confirm", wantStatus: 422, wantCode: "payment_not_confirmed", check: noStore},
		{name: "config may be cached", method: "GET", path: villa, wantStatus: 200,
			check: all(cacheable, wantHeader("X-Content-Type-Options", "nosniff"))},
		{name: "unknown route has nosniff", method: "GET", path: "/api/v1/nothing", wantStatus: 404, wantCode: "not_found",
			check: wantHeader("X-Content-Type-Options", "nosniff")},
		{name: "405 has nosniff", method: "DELETE", path: villa + "/checkout", wantStatus: 405, wantCode: "method_not_allowed",
			check: wantHeader("X-Content-Type-Options", "nosniff")},
		{name: "preflight has nosniff", method: "OPTIONS", path: villa + "/checkout",
			header:     map[string]string{"Origin": "https://villa-soleil.fr", "Access-Control-Request-Method": "POST"},
			wantStatus: 204, check: wantHeader("X-Content-Type-Options", "nosniff")},
		{name: "refused origin has nosniff", method: "GET", path: villa, header: map[string]string{"Origin": evilOrigin},
			wantStatus: 403, wantCode: "origin_not_allowed", check: wantHeader("X-Content-Type-Options", "nosniff")},

		// Control and format characters in guest details.
		{name: "right-to-left override in the name", method: "POST", prepare: withGuest("guest_name", "Ada \u202eecalevoL"),
			wantStatus: 422, wantCode: "invalid", check: all(wantFieldCodes("guest_name", "invalid_characters"), wantBookings("villa", 1))},
		{name: "right-to-left mark in the name", method: "POST", prepare: withGuest("guest_name", "Ada\u200f Lovelace"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_name", "invalid_characters")},
		{name: "NUL in the name", method: "POST", prepare: withGuest("guest_name", "Ada\x00Lovelace"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_name", "invalid_characters")},
		{name: "line break in the name", method: "POST", prepare: withGuest("guest_name", "Ada\nLovelace"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_name", "invalid_characters")},
		{name: "isolate in the e-mail", method: "POST", prepare: withGuest("guest_email", "ada\u2066@example.com"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_email", "invalid_characters")},
		{name: "e-mail over 254 characters", method: "POST", prepare: withGuest("guest_email", strings.Repeat("a", 64)+"@"+strings.Repeat("b", 186)+".com"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_email", "too_long")},
		{name: "next line in the phone", method: "POST", prepare: withGuest("guest_phone", "+33612345678\u0085"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_phone", "invalid_characters")},
		{name: "escape in the message", method: "POST", prepare: withGuest("message", "Hello \x1b[31mhost"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("message", "invalid_characters")},
		{name: "pop directional isolate in the message", method: "POST", prepare: withGuest("message", "Hello\u2069"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("message", "invalid_characters")},
		{name: "lone carriage return in the message", method: "POST", prepare: withGuest("message", "Hello\rhost"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("message", "invalid_characters")},
		{name: "message keeps line breaks and tabs", method: "POST", prepare: withGuest("message", "Hello,\n\tarriving late.\r\nThanks"),
			wantStatus: 201, check: func(t *testing.T, e *testEnv, r response) {
				if got := latestBooking(t, e, "villa").Message; got != "Hello,\n\tarriving late.\r\nThanks" {
					t.Errorf("message = %q", got)
				}
			}},
		{name: "invalid characters in English", method: "POST", prepare: withGuest("guest_name", "Ada\u202e"), header: map[string]string{"Accept-Language": "en"},
			wantStatus: 422, wantCode: "invalid", check: func(t *testing.T, _ *testEnv, r response) {
				if got := strings.Join(r.Env.Errors["guest_name"], ""); got != "This value contains control or invisible characters, which are not accepted." {
					t.Errorf("message = %q", got)
				}
			}},

		// Phone numbers.
		{name: "French national number is stored in E.164", method: "POST", prepare: withGuest("guest_phone", "06 12 34 56 78"), wantStatus: 201,
			check: wantStoredPhone("+33612345678")},
		{name: "national number with dots", method: "POST", prepare: withGuest("guest_phone", "06.12.34.56.78"), wantStatus: 201,
			check: wantStoredPhone("+33612345678")},
		{name: "international number with spaces", method: "POST", prepare: withGuest("guest_phone", "+44 7700 900123"), wantStatus: 201,
			check: wantStoredPhone("+447700900123")},
		{name: "E.164 number as before", method: "POST", prepare: withGuest("guest_phone", "+15417543010"), wantStatus: 201,
			check: wantStoredPhone("+15417543010")},
		{name: "too short a national number", method: "POST", prepare: withGuest("guest_phone", "06 12"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_phone", "invalid_phone")},
		{name: "letters in the phone", method: "POST", prepare: withGuest("guest_phone", "06 CALL ME"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_phone", "invalid_phone")},
		{name: "number too short for its country", method: "POST", prepare: withGuest("guest_phone", "+3361234567"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_phone", "invalid_phone")},
		{name: "unknown country code", method: "POST", prepare: withGuest("guest_phone", "+999123456789"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_phone", "invalid_phone")},
		{name: "extension is not a guest's number", method: "POST", prepare: withGuest("guest_phone", "+33612345678 ext. 12"),
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guest_phone", "invalid_phone")},
		{name: "config shows the country and horizon", method: "GET", path: villa, wantStatus: 200,
			check: func(t *testing.T, _ *testEnv, r response) { wantRaw(t, r, `"country":"FR","booking_horizon_days":730`) }},

		// validate-coupon applies the stay rules.
		{name: "validate-coupon with zero guests", method: "POST", path: villa + "/validate-coupon",
			body:       `{"code":"WELCOME10","property_id":{soleil},"check_in":"2026-06-10","check_out":"2026-06-13","guests_count":0}`,
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guests_count", "min_one")},
		{name: "validate-coupon with negative guests and no stay", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"WELCOME10","guests_count":-2}`, wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guests_count", "min_one")},
		{name: "validate-coupon with null guests", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"WELCOME10","guests_count":null}`, wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guests_count", "invalid_type")},
		{name: "validate-coupon with too many guests", method: "POST", path: villa + "/validate-coupon",
			body:       `{"code":"WELCOME10","property_id":{soleil},"check_in":"2026-06-10","check_out":"2026-06-13","guests_count":5}`,
			wantStatus: 422, wantCode: "max_guests"},
		{name: "validate-coupon with too many guests and no dates", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"WELCOME10","property_id":{soleil},"guests_count":5}`, wantStatus: 422, wantCode: "max_guests"},
		{name: "validate-coupon for a past stay", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"WELCOME10","property_id":{soleil},"check_in":"2026-04-10","check_out":"2026-04-13"}`, wantStatus: 422, wantCode: "check_in_past"},
		{name: "validate-coupon for a stay too short", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"WELCOME10","property_id":{soleil},"check_in":"2026-06-10","check_out":"2026-06-11"}`, wantStatus: 422, wantCode: "min_stay"},
		{name: "validate-coupon with a check-in only", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"WELCOME10","check_in":"2026-06-10"}`, wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("check_out", "required")},
		{name: "validate-coupon beyond the horizon without a property", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"WELCOME10","check_in":"9999-12-01","check_out":"9999-12-05"}`, wantStatus: 422, wantCode: "beyond_horizon"},

		// Booking horizon: today is 2026-05-01, 730 days ahead is 2028-04-30.
		{name: "checkout in year 9999", method: "POST",
			prepare: post(villa+"/checkout", func(e *testEnv) string {
				return checkoutBody(e.Props["soleil"], "9999-12-20", "9999-12-23")
			}), wantStatus: 422, wantCode: "beyond_horizon", check: all(wantBookings("villa", 1), noStore)},
		{name: "price ending on the horizon", method: "GET", path: villa + "/properties/{cabane}/price?check_in=2028-04-28&check_out=2028-04-30", wantStatus: 200},
		{name: "price ending the day after the horizon", method: "GET", path: villa + "/properties/{cabane}/price?check_in=2028-04-28&check_out=2028-05-01&locale=en",
			wantStatus: 422, wantCode: "beyond_horizon",
			check: func(t *testing.T, _ *testEnv, r response) {
				if r.Env.Message != "Bookings are open for stays ending on 2028-04-30 at the latest." {
					t.Errorf("message = %q", r.Env.Message)
				}
			}},
		{name: "calendar at the horizon", method: "GET", path: villa + "/properties/{soleil}/availability?from=2028-04&months=2", wantStatus: 200,
			check: func(t *testing.T, _ *testEnv, r response) {
				wantRaw(t, r,
					`{"date":"2028-04-28","available":true,"units_available":1,"check_in":true,`,
					// Two nights at least: a stay from the 29th would end after the horizon.
					`{"date":"2028-04-29","available":true,"units_available":1,"check_in":false,"check_out":true,`,
					`{"date":"2028-04-30","available":false,"units_available":0,"check_in":false,"check_out":true,`,
					`{"date":"2028-05-01","available":false,"units_available":0,"check_in":false,"check_out":false,`,
					`{"date":"2028-05-31","available":false,"units_available":0,"check_in":false,"check_out":false,`)
			}},
		{name: "calendar of December 9999", method: "GET", path: villa + "/properties/{cabane}/availability?from=9999-12&months=1", wantStatus: 200,
			check: func(t *testing.T, _ *testEnv, r response) {
				wantRaw(t, r, `"to":"9999-12-31"`)
				wantNotRaw(t, r, `"available":true`, `"check_in":true`, `"check_out":true`)
			}},
		{name: "calendar running past 9999", method: "GET", path: villa + "/properties/{cabane}/availability?from=9999-12&months=2",
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("from", "out_of_range")},

		// Labels of the quote's lines follow the locale.
		{name: "quote labels in the organisation's French", method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery + "&coupon_code=WELCOME10",
			wantStatus: 200, check: quoteLabels("Code promo WELCOME10", "Frais de ménage", "Taxe de séjour")},
		{name: "quote labels in English by ?locale", method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery + "&coupon_code=WELCOME10&locale=en",
			wantStatus: 200, check: quoteLabels("Coupon WELCOME10", "Cleaning fee", "Tourist tax")},
		{name: "quote labels in English by Accept-Language", method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery,
			header: map[string]string{"Accept-Language": "en-GB,en;q=0.8"}, wantStatus: 200, check: quoteLabels("Cleaning fee", "Tourist tax")},
		{name: "quote labels in French for an English organisation", method: "GET", path: "/api/v1/book/other-org/properties/{bastide}/price?check_in=2026-06-10&check_out=2026-06-13&locale=fr",
			wantStatus: 200, check: func(t *testing.T, _ *testEnv, r response) {
				wantNotRaw(t, r, `"label":"Tourist tax"`, `"label":"Cleaning fee"`)
			}},
		{name: "stored quote labels follow the checkout's locale", method: "POST",
			prepare: post(villa+"/checkout", func(e *testEnv) string { return soleilCheckout(e, "locale", "en") }), wantStatus: 201,
			check: wantStoredLabels("Cleaning fee", "Tourist tax")},
		{name: "stored quote labels follow Accept-Language", method: "POST", header: map[string]string{"Accept-Language": "en"},
			prepare: post(villa+"/checkout", validCheckout), wantStatus: 201, check: wantStoredLabels("Cleaning fee", "Tourist tax")},
		{name: "stored quote labels default to the organisation's French", method: "POST",
			prepare: post(villa+"/checkout", validCheckout), wantStatus: 201, check: wantStoredLabels("Frais de ménage", "Taxe de séjour")},
	}
	runScenarios(t, scenarios)
}

// runScenarios runs scenarios as TestScenarios does.
func runScenarios(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			e := newTestEnv(t)
			if sc.setup != nil {
				sc.setup(t, e)
			}
			c := call{method: sc.method, path: e.expand(sc.path), header: sc.header, body: e.expand(sc.body), remote: sc.remote}
			if sc.prepare != nil {
				sc.prepare(t, e, &c)
			}
			r := e.do(c)
			checkV1Headers(t, sc.name, r)
			if got := r.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
			}
			if r.Status != sc.wantStatus {
				t.Fatalf("status = %d, want %d\n%s", r.Status, sc.wantStatus, r.Body)
			}
			if r.Env.Code != sc.wantCode {
				t.Errorf("code = %q, want %q (%s)", r.Env.Code, sc.wantCode, r.Env.Message)
			}
			if sc.check != nil {
				sc.check(t, e, r)
			}
		})
	}
}

// latestBooking returns the booking of slug created last.
func latestBooking(t *testing.T, e *testEnv, slug string) booking.Booking {
	t.Helper()
	var last booking.Booking
	for _, b := range e.bookings(slug) {
		if b.ID > last.ID {
			last = b
		}
	}
	if last.ID == 0 {
		t.Fatalf("%s has no booking", slug)
	}
	return last
}

func wantStoredPhone(want string) func(t *testing.T, e *testEnv, r response) {
	return func(t *testing.T, e *testEnv, _ response) {
		t.Helper()
		if got := latestBooking(t, e, "villa").GuestPhone; got != want {
			t.Errorf("stored phone = %q, want %q", got, want)
		}
	}
}

func wantStoredLabels(want ...string) func(t *testing.T, e *testEnv, r response) {
	return func(t *testing.T, e *testEnv, _ response) {
		t.Helper()
		q := latestBooking(t, e, "villa").Quote
		var got []string
		for _, l := range append(append(q.Discounts, q.Fees...), q.Taxes...) {
			got = append(got, l.Label)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("stored labels = %q, want %q", got, want)
		}
	}
}

// TestTwoOriginHeadersRefused: with two Origin headers rs/cors used to echo
// the second one, which nobody had checked.
func TestTwoOriginHeadersRefused(t *testing.T) {
	for _, origins := range [][]string{
		{"https://villa-soleil.fr", evilOrigin},
		{evilOrigin, "https://villa-soleil.fr"},
		{"https://villa-soleil.fr", "https://villa-soleil.fr"},
	} {
		for _, method := range []string{"GET", "OPTIONS"} {
			e := newTestEnv(t)
			req := httptest.NewRequest(method, villa, nil)
			req.Header["Origin"] = origins
			if method == "OPTIONS" {
				req.Header.Set("Access-Control-Request-Method", "GET")
			}
			rec := httptest.NewRecorder()
			e.Handler.ServeHTTP(rec, req)
			checkRecorded(t, req, nil, rec)
			if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), `"code":"origin_not_allowed"`) {
				t.Errorf("%s with Origin %q: %d %s, want 403 origin_not_allowed", method, origins, rec.Code, rec.Body)
			}
			if got := rec.Header().Values("Access-Control-Allow-Origin"); len(got) > 0 {
				t.Errorf("%s with Origin %q: Access-Control-Allow-Origin %q", method, origins, got)
			}
		}
	}
}

// TestClientHangUpIsNotAnInternalError: a request whose client went away
// is logged as a cancellation at info level, not as a server fault.
func TestClientHangUpIsNotAnInternalError(t *testing.T) {
	e := newTestEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", villa+"/properties", nil)
	req.Header.Set("X-Request-ID", "gone-1")
	rec := httptest.NewRecorder()
	e.Handler.ServeHTTP(rec, req)
	logs := e.Logs.String()
	if strings.Contains(logs, "level=ERROR") {
		t.Errorf("a client hang-up is logged as an error:\n%s", logs)
	}
	if !strings.Contains(logs, `level=INFO msg="client canceled request" request_id=gone-1`) {
		t.Errorf("no cancellation line:\n%s", logs)
	}
	if !strings.Contains(logs, "status=499") || strings.Contains(logs, "status=500") {
		t.Errorf("the request line should say 499, not 500:\n%s", logs)
	}
	if strings.Contains(rec.Body.String(), `"internal"`) {
		t.Errorf("answered as an internal error: %s", rec.Body)
	}
}
