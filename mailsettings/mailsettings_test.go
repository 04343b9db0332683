package mailsettings_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
)

func key(t *testing.T, b byte) *mailsettings.Key {
	t.Helper()
	k, err := mailsettings.ParseKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestParseKey(t *testing.T) {
	raw := bytes.Repeat([]byte{0xfb}, 32)
	for _, tt := range []struct {
		name, in string
		ok       bool
	}{
		{"Std", base64.StdEncoding.EncodeToString(raw), true},
		{"URL", base64.URLEncoding.EncodeToString(raw), true},
		{"RawStdWithNewline", base64.RawStdEncoding.EncodeToString(raw) + "\n", true},
		{"Short", base64.StdEncoding.EncodeToString(raw[:16]), false},
		{"NotBase64", "not a key!", false},
		{"Empty", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mailsettings.ParseKey(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseKey(%q) = %v, want ok %v", tt.in, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "openssl rand -base64 32") {
				t.Errorf("the error does not say how to make a key: %v", err)
			}
		})
	}
}

// TestSealOpen: a password sealed opens with the same key and
// organisation only; two seals differ (random nonces); the sealed bytes
// never hold the password.
func TestSealOpen(t *testing.T) {
	k := key(t, 1)
	const password = "correct horse battery staple"
	a, b := k.Seal(7, password), k.Seal(7, password)
	if bytes.Equal(a, b) {
		t.Error("two seals of the same password are equal")
	}
	if bytes.Contains(a, []byte(password)) || bytes.Contains(a, []byte("horse")) {
		t.Fatalf("sealed bytes hold the password: %q", a)
	}
	if got, err := k.Open(7, a); err != nil || got != password {
		t.Fatalf("Open = %q, %v", got, err)
	}
	tampered := bytes.Clone(a)
	tampered[len(tampered)-1] ^= 1
	for _, tt := range []struct {
		name   string
		k      *mailsettings.Key
		org    int64
		sealed []byte
	}{
		{"AnotherKey", key(t, 2), 7, a},
		{"AnotherOrganisation", k, 8, a},
		{"Tampered", k, 7, tampered},
		{"Truncated", k, 7, a[:5]},
		{"Empty", k, 7, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.k.Open(tt.org, tt.sealed); !errors.Is(err, mailsettings.ErrUnreadable) {
				t.Fatalf("Open = %v, want ErrUnreadable", err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	pw := "x\r\ny"
	for _, tt := range []struct {
		name     string
		in       mailsettings.Input
		port     int
		tls, bad string
	}{
		{"Defaults", mailsettings.Input{Host: " smtp.example.com ", From: "a@example.com"}, 587, "starttls", ""},
		{"ImplicitTLSPort", mailsettings.Input{Host: "smtp.example.com", TLS: "TLS", From: "Villa <a@example.com>"}, 465, "tls", ""},
		{"GivenPort", mailsettings.Input{Host: "smtp.example.com", Port: 2525, TLS: "none", From: "a@example.com"}, 2525, "none", ""},
		{"NoHost", mailsettings.Input{From: "a@example.com"}, 0, "", "host"},
		{"HostWithScheme", mailsettings.Input{Host: "smtp://x", From: "a@example.com"}, 0, "", "host"},
		{"BadTLS", mailsettings.Input{Host: "h", TLS: "ssl", From: "a@example.com"}, 0, "", "tls"},
		{"BadPort", mailsettings.Input{Host: "h", Port: -1, From: "a@example.com"}, 0, "", "port"},
		{"PasswordWithLineBreak", mailsettings.Input{Host: "h", Password: &pw, From: "a@example.com"}, 0, "", "password"},
		{"BadFrom", mailsettings.Input{Host: "h", From: "nobody"}, 0, "", "from"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mailsettings.Check(tt.in)
			if tt.bad != "" {
				var e *booking.Error
				if !errors.As(err, &e) || e.Code != booking.CodeInvalid || len(e.Fields[tt.bad]) == 0 {
					t.Fatalf("Check = %v, want invalid %s", err, tt.bad)
				}
				return
			}
			if err != nil || got.Port != tt.port || got.TLS != tt.tls || strings.TrimSpace(got.Host) != got.Host {
				t.Fatalf("Check = %+v, %v; want port %d, %s", got, err, tt.port, tt.tls)
			}
		})
	}
}

// fakeStore keeps settings per organisation.
type fakeStore struct {
	m map[int64]*mailsettings.Settings
}

func (f fakeStore) SMTPSettings(_ context.Context, org int64) (*mailsettings.Settings, error) {
	if s, ok := f.m[org]; ok {
		return s, nil
	}
	return nil, booking.Errorf(booking.CodeNotFound, "none")
}
func (f fakeStore) SaveSMTPSettings(context.Context, *mailsettings.Settings) error { return nil }
func (f fakeStore) DeleteSMTPSettings(context.Context, int64) error                { return nil }
func (f fakeStore) LatestGuestMail(context.Context, int64) (*outbox.Delivery, error) {
	return nil, booking.Errorf(booking.CodeNotFound, "none")
}

// TestResolver: an organisation with settings gets its own SMTP mailer,
// one without none (the server's); an unreadable password is an error;
// without a key nobody has one.
func TestResolver(t *testing.T) {
	k := key(t, 3)
	st := fakeStore{m: map[int64]*mailsettings.Settings{
		1: {OrgID: 1, Host: "smtp.example.com", Port: 587, TLS: "starttls", Username: "u", SealedPassword: k.Seal(1, "pw"), From: "a@example.com"},
		2: {OrgID: 2, Host: "smtp.example.com", Port: 587, TLS: "starttls", Username: "u", SealedPassword: key(t, 4).Seal(2, "pw"), From: "a@example.com"},
	}}
	r := mailsettings.Resolver{Store: st, Key: k}
	if m, err := r.MailerFor(t.Context(), 1); err != nil || m == nil {
		t.Fatalf("with settings: %v, %v", m, err)
	} else if _, ok := m.(*notify.SMTPMailer); !ok {
		t.Fatalf("with settings: %T, want an SMTP mailer", m)
	}
	if m, err := r.MailerFor(t.Context(), 3); err != nil || m != nil {
		t.Fatalf("without settings: %v, %v; want none", m, err)
	}
	if _, err := r.MailerFor(t.Context(), 2); !errors.Is(err, mailsettings.ErrUnreadable) {
		t.Fatalf("sealed under another key: %v", err)
	}
	if m, err := (mailsettings.Resolver{Store: st}).MailerFor(t.Context(), 1); err != nil || m != nil {
		t.Fatalf("without a key: %v, %v; want none", m, err)
	}
}

func TestExplain(t *testing.T) {
	cfg := notify.SMTPConfig{Host: "smtp.example.com", Port: 587, From: "a@example.com"}
	for _, tt := range []struct {
		name   string
		err    error
		reason string
	}{
		{"DNS", fmt.Errorf("dial: %w", &net.DNSError{Err: "no such host", Name: "smtp.example.com"}), mailsettings.ReasonCannotConnect},
		{"Refused", fmt.Errorf("send: %w", &net.OpError{Op: "dial", Err: errors.New("connection refused")}), mailsettings.ReasonCannotConnect},
		{"Timeout", context.DeadlineExceeded, mailsettings.ReasonCannotConnect},
		{"Auth", errors.New("smtp: send x: failed to authenticate: 535 5.7.8 Authentication credentials invalid"), mailsettings.ReasonAuth},
		{"TLS", errors.New("smtp: send x: STARTTLS extension not supported"), mailsettings.ReasonTLS},
		{"Password", mailsettings.ErrUnreadable, mailsettings.ReasonPassword},
		{"Other", errors.New("550 no"), mailsettings.ReasonFailed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reason, msg := mailsettings.Explain(tt.err, cfg)
			if reason != tt.reason || msg == "" {
				t.Fatalf("Explain = %s %q, want %s", reason, msg, tt.reason)
			}
		})
	}
}
