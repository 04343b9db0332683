package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

const paymentAccountColumns = `org_id, account_id, state, charges_enabled, fee_percent, fee_fixed, updated_at`

func scanPaymentAccount(s scanner) (*booking.PaymentAccount, error) {
	var (
		a       booking.PaymentAccount
		state   string
		percent string
		updated int64
	)
	if err := s.Scan(&a.OrgID, &a.AccountID, &state, &a.ChargesEnabled, &percent, &a.FeeFixed, &updated); err != nil {
		return nil, err
	}
	a.State, a.UpdatedAt = booking.OnboardingState(state), time.UnixMilli(updated).UTC()
	var err error
	if a.FeePercent, err = parseDecimal(percent); err != nil {
		return nil, err
	}
	return &a, nil
}

// PaymentAccount returns an organisation's connected account. Errors:
// CodeNotFound.
func (db *DB) PaymentAccount(ctx context.Context, orgID int64) (*booking.PaymentAccount, error) {
	a, err := scanPaymentAccount(db.read.QueryRowContext(ctx, `SELECT `+paymentAccountColumns+` FROM payment_accounts WHERE org_id = ?`, orgID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "No payment account.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: payment account of organisation %d: %w", orgID, err)
	}
	return a, nil
}

// PaymentAccountByAccountID finds the account with a provider id. Errors:
// CodeNotFound.
func (db *DB) PaymentAccountByAccountID(ctx context.Context, accountID string) (*booking.PaymentAccount, error) {
	if accountID == "" {
		return nil, booking.Errorf(booking.CodeNotFound, "No payment account.")
	}
	a, err := scanPaymentAccount(db.read.QueryRowContext(ctx, `SELECT `+paymentAccountColumns+` FROM payment_accounts WHERE account_id = ?`, accountID))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "No payment account.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: payment account %s: %w", accountID, err)
	}
	return a, nil
}

// SavePaymentAccount creates or replaces an organisation's account.
// Errors: CodeInvalid, CodeNotFound, CodeConflict.
func (db *DB) SavePaymentAccount(ctx context.Context, a *booking.PaymentAccount) error {
	if err := a.Validate(); err != nil {
		return err
	}
	return db.inWriteTx(ctx, "save payment account", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO payment_accounts (`+paymentAccountColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (org_id) DO UPDATE SET account_id = excluded.account_id, state = excluded.state,
			charges_enabled = excluded.charges_enabled, fee_percent = excluded.fee_percent,
			fee_fixed = excluded.fee_fixed, updated_at = excluded.updated_at`,
			a.OrgID, a.AccountID, string(a.State), a.ChargesEnabled, a.FeePercent.String(), a.FeeFixed, a.UpdatedAt.UnixMilli())
		switch {
		case isForeignKeyViolation(err):
			return rowmap.OrganizationNotFound()
		case isUniqueViolation(err):
			return booking.Errorf(booking.CodeConflict, "This payment account belongs to another organisation.")
		case err != nil:
			return fmt.Errorf("sqlite: save payment account of organisation %d: %w", a.OrgID, err)
		}
		return nil
	})
}

// SetBookingPaymentAccount records a booking's account once. Errors:
// CodeNotFound, CodeConflict (another account recorded).
func (db *DB) SetBookingPaymentAccount(ctx context.Context, bookingID int64, accountID string) error {
	return db.inWriteTx(ctx, "set booking payment account", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO booking_payment_accounts (booking_id, account_id) VALUES (?, ?)
			ON CONFLICT (booking_id) DO NOTHING`, bookingID, accountID)
		switch {
		case isForeignKeyViolation(err):
			return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
		case err != nil:
			return fmt.Errorf("sqlite: set payment account of booking %d: %w", bookingID, err)
		}
		var got string
		if err := tx.QueryRowContext(ctx, `SELECT account_id FROM booking_payment_accounts WHERE booking_id = ?`, bookingID).Scan(&got); err != nil {
			return fmt.Errorf("sqlite: set payment account of booking %d: %w", bookingID, err)
		}
		if got != accountID {
			return booking.Errorf(booking.CodeConflict, "This booking's payments belong to another account.")
		}
		return nil
	})
}

// BookingPaymentAccount returns a booking's account, "" when none.
func (db *DB) BookingPaymentAccount(ctx context.Context, bookingID int64) (string, error) {
	var acct string
	err := db.read.QueryRowContext(ctx, `SELECT account_id FROM booking_payment_accounts WHERE booking_id = ?`, bookingID).Scan(&acct)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("sqlite: payment account of booking %d: %w", bookingID, err)
	}
	return acct, nil
}
