package testenv

import "os"

// The SMTP sink (MailDev, `npm install -g maildev`; .ci/run starts it):
// its web API (the variable) and its SMTP address.
const (
	MailSinkVar         = "STAYKIT_TEST_MAILDEV_URL"
	MailSinkSMTPVar     = "STAYKIT_TEST_MAILDEV_SMTP"
	DefaultMailSink     = "http://127.0.0.1:1080"
	DefaultMailSinkSMTP = "127.0.0.1:1025"
)

// MailSink returns the web API URL and the SMTP address of the MailDev
// sink the tests may send e-mails to and read them back from.
func MailSink(t TB) (apiURL, smtpAddr string) {
	t.Helper()
	apiURL = lookup(t, MailSinkVar, DefaultMailSink, "the MailDev SMTP sink", func(u string) bool { return dialURL(u, "80") })
	if apiURL == "" {
		return "", ""
	}
	smtpAddr = os.Getenv(MailSinkSMTPVar)
	if smtpAddr == "" {
		smtpAddr = DefaultMailSinkSMTP
	}
	return apiURL, smtpAddr
}
