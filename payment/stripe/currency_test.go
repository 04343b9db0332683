package stripe_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/stripe"
	"github.com/staykit/staykit/pricing"
)

var _ payment.AmountChecker = (*stripe.Provider)(nil)

// unitCases are amounts in ISO 4217 minor units (the engine's) and what
// Stripe must be sent for them, per Stripe's "Supported currencies" page;
// wantSent "" means Stripe cannot take the amount and it is refused before
// any request.
var unitCases = []struct {
	name     string
	currency string
	iso      int64
	wantSent string
}{
	// Zero-decimal in ISO 4217 and at Stripe.
	{"JPY", "JPY", 5000, "5000"},
	{"KRW", "KRW", 65000, "65000"},
	// ISK and UGX: no ISO decimals, two at Stripe, always 00.
	{"ISK", "ISK", 1000, "100000"},
	{"ISKLowerCase", "isk", 1000, "100000"},
	{"UGX", "UGX", 150000, "15000000"},
	{"UGXLowerCase", "ugx", 3700, "370000"},
	{"UGXOneShilling", "UGX", 1, "100"},
	{"UGXOverflow", "UGX", math.MaxInt64 / 10, ""},
	// MGA: two ISO decimals, none at Stripe.
	{"MGAWhole", "MGA", 150000, "1500"},
	{"MGAOneAriary", "MGA", 100, "1"},
	{"MGAFraction", "MGA", 150050, ""},
	{"MGATenthFraction", "MGA", 150005, ""},
	// HUF and TWD: two decimals for charges and refunds, as in ISO 4217
	// (only payouts are whole units).
	{"HUF", "HUF", 17545, "17545"},
	{"TWD", "TWD", 100050, "100050"},
	// Three-decimal currencies must end in 0.
	{"KWDNotEndingIn0", "KWD", 12345, ""},
	{"KWDEndingIn0", "KWD", 12340, "12340"},
	{"BHDNotEndingIn0", "BHD", 1001, ""},
	{"BHDEndingIn0", "BHD", 1010, "1010"},
	{"JODNotEndingIn0", "JOD", 5005, ""},
	{"OMREndingIn0", "OMR", 5000, "5000"},
	{"TNDEndingIn0", "TND", 1000, "1000"},
	// Everything else agrees with ISO.
	{"EUR", "EUR", 1234, "1234"},
	{"USD", "usd", 50, "50"},
}

// echoIntent answers a create with an intent carrying the amount and
// currency that were sent, as Stripe does.
func echoIntent(t *testing.T) func(request) answer {
	return func(r request) answer {
		amount, _ := strconv.ParseInt(r.Form.Get("amount"), 10, 64)
		return answer{200, intentJSON(t, map[string]any{"amount": amount, "currency": r.Form.Get("currency")})}
	}
}

func TestCreateIntentConvertsCurrencyUnits(t *testing.T) {
	for _, tt := range unitCases {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, echoIntent(t))
			got, err := newProvider(t, srv.URL, testKey).CreateIntent(context.Background(),
				payment.CreateParams{Amount: tt.iso, Currency: tt.currency})

			if tt.wantSent == "" {
				if !errors.Is(err, payment.ErrInvalid) {
					t.Errorf("err = %v, want ErrInvalid", err)
				}
				if n := len(srv.requests()); n != 0 {
					t.Errorf("requests = %d, want none", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("CreateIntent: %v", err)
			}
			if got, want := srv.onlyRequest(t).Form.Get("amount"), tt.wantSent; got != want {
				t.Errorf("amount sent = %s, want %s", got, want)
			}
			// Read back in the engine's units.
			if got.Amount != tt.iso {
				t.Errorf("intent Amount = %d, want %d", got.Amount, tt.iso)
			}
		})
	}
}

