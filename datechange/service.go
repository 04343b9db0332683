package datechange

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

// Options configure a Service; Bookings, Store and Money are required.
type Options struct {
	// Bookings prices the new stay (booking.Service.RepriceStay) and
	// resolves organisations.
	Bookings *booking.Service
	// Store keeps the changes: db.Stores() of store/sqlite or
	// store/postgres.
	Store Store
	// Money sends the changes' charges and refunds; New makes the
	// Service its money.DateChanges.
	Money *money.Service
	// Records, when set, keeps the host's answers and settings in the
	// audit log (the database's host.Store).
	Records Records
	// Clock defaults to the wall clock.
	Clock  booking.Clock
	Logger *slog.Logger
}

// Service runs the guests' changes of dates or party and the host's
// answers to them. It is safe for concurrent use.
type Service struct {
	bookings *booking.Service
	store    Store
	money    *money.Service
	records  Records
	clock    booking.Clock
	logger   *slog.Logger
}

// New returns a Service and makes it o.Money's money.DateChanges. It
// panics without Bookings, Store or Money, a programming error.
func New(o Options) *Service {
	if o.Bookings == nil || o.Store == nil || o.Money == nil {
		panic("datechange: New needs Bookings, a Store and Money")
	}
	s := &Service{bookings: o.Bookings, store: o.Store, money: o.Money, records: o.Records, clock: o.Clock, logger: o.Logger}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	o.Money.SetDateChanges(s)
	return s
}

var _ money.DateChanges = (*Service)(nil)

// supersedeMargin is how long before a scheduled balance or security
// deposit hold is due a change may still replace it: afterwards the
// worker may be sending it, and the change waits until it settled.
const supersedeMargin = time.Hour

// View is a change as the guest's page shows it.
type View struct {
	Change *Change
	// ClientSecret lets the guest's browser complete the charge (3-D
	// Secure, or a card to enter) while the change is paying and the
	// provider waits for the guest.
	ClientSecret     string
	PaymentPublicKey string
}

// subject is what a change reads first: its booking and organisation.
type subject struct {
	org     *booking.Organization
	b       *booking.Booking
	terms   *booking.Terms
	entries []ledger.Entry
}

func (s *Service) byToken(ctx context.Context, slug, token string) (*subject, error) {
	org, err := s.bookings.Organization(ctx, slug)
	if err != nil {
		return nil, err
	}
	b, err := s.store.BookingByToken(ctx, org.ID, token)
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, &booking.Error{Code: booking.CodeNotFound, Message: "This booking does not exist.",
				Params: map[string]string{booking.ParamSubject: "booking"}}
		}
		return nil, fmt.Errorf("find booking: %w", err)
	}
	return s.read(ctx, org, b)
}

// learnt is read after the provider's refunds of b that the ledger does
// not know yet are recorded (money.Service.LearnRefunds: the host's
// dashboard, their events still on their way), as a cancellation learns
// them before it decides: a change that costs less gives back what is
// held beyond its price, and what the host gave back already counts. The
// provider being unreachable does not stop a change: a refund it refuses
// beyond what is left is owed again only as far as it is still owed.
func (s *Service) learnt(ctx context.Context, org *booking.Organization, b *booking.Booking) (*subject, error) {
	s.money.LearnRefunds(ctx, b)
	return s.read(ctx, org, b)
}

func (s *Service) read(ctx context.Context, org *booking.Organization, b *booking.Booking) (*subject, error) {
	sub := &subject{org: org, b: b}
	t, err := s.store.Terms(ctx, b.ID)
	switch {
	case err == nil:
		sub.terms = t
	case booking.ErrorCode(err) != booking.CodeNotFound:
		return nil, fmt.Errorf("read terms of booking %d: %w", b.ID, err)
	}
	entries, err := s.store.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", b.ID, err)
	}
	if sub.entries, err = booking.LedgerOf(b, entries); err != nil {
		return nil, err
	}
	return sub, nil
}

