package booking_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
)

// writeLog is a store that records checkout's writes.
type writeLog struct {
	booking.Stores
	mu     sync.Mutex
	writes []string
	opts   []booking.CreateOptions // of each CreateBooking, as passed
	terms  []*booking.Terms        // CreateOptions.Terms of each CreateBooking
}

// seams are w's store with its writes recorded.
func (w *writeLog) seams() booking.Stores {
	s := w.Stores
	s.BookingStore, s.PaymentAccountStore, s.TermsStore = w, w, w
	return s
}

func (w *writeLog) note(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, s)
}

func (w *writeLog) CreateBooking(ctx context.Context, b *booking.Booking, o booking.CreateOptions) error {
	w.note("CreateBooking")
	w.mu.Lock()
	w.opts = append(w.opts, o)
	w.terms = append(w.terms, o.Terms)
	w.mu.Unlock()
	return w.Stores.CreateBooking(ctx, b, o)
}

func (w *writeLog) SetBookingPaymentAccount(ctx context.Context, id int64, acct string) error {
	w.note("SetBookingPaymentAccount")
	return w.Stores.SetBookingPaymentAccount(ctx, id, acct)
}

func (w *writeLog) SaveTerms(ctx context.Context, t *booking.Terms) error {
	w.note("SaveTerms")
	return w.Stores.SaveTerms(ctx, t)
}

func (w *writeLog) SetPaymentIntent(ctx context.Context, id int64, intentID, secret string) error {
	w.note("SetPaymentIntent")
	return w.Stores.SetPaymentIntent(ctx, id, intentID, secret)
}

// TestCheckoutWritesTermsWithTheBooking: a checkout stores the booking,
// its payment intent and its terms (with the customer the card is saved
// on, in deposit mode) in one CreateBooking: one write, no separate
// SaveTerms or SetPaymentIntent.
func TestCheckoutWritesTermsWithTheBooking(t *testing.T) {
	for _, slug := range []string{"demo", "demo-deposit"} {
		t.Run(slug, func(t *testing.T) {
			e := newEnv(t)
			log := &writeLog{Stores: e.store.Stores()}
			svc := booking.NewService(booking.Options{Stores: log.seams(), Payments: e.pay, Clock: e.clock, Notifier: e.notified})
			res, err := svc.Checkout(context.Background(), slug, e.order(slug))
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"CreateBooking"}; !slices.Equal(log.writes, want) {
				t.Errorf("writes %v, want %v", log.writes, want)
			}
			stored, err := e.store.BookingByID(context.Background(), res.Booking.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.PaymentIntentID == "" || stored.PaymentIntentID != res.Booking.PaymentIntentID || stored.ClientSecret != res.ClientSecret {
				t.Errorf("stored intent %q secret %q; want the result's %q %q", stored.PaymentIntentID, stored.ClientSecret, res.Booking.PaymentIntentID, res.ClientSecret)
			}
			if len(log.terms) != 1 || log.terms[0] == nil {
				t.Fatalf("CreateBooking's terms: %v, want the booking's", log.terms)
			}
			if res.Terms == nil || res.Terms.BookingID != res.Booking.ID || res.Terms.Version != 1 {
				t.Fatalf("result terms %+v, want those of booking %d at version 1", res.Terms, res.Booking.ID)
			}
			terms, err := e.store.Terms(context.Background(), res.Booking.ID)
			if err != nil {
				t.Fatal(err)
			}
			if terms.Customer != res.Terms.Customer || terms.BalanceStatus != res.Terms.BalanceStatus || terms.Version != 1 {
				t.Errorf("stored terms %+v, want %+v", terms, res.Terms)
			}
			if slug == "demo-deposit" && (terms.Customer == "" || terms.BalanceStatus != booking.BalanceScheduled) {
				t.Errorf("deposit mode: customer %q balance %s, want a customer and a scheduled balance", terms.Customer, terms.BalanceStatus)
			}
		})
	}
}

// TestConnectCheckoutWritesTheAccountWithTheBooking: with Stripe Connect,
// the booking's payment account is stored by CreateBooking itself, so a
// Connect checkout takes exactly the writes of a plain one, and no crash
// can leave a booking whose account is unknown.
func TestConnectCheckoutWritesTheAccountWithTheBooking(t *testing.T) {
	for _, ct := range []payment.ChargeType{payment.ChargeDestination, payment.ChargeDirect} {
		t.Run(string(ct), func(t *testing.T) {
			ctx := context.Background()
			plain := newEnv(t)
			plainLog := &writeLog{Stores: plain.store.Stores()}
			svc := booking.NewService(booking.Options{Stores: plainLog.seams(), Payments: plain.pay, Clock: plain.clock, Notifier: plain.notified})
			if _, err := svc.Checkout(ctx, "demo", plain.order("demo")); err != nil {
				t.Fatal(err)
			}

			e, pl := connectEnv(t, ct)
			acct := onboard(t, e, pl, "demo")
			log := &writeLog{Stores: e.store.Stores()}
			svc = booking.NewService(booking.Options{Stores: log.seams(), Payments: e.pay, Clock: e.clock, Notifier: e.notified, Connect: pl})
			res, err := svc.Checkout(ctx, "demo", e.order("demo"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(log.writes, plainLog.writes) {
				t.Errorf("Connect checkout writes %v, a plain one %v", log.writes, plainLog.writes)
			}
			if len(log.opts) != 1 || log.opts[0].PaymentAccount != acct {
				t.Fatalf("%d CreateBooking calls, the first with payment account %q; want one with %s", len(log.opts), firstAccount(log.opts), acct)
			}
			if len(plainLog.opts) != 1 || plainLog.opts[0].PaymentAccount != "" {
				t.Errorf("plain CreateBooking's payment account %q, want none", firstAccount(plainLog.opts))
			}
			got, err := e.store.BookingPaymentAccount(ctx, res.Booking.ID)
			if err != nil || got != acct {
				t.Errorf("stored account = %q, %v; want %s", got, err, acct)
			}
		})
	}
}

// firstAccount is the payment account of the first options, "" if none.
func firstAccount(opts []booking.CreateOptions) string {
	if len(opts) == 0 {
		return ""
	}
	return opts[0].PaymentAccount
}
