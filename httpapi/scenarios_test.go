package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
)

// scenario is one request through the real handler and what must come back.
type scenario struct {
	name string
	// setup runs before the request, on the scenario's own environment.
	setup func(t *testing.T, e *testEnv)
	// prepare may change the call once the environment exists.
	prepare func(t *testing.T, e *testEnv, c *call)
	method  string
	// path may hold {soleil}, {cabane}, {bastide}, {ryokan}, {chalet},
	// {loft}, {grange} (property ids) and {pending} (a booking token).
	path       string
	header     map[string]string
	body       string
	remote     string
	wantStatus int
	wantCode   string
	check      func(t *testing.T, e *testEnv, r response)
}

const (
	villa       = "/api/v1/book/villa"
	stayQuery   = "check_in=2026-06-10&check_out=2026-06-13&guests_count=2"
	evilOrigin  = "https://evil.example"
	bodySoleil  = "{soleil}"
	huge        = 70 << 10
	webhookPath = "/api/v1/webhooks/stripe"
)

func (e *testEnv) expand(s string) string {
	pairs := []string{"{pending}", e.Tokens["pending"]}
	for name, id := range e.Props {
		pairs = append(pairs, "{"+name+"}", strconv.FormatInt(id, 10))
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// soleilCheckout is a valid checkout body for soleil, 2026-06-10 → 13.
func soleilCheckout(e *testEnv, extra ...string) string {
	return checkoutBody(e.Props["soleil"], "2026-06-10", "2026-06-13", extra...)
}

func wantRaw(t *testing.T, r response, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(string(r.Body), p) {
			t.Errorf("body lacks %s:\n%s", p, r.Body)
		}
	}
}

func wantNotRaw(t *testing.T, r response, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(string(r.Body), p) {
			t.Errorf("body has %s:\n%s", p, r.Body)
		}
	}
}

func wantFieldCodes(field string, codes ...string) func(t *testing.T, e *testEnv, r response) {
	return func(t *testing.T, _ *testEnv, r response) {
		t.Helper()
		got := strings.Join(r.Env.FieldCodes[field], ",")
		if want := strings.Join(codes, ","); got != want {
			t.Errorf("field_codes[%s] = %q, want %q (all: %v)", field, got, want, r.Env.FieldCodes)
		}
		if len(r.Env.Errors[field]) != len(codes) {
			t.Errorf("errors[%s] = %v, want %d messages", field, r.Env.Errors[field], len(codes))
		}
	}
}

func wantBookings(slug string, n int) func(t *testing.T, e *testEnv, r response) {
	return func(t *testing.T, e *testEnv, _ response) {
		t.Helper()
		if got := len(e.bookings(slug)); got != n {
			t.Errorf("%s has %d bookings, want %d", slug, got, n)
		}
	}
}

func wantHeader(name, value string) func(t *testing.T, e *testEnv, r response) {
	return func(t *testing.T, _ *testEnv, r response) {
		t.Helper()
		if got := r.Header.Get(name); got != value {
			t.Errorf("%s = %q, want %q", name, got, value)
		}
	}
}

func all(checks ...func(t *testing.T, e *testEnv, r response)) func(t *testing.T, e *testEnv, r response) {
	return func(t *testing.T, e *testEnv, r response) {
		t.Helper()
		for _, c := range checks {
			c(t, e, r)
		}
	}
}

