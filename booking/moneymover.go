package booking

import (
	"context"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
)

// MoneyMover is the money I/O the booking lifecycle hands on: package
// money implements it (money.New makes its Service the lifecycle's
// MoneyMover). The lifecycle decides the money and records it in the
// ledger, in the transition that needs it (a confirmation's balance and
// security deposit, a cancellation's refunds, a decline's or expiry's
// release); the MoneyMover carries the entries out at the payment
// provider, learns what the provider did outside staykit, and brings a
// closed booking's money to its decision.
//
// Without one (the zero Service) the lifecycle moves no money itself: what
// it records is sent by the jobs (package jobs over a money.Service), a
// cancellation decides on the ledger as it stands, a deposit claim is
// recorded and left to the jobs, and money found on a booking that closed
// is left to the money service's events and jobs. Implementations are
// safe for concurrent use.
type MoneyMover interface {
	// Send carries out one pending entry at the provider now and saves
	// the outcome in e, as the jobs would; it reports whether the entry
	// was settled (not left for a retry). An error is logged by the
	// caller: the jobs retry the entry.
	Send(ctx context.Context, e *ledger.Entry) (settled bool, err error)
	// SendNow sends entries recorded just now that are due at once;
	// failures, and entries due later, are left to the jobs.
	SendNow(ctx context.Context, entries []ledger.Entry)
	// ReturnMoney records money received on in for booking b, which
	// closed (or whose payment came after its dates went to someone
	// else: reason ledger.ReasonLatePayment), and the refunds or release
	// that bring its money to its decision, and sends them. An error
	// means it is to be tried again.
	ReturnMoney(ctx context.Context, b *Booking, in *payment.Intent, reason string, now time.Time) error
	// LearnBalance records a balance b counts as paid that the ledger
	// does not show yet, before a cancellation decides or is previewed.
	LearnBalance(ctx context.Context, b *Booking)
	// LearnRefunds records refunds the provider made of b's money that
	// the ledger does not know yet, before a cancellation decides.
	LearnRefunds(ctx context.Context, b *Booking)
}

// moneyMover holds a Service's MoneyMover.
type moneyMover struct{ MoneyMover }

// SetMoneyMover makes m the MoneyMover of the lifecycle: money.New calls
// it, before the Service serves. It is not an Option because the money
// service is built over the booking Service (it calls Reconcile); set
// once, it is safe to read from any goroutine.
func (s *Service) SetMoneyMover(m MoneyMover) {
	s.mover.Store(&moneyMover{m})
}

// money returns the MoneyMover, nil when none is set.
func (s *Service) money() MoneyMover {
	if m := s.mover.Load(); m != nil {
		return m.MoneyMover
	}
	return nil
}

// sendBookingEntries sends the pending entries of one booking at once.
func (s *Service) sendBookingEntries(ctx context.Context, bookingID int64) {
	m := s.money()
	if m == nil {
		return // the jobs send them
	}
	entries, err := s.store.LedgerEntries(context.WithoutCancel(ctx), bookingID)
	if err != nil {
		s.logger.WarnContext(ctx, "read ledger; the worker sends it", "booking_id", bookingID, "err", err)
		return
	}
	m.SendNow(ctx, entries)
}

// sendEntry carries out one pending entry now; without a MoneyMover it is
// left to the jobs.
func (s *Service) sendEntry(ctx context.Context, e *ledger.Entry) error {
	m := s.money()
	if m == nil {
		return nil
	}
	_, err := m.Send(ctx, e)
	return err
}

// returnMoney makes sure that the money of a booking that closed is what
// its decision keeps (MoneyMover.ReturnMoney) and returns the booking's
// closed error (CodePaymentLate for a late payment).
func (s *Service) returnMoney(ctx context.Context, b *Booking, in *payment.Intent, reason string, now time.Time) error {
	if m := s.money(); m != nil {
		if err := m.ReturnMoney(ctx, b, in, reason, now); err != nil {
			return err
		}
	} else {
		s.logger.WarnContext(ctx, "no money service: the money of a closed booking is left to its events and jobs", "booking_id", b.ID, "intent", in.ID)
	}
	if reason == ledger.ReasonLatePayment {
		return &Error{Code: CodePaymentLate, Message: "The payment arrived after the hold on these dates lapsed, and they have been booked since. The payment is being returned."}
	}
	return errClosedNow(b)
}

// learnMoney brings the ledger up to what the provider holds for a
// booking about to be cancelled, so that what the cancellation refunds and
// keeps is decided on it: a balance charged but not recorded yet
// (MoneyMover.LearnBalance) and refunds made outside staykit
// (MoneyMover.LearnRefunds).
func (s *Service) learnMoney(ctx context.Context, b *Booking) {
	if m := s.money(); m != nil {
		m.LearnBalance(ctx, b)
		m.LearnRefunds(ctx, b)
	}
}

// learnBalance is MoneyMover.LearnBalance, when there is one.
func (s *Service) learnBalance(ctx context.Context, b *Booking) {
	if m := s.money(); m != nil {
		m.LearnBalance(ctx, b)
	}
}
