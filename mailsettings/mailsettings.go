// Package mailsettings keeps an organisation's own SMTP server: the host
// sets its host, port, TLS mode, user, password and sender address in the
// dashboard, and the organisation's e-mails leave through it instead of
// the server's (-smtp-host). The password is sealed at rest with
// AES-256-GCM under the server's secrets key (-secrets-key,
// STAYKIT_SECRETS_KEY: 32 random bytes in base64); a server without that
// key refuses to store SMTP settings at all, so no password is ever kept
// in clear. The password is write-only: it is never returned, logged nor
// audited in clear.
//
// The rule notify follows (Resolver): an organisation with SMTP settings
// sends through them; one without sends through the server's mailer.
//
// Key rotation is not handled: changing the key makes the stored
// passwords unreadable (their e-mails fail with a sentence saying so)
// until each host types its password again.
package mailsettings

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
)

// TLS modes.
const (
	TLSStartTLS = "starttls"
	TLSImplicit = "tls"
	TLSNone     = "none"
)

// Settings are an organisation's SMTP server.
type Settings struct {
	OrgID    int64
	Host     string
	Port     int
	TLS      string
	Username string
	// SealedPassword is the password sealed by a Key (nil: none). The
	// clear password never leaves this package's Key.Open.
	SealedPassword []byte
	From           string
	UpdatedAt      time.Time
}

// PasswordSet reports whether a password is stored.
func (s *Settings) PasswordSet() bool { return len(s.SealedPassword) > 0 }

// Store keeps the organisations' SMTP settings, and finds the guest's
// e-mail of a booking to send again. store/sqlite and store/postgres
// implement it; store/storetest checks the contract.
type Store interface {
	// SMTPSettings returns an organisation's settings. Errors:
	// booking.CodeNotFound when it has none.
	SMTPSettings(ctx context.Context, orgID int64) (*Settings, error)
	// SaveSMTPSettings creates or replaces s.OrgID's settings. Errors:
	// booking.CodeNotFound (organisation).
	SaveSMTPSettings(ctx context.Context, s *Settings) error
	// DeleteSMTPSettings removes an organisation's settings; none is no
	// error.
	DeleteSMTPSettings(ctx context.Context, orgID int64) error
	// LatestGuestMail returns the e-mail delivery to the guest of the
	// booking's latest event that has one, staykit's own messages
	// (outbox.InternalKinds: the scheduled messages, the guest-host
	// thread) aside. Errors: booking.CodeNotFound when there
	// is none.
	LatestGuestMail(ctx context.Context, bookingID int64) (*outbox.Delivery, error)
}

// KeySize is the length of a secrets key, in bytes.
const KeySize = 32

// Key seals and opens SMTP passwords (AES-256-GCM, a random nonce per
// seal, the organisation's ID as additional data: a sealed password
// copied to another organisation does not open).
type Key struct{ aead cipher.AEAD }

// ParseKey reads a key: KeySize bytes in standard or URL base64, as
// `openssl rand -base64 32` prints them.
func ParseKey(s string) (*Key, error) {
	s = strings.TrimSpace(s)
	var raw []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if raw, err = enc.DecodeString(s); err == nil {
			break
		}
	}
	if err != nil {
		return nil, errors.New("the secrets key is not base64 (generate one with: openssl rand -base64 32)")
	}
	if len(raw) != KeySize {
		return nil, fmt.Errorf("the secrets key is %d bytes, not %d (generate one with: openssl rand -base64 32)", len(raw), KeySize)
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return nil, fmt.Errorf("secrets key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secrets key: %w", err)
	}
	return &Key{aead: aead}, nil
}

func additional(orgID int64) []byte {
	return []byte("staykit smtp password org " + strconv.FormatInt(orgID, 10))
}

// Seal seals an organisation's password: a version byte, the nonce, the
// ciphertext and its tag.
func (k *Key) Seal(orgID int64, password string) []byte {
	nonce := make([]byte, k.aead.NonceSize())
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails
	out := append([]byte{1}, nonce...)
	return k.aead.Seal(out, nonce, []byte(password), additional(orgID))
}

