package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/privacy"
)

// confirmAt confirms b at at, setting its ConfirmedAt.
func confirmAt(t *testing.T, s Stores, b *booking.Booking, at time.Time) (*booking.Booking, error) {
	t.Helper()
	return s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{booking.StatusPending},
		To: booking.StatusConfirmed, At: at, Confirmed: true})
}

// invoiceOf is the invoice of a confirmed booking, issued at at.
func invoiceOf(b *booking.Booking, at time.Time) *invoice.Invoice {
	inv := invoice.NewInvoice(invoice.Source{Booking: *b, Org: booking.Organization{Name: "Villa"}})
	inv.IssuedAt = at
	return &inv
}

// wantNumbers fails unless the organisation's documents are numbered
// exactly 1..n, with at most one live invoice per booking: one invoice
// more than cancellations.
func wantNumbers(t *testing.T, st invoice.Store, orgID int64, n int) []invoice.Invoice {
	t.Helper()
	list, err := st.Invoices(t.Context(), orgID, 0, n+10)
	must(t, err)
	if len(list) != n {
		t.Fatalf("%d documents, want %d", len(list), n)
	}
	live := map[int64]int{}
	for i, inv := range list {
		if inv.Number != int64(i+1) {
			t.Fatalf("document %d has number %d, want %d (a gap or a duplicate)", i, inv.Number, i+1)
		}
		if i > 0 && inv.IssuedAt.Before(list[i-1].IssuedAt) {
			t.Errorf("number %d issued at %v, before number %d at %v", inv.Number, inv.IssuedAt, list[i-1].Number, list[i-1].IssuedAt)
		}
		switch {
		case inv.Kind == invoice.KindInvoice:
			if live[inv.BookingID]++; live[inv.BookingID] > 1 {
				t.Fatalf("booking %d has two live invoices (number %d)", inv.BookingID, inv.Number)
			}
		case inv.Cancellation():
			live[inv.BookingID]--
		}
	}
	return list
}

