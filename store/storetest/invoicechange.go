package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// clockAt is a booking.Clock stopped at a time the test moves.
type clockAt struct{ t time.Time }

func (c *clockAt) Now() time.Time { return c.t }

// stayQuote prices [in, out) for guests as the invoices' scenarios do:
// 100 a night, cleaning 60, VAT 10 % on the accommodation added to the
// price, tourist tax 1.50 per guest per night.
func stayQuote(in, out string, guests int) pricing.Quote {
	ci, co := day(in), day(out)
	nights := ci.DaysUntil(co)
	var detail []pricing.Night
	for i := range nights {
		detail = append(detail, pricing.Night{Date: ci.AddDays(i), Price: dec("100")})
	}
	acc := dec("100").Mul(decimal.NewFromInt(int64(nights)))
	vat := acc.Mul(dec("0.10"))
	tourist := dec("1.50").Mul(decimal.NewFromInt(int64(nights * guests)))
	total := acc.Add(dec("60")).Add(vat).Add(tourist)
	return pricing.Quote{CheckIn: ci, CheckOut: co, Nights: nights, Guests: guests, Currency: "EUR",
		NightsDetail: detail, Accommodation: acc,
		Fees:  []pricing.Line{{Code: pricing.LineCleaningFee, Label: "Cleaning", Amount: dec("60")}},
		Taxes: []pricing.Line{{Code: "vat", Label: "VAT", Amount: vat}, {Code: pricing.LineTouristTax, Label: "Tourist tax", Amount: tourist}},
		Total: total, Mode: pricing.ModeFull, Charge: total, Balance: decimal.Zero, CouponBase: acc}
}

// invoiceWorld is a world whose bookings the invoice service documents.
type invoiceWorld struct {
	world
	s     Stores
	st    invoice.Store
	dc    datechange.Store
	clock *clockAt
	svc   *invoice.Service
}

// newInvoiceWorld makes the world of the organisation slug.
func newInvoiceWorld(t *testing.T, s Stores, slug string) *invoiceWorld {
	t.Helper()
	o := newOrg(t, s, slug)
	w := &invoiceWorld{world: world{org: o, prop: newProperty(t, s, o.ID)}, s: s, st: capabilityOf[invoice.Store](t, s),
		dc: capabilityOf[datechange.Store](t, s), clock: &clockAt{t0}}
	w.svc = invoice.New(invoice.Options{Store: w.st, Reader: s.Stores, Clock: w.clock})
	return w
}

// book stores a confirmed, paid booking of [in, out) for 2 guests.
func (w *invoiceWorld) book(t *testing.T, in, out string) *booking.Booking {
	t.Helper()
	b := pendingFixture(w.prop, in, out)
	b.Quote = stayQuote(in, out, 2)
	b.TotalAmount, b.ChargeAmount = b.Quote.Total, b.Quote.Total
	b.ExpiresAt = t0.Add(time.Hour)
	create(t, w.s, b, t0)
	got, err := w.s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
		To: booking.StatusConfirmed, At: t0, Confirmed: true, PaidAmount: &b.TotalAmount})
	must(t, err)
	return got
}

// change applies a change of b to [in, out) for guests, whose total is
// the new quote's plus retained, and records refund (a change's
// decrease, succeeded) when not zero. It returns the booking changed.
func (w *invoiceWorld) change(t *testing.T, b *booking.Booking, in, out string, guests int, retained string, refund int64) *booking.Booking {
	t.Helper()
	b = w.reload(t, b)
	q := stayQuote(in, out, guests)
	total := q.Total.Add(dec(retained))
	c := &datechange.Change{BookingID: b.ID, OrgID: b.OrgID, Status: datechange.StatusApplied, OldCheckIn: b.CheckIn,
		OldCheckOut: b.CheckOut, OldGuests: b.Guests, Offer: datechange.Offer{CheckIn: day(in), CheckOut: day(out), Guests: guests,
			Quote: q, PreviousTotal: b.TotalAmount, Retained: dec(retained), Total: total}, CreatedAt: w.clock.t, UpdatedAt: w.clock.t}
	a := datechange.Apply{Change: c, Was: b.Range(), Stay: booking.Stay{CheckIn: day(in), CheckOut: day(out), Guests: guests},
		TotalAmount: total, PaidAmount: b.PaidAmount, BalanceAmount: decimal.Zero, Quote: q, At: w.clock.t, NotDueBefore: w.clock.t}
	got, err := w.dc.ApplyDateChange(t.Context(), a)
	must(t, err)
	if refund > 0 {
		w.refund(t, got, ledger.ReasonDateChange, refund)
	}
	return got
}

