package sqlite

import (
	"context"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// placeholders returns n placeholders, comma separated.
func placeholders(n int) string {
	return `?` + strings.Repeat(`, ?`, n-1)
}

// assignments returns "col1 = ?, col2 = ?, …" for a column list.
func assignments(columns string) string {
	list := strings.Split(columns, ",")
	for i, c := range list {
		list[i] = strings.TrimSpace(c) + ` = ?`
	}
	return strings.Join(list, ", ")
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
	id, err := sqlflow.Get(ctx, db.tx, "create organization", func(q querier) (int64, error) {
		args, err := rowmap.OrganizationArgs(codec{}, o)
		if err != nil {
			return 0, err
		}
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO organizations (`+rowmap.OrganizationDataColumns+`)
			VALUES (`+placeholders(len(args))+`) RETURNING id`, args...)
		if isUniqueViolation(err) {
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
	return db.tx(ctx, "update organization", func(q querier) error {
		args, err := rowmap.OrganizationArgs(codec{}, o)
		if err != nil {
			return err
		}
		err = sqlflow.Exec(ctx, q, rowmap.OrganizationNotFound(), `UPDATE organizations SET `+
			assignments(rowmap.OrganizationDataColumns)+` WHERE id = ?`, append(args, o.ID)...)
		if isUniqueViolation(err) {
			return slugTaken(o.Slug)
		}
		return err
	})
}

// OrganizationBySlug finds an organisation, enabled or not. Errors:
// CodeNotFound.
func (db *DB) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	return sqlflow.Get(ctx, db.hotRun, "organization by slug", func(q querier) (*booking.Organization, error) {
		return sqlflow.One(ctx, q, rowmap.ScanOrganization, rowmap.OrganizationNotFound(), qOrganizationBySlug, slug)
	})
}

// OrganizationByID finds an organisation by its ID. Errors: CodeNotFound.
func (db *DB) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	return sqlflow.Get(ctx, db.hotRun, "organization", func(q querier) (*booking.Organization, error) {
		return sqlflow.One(ctx, q, rowmap.ScanOrganization, rowmap.OrganizationNotFound(), qOrganizationByID, id)
	})
}

// Organizations lists every organisation by slug.
func (db *DB) Organizations(ctx context.Context) ([]booking.Organization, error) {
	return sqlflow.Get(ctx, db.run, "organizations", func(q querier) ([]booking.Organization, error) {
		return sqlflow.All(ctx, q, rowmap.ScanOrganization, `SELECT `+rowmap.OrganizationColumns+` FROM organizations ORDER BY slug`)
	})
}
