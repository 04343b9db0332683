package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
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
	id, err := sqlflow.Get(ctx, db.run, "create organization", func(q querier) (int64, error) {
		args, err := rowmap.OrganizationArgs(codec{}, o)
		if err != nil {
			return 0, err
		}
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO organizations (`+rowmap.OrganizationDataColumns+`)
			VALUES (`+params(1, len(args))+`) RETURNING id`, args...)
		if sqlState(err) == uniqueViolation {
			return 0, slugTaken(o.Slug)
		}
		return id, err
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
	return db.run(ctx, "update organization", func(q querier) error {
		args, err := rowmap.OrganizationArgs(codec{}, o)
		if err != nil {
			return err
		}
		err = sqlflow.Exec(ctx, q, rowmap.OrganizationNotFound(), `UPDATE organizations SET `+organizationSet+`
			WHERE id = $`+strconv.Itoa(len(args)+1), append(args, o.ID)...)
		if sqlState(err) == uniqueViolation {
			return slugTaken(o.Slug)
		}
		return err
	})
}

// OrganizationBySlug finds an organisation, enabled or not. Errors:
// CodeNotFound.
func (db *DB) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	return sqlflow.Get(ctx, db.run, "organization by slug", func(q querier) (*booking.Organization, error) {
		return sqlflow.One(ctx, q, rowmap.ScanOrganization, rowmap.OrganizationNotFound(),
			`SELECT `+rowmap.OrganizationColumns+` FROM organizations WHERE slug = $1`, slug)
	})
}

// OrganizationByID finds an organisation by its ID. Errors: CodeNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	return sqlflow.Get(ctx, db.run, "organization", func(q querier) (*booking.Organization, error) {
		return sqlflow.One(ctx, q, rowmap.ScanOrganization, rowmap.OrganizationNotFound(),
			`SELECT `+rowmap.OrganizationColumns+` FROM organizations WHERE id = $1`, id)
	})
}

// Organizations lists every organisation by slug (byte order, whatever the
// database's collation).
func (db *DB) Organizations(ctx context.Context) ([]booking.Organization, error) {
	return sqlflow.Get(ctx, db.run, "organizations", func(q querier) ([]booking.Organization, error) {
		return sqlflow.All(ctx, q, rowmap.ScanOrganization,
			`SELECT `+rowmap.OrganizationColumns+` FROM organizations ORDER BY slug COLLATE "C"`)
	})
}
