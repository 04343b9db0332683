package datechange_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/bookingpage"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/reports"
)

// issue runs the invoices' job (invoice.Service.IssueDue) as the job
// engine would, a minute later.
func (e *env) issue(t *testing.T) *invoice.Service {
	t.Helper()
	e.clock.Advance(time.Minute)
	svc := invoice.New(invoice.Options{Store: e.store, Reader: e.store, Clock: e.clock})
	if _, err := svc.IssueDue(context.Background()); err != nil {
		t.Fatalf("issue due: %v", err)
	}
	return svc
}

// withVAT gives the villa of slug 10 % VAT included in the accommodation.
func (e *env) withVAT(t *testing.T, slug string) {
	t.Helper()
	ctx := context.Background()
	org, err := e.store.OrganizationBySlug(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.store.Property(ctx, org.ID, e.property[slug])
	if err != nil {
		t.Fatal(err)
	}
	p.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Percent: dec("10"), Inclusive: true, On: []string{pricing.LineAccommodation}}}
	if err := e.store.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
}

// payChange pays the booking's change that waits for the guest on the
// booking page, and fails unless it applied.
func (e *env) payChange(t *testing.T, slug string, b *booking.Booking) {
	t.Helper()
	ins := e.changeIntents()
	if len(ins) == 0 {
		t.Fatal("no change intent to pay")
	}
	if _, err := e.pay.Pay(ins[len(ins)-1].ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	if v := e.current(t, slug, b); v.Change.Status != datechange.StatusApplied {
		t.Fatalf("change is %s once paid, want applied", v.Change.Status)
	}
}

// TestInvoicesFollowChanges runs the stories of package invoice's
// invariant through the real services (checkout, change of dates with
// its charge or refund, cancellation by the guest, the invoices' job) on
// SQLite: for every booking, invoices less credit notes = its total less
// the refunds that are not a change's; the live invoice is the booking's
// stay; and the taxes the documents net are those the reports (package
// reports) declare for the month.
func TestInvoicesFollowChanges(t *testing.T) {
	tests := []struct {
		name   string
		policy string
		// run makes the story; docs are the booking's documents as in
		// store/storetest ("I" invoice, "I>" replacement, "X"
		// cancellation, "C" refund's credit note).
		run  func(t *testing.T, e *env, b *booking.Booking)
		docs string
		// stay is the live invoice's [check-in, check-out).
		stay [2]string
	}{
		{name: "NoChange", policy: "moderate", docs: "I", stay: [2]string{"2026-06-15", "2026-06-18"},
			run: func(t *testing.T, e *env, b *booking.Booking) { e.issue(t) }},
		{name: "CostsMore", policy: "moderate", docs: "I X I>", stay: [2]string{"2026-06-15", "2026-06-19"},
			run: func(t *testing.T, e *env, b *booking.Booking) {
				e.issue(t)
				if v := e.accept(t, "demo", b, req("2026-06-15", "2026-06-19", 2)); v.Change.Status != datechange.StatusPaying {
					t.Fatalf("change is %s, want paying", v.Change.Status)
				}
				e.issue(t) // nothing changes while the guest pays
				e.payChange(t, "demo", b)
			}},
		{name: "CostsLessRefundedPartlyKept", policy: "strict", docs: "I X I>", stay: [2]string{"2026-06-16", "2026-06-18"},
			run: func(t *testing.T, e *env, b *booking.Booking) {
				e.issue(t)
				if v := e.accept(t, "demo", b, req("2026-06-16", "2026-06-18", 2)); v.Change.Status != datechange.StatusApplied || !v.Change.Offer.Retained.IsPositive() {
					t.Fatalf("change %s retaining %s, want applied keeping part", v.Change.Status, v.Change.Offer.Retained)
				}
				e.process(t)
			}},
		{name: "ChangedThenCancelled", policy: "flexible", docs: "I X I> C", stay: [2]string{"2026-06-16", "2026-06-18"},
			run: func(t *testing.T, e *env, b *booking.Booking) {
				e.issue(t)
				e.accept(t, "demo", b, req("2026-06-16", "2026-06-18", 2))
				e.process(t)
				e.issue(t)
				if _, err := e.svc.CancelByGuest(context.Background(), "demo", b.Token); err != nil {
					t.Fatal(err)
				}
				e.process(t)
			}},
		{name: "ChangedBeforeTheFirstInvoice", policy: "moderate", docs: "I", stay: [2]string{"2026-06-15", "2026-06-17"},
			run: func(t *testing.T, e *env, b *booking.Booking) {
				e.accept(t, "demo", b, req("2026-06-15", "2026-06-17", 2))
				e.process(t)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.setPolicy(t, "demo", tt.policy)
			e.withVAT(t, "demo")
			b := e.book(t, "demo", "2026-06-15", "2026-06-18", "")
			tt.run(t, e, b)
			svc := e.issue(t)
			b = e.booking(t, b.ID)
			list, err := svc.BookingInvoices(context.Background(), b.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := docs(list); got != tt.docs {
				t.Fatalf("documents %q, want %q", got, tt.docs)
			}
			// The invariant.
			var refunded int64
			for _, x := range e.ledger(t, b.ID) {
				if x.Kind == ledger.KindRefund && x.Status == ledger.StatusSucceeded &&
					x.Reason != ledger.ReasonDateChange && x.Reason != ledger.ReasonChangeRefused {
					refunded += x.Amount
				}
			}
			owes := b.TotalAmount.Sub(pricing.FromMinor(refunded, "EUR"))
			net, vat, tourist := decimal.Zero, decimal.Zero, decimal.Zero
			var live *invoice.Invoice
			for i, d := range list {
				net = net.Add(d.Total)
				tourist = tourist.Add(d.Snapshot.TouristTax)
				for _, x := range d.Snapshot.Taxes {
					vat = vat.Add(x.Amount)
				}
				if d.Kind == invoice.KindInvoice {
					live = &list[i] // the last invoice; the ones before are cancelled (docs)
				}
			}
			t.Logf("%s: total %s, refunded %d, documents net %s (VAT %s, tourist tax %s)", b.Status, b.TotalAmount, refunded, net, vat, tourist)
			if b.Status == booking.StatusCancelled && refunded == 0 {
				t.Error("cancelled without a refund: the credit note is untested")
			}
			if !net.Equal(owes) {
				t.Errorf("invoices less credit notes = %s, the guest owes %s (total %s, refunded %d)", net, owes, b.TotalAmount, refunded)
			}
			if s := live.Snapshot; s.CheckIn != day(tt.stay[0]) || s.CheckOut != day(tt.stay[1]) || !live.Total.Equal(b.TotalAmount) {
				t.Errorf("live invoice %s–%s total %s; booking %s–%s total %s", s.CheckIn, s.CheckOut, live.Total, b.CheckIn, b.CheckOut, b.TotalAmount)
			}
			// The reports count the taxes of the stored quote of a
			// confirmed booking, none of a cancelled one: what the
			// documents net (everything was refunded on cancellation).
			org, err := e.store.OrganizationBySlug(context.Background(), "demo")
			if err != nil {
				t.Fatal(err)
			}
			june := reports.Month{Year: 2026, Month: time.June}
			rep, err := reports.New(reports.Options{Store: e.store, Clock: e.clock}).Report(context.Background(), org,
				reports.Query{Span: reports.Span{From: june, To: june}})
			if err != nil {
				t.Fatal(err)
			}
			repVAT, repTourist := decimal.Zero, decimal.Zero
			for _, r := range rep.VAT {
				repVAT = repVAT.Add(r.Amount)
			}
			for _, r := range rep.TouristTax {
				repTourist = repTourist.Add(r.Amount)
			}
			if !vat.Equal(repVAT) || !tourist.Equal(repTourist) {
				t.Errorf("documents net VAT %s, tourist tax %s; the reports declare %s and %s", vat, tourist, repVAT, repTourist)
			}
			if b.Status == booking.StatusConfirmed && (vat.IsZero() || tourist.IsZero()) {
				t.Errorf("a confirmed stay with VAT %s and tourist tax %s: the test checks nothing", vat, tourist)
			}
			// The guest's booking page lists the same documents, each
			// credit note naming the invoice it corrects, each
			// replacement the one it replaces.
			if got, want := guestList(t, e, svc, b), guestWant(list); got != want {
				t.Errorf("the guest's list:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// guestList is the guest's list of b's documents (bookingpage.Invoices),
// one line each: number, kind, total, corrects, replaces.
func guestList(t *testing.T, e *env, svc *invoice.Service, b *booking.Booking) string {
	t.Helper()
	rec := httptest.NewRecorder()
	bookingpage.Invoices(e.store, svc).ServeHTTP(rec, httptest.NewRequest("GET", bookingpage.InvoicesPrefix+"demo/"+b.Token, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("guest invoices: %d %s", rec.Code, rec.Body)
	}
	var got struct {
		Items []map[string]string `json:"items"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, it := range got.Items {
		lines = append(lines, strings.Join([]string{it["number"], it["kind"], it["total"], it["corrects"], it["replaces"]}, " "))
	}
	return strings.Join(lines, "\n")
}

// guestWant is what guestList should say of list.
func guestWant(list []invoice.Invoice) string {
	var lines []string
	num := func(n int64) string {
		if n == 0 {
			return ""
		}
		return invoice.Format(n)
	}
	for _, d := range list {
		lines = append(lines, strings.Join([]string{d.Display(), string(d.Kind), d.Total.StringFixed(2), num(d.Snapshot.Corrects), num(d.Snapshot.Replaces)}, " "))
	}
	return strings.Join(lines, "\n")
}

// docs writes a booking's documents as the cases do.
func docs(list []invoice.Invoice) string {
	out := ""
	for i, d := range list {
		if i > 0 {
			out += " "
		}
		switch {
		case d.Kind == invoice.KindInvoice && d.Snapshot.Replaces != 0:
			out += "I>"
		case d.Kind == invoice.KindInvoice:
			out += "I"
		case d.Cancellation():
			out += "X"
		default:
			out += "C"
		}
	}
	return out
}
