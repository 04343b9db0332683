package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// CreateOrganization stores o and sets its ID. Errors: CodeInvalid when
// o.Validate refuses it, CodeConflict when the slug is taken.
func (db *DB) CreateOrganization(ctx context.Context, o *booking.Organization) error {
	if err := o.Validate(); err != nil {
		return err
	}
	args, err := rowmap.OrganizationArgs(codec{}, o)
	if err != nil {
		return fmt.Errorf("sqlite: create organization: %w", err)
	}
	var id int64
	err = db.inWriteTx(ctx, "create organization", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO organizations (`+rowmap.OrganizationColumns+`)
			VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			args...).Scan(&id)
		switch {
		case isUniqueViolation(err):
			return booking.Errorf(booking.CodeConflict, "The organization slug %q is taken.", o.Slug)
		case err != nil:
			return fmt.Errorf("sqlite: create organization: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	o.ID = id
	return nil
}

// UpdateOrganization replaces the organisation with o.ID. Errors:
// CodeInvalid when o.Validate refuses it, CodeNotFound, CodeConflict (slug
// taken).
func (db *DB) UpdateOrganization(ctx context.Context, o *booking.Organization) error {
	if err := o.Validate(); err != nil {
		return err
	}
	args, err := rowmap.OrganizationArgs(codec{}, o)
	if err != nil {
		return fmt.Errorf("sqlite: update organization: %w", err)
	}
	return db.inWriteTx(ctx, "update organization", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE organizations SET slug = ?, name = ?, logo = ?,
			payment_mode = ?, default_locale = ?, branding = ?, terms_url = ?, min_stay_nights = ?,
			max_stay_nights = ?, currency = ?, timezone = ?, deposit_percent = ?,
			balance_due_days = ?, hold_minutes = ?, request_hold_hours = ?, custom_domain = ?,
			allowed_origins = ?, public_engine_enabled = ?, country = ?, booking_horizon_days = ?
			WHERE id = ?`, append(args, o.ID)...)
		switch {
		case isUniqueViolation(err):
			return booking.Errorf(booking.CodeConflict, "The organization slug %q is taken.", o.Slug)
		case err != nil:
			return fmt.Errorf("sqlite: update organization: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlite: update organization: %w", err)
		} else if n == 0 {
			return rowmap.OrganizationNotFound()
		}
		return nil
	})
}

// OrganizationBySlug finds an organisation, enabled or not. Errors:
// CodeNotFound.
func (db *DB) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	o, err := rowmap.ScanOrganization(codec{}, db.reads().QueryRowContext(ctx, qOrganizationBySlug, slug))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, rowmap.OrganizationNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: organization %q: %w", slug, err)
	}
	return o, nil
}

// OrganizationByID finds an organisation by its ID. Errors: CodeNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	o, err := rowmap.ScanOrganization(codec{}, db.reads().QueryRowContext(ctx, qOrganizationByID, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, rowmap.OrganizationNotFound()
	case err != nil:
		return nil, fmt.Errorf("sqlite: organization %d: %w", id, err)
	}
	return o, nil
}

// Organizations lists every organisation by slug.
func (db *DB) Organizations(ctx context.Context) ([]booking.Organization, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+rowmap.OrganizationColumns+` FROM organizations ORDER BY slug`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: organizations: %w", err)
	}
	defer rows.Close()
	var list []booking.Organization
	for rows.Next() {
		o, err := rowmap.ScanOrganization(codec{}, rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: organizations: %w", err)
		}
		list = append(list, *o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: organizations: %w", err)
	}
	return list, nil
}
