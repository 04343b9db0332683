package notify_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// errKilled is the process dying with kill -9 right after its claim
// committed: nothing it claimed is attempted, nothing is released.
var errKilled = errors.New("killed")

// killedAfterClaim is a store whose deliveries' claim commits, then the
// process dies.
type killedAfterClaim struct{ booking.Stores }

func (k killedAfterClaim) ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Delivery, error) {
	if _, err := k.Stores.ClaimOutboxDeliveries(ctx, now, leaseUntil, limit); err != nil {
		return nil, err
	}
	return nil, errKilled
}

// TestKilledWorkerHoldsLittleForLittleTime: a worker killed after claiming
// deliveries holds one, for the delivery lease only (30 s, not 2
// minutes): another replica sends every other delivery at once and the
// held one when its lease ends, each exactly once. On both stores.
func TestKilledWorkerHoldsLittleForLittleTime(t *testing.T) {
	stores := map[string]func(t *testing.T) booking.Stores{
		"sqlite": func(t *testing.T) booking.Stores {
			db := sqlitetest.Open(t)
			return db.Stores()
		},
		"postgres": func(t *testing.T) booking.Stores {
			url := testenv.PostgresURL(t)
			db, err := postgres.Open(t.Context(), url, postgres.WithSchema(testenv.PostgresSchema(t, "staykit_lease_")))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db.Stores()
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			ctx := context.Background()
			clock := bookingtest.NewClock(start)
			pay := paymenttest.New(paymenttest.WithClock(clock.Now))
			svc := booking.NewService(booking.Options{Stores: store, Payments: pay, Clock: clock})
			money.New(svc, money.Options{Store: store, Payments: pay, Clock: clock})
			org := booking.Organization{Slug: "demo", Name: "Demo", PaymentMode: pricing.ModeFull, PublicEngineEnabled: true,
				MinStayNights: ptr(1), MaxStayNights: ptr(28)}.WithDefaults()
			if err := store.CreateOrganization(ctx, &org); err != nil {
				t.Fatal(err)
			}
			if err := store.SetContactEmail(ctx, org.ID, "host@example.com"); err != nil {
				t.Fatal(err)
			}
			p := booking.Property{OrgID: org.ID, Name: "Villa", MaxGuests: 4, Active: true, Rates: pricing.RatePlan{BaseRate: dec("100")}}
			if err := store.CreateProperty(ctx, &p); err != nil {
				t.Fatal(err)
			}
			for i := range 2 { // two bookings: four e-mails, the guest's and the host's
				in := civil.MustParse("2026-07-01").AddDays(3 * i)
				res, err := svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: p.ID,
					Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(2), Guests: 2},
					GuestName: "Guest", GuestEmail: "guest@example.com", GuestPhone: "+33612345678"})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
					t.Fatal(err)
				}
				if _, err := svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{}); err != nil {
					t.Fatal(err)
				}
			}
			mailer := &countingMailer{sent: map[string]int{}}
			dead := &notify.Worker{Store: killedAfterClaim{store}, Clock: clock, Mailer: mailer}
			if _, err := dead.Process(ctx); !errors.Is(err, errKilled) {
				t.Fatalf("the dying worker: %v", err)
			}
			if len(mailer.sent) != 0 {
				t.Fatalf("the dying worker sent %v", mailer.sent)
			}
			other := &notify.Worker{Store: store, Clock: clock, Mailer: mailer}
			clock.Advance(time.Second)
			if _, err := other.Process(ctx); err != nil {
				t.Fatal(err)
			}
			if len(mailer.sent) != 3 {
				t.Errorf("a second after the kill, %d mails sent, want the 3 the dead worker did not hold", len(mailer.sent))
			}
			clock.Advance(notify.DeliveryLease)
			if _, err := other.Process(ctx); err != nil {
				t.Fatal(err)
			}
			if len(mailer.sent) != 4 {
				t.Errorf("once the lease ended, %d mails sent, want all 4", len(mailer.sent))
			}
			for id, n := range mailer.sent {
				if n != 1 {
					t.Errorf("mail %s sent %d times", id, n)
				}
			}
			if notify.DeliveryLease > 30*time.Second || notify.DeliveryLease >= outbox.MaxLease {
				t.Errorf("DeliveryLease = %v: a killed worker's delivery waits that long (and it must stay under outbox.MaxLease, %v)",
					notify.DeliveryLease, outbox.MaxLease)
			}
		})
	}
}

// stuckMailer is an SMTP server that never answers: Send returns only
// when its context ends.
type stuckMailer struct{}

func (stuckMailer) Send(ctx context.Context, _ notify.Mail) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestAttemptEndsBeforeItsLease: an attempt that hangs is cut at
// AttemptTimeout and its outcome saved before the delivery's lease ends,
// so that no other replica can claim it while it is under way.
func TestAttemptEndsBeforeItsLease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.worker.Mailer = stuckMailer{}
		e.book(t, "demo", "en")
		began := time.Now()
		e.process(t)
		took := time.Since(began)
		if took < notify.AttemptTimeout || took >= notify.DeliveryLease {
			t.Errorf("the hung attempt took %v, want at least AttemptTimeout %v and less than the lease %v", took, notify.AttemptTimeout, notify.DeliveryLease)
		}
		log, err := e.store.OutboxDeliveries(context.Background(), 0, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != 1 || log[0].Status != outbox.StatusPending || log[0].Attempts != 1 ||
			!strings.Contains(log[0].LastError, "deadline exceeded") {
			t.Errorf("delivery log %+v, want the attempt saved as failed by its deadline, to be retried", log)
		}
	})
}