// refund records a succeeded refund of b of amount minor units.
func (w *invoiceWorld) refund(t *testing.T, b *booking.Booking, reason string, amount int64) {
	t.Helper()
	e := refundEntry(b, fmt.Sprintf("refund:%d:%s:%d", b.ID, reason, w.clock.t.UnixNano()), amount)
	e.Reason = reason
	entries, err := w.s.RecordLedger(t.Context(), []ledger.Entry{e}, w.clock.t)
	must(t, err)
	e = entries[0]
	e.Status, e.UpdatedAt = ledger.StatusSucceeded, w.clock.t
	must(t, w.s.UpdateLedgerEntry(t.Context(), &e))
}

// cancel cancels b, refunding amount minor units (ledger.ReasonCancelled).
func (w *invoiceWorld) cancel(t *testing.T, b *booking.Booking, amount int64) *booking.Booking {
	t.Helper()
	got, err := w.s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{booking.StatusConfirmed},
		To: booking.StatusCancelled, At: w.clock.t})
	must(t, err)
	if amount > 0 {
		w.refund(t, got, ledger.ReasonCancelled, amount)
	}
	return got
}

func (w *invoiceWorld) reload(t *testing.T, b *booking.Booking) *booking.Booking {
	t.Helper()
	got, err := w.s.BookingByID(t.Context(), b.ID)
	must(t, err)
	return got
}

// issue runs IssueDue once, an hour later than the last, and returns how
// many documents it issued.
func (w *invoiceWorld) issue(t *testing.T) int {
	t.Helper()
	w.clock.t = w.clock.t.Add(time.Hour)
	n, err := w.svc.IssueDue(t.Context())
	must(t, err)
	return n
}

// later moves the clock on by an hour.
func (w *invoiceWorld) later() { w.clock.t = w.clock.t.Add(time.Hour) }

// invoiceChangeCase is one scenario of the invariant: steps run on a
// booking, and the documents it must end with.
type invoiceChangeCase struct {
	name string
	// steps make the booking's story; they may issue documents midway.
	steps func(t *testing.T, w *invoiceWorld) *booking.Booking
	// docs is the booking's documents, by number: "I" an invoice, "I>"
	// a replacement, "X" a cancellation, "C" a refund's credit note.
	docs string
	// stay is the live invoice's stay; cancelled refunds everything, so
	// that no tax is owed.
	stay      [2]string
	guests    int
	cancelled bool
	// refunded is what was refunded other than by a change, in minor units.
	refunded int64
}

