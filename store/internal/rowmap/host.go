package rowmap

import (
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/notes"
)

// APIKeyColumns are the columns of api_keys, in the order ScanAPIKey reads
// them.
const APIKeyColumns = `id, org_id, name, prefix, hash, created_at, last_used_at, revoked_at`

// ScanAPIKey reads a row of APIKeyColumns.
func ScanAPIKey(c Codec, s Scanner) (*host.APIKey, error) {
	var k host.APIKey
	if err := Scan(s, &k.ID, &k.OrgID, &k.Name, &k.Prefix, &k.Hash, c.Time(&k.CreatedAt),
		c.Instant(&k.LastUsedAt), c.Instant(&k.RevokedAt)); err != nil {
		return nil, err
	}
	return &k, nil
}

// HostUserColumns are the columns of host_users, in the order
// ScanHostUser reads them.
const HostUserColumns = `id, org_id, email, password_hash, created_at`

// ScanHostUser reads a row of HostUserColumns.
func ScanHostUser(c Codec, s Scanner) (*host.User, error) {
	var u host.User
	if err := Scan(s, &u.ID, &u.OrgID, &u.Email, &u.PasswordHash, c.Time(&u.CreatedAt)); err != nil {
		return nil, err
	}
	return &u, nil
}

// ScanAuditEntry reads the columns id, org_id, actor, actor_name, action,
// target, before, after, at of audit_log, before and after as JSON text.
func ScanAuditEntry(c Codec, s Scanner) (*host.AuditEntry, error) {
	var (
		e             host.AuditEntry
		before, after string
	)
	if err := Scan(s, &e.ID, &e.OrgID, &e.Actor, &e.ActorName, &e.Action, &e.Target, &before,
		&after, c.Instant(&e.At)); err != nil {
		return nil, err
	}
	e.Before, e.After = []byte(before), []byte(after)
	return &e, nil
}

// HostRequestColumns are the columns of host_requests, in the order
// ScanHostRequest reads them.
const HostRequestColumns = `org_id, key, request_hash, status, body, created_at, booking_id, erased`

// ScanHostRequest reads a row of HostRequestColumns.
func ScanHostRequest(c Codec, s Scanner) (*host.Request, error) {
	var r host.Request
	if err := Scan(s, &r.OrgID, &r.Key, &r.RequestHash, &r.Status, &r.Body,
		c.Instant(&r.CreatedAt), c.NullInt64(&r.BookingID), &r.Erased); err != nil {
		return nil, err
	}
	return &r, nil
}

// HostSession is a dashboard session and its user, read together.
type HostSession struct {
	Session host.Session
	User    host.User
}

// ScanHostSession reads the columns hash, user_id, created_at, expires_at
// of host_sessions, then HostUserColumns.
func ScanHostSession(c Codec, s Scanner) (*HostSession, error) {
	var h HostSession
	sess, u := &h.Session, &h.User
	if err := Scan(s, &sess.Hash, &sess.UserID, c.Instant(&sess.CreatedAt), c.Instant(&sess.ExpiresAt),
		&u.ID, &u.OrgID, &u.Email, &u.PasswordHash, c.Instant(&u.CreatedAt)); err != nil {
		return nil, err
	}
	return &h, nil
}

// NoteColumns are the columns of booking_notes, in the order ScanNote
// reads them.
const NoteColumns = `id, booking_id, author, body, created_at`

// ScanNote reads a row of NoteColumns.
func ScanNote(c Codec, s Scanner) (*notes.Note, error) {
	var n notes.Note
	if err := Scan(s, &n.ID, &n.BookingID, &n.Author, &n.Body, c.Instant(&n.CreatedAt)); err != nil {
		return nil, err
	}
	return &n, nil
}
