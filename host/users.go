package host

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/mail"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/staykit/staykit/booking"
)

// Argon2id parameters of new password hashes (RFC 9106's second
// recommended option, with 64 MiB): memory-hard, so that a stolen
// database does not give the passwords away cheaply. Hashes carry their
// parameters, so these can grow without breaking old ones.
const (
	argonTime    = 3
	argonMemory  = 64 * 1024 // KiB
	argonThreads = 2
	argonKeyLen  = 32
)

// SessionTTL is how long a dashboard session lasts.
const SessionTTL = 12 * time.Hour

// MinPasswordLength is the shortest password a user may have.
const MinPasswordLength = 10

// HashPassword returns the argon2id PHC string of a password.
func HashPassword(password string) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding.EncodeToString
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads, b64(salt), b64(key))
}

// CheckPassword reports whether password matches a PHC string of
// HashPassword, comparing in constant time.
func CheckPassword(phc, password string) bool {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var (
		version, memory, iterations int
		threads                     uint8
	)
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &iterations, &threads); err != nil || memory <= 0 || iterations <= 0 || threads == 0 {
		return false
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, uint32(iterations), uint32(memory), threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is checked against when the e-mail address is unknown, so
// that a login takes as long whether or not the user exists. It is
// computed at the first such login, not when the package loads: a hash
// costs argonMemory and a good fraction of a second, which every program
// and test importing the package would pay.
var dummyHash = sync.OnceValue(func() string { return HashPassword("staykit-no-such-user") })

// DefaultMaxConcurrentHashes is how many password hashes a Service runs at
// once unless Options.MaxConcurrentHashes says otherwise: each takes 64
// MiB (argonMemory) for a fraction of a second, so four bound a burst of
// logins to 256 MiB.
const DefaultMaxConcurrentHashes = 4

// BusyRetryAfter is how long a login refused with CodeBusy should wait
// before it is tried again.
const BusyRetryAfter = time.Second

// errBusy refuses a login while MaxConcurrentHashes hashes run.
func errBusy() error {
	return booking.Errorf(booking.CodeBusy, "Too many sign-ins at once. Please try again in a moment.")
}

// CreateUser adds a dashboard user to org. Errors: CodeInvalid (e-mail
// address, password shorter than MinPasswordLength), CodeConflict.
func (s *Service) CreateUser(ctx context.Context, org *booking.Organization, email, password string, by Actor) (*User, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	f := booking.FieldErrors{}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		f.Add("email", "invalid_email")
	}
	if len([]rune(password)) < MinPasswordLength {
		f.Add("password", "too_short")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	u := &User{OrgID: org.ID, Email: email, PasswordHash: HashPassword(password), CreatedAt: s.clock.Now()}
	type view struct {
		ID    int64  `json:"id"`
		Email string `json:"email"`
	}
	err := s.atomically(ctx, func(ctx context.Context) error {
		if err := s.records.CreateHostUser(ctx, u); err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		return s.audit(ctx, org, by, "user.create", target("user", u.ID), nil, view{u.ID, u.Email})
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// Login checks a user's password and opens a session; the returned token
// goes in the cookie and is never stored. At most MaxConcurrentHashes
// logins run at once (each hashes the password in 64 MiB); one more is
// refused at once, without waiting, with CodeBusy (retry after
// BusyRetryAfter). Errors: CodeUnauthorized (the same for an unknown
// address and a wrong password), CodeBusy.
func (s *Service) Login(ctx context.Context, email, password string) (string, *User, error) {
	select {
	case s.hashSlots <- struct{}{}:
		defer func() { <-s.hashSlots }()
	default:
		return "", nil, errBusy()
	}
	email = strings.ToLower(strings.TrimSpace(email))
	u, err := s.records.HostUserByEmail(ctx, email)
	if err != nil && booking.ErrorCode(err) != booking.CodeNotFound {
		return "", nil, fmt.Errorf("find user: %w", err)
	}
	if u == nil {
		CheckPassword(dummyHash(), password)
		return "", nil, errBadLogin()
	}
	if !CheckPassword(u.PasswordHash, password) {
		return "", nil, errBadLogin()
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := s.clock.Now()
	if err := s.records.CreateHostSession(ctx, &Session{Hash: HashKey(token), UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}); err != nil {
		return "", nil, fmt.Errorf("create session: %w", err)
	}
	return token, u, nil
}

func errBadLogin() error {
	return booking.Errorf(booking.CodeUnauthorized, "Wrong e-mail address or password.")
}

// Session finds the user of a session token. Errors: CodeUnauthorized.
func (s *Service) Session(ctx context.Context, token string) (*User, error) {
	if token == "" || len(token) > 128 {
		return nil, errUnauthorized()
	}
	_, u, err := s.records.HostSession(ctx, HashKey(token), s.clock.Now())
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, errUnauthorized()
		}
		return nil, fmt.Errorf("find session: %w", err)
	}
	return u, nil
}

// Logout ends a session.
func (s *Service) Logout(ctx context.Context, token string) error {
	return s.records.DeleteHostSession(ctx, HashKey(token))
}

// UserActor is the actor of a dashboard user.
func UserActor(u *User) Actor { return Actor{Kind: "user", ID: u.ID, Name: u.Email} }
