package sqlite

import (
	"context"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ mailsettings.Store = (*DB)(nil)

func smtpNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This organisation has no SMTP settings.")
}

// SMTPSettings returns an organisation's SMTP settings (mailsettings.Store).
func (db *DB) SMTPSettings(ctx context.Context, orgID int64) (*mailsettings.Settings, error) {
	return sqlflow.Get(ctx, db.run, "smtp settings", func(q querier) (*mailsettings.Settings, error) {
		return sqlflow.One(ctx, q, rowmap.ScanSMTP, smtpNotFound(),
			`SELECT `+rowmap.SMTPColumns+` FROM smtp_settings WHERE org_id = ?`, orgID)
	})
}

// SaveSMTPSettings creates or replaces an organisation's SMTP settings
// (mailsettings.Store).
func (db *DB) SaveSMTPSettings(ctx context.Context, s *mailsettings.Settings) error {
	return db.tx(ctx, "save smtp settings", func(q querier) error {
		err := sqlflow.Exec(ctx, q, nil, `INSERT INTO smtp_settings (`+rowmap.SMTPColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (org_id) DO UPDATE SET host = excluded.host, port = excluded.port, tls = excluded.tls,
			username = excluded.username, password_sealed = excluded.password_sealed,
			from_address = excluded.from_address, updated_at = excluded.updated_at`,
			s.OrgID, s.Host, s.Port, s.TLS, s.Username, sealed(s.SealedPassword), s.From, s.UpdatedAt.UnixMilli())
		if isForeignKeyViolation(err) {
			return booking.Errorf(booking.CodeNotFound, "This organisation does not exist.")
		}
		return err
	})
}

// sealed is a sealed password as stored: empty, never NULL.
func sealed(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// DeleteSMTPSettings removes an organisation's SMTP settings
// (mailsettings.Store).
func (db *DB) DeleteSMTPSettings(ctx context.Context, orgID int64) error {
	return db.tx(ctx, "delete smtp settings", func(q querier) error {
		return sqlflow.Exec(ctx, q, nil, `DELETE FROM smtp_settings WHERE org_id = ?`, orgID)
	})
}

// LatestGuestMail returns the guest's e-mail delivery of a booking's
// latest event that has one (mailsettings.Store).
func (db *DB) LatestGuestMail(ctx context.Context, bookingID int64) (*outbox.Delivery, error) {
	return sqlflow.Get(ctx, db.run, "latest guest mail", func(q querier) (*outbox.Delivery, error) {
		return sqlflow.One(ctx, q, rowmap.ScanDelivery, outboxNotFound("delivery"),
			`SELECT `+rowmap.DeliveryColumns+` FROM outbox_deliveries WHERE event_id = (
				SELECT e.id FROM outbox_events e JOIN outbox_deliveries d ON d.event_id = e.id
				WHERE e.booking_id = ? AND d.channel = ? AND d.recipient = ? AND e.kind NOT IN (SELECT value FROM json_each(?))
				ORDER BY e.id DESC LIMIT 1)
			AND channel = ? AND recipient = ?`,
			bookingID, string(outbox.ChannelMail), outbox.ToGuest, internalKinds(), string(outbox.ChannelMail), outbox.ToGuest)
	})
}
