package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// CreateHostUser stores a dashboard user and sets its ID.
func (db *DB) CreateHostUser(ctx context.Context, u *booking.HostUser) error {
	err := db.write.QueryRowContext(ctx, `INSERT INTO host_users (org_id, email, password_hash, created_at)
		VALUES (?, ?, ?, ?) RETURNING id`, u.OrgID, u.Email, u.PasswordHash, u.CreatedAt.UnixMilli()).Scan(&u.ID)
	switch {
	case isForeignKeyViolation(err):
		return booking.Errorf(booking.CodeNotFound, "Organisation not found.")
	case isUniqueViolation(err):
		return booking.Errorf(booking.CodeConflict, "A user with this e-mail address exists already.")
	case err != nil:
		return fmt.Errorf("sqlite: create host user: %w", err)
	}
	return nil
}

// HostUserByEmail finds a dashboard user.
func (db *DB) HostUserByEmail(ctx context.Context, email string) (*booking.HostUser, error) {
	u, err := rowmap.ScanHostUser(codec{}, db.read.QueryRowContext(ctx,
		`SELECT `+rowmap.HostUserColumns+` FROM host_users WHERE email = ?`, email))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, booking.Errorf(booking.CodeNotFound, "User not found.")
	case err != nil:
		return nil, fmt.Errorf("sqlite: host user: %w", err)
	}
	return u, nil
}

// CreateHostSession stores a session, and forgets expired ones.
func (db *DB) CreateHostSession(ctx context.Context, s *booking.HostSession) error {
	return db.inWriteTx(ctx, "create host session", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM host_sessions WHERE expires_at <= ?`, s.CreatedAt.UnixMilli()); err != nil {
			return fmt.Errorf("sqlite: create host session: %w", err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO host_sessions (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			s.Hash, s.UserID, s.CreatedAt.UnixMilli(), s.ExpiresAt.UnixMilli())
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "User not found.")
		}
		if err != nil {
			return fmt.Errorf("sqlite: create host session: %w", err)
		}
		return nil
	})
}

// HostSession finds an unexpired session and its user.
func (db *DB) HostSession(ctx context.Context, hash string, now time.Time) (*booking.HostSession, *booking.HostUser, error) {
	var (
		s                booking.HostSession
		created, expires int64
	)
	row := db.read.QueryRowContext(ctx, `SELECT s.hash, s.user_id, s.created_at, s.expires_at,
		u.id, u.org_id, u.email, u.password_hash, u.created_at
		FROM host_sessions s JOIN host_users u ON u.id = s.user_id WHERE s.hash = ? AND s.expires_at > ?`, hash, now.UnixMilli())
	var (
		u        booking.HostUser
		uCreated int64
	)
	err := row.Scan(&s.Hash, &s.UserID, &created, &expires, &u.ID, &u.OrgID, &u.Email, &u.PasswordHash, &uCreated)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil, booking.Errorf(booking.CodeNotFound, "Session not found.")
	case err != nil:
		return nil, nil, fmt.Errorf("sqlite: host session: %w", err)
	}
	s.CreatedAt, s.ExpiresAt, u.CreatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(expires).UTC(), time.UnixMilli(uCreated).UTC()
	return &s, &u, nil
}

// DeleteHostSession ends a session.
func (db *DB) DeleteHostSession(ctx context.Context, hash string) error {
	if _, err := db.write.ExecContext(ctx, `DELETE FROM host_sessions WHERE hash = ?`, hash); err != nil {
		return fmt.Errorf("sqlite: delete host session: %w", err)
	}
	return nil
}