var invoiceChangeCases = []invoiceChangeCase{
	{name: "NoChange", docs: "I", stay: [2]string{"2026-06-01", "2026-06-04"}, guests: 2,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			return b
		}},
	{name: "ChangeCostsMore", docs: "I X I>", stay: [2]string{"2026-06-01", "2026-06-06"}, guests: 2,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			return w.change(t, b, "2026-06-01", "2026-06-06", 2, "0", 0)
		}},
	{name: "ChangeCostsLessRefunded", docs: "I X I>", stay: [2]string{"2026-06-02", "2026-06-04"}, guests: 2,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04") // 300 + 60 + 30 + 9 = 399
			w.issue(t)
			w.later()
			// 2 nights: 200 + 60 + 20 + 6 = 286; of the 113 less, 20 kept.
			return w.change(t, b, "2026-06-02", "2026-06-04", 2, "20", 9300)
		}},
	{name: "ChangeOfPartyOnly", docs: "I X I>", stay: [2]string{"2026-06-01", "2026-06-04"}, guests: 3,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			return w.change(t, b, "2026-06-01", "2026-06-04", 3, "0", 0)
		}},
	{name: "ChangeThenCancelledWithRefund", docs: "I X I> C", stay: [2]string{"2026-06-02", "2026-06-04"}, guests: 2,
		cancelled: true, refunded: 26600,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			b = w.change(t, b, "2026-06-02", "2026-06-04", 2, "20", 9300)
			w.issue(t)
			w.later()
			return w.cancel(t, b, 30600-4000) // 306 held; 40 kept by the policy
		}},
	{name: "ChangeAndCancellationBeforeAnyIssue", docs: "I X I> C", stay: [2]string{"2026-06-01", "2026-06-06"}, guests: 2,
		cancelled: true, refunded: 50000,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			b = w.change(t, b, "2026-06-01", "2026-06-06", 2, "0", 0)
			w.later()
			// The refund waits for the replacement, and corrects it.
			return w.cancel(t, b, 50000)
		}},
	{name: "ChangeBeforeFirstInvoice", docs: "I", stay: [2]string{"2026-06-02", "2026-06-04"}, guests: 2,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.later()
			return w.change(t, b, "2026-06-02", "2026-06-04", 2, "20", 9300)
		}},
	{name: "TwoChangesOneReplacement", docs: "I X I>", stay: [2]string{"2026-06-10", "2026-06-12"}, guests: 2,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			b = w.change(t, b, "2026-06-01", "2026-06-06", 2, "0", 0)
			w.later()
			return w.change(t, b, "2026-06-10", "2026-06-12", 2, "0", 0)
		}},
	{name: "TwoChangesTwoReplacements", docs: "I X I> X I>", stay: [2]string{"2026-06-10", "2026-06-12"}, guests: 2,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			b = w.change(t, b, "2026-06-01", "2026-06-06", 2, "0", 0)
			w.issue(t)
			w.later()
			return w.change(t, b, "2026-06-10", "2026-06-12", 2, "0", 0)
		}},
	{name: "RefusedChangeRefundsItsCharge", docs: "I", stay: [2]string{"2026-06-01", "2026-06-04"}, guests: 2,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			w.refund(t, b, ledger.ReasonChangeRefused, 10000) // a charge no invoice billed
			return b
		}},
	{name: "DashboardRefundThenChange", docs: "I C X I>", stay: [2]string{"2026-06-01", "2026-06-06"}, guests: 2,
		refunded: 5000,
		steps: func(t *testing.T, w *invoiceWorld) *booking.Booking {
			b := w.book(t, "2026-06-01", "2026-06-04")
			w.issue(t)
			w.later()
			w.refund(t, b, ledger.ReasonDashboard, 5000)
			w.issue(t)
			w.later()
			return w.change(t, b, "2026-06-01", "2026-06-06", 2, "0", 0)
		}},
}

// docsCode writes a booking's documents as invoiceChangeCase.docs does.
func docsCode(list []invoice.Invoice) string {
	var parts []string
	for _, d := range list {
		switch {
		case d.Kind == invoice.KindInvoice && d.Snapshot.Replaces != 0:
			parts = append(parts, "I>")
		case d.Kind == invoice.KindInvoice:
			parts = append(parts, "I")
		case d.Cancellation():
			parts = append(parts, "X")
		default:
			parts = append(parts, "C")
		}
	}
	return strings.Join(parts, " ")
}

// taxesOf sums a document's VAT (non tourist percentage taxes).
func taxesOf(s invoice.Snapshot) decimal.Decimal {
	sum := decimal.Zero
	for _, x := range s.Taxes {
		sum = sum.Add(x.Amount)
	}
	return sum
}

