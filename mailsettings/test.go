package mailsettings

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/staykit/staykit/notify"
)

// Reasons of a failed test e-mail (TestResult.Reason).
const (
	ReasonCannotConnect    = "cannot_connect"
	ReasonTLS              = "tls_failed"
	ReasonAuth             = "auth_failed"
	ReasonSenderRefused    = "sender_refused"
	ReasonRecipientRefused = "recipient_refused"
	ReasonPassword         = "password_unreadable"
	ReasonFailed           = "failed"
)

// TestTimeout bounds a test e-mail, from the connection to the answer.
const TestTimeout = 15 * time.Second

// TestResult is the outcome of a test e-mail.
type TestResult struct {
	OK bool
	To string
	// Reason is one of the Reason constants when !OK.
	Reason string
	// Message says what happened in a sentence a host understands
	// (English; the API localises by Reason).
	Message string
	// Detail is the server's own answer or the network error, for the
	// host's provider's support.
	Detail string
}

// SendTest sends a test e-mail to to through cfg, now, and tells what
// became of it. The password never appears in the result.
func SendTest(ctx context.Context, cfg notify.SMTPConfig, to, subject, text string) TestResult {
	m, err := notify.NewSMTPMailer(cfg)
	res := TestResult{To: to}
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, TestTimeout)
		defer cancel()
		err = m.Send(ctx, notify.Mail{ID: fmt.Sprintf("test_%d", time.Now().UnixNano()), Kind: "smtp.test", To: to,
			Subject: subject, Text: text, HTML: "<p>" + text + "</p>"})
	}
	if err == nil {
		res.OK, res.Message = true, "The test e-mail was sent to "+to+"."
		return res
	}
	res.Reason, res.Message = Explain(err, cfg)
	res.Detail = err.Error()
	if cfg.Password != "" {
		res.Detail = strings.ReplaceAll(res.Detail, cfg.Password, "[password]")
	}
	return res
}

// Explain turns a send error into a reason and a sentence a host
// understands.
func Explain(err error, cfg notify.SMTPConfig) (reason, message string) {
	addr := net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port))
	s := strings.ToLower(err.Error())
	var dns *net.DNSError
	var op *net.OpError
	var cert *tls.CertificateVerificationError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var rec tls.RecordHeaderError
	switch {
	case errors.Is(err, ErrUnreadable):
		return ReasonPassword, ErrUnreadable.Error() + "."
	case errors.As(err, &dns):
		return ReasonCannotConnect, "The server name " + cfg.Host + " was not found: check the host."
	case errors.As(err, &cert), errors.As(err, &unknownAuthority), errors.As(err, &hostname),
		errors.As(err, &rec), strings.Contains(s, "starttls"), strings.Contains(s, "tls:"), strings.Contains(s, "x509"):
		return ReasonTLS, "The secure connection (TLS) with " + addr + " failed: check the TLS mode and the port (usually 587 with starttls, 465 with tls)."
	case strings.Contains(s, "auth"), strings.Contains(s, " 535"), strings.Contains(s, "535 "), strings.Contains(s, "username and password"):
		return ReasonAuth, "The server refused the login: check the user and the password."
	case errors.As(err, &op), errors.Is(err, context.DeadlineExceeded), strings.Contains(s, "connection refused"), strings.Contains(s, "i/o timeout"):
		return ReasonCannotConnect, "Could not connect to " + addr + ": check the host and the port, and that the server accepts connections from here."
	case strings.Contains(s, "mail from") || strings.Contains(s, "sender"):
		return ReasonSenderRefused, "The server refused the sender address " + cfg.From + ": use an address your provider lets you send from."
	case strings.Contains(s, "rcpt") || strings.Contains(s, "recipient"):
		return ReasonRecipientRefused, "The server refused the recipient address."
	}
	return ReasonFailed, "The server did not accept the e-mail; its answer follows."
}
