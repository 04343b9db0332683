package postgres

import (
	"context"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

func noPaymentAccount() error {
	return booking.Errorf(booking.CodeNotFound, "No payment account.")
}

// PaymentAccount returns an organisation's connected account. Errors:
// CodeNotFound.
func (db *DB) PaymentAccount(ctx context.Context, orgID int64) (*booking.PaymentAccount, error) {
	return sqlflow.Get(ctx, db.run, "payment account", func(q querier) (*booking.PaymentAccount, error) {
		return sqlflow.One(ctx, q, rowmap.ScanPaymentAccount, noPaymentAccount(),
			`SELECT `+rowmap.PaymentAccountColumns+` FROM payment_accounts WHERE org_id = $1`, orgID)
	})
}

// PaymentAccountByAccountID finds the account with a provider id. Errors:
// CodeNotFound.
func (db *DB) PaymentAccountByAccountID(ctx context.Context, accountID string) (*booking.PaymentAccount, error) {
	if accountID == "" {
		return nil, noPaymentAccount()
	}
	return sqlflow.Get(ctx, db.run, "payment account by id", func(q querier) (*booking.PaymentAccount, error) {
		return sqlflow.One(ctx, q, rowmap.ScanPaymentAccount, noPaymentAccount(),
			`SELECT `+rowmap.PaymentAccountColumns+` FROM payment_accounts WHERE account_id = $1`, accountID)
	})
}

// SavePaymentAccount creates or replaces an organisation's account.
// Errors: CodeInvalid, CodeNotFound, CodeConflict.
func (db *DB) SavePaymentAccount(ctx context.Context, a *booking.PaymentAccount) error {
	if err := a.Validate(); err != nil {
		return err
	}
	return db.run(ctx, "save payment account", func(q querier) error {
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO payment_accounts (`+rowmap.PaymentAccountColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (org_id) DO UPDATE SET account_id = excluded.account_id, state = excluded.state,
			charges_enabled = excluded.charges_enabled, fee_percent = excluded.fee_percent,
			fee_fixed = excluded.fee_fixed, updated_at = excluded.updated_at`,
			a.OrgID, a.AccountID, string(a.State), a.ChargesEnabled, a.FeePercent.String(), a.FeeFixed, a.UpdatedAt)
		switch sqlState(err) {
		case foreignKeyViolation:
			return rowmap.OrganizationNotFound()
		case uniqueViolation:
			return booking.Errorf(booking.CodeConflict, "This payment account belongs to another organisation.")
		}
		return err
	})
}

// SetBookingPaymentAccount records a booking's account once. Errors:
// CodeNotFound, CodeConflict (another account recorded).
func (db *DB) SetBookingPaymentAccount(ctx context.Context, bookingID int64, accountID string) error {
	return db.run(ctx, "set booking payment account", func(q querier) error {
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO booking_payment_accounts (booking_id, account_id) VALUES ($1, $2)
			ON CONFLICT (booking_id) DO NOTHING`, bookingID, accountID)
		if sqlState(err) == foreignKeyViolation {
			return booking.Errorf(booking.CodeNotFound, "This booking does not exist.")
		}
		if err != nil {
			return err
		}
		got, err := bookingPaymentAccount(ctx, q, bookingID)
		if err == nil && got != accountID {
			return booking.Errorf(booking.CodeConflict, "This booking's payments belong to another account.")
		}
		return err
	})
}

// BookingPaymentAccount returns a booking's account, "" when none.
func (db *DB) BookingPaymentAccount(ctx context.Context, bookingID int64) (string, error) {
	return sqlflow.Get(ctx, db.run, "booking payment account", func(q querier) (string, error) {
		return bookingPaymentAccount(ctx, q, bookingID)
	})
}

func bookingPaymentAccount(ctx context.Context, q querier, bookingID int64) (string, error) {
	return sqlflow.Value[string](ctx, q, nil, `SELECT account_id FROM booking_payment_accounts WHERE booking_id = $1`, bookingID)
}
