package jobs

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// failingInvoicer is an Invoicer whose database is down.
type failingInvoicer struct{}

func (failingInvoicer) IssueDue(context.Context) (int, error) {
	return 0, errors.New("database is down")
}

// The periodic invoices task issues the invoice of a confirmed booking
// once, whether run by RunDue or by its job, and logs it; a failing run
// says why.
func TestPeriodicInvoices(t *testing.T) {
	ctx := t.Context()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(time.Now())
	if err := seed.LoadFile(ctx, db, "../examples/server/demo-seed.json", clock.Now()); err != nil {
		t.Fatal(err)
	}
	pay := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: pay, Clock: clock})
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
	if _, err := pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{}); err != nil {
		t.Fatal(err)
	}
	invoices := invoice.New(invoice.Options{Store: db, Reader: db, Clock: clock})
	var logs bytes.Buffer
	o := Options{Bookings: svc, Money: money.New(svc, money.Options{Store: db.Stores(), Payments: pay, Clock: clock}),
		Invoices: invoices, Clock: clock, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	if err := o.defaults(); err != nil {
		t.Fatal(err)
	}
	w := &Workers{opts: o, store: db}
	if err := w.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.runTask(ctx, TaskInvoices); err != nil {
		t.Fatal(err)
	}
	list, err := invoices.BookingInvoices(ctx, res.Booking.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Number != 1 || list[0].Kind != invoice.KindInvoice {
		t.Fatalf("the booking's documents: %+v, want its invoice number 1", list)
	}
	if n := strings.Count(logs.String(), "issued invoices"); n != 1 {
		t.Errorf("logged %d issues, want 1:\n%s", n, logs.String())
	}

	w.opts.Invoices = failingInvoicer{}
	if err := w.runTask(ctx, TaskInvoices); err == nil || !strings.Contains(err.Error(), "issue invoices: database is down") {
		t.Errorf("a failing run returned %v", err)
	}
	w.opts.Invoices = nil
	if err := w.runTask(ctx, TaskInvoices); err != nil {
		t.Errorf("without Invoices: %v", err)
	}
}
