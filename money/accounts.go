package money

import (
	"context"
	"fmt"
)

// eventMatches reports whether an event of account may touch booking id:
// an event from one account never touches another account's bookings.
func (s *Service) eventMatches(ctx context.Context, bookingID int64, account string) (bool, error) {
	if !s.accounts.Connected() {
		return account == "", nil
	}
	acct, err := s.store.BookingPaymentAccount(ctx, bookingID)
	if err != nil {
		return false, fmt.Errorf("read payment account of booking %d: %w", bookingID, err)
	}
	return s.accounts.EventHome(acct) == account, nil
}
