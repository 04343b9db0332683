package paymenttest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// fakeClock is a settable clock for WithClock. Tests set it between calls
// from one goroutine.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

var authorizedAt = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func TestAuthorizationSetsCaptureBefore(t *testing.T) {
	authorize := map[string]func(p *paymenttest.Provider, id string) (*payment.Intent, error){
		"SimulateAuthorized": (*paymenttest.Provider).SimulateAuthorized,
		"SimulatePaid":       (*paymenttest.Provider).SimulatePaid,
		"Pay": func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			return p.Pay(id, paymenttest.CardSucceeds)
		},
		"after 3-D Secure": func(p *paymenttest.Provider, id string) (*payment.Intent, error) {
			if _, err := p.SimulateRequiresAction(id); err != nil {
				return nil, err
			}
			return p.SimulatePaid(id)
		},
	}
	for name, do := range authorize {
		t.Run(name, func(t *testing.T) {
			clock := &fakeClock{now: authorizedAt}
			p := paymenttest.New(paymenttest.WithClock(clock.Now))
			in := create(t, p, true)

			got, err := do(p, in.ID)

			if err != nil {
				t.Fatalf("authorize: %v", err)
			}
			want := authorizedAt.Add(paymenttest.AuthorizationWindow)
			if got.Status != payment.StatusAuthorized || !got.CaptureBefore.Equal(want) {
				t.Errorf("intent = %s capture before %v, want authorized capture before %v", got.Status, got.CaptureBefore, want)
			}
			if stored, _ := p.Intent(in.ID); !stored.CaptureBefore.Equal(want) {
				t.Errorf("stored CaptureBefore = %v, want %v", stored.CaptureBefore, want)
			}
		})
	}
}

func TestAutomaticCaptureHasNoCaptureBefore(t *testing.T) {
	p := paymenttest.New()
	in := intentIn(t, p, succeededAuto)
	if !in.CaptureBefore.IsZero() {
		t.Errorf("CaptureBefore = %v, want zero", in.CaptureBefore)
	}
}

func TestAuthorizationLapses(t *testing.T) {
	ctx := context.Background()
	window := paymenttest.AuthorizationWindow
	tests := []struct {
		name  string
		after time.Duration
		want  payment.IntentStatus
	}{
		{"just before the window", window - time.Second, payment.StatusAuthorized},
		{"at the window", window, payment.StatusCanceled},
		{"a month later", 30 * 24 * time.Hour, payment.StatusCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: authorizedAt}
			p := paymenttest.New(paymenttest.WithClock(clock.Now))
			in := intentIn(t, p, authorizedManual)
			clock.now = authorizedAt.Add(tt.after)

			got, err := p.GetIntent(ctx, in.ID)

			if err != nil {
				t.Fatalf("GetIntent: %v", err)
			}
			if got.Status != tt.want {
				t.Errorf("GetIntent status = %s, want %s", got.Status, tt.want)
			}
			if stored, _ := p.Intent(in.ID); stored.Status != tt.want {
				t.Errorf("Intent status = %s, want %s", stored.Status, tt.want)
			}
			captured, err := p.CaptureIntent(ctx, in.ID, "capture-1")
			if tt.want == payment.StatusAuthorized {
				if err != nil || captured.Status != payment.StatusSucceeded || captured.AmountReceived != 12000 {
					t.Errorf("CaptureIntent in the window = %+v, %v; want succeeded received 12000", captured, err)
				}
				return
			}
			if !errors.Is(err, payment.ErrState) {
				t.Errorf("CaptureIntent after the window: err = %v, want ErrState", err)
			}
			if stored, _ := p.Intent(in.ID); stored.AmountReceived != 0 {
				t.Errorf("AmountReceived after a lapsed capture = %d, want 0", stored.AmountReceived)
			}
		})
	}
}

func TestAuthorizationLapseSeenWithoutACall(t *testing.T) {
	// The lapse is a matter of time, not of who looks first: the
	// inspection methods and events see it too.
	clock := &fakeClock{now: authorizedAt}
	p := paymenttest.New(paymenttest.WithClock(clock.Now))
	in := intentIn(t, p, authorizedManual)
	clock.now = authorizedAt.Add(paymenttest.AuthorizationWindow)

	if got, _ := p.Intent(in.ID); got.Status != payment.StatusCanceled {
		t.Errorf("Intent status = %s, want canceled", got.Status)
	}
	if all := p.Intents(); all[0].Status != payment.StatusCanceled {
		t.Errorf("Intents()[0].Status = %s, want canceled", all[0].Status)
	}
	ev, err := p.Event(payment.EventCanceled, in.ID)
	if err != nil {
		t.Fatalf("Event: %v", err)
	}
	if ev.Intent.Status != payment.StatusCanceled {
		t.Errorf("event intent status = %s, want canceled", ev.Intent.Status)
	}
	if got := p.Calls(paymenttest.OpGet); got != 0 {
		t.Errorf("Calls(get) = %d, want 0", got)
	}
}

func TestCapturedIntentDoesNotLapse(t *testing.T) {
	clock := &fakeClock{now: authorizedAt}
	p := paymenttest.New(paymenttest.WithClock(clock.Now))
	in := intentIn(t, p, succeededManual)
	clock.now = authorizedAt.Add(2 * paymenttest.AuthorizationWindow)
	got, err := p.GetIntent(context.Background(), in.ID)
	if err != nil {
		t.Fatalf("GetIntent: %v", err)
	}
	if got.Status != payment.StatusSucceeded || got.AmountReceived != 12000 {
		t.Errorf("intent = %s received %d, want succeeded received 12000", got.Status, got.AmountReceived)
	}
}

func TestCaptureReplayAfterLapse(t *testing.T) {
	// A capture that went through keeps its money once the window has
	// passed; its key is forgotten after payment.IdempotencyWindow, as on
	// Stripe, so the retry is refused (ErrState) and the intent, read,
	// says succeeded: the engine reads before concluding.
	clock := &fakeClock{now: authorizedAt}
	p := paymenttest.New(paymenttest.WithClock(clock.Now))
	in := intentIn(t, p, authorizedManual)
	p.LoseNextResponse(paymenttest.OpCapture)
	if _, err := p.CaptureIntent(context.Background(), in.ID, "capture-1"); !errors.Is(err, payment.ErrUnavailable) {
		t.Fatalf("CaptureIntent: err = %v, want ErrUnavailable", err)
	}
	clock.now = authorizedAt.Add(payment.IdempotencyWindow - time.Minute)
	if got, err := p.CaptureIntent(context.Background(), in.ID, "capture-1"); err != nil || got.Status != payment.StatusSucceeded {
		t.Fatalf("retry within the key's window = %v, %v; want the first answer replayed", got, err)
	}
	clock.now = authorizedAt.Add(paymenttest.AuthorizationWindow + time.Hour)
	if _, err := p.CaptureIntent(context.Background(), in.ID, "capture-1"); !errors.Is(err, payment.ErrState) {
		t.Fatalf("retry after the key's window: err = %v, want ErrState (the key is forgotten)", err)
	}
	got, err := p.GetIntent(context.Background(), in.ID)
	if err != nil || got.Status != payment.StatusSucceeded || got.AmountReceived != in.Amount {
		t.Errorf("intent = %+v, %v; want succeeded with the amount received", got, err)
	}
}
