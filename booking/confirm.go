package booking

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

// AuthorizationMargin keeps a request hold clear of the end of the card
// authorisation, so a host approving at the last minute can still capture;
// package money lets an off-session hold go as much before its lapse.
const AuthorizationMargin = time.Hour

// Details is a booking with what its status page shows besides it.
type Details struct {
	Booking      Booking
	PropertyName string
	// Refunded is what went back to the guest; RefundPending what is on
	// its way back (from the payments ledger).
	Refunded      Money
	RefundPending Money
	// Terms are the policy, balance and security deposit it was sold
	// with; nil for a booking made before they existed.
	Terms *Terms
}

// booking returns a booking by its token. Errors: CodeNotFound.
func (s *Service) booking(ctx context.Context, resolve orgFunc, token string) (*Details, error) {
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	b, err := s.bookingByToken(ctx, org, token)
	if err != nil {
		return nil, err
	}
	return s.details(ctx, b)
}

func (s *Service) bookingByToken(ctx context.Context, org *Organization, token string) (*Booking, error) {
	b, err := s.store.BookingByToken(ctx, org.ID, token)
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil, withParam(CodeNotFound, "This booking does not exist.", ParamSubject, "booking")
		}
		return nil, fmt.Errorf("find booking: %w", err)
	}
	return b, nil
}

func (s *Service) details(ctx context.Context, b *Booking) (*Details, error) {
	p, err := s.store.Property(ctx, b.OrgID, b.PropertyID)
	if err != nil {
		return nil, fmt.Errorf("find property of booking %d: %w", b.ID, err)
	}
	entries, err := s.ledgerOf(ctx, b)
	if err != nil {
		return nil, err
	}
	sum := ledger.Summarize(entries)
	terms, err := s.bookingTerms(ctx, b)
	if err != nil {
		return nil, err
	}
	// What was paid is what the ledger received, so the guest's page and
	// the host's payments show the provider's money, a charge found late
	// (a balance whose answer was lost, paid after a cancellation)
	// included.
	if pos := ledger.PositionOf(entries); len(pos.Received) > 0 {
		b.PaidAmount = pricing.FromMinor(pos.Charged(), b.Currency)
	}
	return &Details{Booking: *b, PropertyName: p.Name,
		Refunded:      pricing.FromMinor(sum.Refunded, b.Currency),
		RefundPending: pricing.FromMinor(sum.RefundPending, b.Currency), Terms: terms}, nil
}

// ConfirmRequest is sent by the guest's browser once the card step is done.
type ConfirmRequest struct {
	// PaymentIntentID, when set, must be the booking's intent.
	PaymentIntentID string
	// IdempotencyKey, when set, must not have been used with another body.
	IdempotencyKey string
}