// quoteTaxes is what a stored quote charges of VAT and of tourist tax:
// what the reports (package reports) count for a confirmed booking.
func quoteTaxes(q pricing.Quote) (vat, tourist decimal.Decimal) {
	vat, tourist = decimal.Zero, decimal.Zero
	for _, l := range append(append([]pricing.Line{}, q.Taxes...), q.IncludedTaxes...) {
		if l.Code == pricing.LineTouristTax {
			tourist = tourist.Add(l.Amount)
		} else {
			vat = vat.Add(l.Amount)
		}
	}
	return vat, tourist
}

// checkChangeInvariant fails unless b's documents keep the invariant of
// package invoice: invoices less credit notes = the booking's total less
// the refunds that are not a change's; one live invoice, of the booking's
// stay and total; each cancellation of the full amount of the invoice it
// names, each replacement naming the one it replaces; and the taxes net
// of the credit notes those of the stored quote (what reports count),
// nothing when everything was refunded.
func checkChangeInvariant(t *testing.T, w *invoiceWorld, tc invoiceChangeCase, b *booking.Booking) []invoice.Invoice {
	t.Helper()
	b = w.reload(t, b)
	list, err := w.st.BookingInvoices(t.Context(), b.ID)
	must(t, err)
	if got := docsCode(list); got != tc.docs {
		t.Fatalf("documents %q, want %q: %+v", got, tc.docs, list)
	}
	net, vat, tourist := decimal.Zero, decimal.Zero, decimal.Zero
	byNumber := map[int64]invoice.Invoice{}
	var live []invoice.Invoice
	for _, d := range list {
		byNumber[d.Number] = d
		net, vat, tourist = net.Add(d.Total), vat.Add(taxesOf(d.Snapshot)), tourist.Add(d.Snapshot.TouristTax)
		if !d.Total.Equal(d.Snapshot.Total) {
			t.Errorf("document %d: total %s, snapshot's %s", d.Number, d.Total, d.Snapshot.Total)
		}
		switch {
		case d.Kind == invoice.KindInvoice:
			if !cancelledIn(list, d) {
				live = append(live, d)
			}
			if r := d.Snapshot.Replaces; r != 0 && (byNumber[r].Kind != invoice.KindInvoice || !cancelledIn(list, byNumber[r])) {
				t.Errorf("invoice %d replaces %d, no cancelled invoice of the booking", d.Number, r)
			}
		case d.Cancellation():
			was, ok := byNumber[d.Snapshot.Corrects]
			if !ok || was.Kind != invoice.KindInvoice || was.Revision != d.Revision || !d.Total.Equal(was.Total.Neg()) ||
				d.Snapshot.CheckIn != was.Snapshot.CheckIn || !d.Snapshot.TouristTax.Equal(was.Snapshot.TouristTax.Neg()) {
				t.Errorf("cancellation %d (revision %d, total %s) does not cancel invoice %d in full: %+v", d.Number, d.Revision, d.Total, d.Snapshot.Corrects, was)
			}
		default:
			if was := byNumber[d.Snapshot.Corrects]; was.Kind != invoice.KindInvoice {
				t.Errorf("credit note %d corrects %d, no earlier invoice", d.Number, d.Snapshot.Corrects)
			}
		}
	}
	if len(live) != 1 {
		t.Fatalf("%d live invoices, want 1: %+v", len(live), list)
	}
	inv := live[0]
	if s := inv.Snapshot; s.CheckIn != day(tc.stay[0]) || s.CheckOut != day(tc.stay[1]) || s.Guests != tc.guests ||
		s.Nights != day(tc.stay[0]).DaysUntil(day(tc.stay[1])) || !inv.Total.Equal(b.TotalAmount) {
		t.Errorf("live invoice %d: %s–%s, %d nights, %d guests, total %s; booking %s–%s total %s",
			inv.Number, s.CheckIn, s.CheckOut, s.Nights, s.Guests, inv.Total, b.CheckIn, b.CheckOut, b.TotalAmount)
	}
	rev, err := w.st.StayRevision(t.Context(), b.ID)
	must(t, err)
	if inv.Revision != rev {
		t.Errorf("live invoice of revision %d, the booking's is %d", inv.Revision, rev)
	}
	// The invariant: what the documents bill is what the guest owes.
	owes := b.TotalAmount.Sub(pricing.FromMinor(tc.refunded, "EUR"))
	if !net.Equal(owes) {
		t.Errorf("invoices less credit notes = %s, the guest owes %s (total %s less refunds %d)", net, owes, b.TotalAmount, tc.refunded)
	}
	wantVAT, wantTourist := quoteTaxes(b.Quote)
	if tc.cancelled {
		wantVAT, wantTourist = decimal.Zero, decimal.Zero
	}
	if tc.refunded == 0 || tc.cancelled && owes.IsZero() {
		if !vat.Equal(wantVAT) || !tourist.Equal(wantTourist) {
			t.Errorf("documents net VAT %s and tourist tax %s, the stay's quote %s and %s", vat, tourist, wantVAT, wantTourist)
		}
	}
	return list
}

