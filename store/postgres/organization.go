package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

const organizationColumns = `id, slug, name, logo, payment_mode, default_locale, branding,
	terms_url, min_stay_nights, max_stay_nights, currency, timezone, deposit_percent,
	balance_due_days, hold_minutes, request_hold_hours, custom_domain, allowed_origins,
	public_engine_enabled, country, booking_horizon_days`

// params returns the placeholders $from, …, $(from+n-1), comma separated.
func params(from, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("$" + strconv.Itoa(from+i))
	}
	return b.String()
}

// assignments returns "col1 = $from, col2 = $(from+1), …" for a column list.
func assignments(columns string, from int) string {
	var list []string
	for i, c := range strings.Split(columns, ",") {
		list = append(list, strings.TrimSpace(c)+" = $"+strconv.Itoa(from+i))
	}
	return strings.Join(list, ", ")
}

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
		o.DepositPercent, o.BalanceDueDays, o.HoldMinutes, o.RequestHoldHours,
		o.CustomDomain, origins, o.PublicEngineEnabled, o.Country, o.BookingHorizonDays}, nil
}

// organizationSet is the SET list of UPDATE organizations, from $1.
var organizationSet = assignments(strings.TrimPrefix(organizationColumns, "id, "), 1)

func scanOrganization(s scanner) (*booking.Organization, error) {
	var (
		o                 booking.Organization
		mode              string
		deposit           decimal.Decimal
		branding, origins []byte
		minStay, maxStay  pgtype.Int8
	)
	if err := s.Scan(&o.ID, &o.Slug, &o.Name, &o.Logo, &mode, &o.DefaultLocale, &branding,
		&o.TermsURL, &minStay, &maxStay, &o.Currency, &o.Timezone, &deposit,
		&o.BalanceDueDays, &o.HoldMinutes, &o.RequestHoldHours, &o.CustomDomain, &origins,
		&o.PublicEngineEnabled, &o.Country, &o.BookingHorizonDays); err != nil {
		return nil, err
	}
	o.PaymentMode = pricing.PaymentMode(mode)
	o.MinStayNights, o.MaxStayNights = intPtr(minStay), intPtr(maxStay)
	o.DepositPercent = deposit
	if err := fromJSON(branding, &o.Branding); err != nil {
		return nil, err
	}
	if err := fromJSON(origins, &o.AllowedOrigins); err != nil {
		return nil, err
	}
	return &o, nil
}

// slugTaken is the error for a slug another organisation has.
func slugTaken(slug string) error {
	return booking.Errorf(booking.CodeConflict, "The organization slug %q is taken.", slug)
}

// CreateOrganization stores o and sets its ID. Errors: CodeInvalid when
// o.Validate refuses it, CodeConflict when the slug is taken.
func (db *DB) CreateOrganization(ctx context.Context, o *booking.Organization) error {
	if err := o.Validate(); err != nil {
		return err
	}
	args, err := organizationArgs(o)
	if err != nil {
		return fmt.Errorf("postgres: create organization: %w", err)
	}
	var id int64
	err = db.pool.QueryRow(ctx, `INSERT INTO organizations (`+strings.TrimPrefix(organizationColumns, "id, ")+`)
		VALUES (`+params(1, len(args))+`) RETURNING id`, args...).Scan(&id)
	switch {
	case sqlState(err) == uniqueViolation:
		return slugTaken(o.Slug)
	case err != nil:
		return fmt.Errorf("postgres: create organization: %w", err)
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
		return fmt.Errorf("postgres: update organization: %w", err)
	}
	tag, err := db.pool.Exec(ctx, `UPDATE organizations SET `+organizationSet+`
		WHERE id = $`+strconv.Itoa(len(args)+1), append(args, o.ID)...)
	switch {
	case sqlState(err) == uniqueViolation:
		return slugTaken(o.Slug)
	case err != nil:
		return fmt.Errorf("postgres: update organization: %w", err)
	case tag.RowsAffected() == 0:
		return booking.Errorf(booking.CodeNotFound, "Organization not found.")
	}
	return nil
}

// OrganizationBySlug finds an organisation, enabled or not. Errors:
// CodeNotFound.
func (db *DB) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	o, err := scanOrganization(db.pool.QueryRow(ctx,
		`SELECT `+organizationColumns+` FROM organizations WHERE slug = $1`, slug))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "Organization not found.")
	case err != nil:
		return nil, fmt.Errorf("postgres: organization %q: %w", slug, err)
	}
	return o, nil
}

// OrganizationByID finds an organisation by its ID. Errors: CodeNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	o, err := scanOrganization(db.pool.QueryRow(ctx,
		`SELECT `+organizationColumns+` FROM organizations WHERE id = $1`, id))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "Organization not found.")
	case err != nil:
		return nil, fmt.Errorf("postgres: organization %d: %w", id, err)
	}
	return o, nil
}

// Organizations lists every organisation by slug (byte order, whatever the
// database's collation).
func (db *DB) Organizations(ctx context.Context) ([]booking.Organization, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+organizationColumns+` FROM organizations ORDER BY slug COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("postgres: organizations: %w", err)
	}
	defer rows.Close()
	var list []booking.Organization
	for rows.Next() {
		o, err := scanOrganization(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: organizations: %w", err)
		}
		list = append(list, *o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: organizations: %w", err)
	}
	return list, nil
}