func TestRefundConvertsCurrencyUnits(t *testing.T) {
	for _, tt := range unitCases {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFakeStripe(t, func(r request) answer {
				if r.Path == "/v1/refunds" {
					amount, _ := strconv.ParseInt(r.Form.Get("amount"), 10, 64)
					return answer{200, intentJSON(t, map[string]any{
						"id": "re_1", "object": "refund", "amount": amount, "currency": tt.currency,
						"payment_intent": "pi_123", "status": "succeeded",
					})}
				}
				return answer{200, intentJSON(t, map[string]any{"status": "succeeded", "currency": tt.currency})}
			})
			got, err := newProvider(t, srv.URL, testKey).Refund(context.Background(),
				payment.RefundParams{IntentID: "pi_123", Amount: tt.iso, IdempotencyKey: "k"})

			var posts []request
			for _, r := range srv.requests() {
				if r.Method == http.MethodPost {
					posts = append(posts, r)
				}
			}
			if tt.wantSent == "" {
				if !errors.Is(err, payment.ErrInvalid) {
					t.Errorf("err = %v, want ErrInvalid", err)
				}
				if len(posts) != 0 {
					t.Errorf("refund requests = %d, want none", len(posts))
				}
				return
			}
			if err != nil {
				t.Fatalf("Refund: %v", err)
			}
			if len(posts) != 1 || posts[0].Form.Get("amount") != tt.wantSent {
				t.Fatalf("refund requests = %+v, want one with amount %s", posts, tt.wantSent)
			}
			if got.Amount != tt.iso {
				t.Errorf("refund Amount = %d, want %d", got.Amount, tt.iso)
			}
		})
	}
}

func TestGetIntentConvertsAmounts(t *testing.T) {
	tests := []struct {
		currency                   string
		amount, received, refunded int64 // as Stripe has them
		want                       [3]int64
	}{
		{"isk", 100000, 100000, 50000, [3]int64{1000, 1000, 500}},
		{"ugx", 15000000, 15000000, 370000, [3]int64{150000, 150000, 3700}},
		{"jpy", 5000, 5000, 1000, [3]int64{5000, 5000, 1000}},
		{"huf", 17545, 17545, 45, [3]int64{17545, 17545, 45}},
		{"mga", 1500, 1500, 500, [3]int64{150000, 150000, 50000}},
		{"kwd", 12340, 12340, 1230, [3]int64{12340, 12340, 1230}},
		{"eur", 1234, 1234, 34, [3]int64{1234, 1234, 34}},
	}
	for _, tt := range tests {
		t.Run(tt.currency, func(t *testing.T) {
			srv := newFakeStripe(t, func(request) answer {
				return answer{200, intentJSON(t, map[string]any{
					"amount": tt.amount, "amount_received": tt.received, "currency": tt.currency, "status": "succeeded",
					"latest_charge": map[string]any{"id": "ch_1", "object": "charge", "amount_refunded": tt.refunded},
				})}
			})
			got, err := newProvider(t, srv.URL, testKey).GetIntent(context.Background(), "pi_123")
			if err != nil {
				t.Fatalf("GetIntent: %v", err)
			}
			if g := [3]int64{got.Amount, got.AmountReceived, got.AmountRefunded}; g != tt.want {
				t.Errorf("amount, received, refunded = %v, want %v", g, tt.want)
			}
		})
	}
}

func TestParseWebhookConvertsAmounts(t *testing.T) {
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	payload := eventJSON(t, "payment_intent.succeeded", stripego.APIVersion,
		eventIntent("succeeded", "automatic", map[string]any{"amount": 100000, "amount_received": 100000, "currency": "isk"}))
	ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
	if err != nil {
		t.Fatalf("ParseWebhook: %v", err)
	}
	if ev.Intent.Amount != 1000 || ev.Intent.AmountReceived != 1000 || ev.Intent.Currency != "ISK" {
		t.Errorf("intent = %d received %d %s, want 1000 received 1000 ISK", ev.Intent.Amount, ev.Intent.AmountReceived, ev.Intent.Currency)
	}
}

