package rowmap

import "github.com/staykit/staykit/booking"

// APIKeyColumns are the columns of api_keys, in the order ScanAPIKey reads
// them.
const APIKeyColumns = `id, org_id, name, prefix, hash, created_at, last_used_at, revoked_at`

// ScanAPIKey reads a row of APIKeyColumns.
func ScanAPIKey(c Codec, s Scanner) (*booking.APIKey, error) {
	var k booking.APIKey
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
func ScanHostUser(c Codec, s Scanner) (*booking.HostUser, error) {
	var u booking.HostUser
	if err := Scan(s, &u.ID, &u.OrgID, &u.Email, &u.PasswordHash, c.Time(&u.CreatedAt)); err != nil {
		return nil, err
	}
	return &u, nil
}
