package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// CreateHostUser stores a dashboard user and sets its ID.
func (db *DB) CreateHostUser(ctx context.Context, u *booking.HostUser) error {
	err := db.pool.QueryRow(ctx, `INSERT INTO host_users (org_id, email, password_hash, created_at)
		VALUES ($1, $2, $3, $4) RETURNING id`, u.OrgID, u.Email, u.PasswordHash, instant(u.CreatedAt)).Scan(&u.ID)
	switch {
	case sqlState(err) == foreignKeyViolation:
		return booking.Errorf(booking.CodeNotFound, "Organisation not found.")
	case sqlState(err) == uniqueViolation:
		return booking.Errorf(booking.CodeConflict, "A user with this e-mail address exists already.")
	case err != nil:
		return fmt.Errorf("postgres: create host user: %w", err)
	}
	return nil
}

// HostUserByEmail finds a dashboard user.
func (db *DB) HostUserByEmail(ctx context.Context, email string) (*booking.HostUser, error) {
	u, err := rowmap.ScanHostUser(codec{}, db.pool.QueryRow(ctx,
		`SELECT `+rowmap.HostUserColumns+` FROM host_users WHERE email = $1`, email))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "User not found.")
	case err != nil:
		return nil, fmt.Errorf("postgres: host user: %w", err)
	}
	return u, nil
}

// CreateHostSession stores a session, and forgets expired ones.
func (db *DB) CreateHostSession(ctx context.Context, s *booking.HostSession) error {
	return db.inTx(ctx, "create host session", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM host_sessions WHERE expires_at <= $1`, instant(s.CreatedAt)); err != nil {
			return fmt.Errorf("postgres: create host session: %w", err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO host_sessions (hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			s.Hash, s.UserID, instant(s.CreatedAt), instant(s.ExpiresAt))
		if sqlState(err) == foreignKeyViolation {
			return booking.Errorf(booking.CodeNotFound, "User not found.")
		}
		if err != nil {
			return fmt.Errorf("postgres: create host session: %w", err)
		}
		return nil
	})
}

// HostSession finds an unexpired session and its user.
func (db *DB) HostSession(ctx context.Context, hash string, now time.Time) (*booking.HostSession, *booking.HostUser, error) {
	var (
		s                          booking.HostSession
		u                          booking.HostUser
		created, expires, uCreated pgtype.Timestamptz
	)
	err := db.pool.QueryRow(ctx, `SELECT s.hash, s.user_id, s.created_at, s.expires_at,
		u.id, u.org_id, u.email, u.password_hash, u.created_at
		FROM host_sessions s JOIN host_users u ON u.id = s.user_id WHERE s.hash = $1 AND s.expires_at > $2`, hash, instant(now)).
		Scan(&s.Hash, &s.UserID, &created, &expires, &u.ID, &u.OrgID, &u.Email, &u.PasswordHash, &uCreated)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil, booking.Errorf(booking.CodeNotFound, "Session not found.")
	case err != nil:
		return nil, nil, fmt.Errorf("postgres: host session: %w", err)
	}
	s.CreatedAt, s.ExpiresAt, u.CreatedAt = fromInstant(created), fromInstant(expires), fromInstant(uCreated)
	return &s, &u, nil
}

// DeleteHostSession ends a session.
func (db *DB) DeleteHostSession(ctx context.Context, hash string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM host_sessions WHERE hash = $1`, hash); err != nil {
		return fmt.Errorf("postgres: delete host session: %w", err)
	}
	return nil
}
