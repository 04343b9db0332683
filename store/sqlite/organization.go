package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

const organizationColumns = `id, slug, name, logo, payment_mode, default_locale, branding,
	terms_url, min_stay_nights, max_stay_nights, currency, timezone, deposit_percent,
	balance_due_days, hold_minutes, request_hold_hours, custom_domain, allowed_origins,
	public_engine_enabled, country, booking_horizon_days`

// organizationArgs returns o's columns after id, in organizationColumns order.
func organizationArgs(o *booking.Organization) ([]any, error) {
	branding, err := toJSON(o.Branding)
	if err != nil {
		return nil, err
	}
	origins, err := toJSON(o.AllowedOrigins)
	if err != nil {
		return nil, err
	}
	return []any{o.Slug, o.Name, o.Logo, string(o.PaymentMode), o.DefaultLocale, branding,
		o.TermsURL, nullInt(o.MinStayNights), nullInt(o.MaxStayNights), o.Currency, o.Timezone,
		o.DepositPercent.String(), o.BalanceDueDays, o.HoldMinutes, o.RequestHoldHours,
		o.CustomDomain, origins, o.PublicEngineEnabled, o.Country, o.BookingHorizonDays}, nil
}

func scanOrganization(s scanner) (*booking.Organization, error) {
	var (
		o                 booking.Organization
		mode, deposit     string
		branding, origins string
		minStay, maxStay  sql.NullInt64
	)
	if err := s.Scan(&o.ID, &o.Slug, &o.Name, &o.Logo, &mode, &o.DefaultLocale, &branding,
		&o.TermsURL, &minStay, &maxStay, &o.Currency, &o.Timezone, &deposit,
		&o.BalanceDueDays, &o.HoldMinutes, &o.RequestHoldHours, &o.CustomDomain, &origins,
		&o.PublicEngineEnabled, &o.Country, &o.BookingHorizonDays); err != nil {
		return nil, err
	}
	o.PaymentMode = pricing.PaymentMode(mode)
	o.MinStayNights, o.MaxStayNights = intPtr(minStay), intPtr(maxStay)
	var err error
	if o.DepositPercent, err = parseDecimal(deposit); err != nil {
		return nil, err
	}
	if err := fromJSON(branding, &o.Branding); err != nil {
		return nil, err
	}
	if err := fromJSON(origins, &o.AllowedOrigins); err != nil {
		return nil, err
	}
	return &o, nil
}

// CreateOrganization stores o and sets its ID. Errors: CodeInvalid when
// o.Validate refuses it, CodeConflict when the slug is taken.
func (db *DB) CreateOrganization(ctx context.Context, o *booking.Organization) error {
	if err := o.Validate(); err != nil {
		return err
	}
	args, err := organizationArgs(o)
	if err != nil {
		return fmt.Errorf("sqlite: create organization: %w", err)
	}
	var id int64
	err = db.inWriteTx(ctx, "create organization", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO organizations (`+organizationColumns+`)
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
	args, err := organizationArgs(o)
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
			return booking.Errorf(booking.CodeNotFound, "Organization not found.")
		}
		return nil
	})
}

// OrganizationBySlug finds an organisation, enabled or not. Errors:
// CodeNotFound.
func (db *DB) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	o, err := scanOrganization(db.reads().QueryRowContext(ctx, qOrganizationBySlug, slug))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "Organization not found.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: organization %q: %w", slug, err)
	}
	return o, nil
}

// OrganizationByID finds an organisation by its ID. Errors: CodeNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	o, err := scanOrganization(db.reads().QueryRowContext(ctx, qOrganizationByID, id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "Organization not found.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: organization %d: %w", id, err)
	}
	return o, nil
}

// Organizations lists every organisation by slug.
func (db *DB) Organizations(ctx context.Context) ([]booking.Organization, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+organizationColumns+` FROM organizations ORDER BY slug`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: organizations: %w", err)
	}
	defer rows.Close()
	var list []booking.Organization
	for rows.Next() {
		o, err := scanOrganization(rows)
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
