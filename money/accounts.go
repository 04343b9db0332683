package money

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/payment"
)

// connected reports whether the engine runs as a Connect platform.
func (s *Service) connected() bool { return s.connect != nil }

// orgPaymentAccount returns an organisation's account, nil when it has
// none.
func (s *Service) orgPaymentAccount(ctx context.Context, orgID int64) (*booking.PaymentAccount, error) {
	a, err := s.store.PaymentAccount(ctx, orgID)
	switch {
	case err == nil:
		return a, nil
	case booking.ErrorCode(err) == booking.CodeNotFound:
		return nil, nil
	}
	return nil, fmt.Errorf("read payment account of organisation %d: %w", orgID, err)
}

// paymentsFor returns the payments of a provider account ("" the
// platform's own).
func (s *Service) paymentsFor(account string) payment.Provider {
	if account == "" || s.connect == nil {
		return s.payments
	}
	return s.connect.ForAccount(account)
}

// bookingPayments returns the payments of the account a booking's intents
// were created on, recorded at checkout: an organisation that changes
// account later does not move its past bookings.
func (s *Service) bookingPayments(ctx context.Context, bookingID int64) (payment.Provider, error) {
	if !s.connected() {
		return s.payments, nil
	}
	acct, err := s.store.BookingPaymentAccount(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("read payment account of booking %d: %w", bookingID, err)
	}
	return s.paymentsFor(acct), nil
}

// applicationFee is the platform's fee on a charge of a booking's
// organisation; 0 in single-account mode.
func (s *Service) applicationFee(ctx context.Context, orgID int64, amount int64) (int64, error) {
	if !s.connected() {
		return 0, nil
	}
	a, err := s.orgPaymentAccount(ctx, orgID)
	if err != nil || a == nil {
		return 0, err
	}
	return a.Fee(amount), nil
}

// eventHome is the account whose events may concern a booking's intents:
// a direct charge's connected account, else the platform ("").
func (s *Service) eventHome(bookingAccount string) string {
	if s.connect != nil && s.connect.ChargeType() == payment.ChargeDirect {
		return bookingAccount
	}
	return ""
}

// eventMatches reports whether an event of account may touch booking id:
// an event from one account never touches another account's bookings.
func (s *Service) eventMatches(ctx context.Context, bookingID int64, account string) (bool, error) {
	if !s.connected() {
		return account == "", nil
	}
	acct, err := s.store.BookingPaymentAccount(ctx, bookingID)
	if err != nil {
		return false, fmt.Errorf("read payment account of booking %d: %w", bookingID, err)
	}
	return s.eventHome(acct) == account, nil
}