var invoiceScenarios = []scenario{
	{"Invoice/ConcurrentCheckoutsNumberedWithoutGap", func(t *testing.T, s Stores) {
		// 200 bookings confirmed at once, each issuing its invoice in
		// the same breath, and 50 duplicate issues racing them: the
		// numbers are exactly 1..200.
		w := newWorld(t, s)
		other := newOrg(t, s, "other-invoices")
		otherProp := newProperty(t, s, other.ID)
		st := capabilityOf[invoice.Store](t, s)
		const n, dup = 200, 50
		start := day("2026-05-01")
		var bs []*booking.Booking
		for i := range n {
			in := start.AddDays(i)
			bs = append(bs, newPending(t, s, w.prop, in.String(), in.AddDays(1).String(), t0.Add(time.Hour)))
		}
		ob := newPending(t, s, otherProp, "2026-05-01", "2026-05-03", t0.Add(time.Hour))
		_, err := confirmAt(t, s, ob, t0)
		must(t, err)
		_, _, err = st.IssueInvoice(t.Context(), invoiceOf(ob, t0))
		must(t, err)
		created := make([]bool, n+dup)
		counts := race(n+dup, func(i int) error {
			b := bs[i%n]
			at := t0.Add(time.Duration(i) * time.Millisecond)
			if i < n {
				got, err := confirmAt(t, s, b, at)
				if err != nil {
					return err
				}
				b = got
			}
			_, ok, err := st.IssueInvoice(t.Context(), invoiceOf(b, at))
			created[i] = ok
			return err
		})
		wantCounts(t, counts, map[string]int{"": n + dup})
		if c := len(slices.DeleteFunc(created, func(ok bool) bool { return !ok })); c != n {
			t.Errorf("%d issues created a document, want %d", c, n)
		}
		wantNumbers(t, st, w.org.ID, n)
		wantNumbers(t, st, other.ID, 1)
	}},
	{"Invoice/IdempotentAndCreditNotes", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		st := capabilityOf[invoice.Store](t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		due, err := st.InvoicesDue(t.Context(), 10)
		must(t, err)
		if len(due) != 0 {
			t.Fatalf("due before any confirmation: %+v", due)
		}
		b, err = confirmAt(t, s, b, t0)
		must(t, err)
		due, err = st.InvoicesDue(t.Context(), 10)
		must(t, err)
		if want := []invoice.Due{{Kind: invoice.KindInvoice, OrgID: w.org.ID, BookingID: b.ID}}; fmt.Sprint(due) != fmt.Sprint(want) {
			t.Fatalf("due %+v, want %+v", due, want)
		}
		inv := invoiceOf(b, t0.Add(time.Hour))
		inv.Snapshot.Buyer = invoice.Buyer{Name: "Ada Lovelace", Address: "1 rue de la Paix\n75002 Paris"}
		first, created, err := st.IssueInvoice(t.Context(), inv)
		must(t, err)
		if !created || first.Number != 1 || first.ID == 0 || !first.IssuedAt.Equal(t0.Add(time.Hour)) {
			t.Fatalf("first issue: %+v created %v", first, created)
		}
		// Issued again, earlier: the stored one, no number taken.
		again, created, err := st.IssueInvoice(t.Context(), invoiceOf(b, t0))
		must(t, err)
		if created || again.ID != first.ID || again.Number != 1 {
			t.Fatalf("second issue: %+v created %v", again, created)
		}
		got, err := st.Invoice(t.Context(), w.org.ID, first.ID)
		must(t, err)
		if got.Snapshot.Buyer.Name != "Ada Lovelace" || !got.Total.Equal(b.TotalAmount) || got.Snapshot.Nights != 3 ||
			!got.Snapshot.Total.Equal(b.TotalAmount) || len(got.Snapshot.Lines) != 2 {
			t.Errorf("stored invoice: %+v", got)
		}
		_, err = st.Invoice(t.Context(), w.org.ID+1000, first.ID)
		wantCode(t, err, booking.CodeNotFound)

		// A refund: owed a credit note once it succeeds.
		entries, err := s.RecordLedger(t.Context(), []ledger.Entry{refundEntry(b, "inv-refund", 5000)}, t0)
		must(t, err)
		due, err = st.InvoicesDue(t.Context(), 10)
		must(t, err)
		if len(due) != 0 {
			t.Fatalf("due with a pending refund: %+v", due)
		}
		refund := entries[0]
		refund.Status = ledger.StatusSucceeded
		refund.UpdatedAt = t0.Add(2 * time.Hour)
		must(t, s.UpdateLedgerEntry(t.Context(), &refund))
		due, err = st.InvoicesDue(t.Context(), 10)
		must(t, err)
		if want := []invoice.Due{{Kind: invoice.KindCreditNote, OrgID: w.org.ID, BookingID: b.ID, LedgerEntryID: refund.ID}}; fmt.Sprint(due) != fmt.Sprint(want) {
			t.Fatalf("due %+v, want %+v", due, want)
		}
		note := invoice.NewCreditNote(invoice.Source{Booking: *b}, *first, refund)
		note.IssuedAt = t0 // before the invoice: moved to its time
		for range 2 {
			got, _, err := st.IssueInvoice(t.Context(), &note)
			must(t, err)
			if got.Number != 2 || got.LedgerEntryID != refund.ID || !got.IssuedAt.Equal(t0.Add(time.Hour)) || !got.Total.Equal(dec("-50")) {
				t.Fatalf("credit note: number %d entry %d at %v total %s", got.Number, got.LedgerEntryID, got.IssuedAt, got.Total)
			}
		}
		due, err = st.InvoicesDue(t.Context(), 10)
		must(t, err)
		if len(due) != 0 {
			t.Fatalf("due after the credit note: %+v", due)
		}
		list, err := st.BookingInvoices(t.Context(), b.ID)
		must(t, err)
		if len(list) != 2 || list[0].Kind != invoice.KindInvoice || list[1].Kind != invoice.KindCreditNote || list[1].Snapshot.Corrects != 1 {
			t.Fatalf("booking's documents: %+v", list)
		}
		wantNumbers(t, st, w.org.ID, 2)

		// A credit note of an entry of another booking is refused.
		other := newPending(t, s, w.prop, "2026-08-01", "2026-08-04", t0.Add(time.Hour))
		bad := note
		bad.BookingID = other.ID
		_, _, err = st.IssueInvoice(t.Context(), &bad)
		wantCode(t, err, booking.CodeNotFound)
		wantNumbers(t, st, w.org.ID, 2)
	}},
	{"Invoice/ErasureKeepsNumbersNotBuyer", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		st := capabilityOf[invoice.Store](t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		b, err := confirmAt(t, s, b, t0)
		must(t, err)
		inv := invoiceOf(b, t0)
		inv.Snapshot.Buyer = invoice.Buyer{Name: b.GuestName, Address: "1 rue de la Paix"}
		_, _, err = st.IssueInvoice(t.Context(), inv)
		must(t, err)
		must(t, records(t, s).EraseGuest(t.Context(), b.ID, privacy.Anonymous(t0.Add(time.Hour))))
		list, err := st.BookingInvoices(t.Context(), b.ID)
		must(t, err)
		if len(list) != 1 || list[0].Number != 1 || !list[0].Total.Equal(b.TotalAmount) {
			t.Fatalf("after erasure: %+v", list)
		}
		if got := list[0].Snapshot.Buyer; got.Name != privacy.ErasedName || got.Address != "" {
			t.Errorf("erased buyer: %+v", got)
		}
	}},
	{"Invoice/Seller", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		st := capabilityOf[invoice.Store](t, s)
		got, err := st.InvoiceSeller(t.Context(), w.org.ID)
		must(t, err)
		if got != (invoice.Seller{}) {
			t.Errorf("seller before any: %+v", got)
		}
		want := invoice.Seller{LegalName: "SARL Éden", LegalForm: "SARL", Address: "1 rue\n06600 Antibes", VATID: "FR12123456789"}
		for range 2 {
			must(t, st.SetInvoiceSeller(t.Context(), w.org.ID, want))
		}
		got, err = st.InvoiceSeller(t.Context(), w.org.ID)
		must(t, err)
		if got != want {
			t.Errorf("seller %+v, want %+v", got, want)
		}
		wantCode(t, st.SetInvoiceSeller(t.Context(), w.org.ID+1000, want), booking.CodeNotFound)
	}},
}