// confirm checks with the payment provider that a booking is paid (or, in
// request mode, authorised) and moves it to confirmed (or requested).
// Confirming again returns the booking unchanged. Errors: CodeNotFound,
// CodeInvalid, CodeConflict (idempotency key reused with another body),
// CodePaymentNotConfirmed, CodePaymentLate, CodeBookingClosed,
// CodePaymentUnavailable.
func (s *Service) confirm(ctx context.Context, resolve orgFunc, token string, r ConfirmRequest) (*Details, error) {
	if len(r.IdempotencyKey) > MaxIdempotencyKeyLength {
		f := FieldErrors{}
		f.Add("idempotency_key", "too_long")
		return nil, f.Err()
	}
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	b, err := s.bookingByToken(ctx, org, token)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if r.IdempotencyKey != "" {
		if err := s.rememberConfirm(ctx, org, b, r, now); err != nil {
			return nil, err
		}
	}
	if r.PaymentIntentID != "" && r.PaymentIntentID != b.PaymentIntentID {
		return nil, &Error{Code: CodeInvalid, Message: "This payment does not belong to this booking.",
			Fields: map[string][]string{"payment_intent_id": {"mismatch"}}}
	}
	switch b.Status {
	case StatusConfirmed, StatusRequested:
		return s.details(ctx, b)
	case StatusDeclined, StatusCancelled:
		return nil, &Error{Code: CodeBookingClosed, Message: "This booking was " + string(b.Status) + " and can no longer be confirmed.",
			Params: map[string]string{"status": string(b.Status)}}
	}
	if b.PaymentIntentID == "" {
		return nil, errNotPaid(b)
	}
	pay, err := s.accounts.ForBooking(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	intent, err := pay.GetIntent(ctx, b.PaymentIntentID)
	if err != nil {
		return nil, paymentUnavailable("check", "The payment could not be checked. Please try again in a moment.", err)
	}
	updated, err := s.Reconcile(ctx, org, b, intent, now)
	if err != nil {
		return nil, err
	}
	return s.details(ctx, updated)
}

// rememberConfirm records a confirm's Idempotency-Key; the same key with
// another body is a conflict.
func (s *Service) rememberConfirm(ctx context.Context, org *Organization, b *Booking, r ConfirmRequest, now time.Time) error {
	sum := sha256.Sum256([]byte(r.PaymentIntentID))
	rec := &IdempotencyRecord{OrgID: org.ID, Scope: "confirm:" + b.Token, Key: r.IdempotencyKey,
		RequestHash: hex.EncodeToString(sum[:]), BookingID: b.ID, CreatedAt: now}
	existing, err := s.store.SaveIdempotencyRecord(ctx, rec, now.Add(-IdempotencyWindow))
	switch {
	case err == nil:
		return nil
	case ErrorCode(err) == CodeConflict && existing != nil:
		if existing.RequestHash != rec.RequestHash {
			return errKeyReused()
		}
		return nil
	}
	return fmt.Errorf("record confirm idempotency key: %w", err)
}

func errNotPaid(b *Booking) error {
	msg := "The payment has not succeeded yet."
	if b.PaymentMode == pricing.ModeRequest {
		msg = "The card has not been authorised yet."
	}
	return withParam(CodePaymentNotConfirmed, msg, ParamMode, string(b.PaymentMode))
}

func paymentUnavailable(step, message string, cause error) error {
	e := withParam(CodePaymentUnavailable, message, ParamStep, step)
	e.Err = cause
	return e
}

// applyIntent moves a pending (or lapsed) booking according to its paid or
// authorised intent: succeeded for the expected amount → confirmed;
// authorised in request mode → requested. A payment that arrives after the
// hold lapsed confirms the booking if a checkout could still book its dates
// (the store checks the property's preparation days and closed nights as
// for a checkout), and is returned to the guest otherwise
// (CodePaymentLate). The conditional
// transition makes it safe to race; Reconcile decides when to call it.
func (s *Service) applyIntent(ctx context.Context, org *Organization, b *Booking, intent *payment.Intent, now time.Time) (*Booking, error) {
	ok, err := chargeMatches(b, intent)
	if err != nil {
		return nil, err
	}
	if !ok {
		s.logger.WarnContext(ctx, "payment intent does not match booking", "booking_id", b.ID, "intent", intent.ID,
			"intent_amount", intent.Amount, "intent_currency", intent.Currency)
		return nil, errNotPaid(b)
	}
	t := Transition{From: []Status{StatusPending, StatusExpired}, At: now, ClaimDates: true}
	kind := ""
	switch {
	case b.PaymentMode != pricing.ModeRequest && intent.Status == payment.StatusSucceeded:
		paid := pricing.FromMinor(intent.AmountReceived, b.Currency)
		t.To, t.Confirmed, t.PaidAmount, t.ExpiresAt = StatusConfirmed, true, &paid, &time.Time{}
		kind = NotifyConfirmed
		if t.Record, err = s.jobsOnConfirm(ctx, org, b, now); err != nil {
			return nil, err
		}
		t.Record = append([]ledger.Entry{ReceiptEntry(b, intent, ledger.ReasonPaid)}, t.Record...)
	case b.PaymentMode == pricing.ModeRequest && intent.Status == payment.StatusAuthorized:
		expires := requestHoldEnd(org, intent, now)
		t.To, t.ExpiresAt = StatusRequested, &expires
		kind = NotifyRequested
	default:
		return nil, errNotPaid(b)
	}
	if b.Status == t.To {
		return b, nil
	}
	// A booking whose hold lapsed takes its dates again as a checkout
	// would, so the store checks the property's preparation days and
	// closed nights too; one still holding its dates keeps them. The
	// store decides which, in its atomic step, so the guard is always
	// given.
	if t.DateGuard, err = s.claimGuard(ctx, b); err != nil {
		return nil, err
	}
	t.Outbox = tell(kind, b)
	updated, err := s.store.Transition(ctx, b.ID, t)
	switch {
	case err == nil:
		s.notify(ctx, kind, org, updated)
		return updated, nil
	case ErrorCode(err) == CodeConflict:
		// Someone else (the webhook, another confirm) moved it first.
		current, rerr := s.store.BookingByID(ctx, b.ID)
		if rerr != nil {
			return nil, fmt.Errorf("re-read booking %d: %w", b.ID, rerr)
		}
		if current.Status == t.To {
			return current, nil
		}
		return nil, errClosedNow(current)
	case ErrorCode(err) == CodeUnavailable:
		return nil, s.returnLatePayment(ctx, org, b, intent, now)
	}
	return nil, fmt.Errorf("confirm booking %d: %w", b.ID, err)
}

// requestHoldEnd is when a request waits for the host's answer until: the
// organisation's request hold, but never past the card authorisation, as
// the card network set it (capture_before) or, when unknown, the usual
// seven days from the intent's creation, less a margin so that a host
// approving at the last minute can still capture.
func requestHoldEnd(org *Organization, in *payment.Intent, now time.Time) time.Time {
	expires := now.Add(time.Duration(org.RequestHoldHours) * time.Hour)
	limit := in.CaptureBefore
	if limit.IsZero() && !in.Created.IsZero() {
		limit = in.Created.Add(MaxAuthorizationHours * time.Hour)
	}
	if !limit.IsZero() && limit.Add(-AuthorizationMargin).Before(expires) {
		expires = limit.Add(-AuthorizationMargin)
	}
	return expires
}

// returnLatePayment handles money that arrived after the hold lapsed and
// the dates went to someone else: the booking expires and, in the same
// step, the ledger records the refund (or release) that the worker sends
// until the provider has it.
func (s *Service) returnLatePayment(ctx context.Context, org *Organization, b *Booking, intent *payment.Intent, now time.Time) error {
	ctx = context.WithoutCancel(ctx)
	if b.Status == StatusPending {
		if expired, err := s.store.Transition(ctx, b.ID, Transition{From: []Status{StatusPending}, To: StatusExpired, At: now, Outbox: tell(NotifyExpired, b)}); err == nil {
			s.notify(ctx, NotifyExpired, org, expired)
			b = expired
		}
	}
	return s.returnMoney(ctx, b, intent, ledger.ReasonLatePayment, now)
}
