package notify_test

import (
	"context"
	"sync"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/postgres"
)

// countingMailer counts the e-mails sent, by id.
type countingMailer struct {
	mu   sync.Mutex
	sent map[string]int
}

func (m *countingMailer) Send(_ context.Context, mail notify.Mail) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent[mail.ID]++
	return nil
}

// TestTwoReplicasOverPostgresDeliverEachMessageOnce runs two workers, each
// with its own connection pool like two server replicas, at the same moment
// over one PostgreSQL database: every e-mail and webhook goes out once.
func TestTwoReplicasOverPostgresDeliverEachMessageOnce(t *testing.T) {
	url := testenv.PostgresURL(t)
	schema := testenv.PostgresSchema(t, "staykit_notify_")
	var replicas [2]*postgres.DB
	for i := range replicas {
		db, err := postgres.Open(t.Context(), url, postgres.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		replicas[i] = db
	}
	ctx := context.Background()
	clock := bookingtest.NewClock(start)
	pay := paymenttest.New(paymenttest.WithClock(clock.Now))
	svc := booking.NewService(booking.Options{Stores: replicas[0].Stores(), Payments: pay, Clock: clock})
	money.New(svc, money.Options{Store: replicas[0].Stores(), Payments: pay, Clock: clock})
	org := booking.Organization{Slug: "demo", Name: "Demo", PaymentMode: pricing.ModeFull, PublicEngineEnabled: true,
		MinStayNights: ptr(1), MaxStayNights: ptr(28)}.WithDefaults()
	if err := replicas[0].CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	if err := replicas[0].SetContactEmail(ctx, org.ID, "host@example.com"); err != nil {
		t.Fatal(err)
	}
	p := booking.Property{OrgID: org.ID, Name: "Villa", MaxGuests: 4, Active: true, Rates: pricing.RatePlan{BaseRate: dec("100")}}
	if err := replicas[0].CreateProperty(ctx, &p); err != nil {
		t.Fatal(err)
	}
	rec := &receiver{}
	srv := newHTTPServer(t, rec)
	ep := outbox.Endpoint{OrgID: org.ID, URL: srv, Secret: outbox.NewSecret(), Active: true}
	if err := replicas[0].SaveWebhookEndpoint(ctx, &ep); err != nil {
		t.Fatal(err)
	}
	rec.secret = ep.Secret

	const bookings = 20
	for i := range bookings {
		in := civil.MustParse("2026-07-01").AddDays(2 * i)
		res, err := svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: p.ID,
			Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(1), Guests: 2},
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
	var workers [2]*notify.Worker
	for i := range workers {
		workers[i] = &notify.Worker{Store: replicas[i], Clock: clock, Mailer: mailer,
			Webhooks: notify.NewWebhookClient(notify.WebhookOptions{Policy: outbound.Policy{AllowPrivate: true}})}
	}
	for range 3 {
		release := make(chan struct{})
		var wg sync.WaitGroup
		for _, w := range workers {
			wg.Go(func() {
				<-release
				if _, err := w.Process(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		close(release)
		wg.Wait()
	}
	if len(rec.events) != bookings || rec.calls != bookings {
		t.Errorf("webhook receiver: %d calls, %d events; want %d each", rec.calls, len(rec.events), bookings)
	}
	seen := map[string]bool{}
	for _, id := range rec.ids {
		if seen[id] {
			t.Errorf("webhook %s delivered twice", id)
		}
		seen[id] = true
	}
	if len(mailer.sent) != 2*bookings {
		t.Errorf("%d distinct mails, want %d (guest and host per booking)", len(mailer.sent), 2*bookings)
	}
	for id, n := range mailer.sent {
		if n != 1 {
			t.Errorf("mail %s sent %d times", id, n)
		}
	}
}
