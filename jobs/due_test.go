package jobs

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// RunDue does at once what the clock made due: the lapsed hold expires
// (a periodic task), and its event is fanned out and its e-mails sent
// (rows), without River.
func TestRunDueExpiresAndDelivers(t *testing.T) {
	ctx := t.Context()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "staykit.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := bookingtest.NewClock(time.Now())
	if err := seed.LoadFile(ctx, db, "../examples/server/demo-seed.json", clock.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.SetContactEmail(ctx, 1, "host@example.com"); err != nil {
		t.Fatal(err)
	}
	pay := paymenttest.New()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: pay, Clock: clock, Logger: logger})
	props, err := svc.Properties(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	in := civil.Today(clock.Now(), time.UTC).AddDays(30)
	res, err := svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: props[0].Property.ID,
		Stay:      booking.Stay{CheckIn: in, CheckOut: in.AddDays(3), Guests: 2},
		GuestName: "Ada Lovelace", GuestEmail: "ada@example.com", GuestPhone: "+33612345678"})
	if err != nil {
		t.Fatal(err)
	}
	worker := &notify.Worker{Store: db, Clock: clock, Logger: logger,
		BookingURL: func(*booking.Organization, *booking.Booking) string { return "https://example.com/b" }}
	o := Options{Bookings: svc, Money: money.New(svc, money.Options{Store: db.Stores(), Payments: pay, Clock: clock, Logger: logger}),
		Outbox: worker, Clock: clock, Logger: logger}
	if err := o.defaults(); err != nil {
		t.Fatal(err)
	}
	w := &Workers{opts: o, store: db}

	if err := w.RunDue(ctx); err != nil { // nothing due yet
		t.Fatal(err)
	}
	if b, _ := db.BookingByID(ctx, res.Booking.ID); b.Status != booking.StatusPending {
		t.Fatalf("before the hold lapses: %s, want pending", b.Status)
	}
	clock.Advance(31 * time.Minute)
	if err := w.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if b, _ := db.BookingByID(ctx, res.Booking.ID); b.Status != booking.StatusExpired {
		t.Fatalf("after RunDue: %s, want expired", b.Status)
	}
	ds, err := db.OutboxDeliveries(ctx, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) == 0 {
		t.Fatal("the expiry's event was not fanned out")
	}
	for _, d := range ds {
		if d.Status != outbox.StatusDelivered {
			t.Errorf("delivery %d (%s:%s) is %s, want delivered", d.ID, d.Channel, d.To, d.Status)
		}
	}
	if work, err := db.DueWork(ctx, clock.Now(), 10); err != nil || len(work) != 0 {
		t.Errorf("due work left: %+v, %v", work, err)
	}
}
