package rowmap

import "github.com/staykit/staykit/mailsettings"

// SMTPColumns are the columns of smtp_settings, in the order ScanSMTP
// reads them.
const SMTPColumns = `org_id, host, port, tls, username, password_sealed, from_address, updated_at`

// ScanSMTP reads a row of SMTPColumns.
func ScanSMTP(c Codec, s Scanner) (*mailsettings.Settings, error) {
	var m mailsettings.Settings
	if err := Scan(s, &m.OrgID, &m.Host, &m.Port, &m.TLS, &m.Username, &m.SealedPassword, &m.From,
		c.Time(&m.UpdatedAt)); err != nil {
		return nil, err
	}
	return &m, nil
}