func TestCheckAmount(t *testing.T) {
	tests := []struct {
		name     string
		amount   int64
		currency string
		wantErr  bool
	}{
		{"EURBelowMinimum", 49, "EUR", true},
		{"EURAtMinimum", 50, "EUR", false},
		{"EURLowerCase", 50, "eur", false},
		{"JPYBelowMinimum", 49, "JPY", true},
		{"Zero", 0, "EUR", true},
		{"Negative", -50, "EUR", true},
		{"NotACurrency", 5000, "EURO", true},
		{"ISK", 1000, "ISK", false},
		{"UGX", 150000, "UGX", false},
		{"UGXOverflow", math.MaxInt64 / 10, "UGX", true},
		{"HUFBelowMinimum", 17499, "HUF", true},
		{"HUFWithFiller", 17545, "HUF", false},
		{"MGAWhole", 150000, "MGA", false},
		{"MGAFraction", 150050, "MGA", true},
		{"KWDNotEndingIn0", 12345, "KWD", true},
		{"KWDEndingIn0", 12340, "KWD", false},
	}
	srv := newFakeStripe(t, func(request) answer { return answer{500, errorJSON("api_error", "", "no requests expected")} })
	p := newProvider(t, srv.URL, testKey)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := p.CheckAmount(tt.amount, tt.currency)
			if tt.wantErr && !errors.Is(err, payment.ErrInvalid) {
				t.Errorf("CheckAmount(%d, %s) = %v, want ErrInvalid", tt.amount, tt.currency, err)
			}
			if !tt.wantErr && err != nil {
				t.Errorf("CheckAmount(%d, %s) = %v, want nil", tt.amount, tt.currency, err)
			}
		})
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("requests = %d, want none", n)
	}
}

func TestParseWebhookConvertsUGX(t *testing.T) {
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	payload := eventJSON(t, "payment_intent.succeeded", stripego.APIVersion,
		eventIntent("succeeded", "automatic", map[string]any{"amount": 15000000, "amount_received": 15000000, "currency": "ugx"}))
	ev, err := p.ParseWebhook(payload, sign(payload, webhookSecret, time.Now()))
	if err != nil {
		t.Fatalf("ParseWebhook: %v", err)
	}
	if ev.Intent.Amount != 150000 || ev.Intent.AmountReceived != 150000 || ev.Intent.Currency != "UGX" {
		t.Errorf("intent = %d received %d %s, want 150000 received 150000 UGX", ev.Intent.Amount, ev.Intent.AmountReceived, ev.Intent.Currency)
	}
}

// TestChargeDecimals: the decimals of each currency Stripe can charge,
// which prices are rounded to when fewer than the ISO minor units.
func TestChargeDecimals(t *testing.T) {
	tests := []struct {
		currency string
		want     int32
		fewer    bool
	}{
		{"EUR", 2, false},
		{"JPY", 0, false},
		{"KRW", 0, false},
		{"ISK", 0, false},
		{"UGX", 0, false},
		{"ugx", 0, false},
		{"HUF", 2, false},
		{"TWD", 2, false},
		{"MGA", 0, true},
		{"KWD", 2, true},
		{"BHD", 2, true},
		{"JOD", 2, true},
		{"OMR", 2, true},
		{"TND", 2, true},
		{"IQD", 3, false}, // three-decimal in ISO, not in Stripe's list
	}
	p := newProvider(t, "http://127.0.0.1:1", testKey)
	for _, tt := range tests {
		t.Run(tt.currency, func(t *testing.T) {
			got, fewer := p.ChargeDecimals(tt.currency)
			if got != tt.want || fewer != tt.fewer {
				t.Errorf("ChargeDecimals(%s) = %d, %v; want %d, %v", tt.currency, got, fewer, tt.want, tt.fewer)
			}
		})
	}
}

