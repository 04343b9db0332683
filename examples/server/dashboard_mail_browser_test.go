package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/internal/testenv"
)

// TestBrowserSettingsSMTP: on a server with a secrets key the host sets
// the organisation's SMTP server in Settings (MailDev here), the password
// is never shown back, a test e-mail reports it was sent, a refused
// connection is told in a sentence; the e-mail previews render a kind in
// French in a sandboxed frame; the booking page offers to send the
// guest's e-mail again; at 390 px nothing runs off the screen.
func TestBrowserSettingsSMTP(t *testing.T) {
	api, smtpAddr := testenv.MailSink(t)
	if api == "" {
		return
	}
	sinkHost, sinkPort, _ := net.SplitHostPort(smtpAddr)
	key := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))
	ts := startServer(t, map[string]string{"STAYKIT_SECRETS_KEY": key})
	newHostUser(t, ts, "demo-deposit", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo-deposit", 60)
	const secret = "browser-Secret-42"
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-settings")
	b.do("open Settings", chromedp.Click(chromedp.CSS("#nav-settings")), chromedp.WaitVisible(chromedp.CSS("#smtp-form")))
	if got := b.text("#smtp-status"); !strings.Contains(got, "staykit's server") {
		t.Errorf("status before = %q", got)
	}
	b.do("save the SMTP settings",
		chromedp.SendKeys(chromedp.CSS("#smtp-host"), sinkHost),
		chromedp.SendKeys(chromedp.CSS("#smtp-port"), sinkPort),
		chromedp.SetValue(chromedp.CSS("#smtp-tls"), "none"),
		chromedp.SendKeys(chromedp.CSS("#smtp-password"), secret),
		chromedp.SendKeys(chromedp.CSS("#smtp-from"), "Demo <demo@example.com>"),
		chromedp.Click(chromedp.CSS("#smtp-save")),
		chromedp.WaitVisible(chromedp.CSS("#smtp-delete")))
	if got := b.text("#smtp-status"); !strings.Contains(got, "your server") {
		t.Errorf("status after saving = %q", got)
	}
	if got := b.eval(`document.querySelector('#smtp-password').value + '|' + document.querySelector('#smtp-password').placeholder`); got != "|saved — leave empty to keep it" {
		t.Errorf("password field after saving = %q, want empty with a saved placeholder", got)
	}
	if strings.Contains(b.eval(`document.documentElement.outerHTML`), secret) {
		t.Error("the page shows the password")
	}

	to := fmt.Sprintf("browser-smtp-%d@example.com", time.Now().UnixNano())
	b.do("send a test e-mail", chromedp.SendKeys(chromedp.CSS("#smtp-test-to"), to),
		chromedp.Click(chromedp.CSS("#smtp-test")),
		chromedp.WaitVisible(chromedp.CSS("#smtp-test-result.ok")))
	if got := b.text("#smtp-test-result"); got != "The test e-mail was sent to "+to+"." {
		t.Errorf("test result = %q", got)
	}
	if got := sinkMails(t, api, to); len(got) != 1 || got[0].Subject != "staykit: test e-mail" {
		t.Errorf("MailDev got %+v for %s, want the test e-mail", got, to)
	}

	b.do("an unreachable server", chromedp.SetValue(chromedp.CSS("#smtp-port"), fmt.Sprint(closedPort(t))),
		chromedp.Click(chromedp.CSS("#smtp-save")),
		// Saved, the section is drawn anew, without the last result.
		chromedp.WaitNotPresent(chromedp.CSS("#smtp-test-result.ok")),
		chromedp.SendKeys(chromedp.CSS("#smtp-test-to"), to),
		chromedp.Click(chromedp.CSS("#smtp-test")),
		chromedp.WaitVisible(chromedp.CSS("#smtp-test-result.error")))
	if got := b.text("#smtp-test-result"); !strings.HasPrefix(got, "Could not connect to "+sinkHost) {
		t.Errorf("refused connection told as %q", got)
	}

	b.do("preview in French", chromedp.SetValue(chromedp.CSS("#mail-locale"), "fr"),
		chromedp.Click(chromedp.CSS("#mail-preview-show")),
		chromedp.WaitVisible(chromedp.CSS("#mail-preview")))
	if got := b.text("#mail-subject"); !strings.Contains(got, "Votre réservation est confirmée") {
		t.Errorf("French subject = %q", got)
	}
	b.do("the e-mail styled in its frame", chromedp.Poll[chromedp.Void](`(() => { const d = document.querySelector('#mail-frame').contentDocument;
		return d && d.querySelector('h1') && d.querySelector('h1').style.color !== ''; })()`))
	frame := b.eval(`(() => { const f = document.querySelector('#mail-frame'), d = f.contentDocument;
		return [f.getAttribute('sandbox'), d.body.innerText.includes('Marie Martin'), getComputedStyle(d.body).fontFamily,
			d.querySelectorAll('[style]').length === d.querySelectorAll('[data-mail-style]').length].join('|') })()`)
	if frame != "allow-same-origin|true|sans-serif|true" {
		t.Errorf("frame = %q, want sandboxed (no scripts), the sample booking, styled through the CSSOM", frame)
	}
	if got := b.eval(`document.querySelector('#mail-text').textContent`); !strings.Contains(got, "Bonjour Marie Martin") {
		t.Errorf("French text = %q", got)
	}
	b.shot("1280-settings-smtp")
	b.do("on a phone", chromedp.EmulateViewport(390, 844), chromedp.WaitVisible(chromedp.CSS("#mail-frame")))
	if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
		t.Errorf("390 px: Settings is %s px wider than the screen", got)
	}
	b.shot("390-settings-smtp")

	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	b.do("the booking's page", chromedp.EmulateViewport(1280, 900), chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
		chromedp.Click(chromedp.CSS(row+" button.details")),
		chromedp.WaitVisible(chromedp.CSS("#resend-email")))
	b.do("preview its confirmation", chromedp.Click(chromedp.CSS("#booking-mail #mail-preview-show")),
		chromedp.WaitVisible(chromedp.CSS("#booking-mail #mail-preview")))
	if got := b.eval(`document.querySelector('#booking-mail #mail-text').textContent`); strings.Contains(got, "Jane Smith") || !strings.Contains(got, "Hello ") {
		t.Errorf("the booking's preview is not of the booking: %q", got)
	}
	// The outbox sends the booking's confirmation in the background: until
	// it has, a resend is refused (409, said in the flash); then it is
	// accepted. Click until the page says so.
	b.do("send the guest's e-mail again", chromedp.Poll[chromedp.Void](`(() => {
		const flash = document.querySelector('#flash'), button = document.querySelector('#resend-email');
		if (flash.className === 'ok' && flash.textContent.startsWith('E-mail sent to the guest again')) return true;
		if (!button.disabled) button.click();
		return false;
	})()`, chromedp.WithPollingInterval(100*time.Millisecond)))
	if got := b.text("#flash"); got != "E-mail sent to the guest again: booking.confirmed" {
		t.Errorf("flash after resending = %q", got)
	}
	b.checkNoProblems()
}

// sunkMail is an e-mail as MailDev received it.
type sunkMail struct {
	Subject string `json:"subject"`
	Text    string `json:"text"`
	To      []struct {
		Address string `json:"address"`
	} `json:"to"`
}

// sinkMails returns the e-mails MailDev received for to.
func sinkMails(t *testing.T, api, to string) []sunkMail {
	t.Helper()
	resp, err := http.Get(api + "/api/email")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []sunkMail
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var out []sunkMail
	for _, m := range list {
		if len(m.To) == 1 && m.To[0].Address == to {
			out = append(out, m)
		}
	}
	return out
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
