package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ datechange.Store = (*DB)(nil)

// SaveDateChange stores a change with its charge's entry and its events
// (datechange.Store).
func (db *DB) SaveDateChange(ctx context.Context, c *datechange.Change, from []datechange.Status, record []ledger.Entry, events []outbox.Event, at time.Time) error {
	data, err := rowmap.DateChangeData(c)
	if err != nil {
		return fmt.Errorf("encode date change: %w", err)
	}
	id, err := sqlflow.Get(ctx, db.tx, "save date change", func(q querier) (int64, error) {
		id := c.ID
		if id == 0 {
			var err error
			id, err = sqlflow.Value[int64](ctx, q, nil, `INSERT INTO date_changes
				(org_id, booking_id, status, entry_key, reason, data, created_at, expires_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				c.OrgID, c.BookingID, string(c.Status), c.EntryKey, c.Reason, string(data), millis(c.CreatedAt), millis(c.ExpiresAt), millis(at))
			switch {
			case isUniqueViolation(err):
				return 0, datechange.ErrChangeOpen()
			case isForeignKeyViolation(err):
				return 0, bookingNotFound()
			case err != nil:
				return 0, err
			}
		} else {
			err := sqlflow.Exec(ctx, q, datechange.ErrChangeClosed(), `UPDATE date_changes SET status = ?, entry_key = ?, reason = ?,
				data = ?, expires_at = ?, updated_at = ? WHERE id = ? AND status IN (`+placeholders(len(from))+`)`,
				append([]any{string(c.Status), c.EntryKey, c.Reason, string(data), millis(c.ExpiresAt), millis(at), id}, changeStatusArgs(from)...)...)
			if isUniqueViolation(err) {
				return 0, datechange.ErrChangeOpen()
			}
			if err != nil {
				return 0, err
			}
		}
		if len(record) > 0 {
			entries, err := booking.PrepareLedger(record, c.BookingID, at)
			if err != nil {
				return 0, err
			}
			if err := recordLedger(ctx, q, entries); err != nil {
				return 0, err
			}
		}
		if len(events) > 0 {
			evs, err := outbox.PrepareEvents(datechange.KeyEvents(events, id), c.BookingID, at)
			if err != nil {
				return 0, booking.Invalid(err)
			}
			if err := recordOutbox(ctx, q, evs); err != nil {
				return 0, err
			}
		}
		return id, nil
	})
	if err != nil {
		return err
	}
	c.ID, c.UpdatedAt = id, at
	return nil
}

// ApplyDateChange gives a booking its new stay in one BEGIN IMMEDIATE
// transaction (datechange.Store): the new stay is checked by the same
// checks as CreateBooking's (takeStay), the booking itself apart, on its
// own unit when it is free and else on the best fit of the others, under
// the same write lock, so that of a change and a checkout
// for the same nights exactly one succeeds.
func (db *DB) ApplyDateChange(ctx context.Context, a datechange.Apply) (*booking.Booking, error) {
	c := a.Change
	data, err := rowmap.DateChangeData(c)
	if err != nil {
		return nil, fmt.Errorf("encode date change: %w", err)
	}
	quote, err := rowmap.EncodeQuoteJSON(a.Quote)
	if err != nil {
		return nil, fmt.Errorf("encode quote: %w", err)
	}
	var terms []byte
	if a.Terms != nil {
		if terms, err = json.Marshal(a.Terms); err != nil {
			return nil, fmt.Errorf("encode terms: %w", err)
		}
	}
	var changeID int64
	b, err := sqlflow.Get(ctx, db.tx, "apply date change", func(q querier) (*booking.Booking, error) {
		cur, err := findBooking(ctx, q, `id = ?`, c.BookingID)
		if err != nil {
			return nil, err
		}
		if cur.Status != booking.StatusConfirmed || cur.Range() != a.Was {
			return nil, booking.Errorf(booking.CodeConflict, "The booking changed meanwhile.")
		}
		unit, err := takeStay(ctx, q, cur, a.Stay.Range(), a.Guard, a.At)
		if err != nil {
			return nil, err
		}
		if changeID, err = storeAppliedChange(ctx, q, c, a.From, data, a.At); err != nil {
			return nil, err
		}
		if err := sqlflow.Exec(ctx, q, booking.Errorf(booking.CodeConflict, "The booking changed meanwhile."), `UPDATE bookings SET
			unit_id = ?, check_in = ?, check_out = ?, guests = ?, total_amount = ?, paid_amount = ?, balance_amount = ?, balance_due_date = ?,
			quote = ?, coupon_id = ?, coupon_code = ?, updated_at = ?
			WHERE id = ? AND status = 'confirmed' AND check_in = ? AND check_out = ?`,
			unit, a.Stay.CheckIn.String(), a.Stay.CheckOut.String(), a.Stay.Guests, a.TotalAmount.String(), a.PaidAmount.String(),
			a.BalanceAmount.String(), rowmap.Date(a.BalanceDueDate), string(quote), rowmap.NullID(a.CouponID), a.CouponCode,
			millis(a.At), cur.ID, a.Was.Start.String(), a.Was.End.String()); err != nil {
			return nil, err
		}
		if err := settleChangeEntries(ctx, q, a.Settle, a.Supersede, a.NotDueBefore, a.At); err != nil {
			return nil, err
		}
		if terms != nil {
			if err := sqlflow.Exec(ctx, q, booking.Errorf(booking.CodeConflict, "The terms of this booking changed meanwhile."),
				`UPDATE booking_terms SET version = version + 1, data = ? WHERE booking_id = ? AND version = ?`,
				string(terms), cur.ID, a.Terms.Version); err != nil {
				return nil, err
			}
		}
		if len(a.Record) > 0 {
			entries, err := booking.PrepareLedger(a.Record, cur.ID, a.At)
			if err != nil {
				return nil, err
			}
			if err := recordLedger(ctx, q, entries); err != nil {
				return nil, err
			}
		}
		if len(a.Outbox) > 0 {
			events, err := outbox.PrepareEvents(datechange.KeyEvents(a.Outbox, changeID), cur.ID, a.At)
			if err != nil {
				return nil, booking.Invalid(err)
			}
			if err := recordOutbox(ctx, q, events); err != nil {
				return nil, err
			}
		}
		return findBooking(ctx, q, `id = ?`, cur.ID)
	})
	if err != nil {
		return nil, err
	}
	c.ID, c.Status, c.UpdatedAt = changeID, datechange.StatusApplied, a.At
	if a.Terms != nil {
		a.Terms.Version++
	}
	return b, nil
}

// takeStay checks, in q (a write transaction), that stay is free for
// booking cur at now as CreateBooking checks a new stay: nothing of the
// whole property (a block of it, a linked property's holder) overlaps it
// widened by the preparation days (g.Guarded), a unit is free for it —
// its own when it can, else the best fit of the others (stayUnit) — and
// no night of it is closed (g.ClosedNight). It returns the unit. Errors:
// CodeUnavailable.
func takeStay(ctx context.Context, q querier, cur *booking.Booking, stay civil.Range, g booking.DateGuard, now time.Time) (int64, error) {
	unit, err := stayUnit(ctx, q, cur, stay, g.Guarded(stay), now, true, g.Units)
	if err != nil {
		return 0, err
	}
	closed, err := closedNight(ctx, q, cur.PropertyID, stay, g)
	return unit, unavailableIf(closed, err)
}

// storeAppliedChange stores c as applied: inserted (no other change of
// its booking open), or updated from one of from.
func storeAppliedChange(ctx context.Context, q querier, c *datechange.Change, from []datechange.Status, data []byte, at time.Time) (int64, error) {
	if c.ID == 0 {
		open, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM date_changes WHERE booking_id = ? AND status IN ('requested', 'paying')`, c.BookingID)
		if err != nil {
			return 0, err
		}
		if open {
			return 0, datechange.ErrChangeOpen()
		}
		return sqlflow.Value[int64](ctx, q, nil, `INSERT INTO date_changes
			(org_id, booking_id, status, entry_key, reason, data, created_at, expires_at, updated_at)
			VALUES (?, ?, 'applied', ?, '', ?, ?, NULL, ?) RETURNING id`,
			c.OrgID, c.BookingID, c.EntryKey, string(data), millis(c.CreatedAt), millis(at))
	}
	return c.ID, sqlflow.Exec(ctx, q, datechange.ErrChangeClosed(), `UPDATE date_changes SET status = 'applied', data = ?,
		expires_at = NULL, updated_at = ? WHERE id = ? AND status IN (`+placeholders(len(from))+`)`,
		append([]any{string(data), millis(at), c.ID}, changeStatusArgs(from)...)...)
}

// settleChangeEntries saves the outcome of settle (when not nil) and
// skips the superseded entries, each still pending, never attempted and
// due after notBefore. Errors: CodeConflict.
func settleChangeEntries(ctx context.Context, q querier, settle *ledger.Entry, supersede []int64, notBefore, at time.Time) error {
	if settle != nil {
		if err := sqlflow.Exec(ctx, q, ledgerNotFound(), `UPDATE ledger_entries SET status = ?, provider_id = ?, amount = ?,
			updated_at = ? WHERE key = ?`, string(settle.Status), settle.ProviderID, settle.Amount, millis(at), settle.Key); err != nil {
			return err
		}
	}
	for _, id := range supersede {
		if err := sqlflow.Exec(ctx, q, booking.Errorf(booking.CodeConflict, "A scheduled payment of this booking is being sent."),
			`UPDATE ledger_entries SET status = 'skipped', last_error = 'replaced by a change of dates', updated_at = ?
			WHERE id = ? AND status = 'pending' AND attempts = 0 AND provider_id = '' AND next_attempt_at > ?`,
			millis(at), id, millis(notBefore)); err != nil {
			return err
		}
	}
	return nil
}

// CloseDateChange ends an open change (datechange.Store).
func (db *DB) CloseDateChange(ctx context.Context, c datechange.Close) (*datechange.Change, error) {
	return sqlflow.Get(ctx, db.tx, "close date change", func(q querier) (*datechange.Change, error) {
		cur, err := sqlflow.One(ctx, q, rowmap.ScanDateChange, rowmap.DateChangeNotFound(),
			`SELECT `+rowmap.DateChangeColumns+` FROM date_changes WHERE id = ?`, c.ID)
		if err != nil {
			return nil, err
		}
		if err := sqlflow.Exec(ctx, q, datechange.ErrChangeClosed(), `UPDATE date_changes SET status = ?, reason = ?, updated_at = ?
			WHERE id = ? AND status IN (`+placeholders(len(c.From))+`)`,
			append([]any{string(c.To), c.Reason, millis(c.At), c.ID}, changeStatusArgs(c.From)...)...); err != nil {
			return nil, err
		}
		if err := settleChangeEntries(ctx, q, c.Settle, nil, c.At, c.At); err != nil {
			return nil, err
		}
		if len(c.Record) > 0 {
			entries, err := booking.PrepareLedger(c.Record, cur.BookingID, c.At)
			if err != nil {
				return nil, err
			}
			if err := recordLedger(ctx, q, entries); err != nil {
				return nil, err
			}
		}
		if len(c.Outbox) > 0 {
			events, err := outbox.PrepareEvents(datechange.KeyEvents(c.Outbox, c.ID), cur.BookingID, c.At)
			if err != nil {
				return nil, booking.Invalid(err)
			}
			if err := recordOutbox(ctx, q, events); err != nil {
				return nil, err
			}
		}
		return sqlflow.One(ctx, q, rowmap.ScanDateChange, rowmap.DateChangeNotFound(),
			`SELECT `+rowmap.DateChangeColumns+` FROM date_changes WHERE id = ?`, c.ID)
	})
}

// DateChange finds a change of an organisation (datechange.Store).
func (db *DB) DateChange(ctx context.Context, orgID, id int64) (*datechange.Change, error) {
	return sqlflow.Get(ctx, db.run, "date change", func(q querier) (*datechange.Change, error) {
		return sqlflow.One(ctx, q, rowmap.ScanDateChange, rowmap.DateChangeNotFound(),
			`SELECT `+rowmap.DateChangeColumns+` FROM date_changes WHERE id = ? AND org_id = ?`, id, orgID)
	})
}

// DateChangeByEntry finds the change of a charge entry (datechange.Store).
func (db *DB) DateChangeByEntry(ctx context.Context, key string) (*datechange.Change, error) {
	if key == "" {
		return nil, rowmap.DateChangeNotFound()
	}
	return sqlflow.Get(ctx, db.run, "date change by entry", func(q querier) (*datechange.Change, error) {
		return sqlflow.One(ctx, q, rowmap.ScanDateChange, rowmap.DateChangeNotFound(),
			`SELECT `+rowmap.DateChangeColumns+` FROM date_changes WHERE entry_key = ?`, key)
	})
}

// DateChanges lists a booking's changes, newest first (datechange.Store).
func (db *DB) DateChanges(ctx context.Context, bookingID int64) ([]datechange.Change, error) {
	return sqlflow.Get(ctx, db.run, "date changes", func(q querier) ([]datechange.Change, error) {
		return sqlflow.All(ctx, q, rowmap.ScanDateChange,
			`SELECT `+rowmap.DateChangeColumns+` FROM date_changes WHERE booking_id = ? ORDER BY id DESC`, bookingID)
	})
}

// DateChangeApproval reports whether the host approves changes
// (datechange.Store).
func (db *DB) DateChangeApproval(ctx context.Context, orgID int64) (bool, error) {
	return sqlflow.Get(ctx, db.run, "date change approval", func(q querier) (bool, error) {
		return sqlflow.Exists(ctx, q, `SELECT 1 FROM date_change_settings WHERE org_id = ? AND approval = 1`, orgID)
	})
}

// SetDateChangeApproval sets it (datechange.Store).
func (db *DB) SetDateChangeApproval(ctx context.Context, orgID int64, required bool) error {
	return db.tx(ctx, "set date change approval", func(q querier) error {
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO date_change_settings (org_id, approval) VALUES (?, ?)
			ON CONFLICT (org_id) DO UPDATE SET approval = excluded.approval`, orgID, required)
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		return err
	})
}

func changeStatusArgs(statuses []datechange.Status) []any {
	out := make([]any, len(statuses))
	for i, s := range statuses {
		out[i] = string(s)
	}
	return out
}
