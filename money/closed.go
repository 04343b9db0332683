package money

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// ReturnMoney makes sure that the money of a booking that closed is what
// its decision keeps (the lifecycle's booking.MoneyMover): money received
// on in is recorded as a receipt, and the refunds the decision calls for
// (nothing kept without one: never more than what was received beyond it)
// are written in the same step and sent at once; an authorisation is
// released. The jobs retry them until the provider has them. Refunds the
// ledger does not know yet (the provider's dashboard) are learnt first.
// An error means nothing may be recorded yet: the caller retries (the
// release job, the next event or sweep).
func (s *Service) ReturnMoney(ctx context.Context, b *booking.Booking, in *payment.Intent, reason string, now time.Time) error {
	if in.AmountRefunded > 0 {
		// Refunds the ledger may not know of yet (the provider's
		// dashboard) are learnt before anything is owed.
		if err := s.matchRefunds(ctx, b, in.ID); err != nil {
			return err
		}
	}
	var record []ledger.Entry
	switch {
	case in.Status == payment.StatusSucceeded && in.AmountReceived > 0:
		record = append(record, booking.ReceiptEntry(b, in, reason))
	case in.Status != payment.StatusSucceeded && in.Status != payment.StatusCanceled:
		record = append(record, booking.ReleaseEntry(b, in.ID, reason))
	}
	return s.settleClosed(ctx, b, record, reason, now)
}

// settleClosed writes, in one step, record (receipts, releases) and the
// refunds that bring a closed booking's money to its decision
// (ledger.Corrections over its entries as record changes them), then sends
// them at once. A new receipt of an intent the ledger has a receipt of
// already is dropped: one receipt per intent. Keys make it safe to run
// twice, or on two replicas: the same ledger gives the same entries,
// stored once.
func (s *Service) settleClosed(ctx context.Context, b *booking.Booking, record []ledger.Entry, reason string, now time.Time) error {
	ctx = context.WithoutCancel(ctx)
	// The stored status decides: only a closed booking's money is brought
	// to its decision; a live one keeps what it paid.
	id := b.ID
	b, err := s.store.BookingByID(ctx, id)
	if err != nil {
		return fmt.Errorf("re-read booking %d: %w", id, err)
	}
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return err
	}
	// An entry of record that is stored already is one the worker is
	// sending (a balance found charged): its outcome is saved after this
	// returns, so the refunds are left to the worker rather than sent now,
	// when a failure would be owed again on a ledger that does not show
	// the money yet.
	inFlight := false
	kept := record[:0:0]
	for _, e := range record {
		e.BookingID = b.ID
		if in, ok := e.ReceivedOn(); ok && e.Kind == ledger.KindCharge && received(entries, in) {
			continue
		}
		var stored bool
		entries, stored = upsertEntry(entries, e)
		inFlight = inFlight || stored
		kept = append(kept, e)
	}
	record = kept
	if b.Closed() {
		record = append(record, ledger.Corrections(entries, b.ID, b.Currency, reason, now)...)
	}
	if len(record) == 0 {
		return nil
	}
	recorded, err := s.store.RecordLedger(ctx, record, now)
	if err != nil {
		return fmt.Errorf("record the money owed by closed booking %d: %w", b.ID, err)
	}
	if !inFlight {
		s.SendNow(ctx, recorded)
	}
	return nil
}

// upsertEntry is entries with e in place of the entry of its key, or
// added; stored says whether there was one.
func upsertEntry(entries []ledger.Entry, e ledger.Entry) (_ []ledger.Entry, stored bool) {
	for i := range entries {
		if entries[i].Key == e.Key {
			entries[i] = e
			return entries, true
		}
	}
	return append(entries, e), false
}

// received reports whether the ledger records the receipt of intent.
func received(entries []ledger.Entry, intent string) bool {
	_, ok := ledger.PositionOf(entries).Received[intent]
	return ok
}

// ledgerOf is a booking's ledger as the money rules read it
// (booking.LedgerOf).
func (s *Service) ledgerOf(ctx context.Context, b *booking.Booking) ([]ledger.Entry, error) {
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	return booking.LedgerOf(b, entries)
}

// LearnRefunds records the refunds the provider made of a booking's money
// that the ledger does not know yet (the provider's dashboard, its event
// still on its way), so that a cancellation about to decide keeps what is
// really held (the lifecycle's booking.MoneyMover). The provider being
// unreachable does not stop a cancellation: a refund learnt later was the
// host's own, beyond the decision.
func (s *Service) LearnRefunds(ctx context.Context, b *booking.Booking) {
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return
	}
	for in := range ledger.PositionOf(entries).Received {
		if err := s.matchRefunds(ctx, b, in); err != nil {
			s.logger.WarnContext(ctx, "learn the provider's refunds before deciding", "booking_id", b.ID, "err", err)
			return
		}
	}
}

// LearnBalance completes, before a cancellation decides (or its preview
// tells), a balance the booking already counts as paid but the ledger
// does not show (a crash after the booking recorded it, before its entry
// was saved): sent again, its entry finds the paid intent and records it,
// so that the decision counts it. Money the booking never acknowledged
// (an answer lost, a 3-D Secure completed out of sight) is not decided on:
// it is received beyond the decision and goes back. Only a balance found
// paid is sent: an open one is voided by the cancellation instead. The
// provider being unreachable does not stop a cancellation.
func (s *Service) LearnBalance(ctx context.Context, b *booking.Booking) {
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return
	}
	paid, err := pricing.ToMinor(b.PaidAmount, b.Currency)
	if err != nil || paid <= ledger.PositionOf(entries).Charged() {
		return
	}
	for i := range entries {
		e := &entries[i]
		if e.Kind != ledger.KindBalance || e.Status != ledger.StatusPending || (e.ProviderID == "" && e.Attempts == 0) {
			continue
		}
		_, _, _, in, err := s.offSessionEntry(ctx, e, e.Attempts > 0)
		if err != nil || in == nil || in.Status != payment.StatusSucceeded {
			continue
		}
		if _, err := s.send(ctx, e); err != nil {
			s.logger.WarnContext(ctx, "record a charged balance before deciding", "booking_id", b.ID, "err", err)
		}
	}
}