// ErrUnreadable is returned by Open for a password sealed under another
// key (the key changed) or altered.
var ErrUnreadable = errors.New("the stored SMTP password cannot be read with the server's secrets key (the key changed?): type the password again")

// Open returns the password Seal sealed for orgID.
func (k *Key) Open(orgID int64, sealed []byte) (string, error) {
	n := k.aead.NonceSize()
	if len(sealed) < 1+n || sealed[0] != 1 {
		return "", ErrUnreadable
	}
	plain, err := k.aead.Open(nil, sealed[1:1+n], sealed[1+n:], additional(orgID))
	if err != nil {
		return "", ErrUnreadable
	}
	return string(plain), nil
}

// Input is a change of the settings. Password nil keeps the stored one;
// "" removes it.
type Input struct {
	Host     string
	Port     int
	TLS      string
	Username string
	Password *string
	From     string
}

// Check validates in and returns it cleaned (trimmed, TLS defaulting to
// starttls, Port to the mode's usual port). Errors: booking.CodeInvalid
// with the fields at fault.
func Check(in Input) (Input, error) {
	in.Host, in.Username, in.From = strings.TrimSpace(in.Host), strings.TrimSpace(in.Username), strings.TrimSpace(in.From)
	in.TLS = strings.ToLower(strings.TrimSpace(in.TLS))
	f := booking.FieldErrors{}
	switch {
	case in.Host == "":
		f["host"] = []string{"required"}
	case len(in.Host) > 253 || strings.ContainsAny(in.Host, " /:@\t\r\n"):
		f["host"] = []string{"invalid_host"}
	}
	switch in.TLS {
	case "":
		in.TLS = TLSStartTLS
	case TLSStartTLS, TLSImplicit, TLSNone:
	default:
		f["tls"] = []string{"invalid_tls_mode"}
	}
	if in.Port == 0 {
		in.Port = 587
		if in.TLS == TLSImplicit {
			in.Port = 465
		}
	}
	if in.Port < 1 || in.Port > 65535 {
		f["port"] = []string{"invalid_port"}
	}
	if len(in.Username) > 256 || strings.ContainsAny(in.Username, "\r\n\x00") {
		f["username"] = []string{booking.ReasonInvalidCharacters}
	}
	if in.Password != nil && (len(*in.Password) > 512 || strings.ContainsAny(*in.Password, "\r\n\x00")) {
		f["password"] = []string{booking.ReasonInvalidCharacters}
	}
	if _, err := mail.ParseAddress(in.From); in.From == "" {
		f["from"] = []string{"required"}
	} else if err != nil {
		f["from"] = []string{"invalid_email"}
	}
	if len(f) > 0 {
		return in, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: f}
	}
	return in, nil
}

// Config returns the notify configuration of s, its password opened with k.
func Config(k *Key, s *Settings) (notify.SMTPConfig, error) {
	cfg := notify.SMTPConfig{Host: s.Host, Port: s.Port, TLS: s.TLS, Username: s.Username, From: s.From}
	if s.PasswordSet() {
		p, err := k.Open(s.OrgID, s.SealedPassword)
		if err != nil {
			return cfg, err
		}
		cfg.Password = p
	}
	return cfg, nil
}

// Resolver chooses the mailer of an organisation for notify.Worker
// (notify.MailerSource): its own SMTP server when it has settings, else
// nil (the worker's default mailer, the server's).
type Resolver struct {
	Store Store
	// Key opens the passwords; nil: no organisation has settings
	// (a server without a secrets key never stored any).
	Key *Key
}

// MailerFor returns orgID's mailer, or nil for the server's.
func (r Resolver) MailerFor(ctx context.Context, orgID int64) (notify.Mailer, error) {
	if r.Key == nil {
		return nil, nil
	}
	s, err := r.Store.SMTPSettings(ctx, orgID)
	if booking.ErrorCode(err) == booking.CodeNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("smtp settings of organisation %d: %w", orgID, err)
	}
	cfg, err := Config(r.Key, s)
	if err != nil {
		return nil, err
	}
	m, err := notify.NewSMTPMailer(cfg)
	if err != nil {
		return nil, fmt.Errorf("smtp settings of organisation %d: %w", orgID, err)
	}
	return m, nil
}
