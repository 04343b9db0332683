package paymenttest_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// TestConcurrentUse is meant for -race: creates, pays, reads and webhooks
// from many goroutines, then checks nothing was lost or applied twice.
func TestConcurrentUse(t *testing.T) {
	const workers, perWorker = 8, 25
	ctx := context.Background()
	p := paymenttest.New()
	shared, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 500, Currency: "EUR"})
	if err != nil {
		t.Fatalf("CreateIntent: %v", err)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	var sharedPaid int
	errs := make(chan error, workers*perWorker)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				in, err := p.CreateIntent(ctx, payment.CreateParams{
					Amount: 1000, Currency: "EUR", IdempotencyKey: fmt.Sprintf("k-%d", i%5),
				})
				if err != nil {
					errs <- fmt.Errorf("create: %w", err)
					continue
				}
				own, err := p.CreateIntent(ctx, payment.CreateParams{Amount: 2000, Currency: "EUR"})
				if err != nil {
					errs <- fmt.Errorf("create own: %w", err)
					continue
				}
				if _, err := p.Pay(own.ID, paymenttest.CardSucceeds); err != nil {
					errs <- fmt.Errorf("pay own: %w", err)
				}
				_, _ = p.Pay(in.ID, paymenttest.CardSucceeds) // shared keys: only one wins
				if _, err := p.Pay(shared.ID, paymenttest.CardSucceeds); err == nil {
					mu.Lock()
					sharedPaid++
					mu.Unlock()
				} else if !errors.Is(err, payment.ErrState) {
					errs <- fmt.Errorf("pay shared: %w", err)
				}
				if _, err := p.GetIntent(ctx, own.ID); err != nil {
					errs <- fmt.Errorf("get: %w", err)
				}
				if w%2 == 0 {
					payload, sig, err := p.SignedWebhook(payment.EventSucceeded, own.ID)
					if err == nil {
						_, err = p.ParseWebhook(payload, sig)
					}
					if err != nil {
						errs <- fmt.Errorf("webhook: %w", err)
					}
				}
				_ = p.Intents()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	if sharedPaid != 1 {
		t.Errorf("shared intent paid %d times, want 1", sharedPaid)
	}
	// 1 shared + 5 idempotency keys + one own intent per iteration.
	if got, want := len(p.Intents()), 1+5+workers*perWorker; got != want {
		t.Errorf("stored intents = %d, want %d", got, want)
	}
	if got, want := p.Calls(paymenttest.OpCreate), 1+2*workers*perWorker; got != want {
		t.Errorf("Calls(create) = %d, want %d", got, want)
	}
	for _, in := range p.Intents() {
		if in.Status != payment.StatusSucceeded || in.AmountReceived != in.Amount {
			t.Errorf("intent %s: %s received %d, want succeeded received %d", in.ID, in.Status, in.AmountReceived, in.Amount)
		}
	}
}
