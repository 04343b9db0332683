package paymenttest_test

import (
	"context"
	"errors"
	"maps"
	"regexp"
	"testing"
	"time"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

func TestCreateIntentOK(t *testing.T) {
	created := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	p := paymenttest.New(paymenttest.WithClock(func() time.Time { return created }))

	got, err := p.CreateIntent(context.Background(), payment.CreateParams{
		Amount: 4500, Currency: "eur", ManualCapture: true,
		Metadata: map[string]string{"booking": "b1"},
	})
	if err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	if !regexp.MustCompile(`^pi_[A-Za-z0-9]{24}$`).MatchString(got.ID) {
		t.Errorf("ID = %q, want pi_ + 24 alphanumerics", got.ID)
	}
	if !regexp.MustCompile(`^` + got.ID + `_secret_[A-Za-z0-9]+$`).MatchString(got.ClientSecret) {
		t.Errorf("ClientSecret = %q, want %s_secret_<random>", got.ClientSecret, got.ID)
	}
	want := payment.Intent{
		ID: got.ID, ClientSecret: got.ClientSecret, Amount: 4500, Currency: "EUR",
		Status: payment.StatusRequiresPayment, ManualCapture: true,
		Metadata: map[string]string{"booking": "b1"}, Created: created,
	}
	if !equalIntent(*got, want) {
		t.Errorf("intent = %+v, want %+v", *got, want)
	}
	stored, ok := p.Intent(got.ID)
	if !ok || !equalIntent(stored, want) {
		t.Errorf("Intent(id) = %+v, %v; want %+v, true", stored, ok, want)
	}
	fetched, err := p.GetIntent(context.Background(), got.ID)
	if err != nil || !equalIntent(*fetched, want) {
		t.Errorf("GetIntent = %+v, %v; want %+v", fetched, err, want)
	}
}

func TestCreateIntentDistinctIDs(t *testing.T) {
	p := paymenttest.New()
	seen := map[string]bool{}
	for range 100 {
		in := create(t, p, false)
		if seen[in.ID] || seen[in.ClientSecret] {
			t.Fatalf("duplicate id or secret: %s / %s", in.ID, in.ClientSecret)
		}
		seen[in.ID], seen[in.ClientSecret] = true, true
	}
}

func TestCreateIntentErrInvalid(t *testing.T) {
	tests := []struct {
		name   string
		params payment.CreateParams
	}{
		{"zero amount", payment.CreateParams{Amount: 0, Currency: "EUR"}},
		{"negative amount", payment.CreateParams{Amount: -1, Currency: "EUR"}},
		{"amount above Stripe's maximum", payment.CreateParams{Amount: paymenttest.MaxAmount + 1, Currency: "EUR"}},
		{"empty currency", payment.CreateParams{Amount: 100, Currency: ""}},
		{"two-letter currency", payment.CreateParams{Amount: 100, Currency: "EU"}},
		{"four-letter currency", payment.CreateParams{Amount: 100, Currency: "EURO"}},
		{"digit in currency", payment.CreateParams{Amount: 100, Currency: "E1R"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paymenttest.New()
			got, err := p.CreateIntent(context.Background(), tt.params)
			if !errors.Is(err, payment.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if got != nil {
				t.Errorf("intent = %+v, want nil", got)
			}
			if n := len(p.Intents()); n != 0 {
				t.Errorf("stored %d intents, want 0", n)
			}
		})
	}
}

func TestCreateIntentMaxAmountOK(t *testing.T) {
	p := paymenttest.New()
	got, err := p.CreateIntent(context.Background(), payment.CreateParams{Amount: paymenttest.MaxAmount, Currency: "JPY"})
	if err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	if got.Amount != paymenttest.MaxAmount {
		t.Errorf("Amount = %d, want %d", got.Amount, paymenttest.MaxAmount)
	}
}

func TestCreateIntentIdempotent(t *testing.T) {
	base := payment.CreateParams{
		Amount: 12000, Currency: "EUR", IdempotencyKey: "key-1",
		Metadata: map[string]string{"booking": "b1"},
	}
	t.Run("same params return the first intent", func(t *testing.T) {
		p := paymenttest.New()
		first, err := p.CreateIntent(context.Background(), base)
		if err != nil {
			t.Fatalf("first CreateIntent: %v", err)
		}
		retry := base
		retry.Currency = "eur" // same currency, other case
		retry.Metadata = map[string]string{"booking": "b1"}
		second, err := p.CreateIntent(context.Background(), retry)
		if err != nil {
			t.Fatalf("second CreateIntent: %v", err)
		}
		if second.ID != first.ID || second.ClientSecret != first.ClientSecret {
			t.Errorf("second = %s/%s, want %s/%s", second.ID, second.ClientSecret, first.ID, first.ClientSecret)
		}
		if got, want := len(p.Intents()), 1; got != want {
			t.Errorf("stored intents = %d, want %d", got, want)
		}
		if got, want := p.Calls(paymenttest.OpCreate), 2; got != want {
			t.Errorf("Calls(create) = %d, want %d", got, want)
		}
	})
	changes := []struct {
		name   string
		change func(*payment.CreateParams)
	}{
		{"amount", func(c *payment.CreateParams) { c.Amount++ }},
		{"currency", func(c *payment.CreateParams) { c.Currency = "USD" }},
		{"manual capture", func(c *payment.CreateParams) { c.ManualCapture = true }},
		{"metadata", func(c *payment.CreateParams) { c.Metadata = map[string]string{"booking": "b2"} }},
	}
	for _, tt := range changes {
		t.Run("different "+tt.name+" is ErrInvalid", func(t *testing.T) {
			p := paymenttest.New()
			if _, err := p.CreateIntent(context.Background(), base); err != nil {
				t.Fatalf("first CreateIntent: %v", err)
			}
			other := base
			tt.change(&other)
			got, err := p.CreateIntent(context.Background(), other)
			if !errors.Is(err, payment.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if got != nil {
				t.Errorf("intent = %+v, want nil", got)
			}
			if got, want := len(p.Intents()), 1; got != want {
				t.Errorf("stored intents = %d, want %d", got, want)
			}
		})
	}
	t.Run("different keys make different intents", func(t *testing.T) {
		p := paymenttest.New()
		a, errA := p.CreateIntent(context.Background(), base)
		other := base
		other.IdempotencyKey = "key-2"
		b, errB := p.CreateIntent(context.Background(), other)
		if errA != nil || errB != nil {
			t.Fatalf("CreateIntent: %v, %v", errA, errB)
		}
		if a.ID == b.ID {
			t.Errorf("both keys gave intent %s, want two intents", a.ID)
		}
	})
	t.Run("no key makes a new intent each time", func(t *testing.T) {
		p := paymenttest.New()
		create(t, p, false)
		create(t, p, false)
		if got, want := len(p.Intents()), 2; got != want {
			t.Errorf("stored intents = %d, want %d", got, want)
		}
	})
	t.Run("replay returns the first response, as Stripe does", func(t *testing.T) {
		p := paymenttest.New()
		first, err := p.CreateIntent(context.Background(), base)
		if err != nil {
			t.Fatalf("CreateIntent: %v", err)
		}
		if _, err := p.SimulatePaid(first.ID); err != nil {
			t.Fatalf("SimulatePaid: %v", err)
		}
		replay, err := p.CreateIntent(context.Background(), base)
		if err != nil {
			t.Fatalf("replayed CreateIntent: %v", err)
		}
		if replay.Status != payment.StatusRequiresPayment {
			t.Errorf("replay status = %s, want %s", replay.Status, payment.StatusRequiresPayment)
		}
		replay.Metadata["booking"] = "mutated"
		again, _ := p.CreateIntent(context.Background(), base)
		if got := again.Metadata["booking"]; got != "b1" {
			t.Errorf("replayed metadata after mutating a replay = %q, want b1", got)
		}
	})
}

func TestIntentsAreCopies(t *testing.T) {
	ctx := context.Background()
	p := paymenttest.New()
	meta := map[string]string{"booking": "b1"}
	in, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 100, Currency: "EUR", Metadata: meta})
	if err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}
	id := in.ID

	meta["booking"] = "caller's map"
	in.Status = payment.StatusSucceeded
	in.Metadata["booking"] = "returned map"
	got, _ := p.GetIntent(ctx, id)
	got.Amount = 1
	got.Metadata["booking"] = "got map"
	viaIntent, _ := p.Intent(id)
	viaIntent.Metadata["booking"] = "Intent map"
	all := p.Intents()
	all[0].Metadata["booking"] = "Intents map"
	ev, _ := p.Event(payment.EventSucceeded, id)
	ev.Intent.Metadata["booking"] = "event map"
	paid, _ := p.SimulatePaid(id)
	paid.Metadata["booking"] = "simulation map"

	stored, _ := p.Intent(id)
	if stored.Metadata["booking"] != "b1" {
		t.Errorf("stored metadata = %q, want b1", stored.Metadata["booking"])
	}
	if stored.Amount != 100 {
		t.Errorf("stored amount = %d, want 100", stored.Amount)
	}
	if stored.Status != payment.StatusSucceeded {
		t.Errorf("stored status = %s, want %s (set by SimulatePaid only)", stored.Status, payment.StatusSucceeded)
	}
}