// TestConnectFeeConvertsCurrencyUnits: the application fee goes to Stripe
// in Stripe's units like the amount it is taken from, rounded down to what
// Stripe takes, so the platform never keeps more than its fee.
func TestConnectFeeConvertsCurrencyUnits(t *testing.T) {
	tests := []struct {
		currency string
		amount   int64
		fee      int64
		wantFee  string // "" for no fee sent
	}{
		{"EUR", 12345, 600, "600"},
		{"JPY", 50000, 1500, "1500"},
		{"ISK", 50000, 1500, "150000"},
		{"UGX", 500000, 15001, "1500100"},
		{"MGA", 5000000, 12345, "123"},
		{"MGA", 5000000, 99, ""}, // under one ariary: nothing Stripe can take
		{"KWD", 50000, 1235, "1230"},
		{"HUF", 50000, 1505, "1505"},
	}
	for _, tt := range tests {
		t.Run(tt.currency+"/"+strconv.FormatInt(tt.fee, 10), func(t *testing.T) {
			srv := newFakeStripe(t, func(r request) answer {
				return answer{200, intentJSON(t, map[string]any{"currency": strings.ToLower(tt.currency), "status": "requires_capture",
					"transfer_data": map[string]any{"destination": "acct_A"}})}
			})
			for _, ct := range []payment.ChargeType{payment.ChargeDirect, payment.ChargeDestination} {
				p := newPlatform(t, srv.URL, ct, false).ForAccount("acct_A")
				ctx := context.Background()
				if _, err := p.CreateIntent(ctx, payment.CreateParams{Amount: tt.amount, Currency: tt.currency, ApplicationFee: tt.fee}); err != nil {
					t.Fatalf("%s CreateIntent: %v", ct, err)
				}
				if _, err := p.(payment.SavedCards).ChargeSaved(ctx, payment.SavedChargeParams{Customer: "cus_1", PaymentMethod: "pm_1",
					Amount: tt.amount, Currency: tt.currency, ApplicationFee: tt.fee, ManualCapture: true}); err != nil {
					t.Fatalf("%s ChargeSaved: %v", ct, err)
				}
			}
			reqs := srv.requests()
			if len(reqs) != 4 {
				t.Fatalf("requests = %d, want 4", len(reqs))
			}
			for _, r := range reqs {
				if got := r.Form.Get("application_fee_amount"); got != tt.wantFee {
					t.Errorf("%s %s: application_fee_amount = %q, want %q", r.Method, r.Path, got, tt.wantFee)
				}
			}
		})
	}
}

// TestDecimalAmountsRoundTripThroughStripeUnits: a price as the engine
// holds it (a decimal rounded to the currency by pricing) reaches Stripe in
// Stripe's integer units and comes back the same decimal, with no float on
// the way.
func TestDecimalAmountsRoundTripThroughStripeUnits(t *testing.T) {
	tests := []struct {
		price, currency, wantSent string
	}{
		{"1500", "UGX", "150000"},
		{"25000", "ISK", "2500000"},
		{"7000", "JPY", "7000"},
		{"175.45", "HUF", "17545"},
		{"1000.50", "TWD", "100050"},
		{"12.34", "KWD", "12340"},
		{"1500", "MGA", "1500"},
		{"99999.99", "EUR", "9999999"},
	}
	for _, tt := range tests {
		t.Run(tt.currency, func(t *testing.T) {
			price := pricing.Round(decimal.RequireFromString(tt.price), tt.currency)
			minor, err := pricing.ToMinor(price, tt.currency)
			if err != nil {
				t.Fatalf("ToMinor: %v", err)
			}
			srv := newFakeStripe(t, echoIntent(t))
			in, err := newProvider(t, srv.URL, testKey).CreateIntent(context.Background(),
				payment.CreateParams{Amount: minor, Currency: tt.currency})
			if err != nil {
				t.Fatalf("CreateIntent: %v", err)
			}
			if got := srv.onlyRequest(t).Form.Get("amount"); got != tt.wantSent {
				t.Errorf("amount sent = %s, want %s", got, tt.wantSent)
			}
			if back := pricing.FromMinor(in.Amount, in.Currency); !back.Equal(price) {
				t.Errorf("read back %s %s, want %s", back, in.Currency, price)
			}
		})
	}
}