// cancelledIn reports whether list holds the cancellation of inv.
func cancelledIn(list []invoice.Invoice, inv invoice.Invoice) bool {
	for _, d := range list {
		if d.Cancellation() && d.Revision == inv.Revision && d.Snapshot.Corrects == inv.Number {
			return true
		}
	}
	return false
}

var invoiceChangeScenarios = []scenario{
	{"Invoice/ChangeOfStay", func(t *testing.T, s Stores) {
		for _, tc := range invoiceChangeCases {
			t.Run(tc.name, func(t *testing.T) {
				w := newInvoiceWorld(t, s, "inv-"+strings.ToLower(tc.name))
				b := tc.steps(t, w)
				w.issue(t)
				list := checkChangeInvariant(t, w, tc, b)
				// Nothing more is owed: a second pass issues nothing.
				if n := w.issue(t); n != 0 {
					t.Errorf("a second pass issued %d documents", n)
				}
				due, err := w.st.InvoicesDue(t.Context(), 10)
				must(t, err)
				if len(due) != 0 {
					t.Errorf("still due: %+v", due)
				}
				wantNumbers(t, w.st, w.org.ID, len(list))
			})
		}
	}},
	{"Invoice/ChangeOfStayDocuments", func(t *testing.T, s Stores) {
		// What the cancellation and the replacement say.
		w := newInvoiceWorld(t, s, "inv-documents")
		b := w.book(t, "2026-06-01", "2026-06-04")
		w.issue(t)
		w.later()
		b = w.change(t, b, "2026-06-02", "2026-06-04", 2, "20", 9300)
		due, err := w.st.InvoicesDue(t.Context(), 10)
		must(t, err)
		if want := []invoice.Due{{Kind: invoice.KindCreditNote, OrgID: w.org.ID, BookingID: b.ID, Revision: 0}}; fmt.Sprint(due) != fmt.Sprint(want) {
			t.Fatalf("due after the change %+v, want %+v (the cancellation first)", due, want)
		}
		if n := w.issue(t); n != 2 {
			t.Fatalf("issued %d, want the cancellation and the replacement", n)
		}
		list, err := w.st.BookingInvoices(t.Context(), b.ID)
		must(t, err)
		first, x, repl := list[0], list[1], list[2]
		if x.Snapshot.Corrects != first.Number || x.Snapshot.Nights != 3 || x.Snapshot.CheckIn != day("2026-06-01") ||
			len(x.Snapshot.Lines) != len(first.Snapshot.Lines) || !x.Snapshot.Lines[0].Amount.Equal(dec("-300")) ||
			!x.Total.Equal(dec("-399")) || !x.Snapshot.TouristTax.Equal(dec("-9")) || !taxesOf(x.Snapshot).Equal(dec("-30")) {
			t.Errorf("cancellation: %+v", x)
		}
		rev, err := w.st.StayRevision(t.Context(), b.ID)
		must(t, err)
		s2 := repl.Snapshot
		if repl.Revision != rev || rev == 0 || s2.Replaces != first.Number || s2.Nights != 2 || s2.CheckIn != day("2026-06-02") ||
			!repl.Total.Equal(dec("306")) || !s2.TouristTax.Equal(dec("6")) || !taxesOf(s2).Equal(dec("20")) ||
			!s2.Paid.Equal(dec("306")) { // 399 paid, 93 given back
			t.Errorf("replacement: %+v", repl)
		}
		if l := s2.Lines[len(s2.Lines)-1]; l.Code != invoice.LineRetained || !l.Amount.Equal(dec("20")) || !s2.Subtotal.Equal(dec("280")) {
			t.Errorf("replacement's lines %+v subtotal %s, want the 20 kept on a line of its own", s2.Lines, s2.Subtotal)
		}
		if !x.IssuedAt.Before(repl.IssuedAt) && !x.IssuedAt.Equal(repl.IssuedAt) {
			t.Errorf("cancellation issued at %v, after the replacement at %v", x.IssuedAt, repl.IssuedAt)
		}
		// Issued again by hand: the stored documents, no number taken.
		again, created, err := w.svc.IssueInvoice(t.Context(), b.ID)
		must(t, err)
		if created || again.ID != repl.ID {
			t.Errorf("issuing the invoice again: %d created %v, want %d", again.ID, created, repl.ID)
		}
		again, created, err = w.svc.CancelInvoice(t.Context(), b.ID, 0)
		must(t, err)
		if created || again.ID != x.ID {
			t.Errorf("cancelling again: %d created %v, want %d", again.ID, created, x.ID)
		}
		_, _, err = w.svc.CancelInvoice(t.Context(), b.ID, rev)
		wantCode(t, err, booking.CodeConflict)
		// The change's refund has no credit note of its own.
		for _, e := range entriesOfBooking(t, s, b.ID) {
			if e.Kind == ledger.KindRefund {
				_, _, err = w.svc.IssueCreditNote(t.Context(), b.ID, e.ID)
				wantCode(t, err, booking.CodeConflict)
			}
		}
		wantNumbers(t, w.st, w.org.ID, 3)
	}},
	{"Invoice/ChangeOfStayRacingReplicas", func(t *testing.T, s Stores) {
		// Eight replicas issue what is owed at once, on bookings just
		// changed: each document is stored once, numbered without gap.
		w := newInvoiceWorld(t, s, "inv-replicas")
		var bs []*booking.Booking
		for i := range 5 {
			in := day("2026-07-01").AddDays(10 * i)
			b := w.book(t, in.String(), in.AddDays(3).String())
			bs = append(bs, b)
		}
		w.issue(t)
		w.later()
		for i, b := range bs {
			in := b.CheckIn
			if i%2 == 0 {
				w.change(t, b, in.String(), in.AddDays(5).String(), 2, "0", 0)
			} else {
				w.change(t, b, in.AddDays(1).String(), in.AddDays(3).String(), 2, "0", 0)
			}
		}
		const n = 8
		counts := race(n, func(int) error {
			svc := invoice.New(invoice.Options{Store: w.st, Reader: s.Stores, Clock: w.clock})
			_, err := svc.IssueDue(t.Context())
			return err
		})
		wantCounts(t, counts, map[string]int{"": n})
		list := wantNumbers(t, w.st, w.org.ID, 15)
		for _, b := range bs {
			b = w.reload(t, b)
			var net decimal.Decimal
			for _, d := range list {
				if d.BookingID == b.ID {
					net = net.Add(d.Total)
				}
			}
			if !net.Equal(b.TotalAmount) {
				t.Errorf("booking %d: documents net %s, total %s", b.ID, net, b.TotalAmount)
			}
		}
	}},
}

// entriesOfBooking lists a booking's ledger entries.
func entriesOfBooking(t *testing.T, s Stores, id int64) []ledger.Entry {
	t.Helper()
	entries, err := s.LedgerEntries(t.Context(), id)
	must(t, err)
	return entries
}
