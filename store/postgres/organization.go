package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

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

// organizationSet is the SET list of UPDATE organizations, from $1.
var organizationSet = assignments(rowmap.OrganizationDataColumns, 1)

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
	args, err := rowmap.OrganizationArgs(codec{}, o)
	if err != nil {
		return fmt.Errorf("postgres: create organization: %w", err)
	}
	var id int64
	err = db.pool.QueryRow(ctx, `INSERT INTO organizations (`+rowmap.OrganizationDataColumns+`)
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
	args, err := rowmap.OrganizationArgs(codec{}, o)
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
		return rowmap.OrganizationNotFound()
	}
	return nil
}

// OrganizationBySlug finds an organisation, enabled or not. Errors:
// CodeNotFound.
func (db *DB) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	o, err := rowmap.ScanOrganization(codec{}, db.pool.QueryRow(ctx,
		`SELECT `+rowmap.OrganizationColumns+` FROM organizations WHERE slug = $1`, slug))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, rowmap.OrganizationNotFound()
	case err != nil:
		return nil, fmt.Errorf("postgres: organization %q: %w", slug, err)
	}
	return o, nil
}

// OrganizationByID finds an organisation by its ID. Errors: CodeNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	o, err := rowmap.ScanOrganization(codec{}, db.pool.QueryRow(ctx,
		`SELECT `+rowmap.OrganizationColumns+` FROM organizations WHERE id = $1`, id))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, rowmap.OrganizationNotFound()
	case err != nil:
		return nil, fmt.Errorf("postgres: organization %d: %w", id, err)
	}
	return o, nil
}

// Organizations lists every organisation by slug (byte order, whatever the
// database's collation).
func (db *DB) Organizations(ctx context.Context) ([]booking.Organization, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+rowmap.OrganizationColumns+` FROM organizations ORDER BY slug COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("postgres: organizations: %w", err)
	}
	defer rows.Close()
	var list []booking.Organization
	for rows.Next() {
		o, err := rowmap.ScanOrganization(codec{}, rows)
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
