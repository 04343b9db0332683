package stripe_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/stripe"
)

var _ payment.AmountChecker = (*stripe.Provider)(nil)

// unitCases are amounts in ISO 4217 minor units (the engine's) and what
// Stripe must be sent for them; wantSent "" means Stripe cannot express the
// amount and it is refused before any request.
var unitCases = []struct {
	name     string
	currency string
	iso      int64
	wantSent string
}{
	// ISK: no ISO decimals, two at Stripe, always 00.
	{"ISK", "ISK", 1000, "100000"},
	{"ISKLowerCase", "isk", 1000, "100000"},
	// MGA: two ISO decimals, none at Stripe.
	{"MGAWhole", "MGA", 150000, "1500"},
	{"MGAOneAriary", "MGA", 100, "1"},
	{"MGAFraction", "MGA", 150050, ""},
	{"MGATenthFraction", "MGA", 150005, ""},
	// Three-decimal currencies must end in 0.
	{"KWDNotEndingIn0", "KWD", 12345, ""},
	{"KWDEndingIn0", "KWD", 12340, "12340"},
	{"BHDNotEndingIn0", "BHD", 1001, ""},
	{"TNDEndingIn0", "TND", 1000, "1000"},
	// Everything else agrees with ISO.
	{"JPY", "JPY", 5000, "5000"},
	{"EUR", "EUR", 1234, "1234"},
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