func TestScenarios(t *testing.T) {
	scenarios := []scenario{
		// Success of every route.
		{name: "config OK", method: "GET", path: villa, wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"organization":{"name":"Villa Soleil","slug":"villa","logo":null}`,
					`"payment_mode":"full"`, `"default_locale":"fr"`, `"branding":{"primary_color":"#ff8800"}`,
					`"terms_url":null`, `"min_stay_nights":null`, `"max_stay_nights":null`, `"currency":"EUR"`,
					`"timezone":"Europe/Paris"`, `"payment_public_key":"pk_test_fake"`)
			}},
		{name: "config of an organisation without branding has an empty object", method: "GET", path: "/api/v1/book/other-org", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) { wantRaw(t, r, `"branding":{}`) }},
		{name: "properties OK", method: "GET", path: villa + "/properties", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				var ps []map[string]any
				r.data(t, &ps)
				if len(ps) != 2 {
					t.Fatalf("got %d properties, want 2", len(ps))
				}
				wantRaw(t, r, `"name":"Soleil","description":"Sea view","photos":["https://img.example/1.jpg"],"city":"Nice","country":"FR","max_guests":4,"bedrooms":2,"min_stay_nights":2,"max_stay_nights":14,"currency":"EUR","price_from":100.00`,
					`"name":"Cabane","description":"","photos":[],"city":"Nice","country":"FR","max_guests":2,"bedrooms":1,"min_stay_nights":null,"max_stay_nights":null,"currency":"EUR","price_from":80.00`)
			}},
		{name: "availability defaults to 12 months from this month", method: "GET", path: villa + "/properties/{soleil}/availability", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				var c struct {
					PropertyID int64 `json:"property_id"`
					Days       []struct {
						Date      string `json:"date"`
						Available bool   `json:"available"`
						MinStay   int    `json:"min_stay"`
					} `json:"days"`
				}
				r.data(t, &c)
				wantRaw(t, r, `"from":"2026-05-01","to":"2027-04-30"`)
				if len(c.Days) != 365 || c.PropertyID != e.Props["soleil"] {
					t.Fatalf("days = %d, property %d; want 365 days of soleil", len(c.Days), c.PropertyID)
				}
				for _, d := range c.Days {
					held := d.Date >= "2026-09-01" && d.Date < "2026-09-04"
					if d.Available == held {
						t.Errorf("%s available = %v, want %v", d.Date, d.Available, !held)
					}
					if d.MinStay != 2 {
						t.Errorf("%s min_stay = %d, want 2", d.Date, d.MinStay)
					}
				}
			}},
		{name: "availability of one month from a given month", method: "GET", path: villa + "/properties/{soleil}/availability?months=1&from=2026-09", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"from":"2026-09-01","to":"2026-09-30"`,
					// A stay may end on the 1st (the fixture starts then), not on the
					// 4th nor 5th: the nights before are taken.
					`{"date":"2026-09-01","available":false,"units_available":0,"check_in":false,"check_out":true,"price":100.00,"min_stay":2,"max_stay":14}`,
					`{"date":"2026-09-02","available":false,"units_available":0,"check_in":false,"check_out":false,"price":100.00,"min_stay":2,"max_stay":14}`,
					`{"date":"2026-09-04","available":true,"units_available":1,"check_in":true,"check_out":false,"price":120.00,"min_stay":2,"max_stay":14}`,
					`{"date":"2026-09-06","available":true,"units_available":1,"check_in":true,"check_out":true,"price":100.00,"min_stay":2,"max_stay":14}`)
			}},
		{name: "availability in a currency without minor units", method: "GET", path: "/api/v1/book/yen-org/properties/{ryokan}/availability?months=1", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"currency":"JPY"`, `"price":15000,`)
				wantNotRaw(t, r, `15000.`)
			}},
		{name: "price OK", method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery, wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"check_in":"2026-06-10","check_out":"2026-06-13","nights":3,"guests_count":2,"currency":"EUR"`,
					`"nights_detail":[{"date":"2026-06-10","price":100.00},{"date":"2026-06-11","price":100.00},{"date":"2026-06-12","price":120.00}]`,
					`"accommodation":320.00,"discounts":[]`, `{"code":"cleaning_fee","label":"Frais de ménage","amount":50.00}`,
					`{"code":"tourist_tax","label":"Taxe de séjour","amount":12.00}`,
					`"total_amount":382.00,"payment_mode":"full","charge_amount":382.00,"balance_amount":0.00,"balance_due_date":null,"coupon":null`)
			}},
		{name: "price with a coupon", method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery + "&coupon_code=welcome10", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"discounts":[{"code":"coupon","label":"Code promo WELCOME10","amount":32.00}]`, `"total_amount":350.00`, `"coupon":"WELCOME10"`)
			}},
		{name: "price counts one guest by default", method: "GET", path: villa + "/properties/{soleil}/price?check_in=2026-06-10&check_out=2026-06-13", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"guests_count":1`, `"amount":6.00`, `"total_amount":376.00`)
			}},
		{name: "price in deposit mode has a balance due date", method: "GET", path: "/api/v1/book/deposit-org/properties/{chalet}/price?check_in=2026-07-06&check_out=2026-07-09", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"total_amount":300.00,"payment_mode":"deposit","charge_amount":90.00,"balance_amount":210.00,"balance_due_date":"2026-06-06"`)
			}},
		{name: "validate-coupon OK without a stay", method: "POST", path: villa + "/validate-coupon", body: `{"code":" welcome10 "}`, wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `{"code":"WELCOME10","valid":true,"discount_type":"percent","discount_value":10,"discount_amount":null,"currency":"EUR","label":"Welcome offer"}`)
			}},
		{name: "validate-coupon OK with a stay", method: "POST", path: villa + "/validate-coupon",
			body: `{"code":"FIXED30","property_id":{soleil},"check_in":"2026-06-10","check_out":"2026-06-13","guests_count":2}`, wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"discount_type":"fixed","discount_value":30.00,"discount_amount":30.00`)
			}},
		{name: "checkout OK", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) }, wantStatus: 201,
			check: func(t *testing.T, e *testEnv, r response) {
				m := r.obj(t)
				token, _ := m["booking_token"].(string)
				if len(token) < 22 {
					t.Errorf("booking_token %q is too short to carry 128 bits", token)
				}
				if s, _ := m["client_secret"].(string); !strings.HasPrefix(s, "pi_") {
					t.Errorf("client_secret = %v, want a fake intent's secret", m["client_secret"])
				}
				wantRaw(t, r, `"payment_mode":"full","total_amount":382.00,"charge_amount":382.00`,
					`"payment_public_key":"pk_test_fake","status":"pending","currency":"EUR","balance_amount":0.00,"expires_at":"2026-05-01T10:30:00Z"`)
				wantBookings("villa", 2)(t, e, r)
			}},
		{name: "checkout with coupon, message and locale", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = soleilCheckout(e, "coupon_code", "welcome10", "message", "Arriving late", "locale", "en", "unknown_field", "ignored")
			}, wantStatus: 201,
			check: func(t *testing.T, e *testEnv, r response) { wantRaw(t, r, `"total_amount":350.00`) }},
		{name: "booking status OK, without e-mail or phone", method: "GET", path: villa + "/booking/{pending}", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"status":"pending","property":{"id":`+strconv.FormatInt(e.Props["soleil"], 10)+`,"name":"Soleil"}`,
					`"check_in":"2026-09-01","check_out":"2026-09-04","nights":3,"guests_count":2,"guest_name":"Fixture Guest","currency":"EUR"`,
					`"paid_amount":0.00`, `"payment_mode":"full","created_at":"2026-05-01T10:00:00Z","expires_at":"2026-05-01T10:30:00Z","confirmed_at":null`)
				wantNotRaw(t, r, "fixture@example.com", "+33600000000", "guest_email", "guest_phone")
			}},
		{name: "confirm OK once paid", method: "POST", path: villa + "/booking/{pending}/confirm", body: `{}`,
			setup: func(t *testing.T, e *testEnv) { payBooking(t, e, "villa", e.Tokens["pending"]) }, wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `"status":"confirmed"`, `"total_amount":362.00,"charge_amount":362.00,"paid_amount":362.00`, `"confirmed_at":"2026-05-01T10:00:00Z"`, `"expires_at":null`)
			}},
		{name: "confirm with an empty body and no content type", method: "POST", path: villa + "/booking/{pending}/confirm",
			header: map[string]string{"Content-Type": "-"},
			setup:  func(t *testing.T, e *testEnv) { payBooking(t, e, "villa", e.Tokens["pending"]) }, wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) { wantRaw(t, r, `"status":"confirmed"`) }},
		{name: "webhook OK", method: "POST", path: webhookPath,
			prepare: func(t *testing.T, e *testEnv, c *call) {
				intent := intentOf(t, e, "villa", e.Tokens["pending"])
				if _, err := e.Pay.SimulatePaid(intent); err != nil {
					t.Fatal(err)
				}
				payload, sig, err := e.Pay.SignedWebhook(payment.EventSucceeded, intent)
				if err != nil {
					t.Fatal(err)
				}
				c.body, c.header = string(payload), map[string]string{"Stripe-Signature": sig}
			}, wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				wantRaw(t, r, `{"success":true,"data":{"received":true}}`)
				if got := bookingStatus(t, e, "villa", e.Tokens["pending"]); got != booking.StatusConfirmed {
					t.Errorf("status after webhook = %s, want confirmed", got)
				}
			}},
		{name: "openapi document", method: "GET", path: "/api/v1/openapi.json", wantStatus: 200,
			check: func(t *testing.T, e *testEnv, r response) {
				var doc struct {
					OpenAPI string `json:"openapi"`
				}
				if err := json.Unmarshal(r.Body, &doc); err != nil || doc.OpenAPI != "3.1.0" {
					t.Errorf("openapi = %q (%v), want 3.1.0", doc.OpenAPI, err)
				}
			}},

		// 400
		{name: "malformed JSON", method: "POST", path: villa + "/checkout", body: `{"property_id":`, wantStatus: 400, wantCode: "malformed_json"},
		{name: "trailing garbage after the JSON object", method: "POST", path: villa + "/checkout", body: `{"property_id":1} {"x":2}`, wantStatus: 400, wantCode: "malformed_json"},
		{name: "JSON that is not an object", method: "POST", path: villa + "/validate-coupon", body: `["WELCOME10"]`, wantStatus: 400, wantCode: "malformed_json"},
		{name: "webhook with a bad signature", method: "POST", path: webhookPath, body: `{"id":"evt_1"}`,
			header: map[string]string{"Stripe-Signature": "t=1,v1=deadbeef"}, wantStatus: 400, wantCode: "invalid_webhook"},

		// 403
		{name: "checkout from a disallowed origin books nothing", method: "POST", path: villa + "/checkout",
			header:  map[string]string{"Origin": evilOrigin},
			prepare: func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) }, wantStatus: 403, wantCode: "origin_not_allowed",
			check: all(wantBookings("villa", 1), wantHeader("Access-Control-Allow-Origin", ""), wantHeader("Vary", "Origin"),
				func(t *testing.T, e *testEnv, _ response) {
					if n := len(e.Pay.Intents()); n != 1 {
						t.Errorf("%d payment intents, want only the fixture's", n)
					}
				})},
		{name: "confirm from a disallowed origin changes nothing", method: "POST", path: villa + "/booking/{pending}/confirm", body: `{}`,
			header: map[string]string{"Origin": "https://villa-soleil.fr.evil.com"},
			setup:  func(t *testing.T, e *testEnv) { payBooking(t, e, "villa", e.Tokens["pending"]) }, wantStatus: 403, wantCode: "origin_not_allowed",
			check: func(t *testing.T, e *testEnv, _ response) {
				if got := bookingStatus(t, e, "villa", e.Tokens["pending"]); got != booking.StatusPending {
					t.Errorf("status = %s, want still pending", got)
				}
			}},
		{name: "origin null is refused", method: "GET", path: villa, header: map[string]string{"Origin": "null"}, wantStatus: 403, wantCode: "origin_not_allowed"},

		// 404
		{name: "unknown organisation", method: "GET", path: "/api/v1/book/nobody", wantStatus: 404, wantCode: "not_found"},
		{name: "slug of an impossible shape", method: "GET", path: "/api/v1/book/No_Such!/properties", wantStatus: 404, wantCode: "not_found"},
		{name: "engine disabled", method: "GET", path: "/api/v1/book/disabled-org", wantStatus: 404, wantCode: "not_found"},
		{name: "engine disabled, properties", method: "GET", path: "/api/v1/book/disabled-org/properties", wantStatus: 404, wantCode: "not_found"},
		{name: "checkout for an unknown organisation", method: "POST", path: "/api/v1/book/nobody/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) }, wantStatus: 404, wantCode: "not_found"},
		{name: "unknown property", method: "GET", path: villa + "/properties/999/price?" + stayQuery, wantStatus: 404, wantCode: "not_found",
			check: func(t *testing.T, e *testEnv, r response) {
				if r.Env.Message != "Ce logement n'existe pas." {
					t.Errorf("message = %q", r.Env.Message)
				}
			}},
		{name: "property of another organisation", method: "GET", path: villa + "/properties/{bastide}/availability", wantStatus: 404, wantCode: "not_found"},
		{name: "checkout of another organisation's property", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = checkoutBody(e.Props["bastide"], "2026-06-10", "2026-06-13")
			}, wantStatus: 404, wantCode: "not_found", check: wantBookings("other-org", 0)},
		{name: "property id not a number", method: "GET", path: villa + "/properties/abc/availability", wantStatus: 404, wantCode: "not_found"},
		{name: "property id zero", method: "GET", path: villa + "/properties/0/availability", wantStatus: 404, wantCode: "not_found"},
		{name: "property id negative", method: "GET", path: villa + "/properties/-1/price?" + stayQuery, wantStatus: 404, wantCode: "not_found"},
		{name: "unknown booking token", method: "GET", path: villa + "/booking/not-a-token", wantStatus: 404, wantCode: "not_found"},
		{name: "booking token of another organisation", method: "GET", path: "/api/v1/book/other-org/booking/{pending}", wantStatus: 404, wantCode: "not_found"},
		{name: "confirm of an unknown token", method: "POST", path: villa + "/booking/nope/confirm", body: `{}`, wantStatus: 404, wantCode: "not_found"},
		{name: "unknown route under v1", method: "GET", path: "/api/v1/nope", wantStatus: 404, wantCode: "not_found"},
		{name: "unknown route under an organisation", method: "GET", path: villa + "/unknown", wantStatus: 404, wantCode: "not_found"},
		{name: "unknown route outside v1", method: "GET", path: "/elsewhere", wantStatus: 404, wantCode: "not_found"},
		{name: "trailing slash", method: "GET", path: villa + "/properties/", wantStatus: 404, wantCode: "not_found"},
		{name: "unclean path is not redirected", method: "GET", path: villa + "/../villa/properties", wantStatus: 404, wantCode: "not_found"},

		// 405
		{name: "DELETE checkout", method: "DELETE", path: villa + "/checkout", wantStatus: 405, wantCode: "method_not_allowed",
			check: wantHeader("Allow", "POST, OPTIONS")},
		{name: "POST configuration", method: "POST", path: villa, body: `{}`, wantStatus: 405, wantCode: "method_not_allowed",
			check: wantHeader("Allow", "GET, HEAD, OPTIONS")},
		{name: "GET confirm", method: "GET", path: villa + "/booking/{pending}/confirm", wantStatus: 405, wantCode: "method_not_allowed",
			check: wantHeader("Allow", "POST, OPTIONS")},
		{name: "GET webhook", method: "GET", path: webhookPath, wantStatus: 405, wantCode: "method_not_allowed",
			check: wantHeader("Allow", "POST, OPTIONS")},

		// 409
		{name: "Idempotency-Key reused with another body", method: "POST", path: villa + "/checkout",
			header: map[string]string{"Idempotency-Key": "key-1"},
			setup: func(t *testing.T, e *testEnv) {
				r := e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e), header: map[string]string{"Idempotency-Key": "key-1"}})
				if r.Status != 201 {
					t.Fatalf("first checkout: %d %s", r.Status, r.Body)
				}
			},
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = checkoutBody(e.Props["soleil"], "2026-06-20", "2026-06-23")
			}, wantStatus: 409, wantCode: "conflict", check: wantBookings("villa", 2)},

		// 413
		{name: "checkout body over 64 KiB", method: "POST", path: villa + "/checkout",
			body: `{"message":"` + strings.Repeat("x", huge) + `"}`, wantStatus: 413, wantCode: "body_too_large"},
		{name: "webhook body over 64 KiB", method: "POST", path: webhookPath,
			body: `{"id":"` + strings.Repeat("x", huge) + `"}`, wantStatus: 413, wantCode: "body_too_large"},

		// 415
		{name: "checkout as text/plain", method: "POST", path: villa + "/checkout", header: map[string]string{"Content-Type": "text/plain"},
			prepare: func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) }, wantStatus: 415, wantCode: "unsupported_media_type",
			check: wantBookings("villa", 1)},
		{name: "checkout without a content type", method: "POST", path: villa + "/checkout", header: map[string]string{"Content-Type": "-"},
			prepare: func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) }, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "confirm with a form body", method: "POST", path: villa + "/booking/{pending}/confirm", body: "payment_intent_id=pi_1",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "checkout with JSON and a charset", method: "POST", path: villa + "/checkout", header: map[string]string{"Content-Type": "application/json; charset=utf-8"},
			prepare: func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) }, wantStatus: 201},

		// 422
		{name: "checkout with nothing", method: "POST", path: villa + "/checkout", body: `{}`, wantStatus: 422, wantCode: "invalid",
			check: all(wantFieldCodes("guest_name", "required"), wantFieldCodes("guest_email", "required"),
				wantFieldCodes("guest_phone", "required"), wantFieldCodes("property_id", "required"),
				wantFieldCodes("check_in", "required"), wantFieldCodes("guests_count", "min_one"),
				func(t *testing.T, e *testEnv, r response) {
					if got := r.Env.Errors["guest_name"][0]; got != "Ce champ est obligatoire." {
						t.Errorf("guest_name message = %q, want the French one (villa's default)", got)
					}
				})},
		{name: "guests_count as a string", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = strings.Replace(soleilCheckout(e), `"guests_count":2`, `"guests_count":"2"`, 1)
			}, wantStatus: 422, wantCode: "invalid",
			check: all(wantFieldCodes("guests_count", "invalid_type"), wantBookings("villa", 1))},
		{name: "property_id as a string", method: "POST", path: villa + "/checkout",
			body:       `{"property_id":"x","guest_name":"A","guest_email":"a@example.com","guest_phone":"+33612345678","check_in":"2026-06-10","check_out":"2026-06-13","guests_count":2}`,
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("property_id", "invalid_type")},
		{name: "property_id with a fraction", method: "POST", path: villa + "/checkout",
			body:       `{"property_id":1.5,"guest_name":"A","guest_email":"a@example.com","guest_phone":"+33612345678","check_in":"2026-06-10","check_out":"2026-06-13","guests_count":2}`,
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("property_id", "invalid_type")},
		{name: "dates not in YYYY-MM-DD", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = checkoutBody(e.Props["soleil"], "2026/06/10", "2026-06-31")
			}, wantStatus: 422, wantCode: "invalid",
			check: all(wantFieldCodes("check_in", "invalid_date"), wantFieldCodes("check_out", "invalid_date"))},
		{name: "bad e-mail and phone", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = soleilCheckout(e, "guest_email", "ada@", "guest_phone", "06 12")
			}, wantStatus: 422, wantCode: "invalid",
			check: all(wantFieldCodes("guest_email", "invalid_email"), wantFieldCodes("guest_phone", "invalid_phone"))},
		{name: "Idempotency-Key too long", method: "POST", path: villa + "/checkout",
			header:  map[string]string{"Idempotency-Key": strings.Repeat("k", 256)},
			prepare: func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) }, wantStatus: 422, wantCode: "invalid",
			check: wantFieldCodes("idempotency_key", "too_long")},
		{name: "dates taken", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = checkoutBody(e.Props["soleil"], "2026-09-02", "2026-09-05")
			}, wantStatus: 422, wantCode: "unavailable",
			check: func(t *testing.T, e *testEnv, r response) {
				if r.Env.Message != "Ces dates ne sont plus disponibles." {
					t.Errorf("message = %q", r.Env.Message)
				}
			}},
		{name: "stay shorter than the minimum", method: "GET", path: villa + "/properties/{soleil}/price?check_in=2026-06-10&check_out=2026-06-11&locale=en",
			wantStatus: 422, wantCode: "min_stay",
			check: func(t *testing.T, e *testEnv, r response) {
				if r.Env.Message != "This stay is shorter than the minimum of 2 nights." {
					t.Errorf("message = %q", r.Env.Message)
				}
			}},
		{name: "stay longer than the maximum", method: "POST", path: villa + "/checkout",
			prepare: func(t *testing.T, e *testEnv, c *call) {
				c.body = checkoutBody(e.Props["soleil"], "2026-06-01", "2026-06-21")
			}, wantStatus: 422, wantCode: "max_stay",
			check: func(t *testing.T, e *testEnv, r response) {
				if r.Env.Message != "Ce séjour dépasse la durée maximale de 14 nuits." {
					t.Errorf("message = %q", r.Env.Message)
				}
			}},
		{name: "too many guests", method: "GET", path: villa + "/properties/{soleil}/price?check_in=2026-06-10&check_out=2026-06-13&guests_count=5",
			wantStatus: 422, wantCode: "max_guests"},
		{name: "check-in in the past", method: "GET", path: villa + "/properties/{soleil}/price?check_in=2026-04-10&check_out=2026-04-13",
			wantStatus: 422, wantCode: "check_in_past"},
		{name: "check-out before check-in", method: "GET", path: villa + "/properties/{soleil}/price?check_in=2026-06-13&check_out=2026-06-10",
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("check_out", "after_check_in")},
		{name: "guests_count not an integer in the query", method: "GET", path: villa + "/properties/{soleil}/price?check_in=2026-06-10&check_out=2026-06-13&guests_count=two",
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("guests_count", "invalid_integer")},
		{name: "check_in not a date in the query", method: "GET", path: villa + "/properties/{soleil}/price?check_in=10/06/2026&check_out=2026-06-13",
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("check_in", "invalid_date")},
		{name: "calendar of too many months", method: "GET", path: villa + "/properties/{soleil}/availability?months=30",
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("months", "out_of_range")},
		{name: "calendar of zero months", method: "GET", path: villa + "/properties/{soleil}/availability?months=0",
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("months", "out_of_range")},
		{name: "calendar from a month that does not exist", method: "GET", path: villa + "/properties/{soleil}/availability?from=2026-13",
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("from", "invalid_date")},
		{name: "expired coupon at checkout", method: "POST", path: villa + "/checkout",
			prepare:    func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e, "coupon_code", "EXPIRED") },
			wantStatus: 422, wantCode: "coupon_expired",
			check: all(wantFieldCodes("coupon_code", "coupon_expired"), wantBookings("villa", 1),
				func(t *testing.T, e *testEnv, r response) {
					if r.Env.Message != "Ce code promo a expiré le 2026-04-01." {
						t.Errorf("message = %q", r.Env.Message)
					}
				})},
		{name: "unknown coupon in a quote", method: "GET", path: villa + "/properties/{soleil}/price?" + stayQuery + "&coupon_code=NOPE",
			wantStatus: 422, wantCode: "coupon_not_found"},
		{name: "coupon that needs a longer stay", method: "POST", path: villa + "/validate-coupon",
			body:       `{"code":"LONGSTAY","property_id":{soleil},"check_in":"2026-06-10","check_out":"2026-06-13"}`,
			header:     map[string]string{"Accept-Language": "en"},
			wantStatus: 422, wantCode: "coupon_min_nights",
			check: func(t *testing.T, e *testEnv, r response) {
				if r.Env.Message != "This coupon requires a stay of at least 7 nights." {
					t.Errorf("message = %q", r.Env.Message)
				}
			}},
		{name: "validate-coupon without a code", method: "POST", path: villa + "/validate-coupon", body: `{"code":""}`,
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("code", "required")},
		{name: "validate-coupon with property_id zero", method: "POST", path: villa + "/validate-coupon", body: `{"code":"WELCOME10","property_id":0}`,
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("property_id", "out_of_range")},
		{name: "confirm before payment", method: "POST", path: villa + "/booking/{pending}/confirm", body: `{}`,
			wantStatus: 422, wantCode: "payment_not_confirmed",
			check: func(t *testing.T, e *testEnv, r response) {
				if r.Env.Message != "Le paiement n'a pas encore abouti." {
					t.Errorf("message = %q", r.Env.Message)
				}
			}},
		{name: "confirm with another booking's intent", method: "POST", path: villa + "/booking/{pending}/confirm", body: `{"payment_intent_id":"pi_other"}`,
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("payment_intent_id", "mismatch")},
		{name: "confirm with payment_intent_id of the wrong type", method: "POST", path: villa + "/booking/{pending}/confirm", body: `{"payment_intent_id":12}`,
			wantStatus: 422, wantCode: "invalid", check: wantFieldCodes("payment_intent_id", "invalid_type")},

		// 429
		{name: "eleventh checkout in a minute", method: "POST", path: villa + "/checkout", body: `{}`,
			setup: func(t *testing.T, e *testEnv) {
				for i := range 10 {
					if r := e.do(call{method: "POST", path: villa + "/checkout", body: `{}`}); r.Status != 422 {
						t.Fatalf("checkout %d: %d, want 422", i+1, r.Status)
					}
				}
			}, wantStatus: 429, wantCode: "rate_limited",
			check: all(wantHeader("Retry-After", "6"), wantHeader("RateLimit-Limit", "10"), wantHeader("RateLimit-Remaining", "0"))},

		// 502
		{name: "payment provider down holds no dates", method: "POST", path: villa + "/checkout",
			setup:      func(t *testing.T, e *testEnv) { e.Pay.SetDown(true) },
			prepare:    func(t *testing.T, e *testEnv, c *call) { c.body = soleilCheckout(e) },
			wantStatus: 502, wantCode: "payment_unavailable",
			check: func(t *testing.T, e *testEnv, r response) {
				wantBookings("villa", 1)(t, e, r)
				e.Pay.SetDown(false)
				again := e.do(call{method: "POST", path: villa + "/checkout", body: soleilCheckout(e)})
				if again.Status != 201 {
					t.Errorf("checkout once the provider is back: %d %s", again.Status, again.Body)
				}
			}},

		// 500
		{name: "store failure is a safe 500", method: "GET", path: villa + "/properties", header: map[string]string{"X-Request-ID": "req-500"},
			setup: func(t *testing.T, e *testEnv) { e.Store.fail.Store(true) }, wantStatus: 500, wantCode: "internal",
			check: func(t *testing.T, e *testEnv, r response) {
				wantNotRaw(t, r, "disk on fire", "secret.db")
				if r.Env.Message != "Une erreur inattendue s'est produite. Veuillez réessayer plus tard." {
					t.Errorf("message = %q", r.Env.Message)
				}
				logs := e.Logs.String()
				if !strings.Contains(logs, "disk on fire") || !strings.Contains(logs, "request_id=req-500") {
					t.Errorf("logs lack the cause with the request id:\n%s", logs)
				}
			}},
		{name: "panic is a JSON 500", method: "GET", path: villa + "/properties",
			setup: func(t *testing.T, e *testEnv) { e.Store.panic.Store(true) }, wantStatus: 500, wantCode: "internal",
			check: func(t *testing.T, e *testEnv, r response) {
				wantNotRaw(t, r, "exploded")
				if !strings.Contains(e.Logs.String(), "store exploded") {
					t.Error("the panic is not logged")
				}
			}},
	}
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
			if r.Status != sc.wantStatus {
				t.Fatalf("status = %d, want %d\n%s", r.Status, sc.wantStatus, r.Body)
			}
			wantSuccess := sc.wantStatus < 400
			if r.Env.Success != wantSuccess && !strings.HasSuffix(c.path, "openapi.json") {
				t.Errorf("success = %v, want %v", r.Env.Success, wantSuccess)
			}
			if r.Env.Code != sc.wantCode {
				t.Errorf("code = %q, want %q (%s)", r.Env.Code, sc.wantCode, r.Env.Message)
			}
			if !wantSuccess && r.Env.Message == "" {
				t.Error("failure without a message")
			}
			if sc.check != nil {
				sc.check(t, e, r)
			}
		})
	}
}

// intentOf returns the payment intent id of a booking.
func intentOf(t *testing.T, e *testEnv, slug, token string) string {
	t.Helper()
	for _, b := range e.bookings(slug) {
		if b.Token == token {
			return b.PaymentIntentID
		}
	}
	t.Fatalf("no booking %s in %s", token, slug)
	return ""
}

// payBooking is the guest paying a booking's intent at the provider.
func payBooking(t *testing.T, e *testEnv, slug, token string) {
	t.Helper()
	if _, err := e.Pay.SimulatePaid(intentOf(t, e, slug, token)); err != nil {
		t.Fatalf("pay %s: %v", token, err)
	}
}

// bookingStatus reads a booking's status from the service.
func bookingStatus(t *testing.T, e *testEnv, slug, token string) booking.Status {
	t.Helper()
	for _, b := range e.bookings(slug) {
		if b.Token == token {
			return b.Status
		}
	}
	t.Fatalf("no booking %s in %s", token, slug)
	return ""
}

var _ = http.MethodGet