func TestIntentsInCreationOrder(t *testing.T) {
	p := paymenttest.New()
	var want []string
	for range 5 {
		want = append(want, create(t, p, false).ID)
	}
	all := p.Intents()
	if len(all) != len(want) {
		t.Fatalf("len(Intents) = %d, want %d", len(all), len(want))
	}
	for i, in := range all {
		if in.ID != want[i] {
			t.Errorf("Intents()[%d] = %s, want %s", i, in.ID, want[i])
		}
	}
	if _, ok := p.Intent("pi_unknown"); ok {
		t.Error("Intent(unknown) ok = true, want false")
	}
}

func TestPublicKey(t *testing.T) {
	if got, want := paymenttest.New().PublicKey(), "pk_test_fake"; got != want {
		t.Errorf("default PublicKey = %q, want %q", got, want)
	}
	if got, want := paymenttest.New(paymenttest.WithPublicKey("pk_test_x")).PublicKey(), "pk_test_x"; got != want {
		t.Errorf("PublicKey = %q, want %q", got, want)
	}
}

func equalIntent(a, b payment.Intent) bool {
	return maps.Equal(a.Metadata, b.Metadata) && a.ID == b.ID && a.ClientSecret == b.ClientSecret && a.Amount == b.Amount &&
		a.AmountReceived == b.AmountReceived && a.AmountRefunded == b.AmountRefunded &&
		a.Currency == b.Currency && a.Status == b.Status && a.ManualCapture == b.ManualCapture &&
		a.Created.Equal(b.Created)
}
