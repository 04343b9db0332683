package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// CreateHostUser stores a dashboard user, an owner of its organisation
// (team.Store), and sets its ID.
func (db *DB) CreateHostUser(ctx context.Context, u *host.User) error {
	id, err := sqlflow.Get(ctx, db.tx, "create host user", func(q querier) (int64, error) {
		id, err := sqlflow.Value[int64](ctx, q, nil, `INSERT INTO host_users (org_id, email, password_hash, created_at)
			VALUES (?, ?, ?, ?) RETURNING id`, u.OrgID, u.Email, u.PasswordHash, u.CreatedAt.UnixMilli())
		switch {
		case isForeignKeyViolation(err):
			return 0, booking.Errorf(booking.CodeNotFound, "Organisation not found.")
		case isUniqueViolation(err):
			return 0, booking.Errorf(booking.CodeConflict, "A user with this e-mail address exists already.")
		}
		if err != nil {
			return 0, err
		}
		return id, sqlflow.Exec(ctx, q, nil, `INSERT INTO host_memberships (org_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)`,
			u.OrgID, id, u.CreatedAt.UnixMilli())
	})
	if err != nil {
		return err
	}
	u.ID = id
	return nil
}

// HostUserByEmail finds a dashboard user.
func (db *DB) HostUserByEmail(ctx context.Context, email string) (*host.User, error) {
	return sqlflow.Get(ctx, db.run, "host user", func(q querier) (*host.User, error) {
		return sqlflow.One(ctx, q, rowmap.ScanHostUser, booking.Errorf(booking.CodeNotFound, "User not found."),
			`SELECT `+rowmap.HostUserColumns+` FROM host_users WHERE email = ?`, email)
	})
}

// CreateHostSession stores a session, and forgets expired ones.
func (db *DB) CreateHostSession(ctx context.Context, s *host.Session) error {
	return db.tx(ctx, "create host session", func(q querier) error {
		if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM host_sessions WHERE expires_at <= ?`, s.CreatedAt.UnixMilli()); err != nil {
			return err
		}
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO host_sessions (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			s.Hash, s.UserID, s.CreatedAt.UnixMilli(), s.ExpiresAt.UnixMilli())
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "User not found.")
		}
		return err
	})
}

// HostSession finds an unexpired session and its user.
func (db *DB) HostSession(ctx context.Context, hash string, now time.Time) (*host.Session, *host.User, error) {
	h, err := sqlflow.Get(ctx, db.run, "host session", func(q querier) (*rowmap.HostSession, error) {
		return sqlflow.One(ctx, q, rowmap.ScanHostSession, booking.Errorf(booking.CodeNotFound, "Session not found."),
			`SELECT s.hash, s.user_id, s.created_at, s.expires_at, u.id, u.org_id, u.email, u.password_hash, u.created_at
			FROM host_sessions s JOIN host_users u ON u.id = s.user_id WHERE s.hash = ? AND s.expires_at > ?`, hash, now.UnixMilli())
	})
	if err != nil {
		return nil, nil, err
	}
	return &h.Session, &h.User, nil
}

// DeleteHostSession ends a session.
func (db *DB) DeleteHostSession(ctx context.Context, hash string) error {
	return db.tx(ctx, "delete host session", func(q querier) error {
		return sqlflow.Exec(ctx, q, nil, `DELETE FROM host_sessions WHERE hash = ?`, hash)
	})
}
