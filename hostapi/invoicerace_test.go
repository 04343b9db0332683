package hostapi_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// TestInvoiceNumbersAfterConcurrentCheckouts is issue #29's "done when":
// 200 checkouts paid and confirmed at once (released together by a start
// gate) on two replicas, each replica issuing the invoices owed while
// they run and once they are done, leave the invoice numbers exactly
// 1..200: no gap, no duplicate, one invoice per booking.
func TestInvoiceNumbersAfterConcurrentCheckouts(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, open(t, 2))
			const n, perProperty = 200, 50
			org := e.orgs["villa"]
			var props []int64
			for i := range n / perProperty {
				p := &booking.Property{OrgID: org.ID, Name: fmt.Sprintf("villa-%d", i), MaxGuests: 4, Active: true, Photos: []string{},
					Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(100)}}
				if err := e.replicas[0].store.CreateProperty(t.Context(), p); err != nil {
					t.Fatal(err)
				}
				props = append(props, p.ID)
			}
			start := civil.MustParse("2026-06-01")
			var (
				wg   sync.WaitGroup
				mu   sync.Mutex
				errs []error
				gate = make(chan struct{})
				done = make(chan struct{})
			)
			fail := func(err error) {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
			for i := range n {
				wg.Go(func() {
					<-gate
					r := e.replicas[i%2]
					res, err := r.svc.Checkout(t.Context(), "villa", booking.CheckoutRequest{PropertyID: props[i/perProperty],
						Stay:      booking.Stay{CheckIn: start.AddDays(2 * (i % perProperty)), CheckOut: start.AddDays(2*(i%perProperty) + 2), Guests: 2},
						GuestName: "Ana Guest", GuestEmail: "ana@example.com", GuestPhone: "+33612345678"})
					if err != nil {
						fail(fmt.Errorf("checkout %d: %w", i, err))
						return
					}
					if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
						fail(err)
						return
					}
					if _, err := r.svc.Confirm(t.Context(), "villa", res.Booking.Token, booking.ConfirmRequest{}); err != nil {
						fail(fmt.Errorf("confirm %d: %w", i, err))
					}
				})
			}
			// Each replica's job issues what is owed, over and over, while
			// the checkouts run.
			var issuers sync.WaitGroup
			for _, r := range e.replicas {
				issuers.Go(func() {
					for {
						if _, err := r.invoices.IssueDue(t.Context()); err != nil {
							fail(err)
						}
						select {
						case <-done:
							return
						default:
						}
					}
				})
			}
			close(gate)
			wg.Wait()
			close(done)
			issuers.Wait()
			for _, r := range e.replicas {
				if _, err := r.invoices.IssueDue(t.Context()); err != nil {
					fail(err)
				}
			}
			if len(errs) > 0 {
				t.Fatalf("%d errors, the first: %v", len(errs), errs[0])
			}
			list, err := e.replicas[1].invoices.Invoices(t.Context(), org.ID, 0, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != n {
				t.Fatalf("%d invoices after %d confirmed checkouts", len(list), n)
			}
			bookings := map[int64]bool{}
			for i, inv := range list {
				if inv.Number != int64(i+1) {
					t.Fatalf("invoice %d is numbered %d: a gap or a duplicate", i+1, inv.Number)
				}
				if bookings[inv.BookingID] {
					t.Fatalf("booking %d has two invoices", inv.BookingID)
				}
				bookings[inv.BookingID] = true
				if !inv.Total.Equal(decimal.NewFromInt(200)) {
					t.Errorf("invoice %d total %s, want 200", inv.Number, inv.Total)
				}
			}
		})
	}
}
