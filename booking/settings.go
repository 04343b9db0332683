package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

// Security deposit limits. A card authorisation lapses after about seven
// days, so a hold is placed close to arrival and must last until its
// release: hold days, nights and release days together must fit in
// MaxAuthorizationHours, less a day of margin, or the host must claim
// before the hold lapses.
const (
	MaxDepositHoldDays    = 6
	MaxDepositReleaseDays = 6
)

// SaveSettings sets an organisation's (propertyID 0) or a property's
// cancellation policy and security deposit. Bookings already made keep the
// terms they were sold with. Errors: CodeNotFound, CodeInvalid.
func (s *Service) SaveSettings(ctx context.Context, slug string, st Settings) error {
	org, err := s.hostOrganization(ctx, slug)
	if err != nil {
		return err
	}
	st.OrgID = org.ID
	if err := st.validate(); err != nil {
		return err
	}
	if err := s.store.SaveSettings(ctx, st); err != nil {
		return fmt.Errorf("save settings of %s: %w", slug, err)
	}
	return nil
}

func (st Settings) validate() error {
	f := FieldErrors{}
	if st.Policy != nil {
		if err := st.Policy.Validate(); err != nil {
			f.Add("policy", "invalid_policy")
		}
	}
	if st.SecurityDeposit.IsNegative() {
		f.Add("security_deposit", "invalid_amount")
	}
	if st.DepositHoldDays < 0 || st.DepositHoldDays > MaxDepositHoldDays {
		f.Add("deposit_hold_days", "out_of_range")
	}
	if st.DepositReleaseDays < 0 || st.DepositReleaseDays > MaxDepositReleaseDays {
		f.Add("deposit_release_days", "out_of_range")
	}
	return f.Err()
}

// effectiveSettings merges a property's settings over its organisation's;
// the policy defaults to DefaultPolicy.
func (s *Service) effectiveSettings(ctx context.Context, orgID, propertyID int64) (Settings, error) {
	out := Settings{OrgID: orgID, PropertyID: propertyID}
	for _, id := range []int64{0, propertyID} {
		st, err := s.store.Settings(ctx, orgID, id)
		switch {
		case ErrorCode(err) == CodeNotFound:
			continue
		case err != nil:
			return Settings{}, fmt.Errorf("read settings %d/%d: %w", orgID, id, err)
		}
		if st.Policy != nil {
			out.Policy = st.Policy
		}
		if id == propertyID || !st.SecurityDeposit.IsZero() {
			out.SecurityDeposit, out.DepositHoldDays, out.DepositReleaseDays = st.SecurityDeposit, st.DepositHoldDays, st.DepositReleaseDays
		}
	}
	if out.Policy == nil {
		p, err := policy.Preset(DefaultPolicy)
		if err != nil {
			return Settings{}, err
		}
		out.Policy = &p
	}
	return out, nil
}

// CancellationPolicy returns the policy a booking of a property made now
// would be sold with. Errors: CodeNotFound.
func (s *Service) CancellationPolicy(ctx context.Context, slug string, propertyID int64) (*policy.Policy, error) {
	return s.cancellationPolicy(ctx, s.bySlug(slug), propertyID)
}

// CancellationPolicy returns the policy a booking of a property made now
// would be sold with; see Service.CancellationPolicy.
func (o *OrgService) CancellationPolicy(ctx context.Context, propertyID int64) (*policy.Policy, error) {
	return o.s.cancellationPolicy(ctx, o.resolved, propertyID)
}

func (s *Service) cancellationPolicy(ctx context.Context, resolve orgFunc, propertyID int64) (*policy.Policy, error) {
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.bookableProperty(ctx, org, propertyID)
	if err != nil {
		return nil, err
	}
	st, err := s.effectiveSettings(ctx, org.ID, p.ID)
	if err != nil {
		return nil, err
	}
	return st.Policy, nil
}

// prepareTerms copies the host's settings into the terms of a booking
// about to be created and, when a later charge needs the guest's card (a
// balance, a security deposit) and the provider can keep cards, creates
// the provider's customer the card will be saved on, with a key derived
// from the booking's token, through pay, the payments of the account the
// booking is made on. The terms are stored with the booking, by
// CreateBooking (CreateOptions.Terms).
func (s *Service) prepareTerms(ctx context.Context, b *Booking, pay payment.Provider) (*Terms, error) {
	st, err := s.effectiveSettings(ctx, b.OrgID, b.PropertyID)
	if err != nil {
		return nil, err
	}
	t := &Terms{BookingID: b.ID, Policy: *st.Policy, BalanceStatus: BalanceNone, DepositStatus: DepositNone,
		Deposit: pricing.Round(st.SecurityDeposit, b.Currency), DepositClaimed: pricing.Round(zeroMoney, b.Currency),
		DepositHoldDays: st.DepositHoldDays, DepositReleaseDays: st.DepositReleaseDays, UpdatedAt: b.CreatedAt}
	if b.PaymentMode == pricing.ModeRequest {
		t.Deposit = pricing.Round(zeroMoney, b.Currency) // a request's card is authorised, not saved
	}
	wantBalance := b.PaymentMode == pricing.ModeDeposit && b.BalanceAmount.IsPositive()
	wantDeposit := t.Deposit.IsPositive()
	if saved, ok := pay.(payment.SavedCards); ok && (wantBalance || wantDeposit) && b.ChargeAmount.IsPositive() {
		t.Customer, err = saved.CreateCustomer(ctx, payment.CustomerParams{Email: b.GuestEmail, Name: b.GuestName,
			IdempotencyKey: "customer-" + b.Token, Metadata: map[string]string{"booking_token": b.Token}})
		if err != nil {
			if errors.Is(err, payment.ErrInvalid) {
				return nil, fmt.Errorf("create customer of checkout: %w", err)
			}
			return nil, paymentUnavailable("start", "The payment could not be started. Please try again in a moment.", err)
		}
	}
	switch {
	case wantBalance && t.Customer != "":
		t.BalanceStatus = BalanceScheduled
	case wantBalance:
		t.BalanceStatus = BalanceManual
	}
	if wantDeposit && t.Customer != "" {
		t.DepositStatus = DepositScheduled
	}
	return t, nil
}

// bookingTerms reads a booking's terms; nil for a booking made before
// terms existed.
func (s *Service) bookingTerms(ctx context.Context, b *Booking) (*Terms, error) {
	t, err := s.store.Terms(ctx, b.ID)
	switch {
	case ErrorCode(err) == CodeNotFound:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read terms of booking %d: %w", b.ID, err)
	}
	return t, nil
}

// updateTerms applies change to a booking's terms and saves them, reading
// again when another writer saved first.
func (s *Service) updateTerms(ctx context.Context, bookingID int64, now time.Time, change func(t *Terms)) (*Terms, error) {
	ctx = context.WithoutCancel(ctx)
	for range 5 {
		t, err := s.store.Terms(ctx, bookingID)
		if err != nil {
			return nil, fmt.Errorf("read terms of booking %d: %w", bookingID, err)
		}
		change(t)
		t.UpdatedAt = now
		err = s.store.SaveTerms(ctx, t)
		if err == nil {
			return t, nil
		}
		if ErrorCode(err) != CodeConflict {
			return nil, fmt.Errorf("save terms of booking %d: %w", bookingID, err)
		}
	}
	return nil, fmt.Errorf("save terms of booking %d: too many concurrent writers", bookingID)
}