// Quote prices a change of the booking of token to r now, against what
// was paid and what the cancellation policy keeps; nothing is written.
// Errors: booking.CodeNotFound, booking.CodeInvalid, the stay rule codes,
// booking.CodeUnavailable, booking.CodeBookingClosed (reasons
// ReasonNotConfirmed, ReasonStayStarted, ReasonBalanceInProgress,
// ReasonDepositHeld).
func (s *Service) Quote(ctx context.Context, slug, token string, r Request) (*Offer, error) {
	sub, err := s.byToken(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	o, _, err := s.offer(ctx, sub, r, s.clock.Now())
	return o, err
}

// changeable refuses a change the booking cannot take now.
func (s *Service) changeable(sub *subject, now time.Time) error {
	b := sub.b
	if b.Status != booking.StatusConfirmed {
		return closed(ReasonNotConfirmed, "Only a confirmed booking can be changed.")
	}
	if !civil.Today(now, sub.org.Location()).Before(b.CheckIn) {
		return closed(ReasonStayStarted, "The stay has started: its dates can no longer be changed here. Please contact the host.")
	}
	if t := sub.terms; t != nil {
		switch t.BalanceStatus {
		case booking.BalanceRetrying, booking.BalanceActionRequired, booking.BalanceFailed:
			return closed(ReasonBalanceInProgress, "The balance of this booking is being collected: please pay it first, then change the dates.")
		}
		if t.DepositStatus == booking.DepositHeld {
			return closed(ReasonDepositHeld, "The security deposit is already held for these dates: please contact the host to change them.")
		}
	}
	for _, e := range sub.entries {
		if e.Status != ledger.StatusPending {
			continue
		}
		busy := e.Attempts > 0 || e.ProviderID != "" || !e.NextAttemptAt.After(now.Add(supersedeMargin))
		switch {
		case e.Kind == ledger.KindBalance && busy:
			return closed(ReasonBalanceInProgress, "The balance of this booking is being collected: please pay it first, then change the dates.")
		case e.Kind == ledger.KindDepositHold && busy:
			return closed(ReasonDepositHeld, "The security deposit is being held for these dates: please contact the host to change them.")
		}
	}
	return nil
}

func closed(reason, message string) error {
	return &booking.Error{Code: booking.CodeBookingClosed, Message: message, Params: map[string]string{booking.ParamReason: reason}}
}

// offer prices r for sub at now (see Quote), with the booking's new
// stay as RepriceStay found it.
func (s *Service) offer(ctx context.Context, sub *subject, r Request, now time.Time) (*Offer, *booking.Restay, error) {
	b := sub.b
	if err := s.changeable(sub, now); err != nil {
		return nil, nil, err
	}
	st := booking.Stay{CheckIn: r.CheckIn, CheckOut: r.CheckOut, Guests: r.Guests}
	f := booking.FieldErrors{}
	switch {
	case r.CheckIn.IsZero():
		f.Add("check_in", "required")
	case r.CheckOut.IsZero():
		f.Add("check_out", "required")
	case r.Guests < 1:
		f.Add("guests_count", "min_one")
	case r.CheckIn == b.CheckIn && r.CheckOut == b.CheckOut && r.Guests == b.Guests:
		f.Add("check_in", "unchanged")
	}
	if err := f.Err(); err != nil {
		return nil, nil, &booking.Error{Code: booking.CodeInvalid, Message: "Choose other dates or another number of guests than the booking has.", Fields: f}
	}
	locale := r.Locale
	if locale == "" {
		locale = b.Locale
	}
	rs, err := s.bookings.RepriceStay(ctx, sub.org, b, st, locale)
	if err != nil {
		return nil, nil, err
	}
	approval, err := s.store.DateChangeApproval(ctx, sub.org.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("read date change approval of organisation %d: %w", sub.org.ID, err)
	}
	plan, pct, err := s.plan(sub, rs.Quote.Total, now)
	if err != nil {
		return nil, nil, err
	}
	cur := b.Currency
	o := &Offer{CheckIn: r.CheckIn, CheckOut: r.CheckOut, Guests: r.Guests, Quote: rs.Quote,
		PreviousTotal: b.TotalAmount, Paid: pricing.FromMinor(held(sub.entries), cur), PolicyPercent: pct,
		Retained: pricing.FromMinor(plan.Retained, cur), Total: pricing.FromMinor(plan.Total, cur),
		Charge: pricing.FromMinor(plan.Charge, cur), Refund: pricing.FromMinor(plan.Refund, cur),
		Balance: pricing.FromMinor(plan.Balance, cur), CouponDropped: rs.CouponDropped, ApprovalRequired: approval,
		Units: rs.Guard.Units}
	if plan.Balance > 0 {
		o.BalanceDueDate = balanceDue(sub.org, r.CheckIn, now)
	}
	return o, rs, nil
}

// plan decides the money of moving sub's booking to a stay priced
// newPrice, at now (Decide), and returns it with the policy's percent.
func (s *Service) plan(sub *subject, newPrice booking.Money, now time.Time) (Plan, booking.Money, error) {
	b, cur := sub.b, sub.b.Currency
	pol := policy.Policy{Name: policy.NonRefundable}
	if sub.terms != nil {
		pol = sub.terms.Policy
	} else if p, err := policy.Preset(booking.DefaultPolicy); err == nil {
		pol = p
	}
	out := pol.Evaluate(b.TotalAmount, booking.PolicyAnchor(b, sub.terms), sub.org.Location(), now, pricing.MinorUnits(cur))
	oldTotal, err := pricing.ToMinor(b.TotalAmount, cur)
	if err != nil {
		return Plan{}, booking.Money{}, fmt.Errorf("convert total of booking %d: %w", b.ID, err)
	}
	price, err := pricing.ToMinor(newPrice, cur)
	if err != nil {
		return Plan{}, booking.Money{}, fmt.Errorf("convert new price of booking %d: %w", b.ID, err)
	}
	open := false
	if t := sub.terms; t != nil && (t.BalanceStatus == booking.BalanceScheduled || t.BalanceStatus == booking.BalanceManual) {
		open = b.BalanceAmount.IsPositive()
	} else if t == nil && b.BalanceAmount.IsPositive() {
		open = true // a booking from before terms: the host collects it
	}
	return Decide(PlanInput{OldTotal: oldTotal, NewPrice: price, Percent: out.Percent, Held: held(sub.entries), BalanceOpen: open}), out.Percent, nil
}

// held is what a booking holds for its stay: received less returned.
func held(entries []ledger.Entry) int64 {
	p := ledger.PositionOf(entries)
	return p.Charged() - p.Returned()
}

// balanceDue is when a balance recomputed for a stay from checkIn is due:
// the organisation's days before arrival, and not before today.
func balanceDue(org *booking.Organization, checkIn civil.Date, now time.Time) civil.Date {
	due := checkIn.AddDays(-org.BalanceDueDays)
	if today := civil.Today(now, org.Location()); due.Before(today) {
		return today
	}
	return due
}

// Accept applies a change of the booking of token to r, priced now (as
// Quote), or, when the host approves changes, records it as a request.
// A change that costs more is charged first (the saved card off
// session, else the guest pays on the booking page) and applied in the
// write that records the charge; one that costs less, or adds to an open
// balance, is applied at once, its refunds sent after. The View says
// where it stands. Errors: those of Quote; booking.CodeConflict (reason
// ReasonChangeOpen); booking.CodeUnavailable when the dates were taken
// meanwhile; booking.CodePaymentUnavailable.
func (s *Service) Accept(ctx context.Context, slug, token string, r Request) (*View, error) {
	sub, err := s.byToken(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	if sub, err = s.learnt(ctx, sub.org, sub.b); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	o, rs, err := s.offer(ctx, sub, r, now)
	if err != nil {
		return nil, err
	}
	// A request the host let lapse is closed first: it no longer stands
	// in the way of a new change.
	if err := s.lapse(ctx, sub.b.ID, now); err != nil {
		return nil, err
	}
	c := &Change{BookingID: sub.b.ID, OrgID: sub.org.ID, OldCheckIn: sub.b.CheckIn, OldCheckOut: sub.b.CheckOut,
		OldGuests: sub.b.Guests, Offer: *o, CreatedAt: now, UpdatedAt: now}
	if o.ApprovalRequired {
		c.Status = StatusRequested
		c.ExpiresAt = expiresIn(sub.org, now)
		ev, err := changeEvent(booking.NotifyChangeRequested, c, changeData(c, StatusRequested, sub.b.Currency))
		if err != nil {
			return nil, err
		}
		if err := s.store.SaveDateChange(ctx, c, nil, nil, []outbox.Event{ev}, now); err != nil {
			return nil, err
		}
		return &View{Change: c}, nil
	}
	return s.execute(ctx, sub, c, rs.Guard, now)
}

// execute carries out c, a change not applied yet (new, or requested and
// approved): its charge first when it costs more than is held, else the
// change at once.
func (s *Service) execute(ctx context.Context, sub *subject, c *Change, guard booking.DateGuard, now time.Time) (*View, error) {
	plan, _, err := s.plan(sub, c.Offer.Quote.Total, now)
	if err != nil {
		return nil, err
	}
	from := []Status{}
	if c.ID != 0 {
		from = []Status{c.Status}
	}
	if plan.Charge == 0 {
		if _, err := s.apply(ctx, sub, c, from, guard, nil, now); err != nil {
			return nil, err
		}
		return s.view(ctx, c)
	}
	if c.Customer, err = s.money.ChangeCustomer(ctx, sub.b, sub.terms); err != nil {
		return nil, err
	}
	changes, err := s.store.DateChanges(ctx, sub.b.ID)
	if err != nil {
		return nil, fmt.Errorf("read changes of booking %d: %w", sub.b.ID, err)
	}
	e := ledger.Entry{Kind: ledger.KindChangeCharge, IntentID: sub.b.PaymentIntentID, Amount: plan.Charge, Currency: sub.b.Currency,
		Key: "change-charge:" + strconv.FormatInt(sub.b.ID, 10) + ":" + strconv.Itoa(len(changes)+1), Reason: ledger.ReasonDateChange,
		Status: ledger.StatusPending, NextAttemptAt: now}
	c.Status, c.EntryKey, c.ExpiresAt, c.UpdatedAt = StatusPaying, e.Key, time.Time{}, now
	c.Offer.Charge = pricing.FromMinor(plan.Charge, sub.b.Currency)
	if c.ID == 0 {
		c.CreatedAt = now
	}
	// The store first, the provider second: a crash in between leaves a
	// pending entry the jobs send; money is never taken for a change the
	// ledger does not know.
	if err := s.store.SaveDateChange(ctx, c, from, []ledger.Entry{e}, nil, now); err != nil {
		return nil, err
	}
	if stored, err := s.chargeEntry(ctx, c); err == nil && stored != nil {
		if _, err := s.money.Send(ctx, stored); err != nil {
			s.logger.WarnContext(ctx, "send a change's charge; the worker retries", "booking_id", c.BookingID, "err", err)
		}
	}
	return s.view(ctx, c)
}

// chargeEntry is the stored charge entry of c, nil without one.
func (s *Service) chargeEntry(ctx context.Context, c *Change) (*ledger.Entry, error) {
	if c.EntryKey == "" {
		return nil, nil
	}
	entries, err := s.store.LedgerEntries(ctx, c.BookingID)
	if err != nil {
		return nil, fmt.Errorf("read ledger of booking %d: %w", c.BookingID, err)
	}
	for i := range entries {
		if entries[i].Key == c.EntryKey {
			return &entries[i], nil
		}
	}
	return nil, nil
}

// apply gives sub's booking c's new stay in one write: its new amounts
// and price, the refunds of what it holds beyond its new total, its
// balance (and security deposit hold) rescheduled, the policy's anchor
// and non-refundable part in its terms; settle, when set, is c's charge,
// succeeded. The terms' version makes it retry when another writer
// changed them meanwhile.
func (s *Service) apply(ctx context.Context, sub *subject, c *Change, from []Status, guard booking.DateGuard, settle *ledger.Entry, now time.Time) (*booking.Booking, error) {
	for attempt := 0; ; attempt++ {
		a, err := s.applyOf(sub, c, from, guard, settle, now)
		if err != nil {
			return nil, err
		}
		updated, err := s.store.ApplyDateChange(ctx, a)
		if err == nil {
			c.Status, c.UpdatedAt = StatusApplied, now
			s.sendDue(ctx, c.BookingID)
			return updated, nil
		}
		if booking.ErrorCode(err) != booking.CodeConflict || attempt >= 3 || errReason(err) != "" {
			return nil, err
		}
		// Terms saved, or an entry sent, meanwhile: read again.
		fresh, rerr := s.store.BookingByID(ctx, sub.b.ID)
		if rerr != nil {
			return nil, fmt.Errorf("re-read booking %d: %w", sub.b.ID, rerr)
		}
		if sub, rerr = s.read(ctx, sub.org, fresh); rerr != nil {
			return nil, rerr
		}
		if fresh.Status != booking.StatusConfirmed || fresh.Range() != (civil.Range{Start: c.OldCheckIn, End: c.OldCheckOut}) {
			return nil, err
		}
		if settle != nil {
			sub.entries = upsert(sub.entries, *settle)
		}
	}
}

func errReason(err error) string {
	var e *booking.Error
	if errors.As(err, &e) && e.Params != nil {
		return e.Params[booking.ParamReason]
	}
	return ""
}

// upsert replaces the entry of e's key in entries, or appends it.
func upsert(entries []ledger.Entry, e ledger.Entry) []ledger.Entry {
	out := slices.Clone(entries)
	for i := range out {
		if out[i].Key == e.Key {
			out[i] = e
			return out
		}
	}
	return append(out, e)
}

// applyOf builds the write that applies c to sub at now (see apply).
func (s *Service) applyOf(sub *subject, c *Change, from []Status, guard booking.DateGuard, settle *ledger.Entry, now time.Time) (Apply, error) {
	b, cur, o := sub.b, sub.b.Currency, c.Offer
	entries := sub.entries
	if settle != nil {
		entries = upsert(entries, *settle)
	}
	// The offer's total stands (the guest agreed to it); what is held
	// decides what goes back now and what is left to pay.
	total, err := pricing.ToMinor(o.Total, cur)
	if err != nil {
		return Apply{}, fmt.Errorf("convert total of change: %w", err)
	}
	hold := held(entries)
	refund, balance := max(0, hold-total), max(0, total-hold)
	// The new stay holds a unit priced as it was offered, whatever is
	// cheapest now.
	guard.Units = o.Units
	a := Apply{Change: c, From: from, Was: b.Range(), Guard: guard, At: now, NotDueBefore: now.Add(supersedeMargin),
		Stay:        booking.Stay{CheckIn: o.CheckIn, CheckOut: o.CheckOut, Guests: o.Guests},
		TotalAmount: o.Total, Quote: o.Quote, CouponID: b.CouponID, CouponCode: b.CouponCode, Settle: settle}
	if o.CouponDropped {
		a.CouponID, a.CouponCode = 0, ""
	}
	a.PaidAmount = b.PaidAmount
	if settle != nil && settle.Status == ledger.StatusSucceeded {
		a.PaidAmount = pricing.Round(b.PaidAmount.Add(pricing.FromMinor(settle.Amount, cur)), cur)
	}
	a.BalanceAmount = pricing.FromMinor(balance, cur)
	if balance > 0 {
		a.BalanceDueDate = balanceDue(sub.org, o.CheckIn, now)
	}
	pos := ledger.PositionOf(entries)
	if refund > 0 {
		a.Record = append(a.Record, pos.Refunds(entries, b.ID, cur, ledger.ReasonDateChange, min(refund, pos.RefundableTotal()))...)
	}
	if t := sub.terms; t != nil {
		nt := *t
		nt.PolicyCheckIn = booking.PolicyAnchor(b, t)
		nt.Policy.NonRefundable = pricing.Round(t.Policy.NonRefundable.Add(o.Retained), cur)
		a.Terms = &nt
		loc := sub.org.Location()
		seq := strconv.FormatInt(b.ID, 10) + ":" + strconv.FormatInt(now.UnixMilli(), 10)
		for _, e := range entries {
			if e.Status != ledger.StatusPending {
				continue
			}
			switch e.Kind {
			case ledger.KindBalance:
				a.Supersede = append(a.Supersede, e.ID)
			case ledger.KindDepositHold:
				a.Supersede = append(a.Supersede, e.ID)
				a.Record = append(a.Record, ledger.Entry{Kind: ledger.KindDepositHold, IntentID: e.IntentID, Amount: e.Amount,
					Currency: cur, Key: "deposit-hold:" + e.IntentID + ":change:" + seq, Reason: ledger.ReasonSecurity,
					Status: ledger.StatusPending, NextAttemptAt: laterOf(now, o.CheckIn.AddDays(-t.DepositHoldDays).In(loc))})
			}
		}
		switch {
		case balance > 0 && t.BalanceStatus == booking.BalanceScheduled:
			a.Record = append(a.Record, ledger.Entry{Kind: ledger.KindBalance, IntentID: b.PaymentIntentID, Amount: balance,
				Currency: cur, Key: "balance:" + b.PaymentIntentID + ":change:" + seq, Reason: ledger.ReasonBalanceDue,
				Status: ledger.StatusPending, NextAttemptAt: laterOf(now, a.BalanceDueDate.In(loc))})
		case balance > 0 && t.BalanceStatus == booking.BalanceNone:
			nt.BalanceStatus = booking.BalanceManual // left to pay, and no card to charge
		case balance == 0 && (t.BalanceStatus == booking.BalanceScheduled || t.BalanceStatus == booking.BalanceManual):
			nt.BalanceStatus = booking.BalanceNone
		}
	}
	// booking.changed, with what the change did: its charge, the refunds
	// it records, the balance left.
	d := changeData(c, StatusApplied, cur)
	places := pricing.MinorUnits(cur)
	d.Charge = decimal.Zero.StringFixed(places)
	if settle != nil && settle.Status == ledger.StatusSucceeded {
		d.Charge = pricing.FromMinor(settle.Amount, cur).StringFixed(places)
	}
	d.Refund = pricing.FromMinor(refunded(a.Record), cur).StringFixed(places)
	d.Balance, d.BalanceDueDate = a.BalanceAmount.StringFixed(places), ""
	if balance > 0 {
		d.BalanceDueDate = a.BalanceDueDate.String()
	}
	ev, err := changeEvent(booking.NotifyChanged, c, d)
	if err != nil {
		return Apply{}, err
	}
	a.Outbox = append(a.Outbox, ev)
	return a, nil
}

func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// lapse expires the booking's request that the host did not answer in
// time, if any.
func (s *Service) lapse(ctx context.Context, bookingID int64, now time.Time) error {
	changes, err := s.store.DateChanges(ctx, bookingID)
	if err != nil {
		return fmt.Errorf("read changes of booking %d: %w", bookingID, err)
	}
	for i := range changes {
		c := &changes[i]
		if c.Status != StatusRequested || now.Before(c.ExpiresAt) {
			continue
		}
		if _, err := s.expire(ctx, c, now); err != nil && booking.ErrorCode(err) != booking.CodeConflict {
			return err
		}
	}
	return nil
}

// expire closes c, a request the host did not answer in time, telling
// the guest (booking.change_expired). Errors: booking.CodeConflict
// (reason ReasonChangeClosed) when it is not requested any more.
func (s *Service) expire(ctx context.Context, c *Change, now time.Time) (*Change, error) {
	evs, err := closing(c, StatusExpired, notify.CauseRequestLapsed, "", c.Offer.Quote.Currency, nil, nil)
	if err != nil {
		return nil, err
	}
	return s.store.CloseDateChange(ctx, Close{ID: c.ID, From: []Status{StatusRequested}, To: StatusExpired,
		Reason: "the host did not answer in time", Outbox: evs, At: now})
}

// Current is the booking's latest change as its page shows it, nil
// without one. A change whose charge waits for the guest is settled first
// if the guest completed it (its entry sent at once, as a webhook would),
// and comes with the client secret that completes it otherwise; a
// request the host let lapse is expired. Errors: booking.CodeNotFound,
// booking.CodePaymentUnavailable.
func (s *Service) Current(ctx context.Context, slug, token string) (*View, error) {
	sub, err := s.byToken(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	changes, err := s.store.DateChanges(ctx, sub.b.ID)
	if err != nil {
		return nil, fmt.Errorf("read changes of booking %d: %w", sub.b.ID, err)
	}
	if len(changes) == 0 {
		return nil, nil
	}
	c := &changes[0]
	now := s.clock.Now()
	switch {
	case c.Status == StatusRequested && !now.Before(c.ExpiresAt):
		if lapsed, err := s.expire(ctx, c, now); err == nil {
			c = lapsed
		}
	case c.Status == StatusPaying:
		if e, err := s.chargeEntry(ctx, c); err == nil && e != nil && e.Status == ledger.StatusPending && (e.ProviderID != "" || e.Attempts > 0) {
			if _, err := s.money.Send(ctx, e); err != nil {
				s.logger.WarnContext(ctx, "settle a change's charge; the worker retries", "booking_id", sub.b.ID, "err", err)
			}
			if fresh, err := s.store.DateChange(ctx, c.OrgID, c.ID); err == nil {
				c = fresh
			}
		}
	}
	return s.view(ctx, c)
}

// view adds to c what the guest's page needs to complete its charge.
func (s *Service) view(ctx context.Context, c *Change) (*View, error) {
	v := &View{Change: c, PaymentPublicKey: s.bookings.PaymentPublicKey()}
	if c.Status != StatusPaying {
		return v, nil
	}
	e, err := s.chargeEntry(ctx, c)
	if err != nil || e == nil || e.Status != ledger.StatusPending {
		return v, err
	}
	in, err := s.money.ChangeIntent(ctx, e)
	if err != nil {
		return nil, err
	}
	if in != nil && (in.Status == payment.StatusRequiresAction || in.Status == payment.StatusRequiresPayment) {
		v.ClientSecret = in.ClientSecret
	}
	return v, nil
}

// ChangeCharge says how the charge of entry e is to be made
// (money.DateChanges).
func (s *Service) ChangeCharge(ctx context.Context, e *ledger.Entry) (*money.ChangeCharge, error) {
	c, err := s.store.DateChangeByEntry(ctx, e.Key)
	if err != nil {
		return nil, fmt.Errorf("find change of entry %s: %w", e.Key, err)
	}
	b, err := s.store.BookingByID(ctx, c.BookingID)
	if err != nil {
		return nil, fmt.Errorf("find booking of change %d: %w", c.ID, err)
	}
	org, err := s.store.OrganizationByID(ctx, b.OrgID)
	if err != nil {
		return nil, fmt.Errorf("find organisation of change %d: %w", c.ID, err)
	}
	sub, err := s.read(ctx, org, b)
	if err != nil {
		return nil, err
	}
	cc := &money.ChangeCharge{Open: c.Status == StatusPaying, Customer: c.Customer, Since: c.UpdatedAt,
		Hold: time.Duration(max(org.HoldMinutes, 1)) * time.Minute}
	if sub.terms != nil && sub.terms.Customer != "" && sub.terms.Customer == c.Customer {
		if cc.PaymentMethod, err = s.money.SavedCard(ctx, b, sub.terms); err != nil {
			return nil, err
		}
	}
	return cc, nil
}

// ChangePaid applies the change whose charge e went through on in, or
// gives the charge back when the change can no longer apply
// (money.DateChanges).
func (s *Service) ChangePaid(ctx context.Context, e *ledger.Entry, in *payment.Intent, now time.Time) error {
	c, err := s.store.DateChangeByEntry(ctx, e.Key)
	if err != nil {
		return fmt.Errorf("find change of entry %s: %w", e.Key, err)
	}
	b, err := s.store.BookingByID(ctx, c.BookingID)
	if err != nil {
		return fmt.Errorf("find booking of change %d: %w", c.ID, err)
	}
	if b.Status != booking.StatusConfirmed {
		return closed(ReasonNotConfirmed, "The booking is no longer confirmed.")
	}
	org, err := s.store.OrganizationByID(ctx, b.OrgID)
	if err != nil {
		return fmt.Errorf("find organisation of change %d: %w", c.ID, err)
	}
	sub, err := s.read(ctx, org, b)
	if err != nil {
		return err
	}
	settled := *e
	settled.Status, settled.ProviderID, settled.Amount = ledger.StatusSucceeded, in.ID, in.AmountReceived
	if c.Status == StatusApplied {
		e.Status, e.Amount = settled.Status, settled.Amount // applied by another path already
		return nil
	}
	var applyErr error
	if c.Status == StatusPaying && b.Range() == (civil.Range{Start: c.OldCheckIn, End: c.OldCheckOut}) {
		rs, err := s.bookings.RepriceStay(ctx, org, b, booking.Stay{CheckIn: c.Offer.CheckIn, CheckOut: c.Offer.CheckOut, Guests: c.Offer.Guests}, b.Locale)
		switch {
		case err == nil:
			if _, applyErr = s.apply(ctx, sub, c, []Status{StatusPaying}, rs.Guard, &settled, now); applyErr == nil {
				e.Status, e.Amount = settled.Status, settled.Amount
				return nil
			}
		case booking.ErrorCode(err) == booking.CodeInternal:
			return err
		default:
			applyErr = err
		}
		switch booking.ErrorCode(applyErr) {
		case booking.CodeInternal, booking.CodeServiceUnavailable:
			return applyErr
		case booking.CodeConflict:
			if fresh, err := s.store.DateChange(ctx, c.OrgID, c.ID); err == nil && fresh.Status == StatusApplied {
				e.Status, e.Amount = settled.Status, settled.Amount
				return nil
			}
		}
	}
	// The change cannot apply (its dates were taken, a rule refuses it
	// now, or it expired): the charge is recorded and given back in full,
	// in one write.
	entries := upsert(sub.entries, settled)
	pos := ledger.PositionOf(entries)
	refunds := pos.Refunds(entries, b.ID, b.Currency, ledger.ReasonChangeRefused, min(settled.Amount, pos.Refundable(in.ID)))
	reason := "the new dates could not be taken"
	if applyErr != nil {
		reason += ": " + applyErr.Error()
	}
	evs, err := closing(c, StatusRefused, notify.CauseDatesTaken, "", b.Currency, &settled, refunds)
	if err != nil {
		return err
	}
	_, err = s.store.CloseDateChange(ctx, Close{ID: c.ID, From: OpenStatuses, To: StatusRefused, Reason: reason,
		Settle: &settled, Record: refunds, Outbox: evs, At: now})
	if err != nil && booking.ErrorCode(err) != booking.CodeConflict {
		return err
	}
	if err != nil {
		// Closed by another path meanwhile (expired while the guest
		// paid): the charge is recorded and refunded all the same.
		if _, err := s.store.CloseDateChange(ctx, Close{ID: c.ID, From: []Status{StatusExpired, StatusDeclined, StatusRefused}, To: StatusRefused,
			Reason: reason, Settle: &settled, Record: refunds, Outbox: evs, At: now}); err != nil {
			return err
		}
	}
	e.Status, e.Amount = settled.Status, settled.Amount
	s.sendDue(ctx, c.BookingID)
	return nil
}

// sendDue sends the booking's pending entries due now other than the
// change charges (a change's refunds), so that the guest sees them go;
// what fails is left to the jobs.
func (s *Service) sendDue(ctx context.Context, bookingID int64) {
	entries, err := s.store.LedgerEntries(context.WithoutCancel(ctx), bookingID)
	if err != nil {
		s.logger.WarnContext(ctx, "read ledger; the worker sends it", "booking_id", bookingID, "err", err)
		return
	}
	due := entries[:0:0]
	for _, e := range entries {
		if e.Kind == ledger.KindRefund && e.Status == ledger.StatusPending && e.Attempts == 0 {
			due = append(due, e)
		}
	}
	s.money.SendNow(ctx, due)
}

// ChangeDropped expires the change of e, which took nothing
// (money.DateChanges).
func (s *Service) ChangeDropped(ctx context.Context, e *ledger.Entry, reason string, now time.Time) error {
	c, err := s.store.DateChangeByEntry(ctx, e.Key)
	if err != nil {
		return fmt.Errorf("find change of entry %s: %w", e.Key, err)
	}
	if !c.Status.Open() {
		return nil
	}
	cause := notify.CausePaymentAbandoned
	if c.Status == StatusRequested {
		cause = notify.CauseRequestLapsed
	}
	evs, err := closing(c, StatusExpired, cause, "", c.Offer.Quote.Currency, nil, nil)
	if err != nil {
		return err
	}
	_, err = s.store.CloseDateChange(ctx, Close{ID: c.ID, From: OpenStatuses, To: StatusExpired, Reason: reason, Outbox: evs, At: now})
	if booking.ErrorCode(err) == booking.CodeConflict {
		return nil
	}
	return err
}
