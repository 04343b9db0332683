package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

const paymentAccountColumns = `org_id, account_id, state, charges_enabled, fee_percent, fee_fixed, updated_at`

func scanPaymentAccount(row pgx.Row) (*booking.PaymentAccount, error) {
	var (
		a       booking.PaymentAccount
		state   string
		percent string
	)
	if err := row.Scan(&a.OrgID, &a.AccountID, &state, &a.ChargesEnabled, &percent, &a.FeeFixed, &a.UpdatedAt); err != nil {
		return nil, err
	}
	a.State, a.UpdatedAt = booking.OnboardingState(state), a.UpdatedAt.UTC()
	var err error
	if a.FeePercent, err = decimal.NewFromString(percent); err != nil {
		return nil, fmt.Errorf("fee_percent %q: %w", percent, err)
	}
	return &a, nil
}

// PaymentAccount returns an organisation's connected account. Errors:
// CodeNotFound.
func (db *DB) PaymentAccount(ctx context.Context, orgID int64) (*booking.PaymentAccount, error) {
	a, err := scanPaymentAccount(db.pool.QueryRow(ctx, `SELECT `+paymentAccountColumns+` FROM payment_accounts WHERE org_id = $1`, orgID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "No payment account.")
	case err != nil:
		return nil, fmt.Errorf("postgres: payment account of organisation %d: %w", orgID, err)
	}
	return a, nil
}

// PaymentAccountByAccountID finds the account with a provider id. Errors:
// CodeNotFound.
func (db *DB) PaymentAccountByAccountID(ctx context.Context, accountID string) (*booking.PaymentAccount, error) {
	if accountID == "" {
		return nil, booking.Errorf(booking.CodeNotFound, "No payment account.")
	}
	a, err := scanPaymentAccount(db.pool.QueryRow(ctx, `SELECT `+paymentAccountColumns+` FROM payment_accounts WHERE account_id = $1`, accountID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "No payment account.")
	case err != nil:
		return nil, fmt.Errorf("postgres: payment account %s: %w", accountID, err)
	}
	return a, nil
}

// SavePaymentAccount creates or replaces an organisation's account.
// Errors: CodeInvalid, CodeNotFound, CodeConflict.
func (db *DB) SavePaymentAccount(ctx context.Context, a *booking.PaymentAccount) error {
	if err := a.Validate(); err != nil {
		return err
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO payment_accounts (`+paymentAccountColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (org_id) DO UPDATE SET account_id = excluded.account_id, state = excluded.state,
		charges_enabled = excluded.charges_enabled, fee_percent = excluded.fee_percent,
		fee_fixed = excluded.fee_fixed, updated_at = excluded.updated_at`,
		a.OrgID, a.AccountID, string(a.State), a.ChargesEnabled, a.FeePercent.String(), a.FeeFixed, a.UpdatedAt)
	switch sqlState(err) {
	case "":
	case foreignKeyViolation:
		return rowmap.OrganizationNotFound()
	case uniqueViolation:
		return booking.Errorf(booking.CodeConflict, "This payment account belongs to another organisation.")
	}
	if err != nil {
		return fmt.Errorf("postgres: save payment account of organisation %d: %w", a.OrgID, err)
	}
	return nil
}

// SetBookingPaymentAccount records a booking's account once. Errors:
// CodeNotFound, CodeConflict (another account recorded).
func (db *DB) SetBookingPaymentAccount(ctx context.Context, bookingID int64, accountID string) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO booking_payment_accounts (booking_id, account_id) VALUES ($1, $2)
		ON CONFLICT (booking_id) DO NOTHING`, bookingID, accountID)
	switch {
	case sqlState(err) == foreignKeyViolation:
		return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
	case err != nil:
		return fmt.Errorf("postgres: set payment account of booking %d: %w", bookingID, err)
	}
	got, err := db.BookingPaymentAccount(ctx, bookingID)
	if err != nil {
		return err
	}
	if got != accountID {
		return booking.Errorf(booking.CodeConflict, "This booking's payments belong to another account.")
	}
	return nil
}

// BookingPaymentAccount returns a booking's account, "" when none.
func (db *DB) BookingPaymentAccount(ctx context.Context, bookingID int64) (string, error) {
	var acct string
	err := db.pool.QueryRow(ctx, `SELECT account_id FROM booking_payment_accounts WHERE booking_id = $1`, bookingID).Scan(&acct)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("postgres: payment account of booking %d: %w", bookingID, err)
	}
	return acct, nil
}
