package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/staykit/staykit/booking"
)

// KeyPrefix starts every host API key.
const KeyPrefix = "sk_host_"

// HashKey is the hex SHA-256 of a secret, as stored. A key carries 256
// random bits, so a fast hash is enough: nobody can guess a preimage.
func HashKey(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateAPIKey makes a new key of org named name and returns its secret,
// which is shown once and never stored. Errors: CodeInvalid (no name).
func (s *Service) CreateAPIKey(ctx context.Context, org *booking.Organization, name string, by Actor) (string, *APIKey, error) {
	name = strings.TrimSpace(name)
	if err := booking.CheckBounds(struct {
		Name string `json:"name"`
	}{name}, org.Currency); err != nil {
		return "", nil, err
	}
	if name == "" || len(name) > 100 {
		reason := "required"
		if name != "" {
			reason = "too_long"
		}
		return "", nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
			Fields: booking.FieldErrors{"name": {reason}}}
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	secret := KeyPrefix + base64.RawURLEncoding.EncodeToString(raw)
	k := &APIKey{OrgID: org.ID, Name: name, Prefix: secret[:len(KeyPrefix)+4], Hash: HashKey(secret), CreatedAt: s.clock.Now()}
	err := s.atomically(ctx, func(ctx context.Context) error {
		if err := s.records.CreateAPIKey(ctx, k); err != nil {
			return fmt.Errorf("create api key: %w", err)
		}
		return s.audit(ctx, org, by, "api_key.create", target("api_key", k.ID), nil, k)
	})
	if err != nil {
		return "", nil, err
	}
	return secret, k, nil
}

// Authenticate finds the active key of a secret and records its use.
// Errors: CodeUnauthorized (unknown, malformed or revoked).
func (s *Service) Authenticate(ctx context.Context, secret string) (*APIKey, error) {
	if !strings.HasPrefix(secret, KeyPrefix) || len(secret) > 128 {
		return nil, errUnauthorized()
	}
	hash := HashKey(secret)
	k, err := s.records.APIKeyByHash(ctx, hash)
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, errUnauthorized()
		}
		return nil, fmt.Errorf("find api key: %w", err)
	}
	// The lookup is by hash; compare again in constant time so that the
	// answer never depends on how much of a guess matched.
	if subtle.ConstantTimeCompare([]byte(k.Hash), []byte(hash)) != 1 || !k.Active() {
		return nil, errUnauthorized()
	}
	if now := s.clock.Now(); s.touches.due(k.ID, k.LastUsedAt, now) {
		if err := s.records.TouchAPIKey(ctx, k.ID, now); err != nil {
			s.touches.forget(k.ID)
			s.log.WarnContext(ctx, "record api key use", "key_id", k.ID, "err", err)
		}
	}
	return k, nil
}

// TouchEvery is how often at most a key's use is written (LastUsedAt):
// every host API request authenticates, and a write per request would
// queue them all on the database's one write connection (issue #31).
// LastUsedAt is so exact to the minute.
const TouchEvery = time.Minute

// keyTouches remembers when this Service last wrote each key's use, so
// that concurrent requests which all read the stored LastUsedAt before
// the write do not all write. The zero value is ready.
type keyTouches struct {
	mu   sync.Mutex
	last map[int64]time.Time
}

// due reports whether the use of key id at now is to be written, given
// the LastUsedAt stored, and if so counts it as written.
func (t *keyTouches) due(id int64, stored, now time.Time) bool {
	if now.Sub(stored) < TouchEvery {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if last, ok := t.last[id]; ok && now.Sub(last) < TouchEvery {
		return false
	}
	if t.last == nil {
		t.last = make(map[int64]time.Time)
	}
	if len(t.last) >= 1024 {
		for k, at := range t.last {
			if now.Sub(at) >= TouchEvery {
				delete(t.last, k)
			}
		}
	}
	t.last[id] = now
	return true
}

// forget lets the next use of key id be written: this one's write failed.
func (t *keyTouches) forget(id int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.last, id)
}

func errUnauthorized() error {
	return booking.Errorf(booking.CodeUnauthorized, "A valid API key is required.")
}

// ErrForbidden is the error of valid credentials used on another
// organisation.
func ErrForbidden() error {
	return booking.Errorf(booking.CodeForbidden, "This key does not give access to this organisation.")
}

// APIKeys lists an organisation's keys, revoked ones included.
func (s *Service) APIKeys(ctx context.Context, org *booking.Organization) ([]APIKey, error) {
	list, err := s.records.APIKeys(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("list api keys: %w", err)
	}
	return list, nil
}

// RevokeAPIKey revokes a key at once: its next request gets 401. Errors:
// CodeNotFound.
func (s *Service) RevokeAPIKey(ctx context.Context, org *booking.Organization, id int64, by Actor) (*APIKey, error) {
	var k *APIKey
	err := s.atomically(ctx, func(ctx context.Context) error {
		var err error
		if k, err = s.records.RevokeAPIKey(ctx, org.ID, id, s.clock.Now()); err != nil {
			return notFoundAs(err, "api_key", "revoke api key")
		}
		return s.audit(ctx, org, by, "api_key.revoke", target("api_key", id), nil, k)
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

func target(kind string, id int64) string { return fmt.Sprintf("%s:%d", kind, id) }
