package postgres

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
			VALUES ($1, $2, $3, $4) RETURNING id`, u.OrgID, u.Email, u.PasswordHash, instant(u.CreatedAt))
		switch sqlState(err) {
		case foreignKeyViolation:
			return 0, booking.Errorf(booking.CodeNotFound, "Organisation not found.")
		case uniqueViolation:
			return 0, booking.Errorf(booking.CodeConflict, "A user with this e-mail address exists already.")
		}
		if err != nil {
			return 0, err
		}
		return id, sqlflow.Exec(ctx, q, nil, `INSERT INTO host_memberships (org_id, user_id, role, created_at) VALUES ($1, $2, 'owner', $3)`,
			u.OrgID, id, instant(u.CreatedAt))
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
			`SELECT `+rowmap.HostUserColumns+` FROM host_users WHERE email = $1`, email)
	})
}

// CreateHostSession stores a session, and forgets expired ones.
func (db *DB) CreateHostSession(ctx context.Context, s *host.Session) error {
	return db.tx(ctx, "create host session", func(q querier) error {
		if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM host_sessions WHERE expires_at <= $1`, instant(s.CreatedAt)); err != nil {
			return err
		}
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO host_sessions (hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			s.Hash, s.UserID, instant(s.CreatedAt), instant(s.ExpiresAt))
		if sqlState(err) == foreignKeyViolation {
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
			FROM host_sessions s JOIN host_users u ON u.id = s.user_id WHERE s.hash = $1 AND s.expires_at > $2`, hash, instant(now))
	})
	if err != nil {
		return nil, nil, err
	}
	return &h.Session, &h.User, nil
}

// DeleteHostSession ends a session.
func (db *DB) DeleteHostSession(ctx context.Context, hash string) error {
	return db.run(ctx, "delete host session", func(q querier) error {
		return sqlflow.Exec(ctx, q, nil, `DELETE FROM host_sessions WHERE hash = $1`, hash)
	})
}
