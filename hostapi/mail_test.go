package hostapi_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/notify/notifytest"
)

// testSecretsKey is the secrets key of the test handlers.
func testSecretsKey(t testing.TB) *mailsettings.Key {
	k, err := mailsettings.ParseKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rawSealedPassword reads the password column of an organisation's SMTP
// settings straight from the database.
func rawSealedPassword(t *testing.T, e *env, orgID int64) []byte {
	t.Helper()
	var raw []byte
	var err error
	switch db := e.replicas[0].store.Records.(type) {
	case interface{ JobPool() *sql.DB }:
		err = db.JobPool().QueryRowContext(t.Context(), `SELECT password_sealed FROM smtp_settings WHERE org_id = ?`, orgID).Scan(&raw)
	case interface{ JobPool() *pgxpool.Pool }:
		err = db.JobPool().QueryRow(t.Context(), `SELECT password_sealed FROM smtp_settings WHERE org_id = $1`, orgID).Scan(&raw)
	default:
		t.Fatalf("no raw access to %T", db)
	}
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestSMTPSettings: the settings are saved, read back without their
// password, validated; the password is sealed in the database (never its
// text), kept when absent, removed when empty; the audit log says it
// changed and never holds it; another organisation sees none.
func TestSMTPSettings(t *testing.T) {
	const secret = "s3cret-Pa55word"
	forEachStore(t, func(t *testing.T, e *env) {
		path := hostPath("villa", "/settings/smtp")
		got := e.do("villa", req{method: "GET", path: path})
		want(t, got, http.StatusOK)
		if d := got.data(t); d["configured"] != false || d["password_set"] != false {
			t.Fatalf("new organisation: %v", d)
		}
		for _, tt := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"NoHost", map[string]any{"from": "a@example.com"}, "host"},
			{"HostWithPort", map[string]any{"host": "smtp.example.com:587", "from": "a@example.com"}, "host"},
			{"BadTLS", map[string]any{"host": "smtp.example.com", "tls": "ssl3", "from": "a@example.com"}, "tls"},
			{"BadPort", map[string]any{"host": "smtp.example.com", "port": 70000, "from": "a@example.com"}, "port"},
			{"NoFrom", map[string]any{"host": "smtp.example.com"}, "from"},
			{"BadFrom", map[string]any{"host": "smtp.example.com", "from": "not an address"}, "from"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := e.do("villa", req{method: "PUT", path: path, body: tt.body})
				want(t, r, http.StatusUnprocessableEntity, "invalid")
				if !bytes.Contains(r.body, []byte(`"`+tt.field+`"`)) {
					t.Errorf("the error does not name %s: %s", tt.field, r.body)
				}
			})
		}

		put := e.do("villa", req{method: "PUT", path: path, body: map[string]any{"host": " smtp.example.com ", "username": "villa",
			"password": secret, "from": "Villa Soleil <bonjour@example.com>"}})
		want(t, put, http.StatusOK)
		if d := put.data(t); d["configured"] != true || d["password_set"] != true || d["port"] != float64(587) ||
			d["tls"] != "starttls" || d["host"] != "smtp.example.com" {
			t.Fatalf("saved = %v", d)
		}
		if bytes.Contains(put.body, []byte(secret)) || bytes.Contains(put.body, []byte(`"password"`)) {
			t.Fatalf("the answer shows the password: %s", put.body)
		}
		orgID := e.orgs["villa"].ID
		raw := rawSealedPassword(t, e, orgID)
		if len(raw) <= len(secret) || bytes.Contains(raw, []byte(secret)) {
			t.Fatalf("the database holds %q: not sealed", raw)
		}
		st, err := e.replicas[0].store.Records.(mailsettings.Store).SMTPSettings(t.Context(), orgID)
		if err != nil {
			t.Fatal(err)
		}
		if cfg, err := mailsettings.Config(testSecretsKey(t), st); err != nil || cfg.Password != secret {
			t.Fatalf("opened password = %q, %v", cfg.Password, err)
		}

		// Absent, the password is kept; "", it is removed.
		keep := e.do("villa", req{method: "PUT", path: path, body: map[string]any{"host": "smtp.example.com", "port": 465, "tls": "tls",
			"username": "villa", "from": "bonjour@example.com"}})
		want(t, keep, http.StatusOK)
		if d := keep.data(t); d["password_set"] != true || d["port"] != float64(465) {
			t.Fatalf("without a password: %v", d)
		}
		if again := rawSealedPassword(t, e, orgID); !bytes.Equal(again, raw) {
			t.Error("saving without a password resealed it")
		}
		cleared := e.do("villa", req{method: "PUT", path: path, body: map[string]any{"host": "smtp.example.com", "from": "bonjour@example.com", "password": ""}})
		want(t, cleared, http.StatusOK)
		if d := cleared.data(t); d["password_set"] != false {
			t.Fatalf("password \"\": %v", d)
		}
		if d := e.do("other", req{method: "GET", path: hostPath("other", "/settings/smtp")}).data(t); d["configured"] != false {
			t.Errorf("another organisation sees settings: %v", d)
		}

		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), orgID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		changed := 0
		for _, a := range log {
			if bytes.Contains(a.Before, []byte(secret)) || bytes.Contains(a.After, []byte(secret)) {
				t.Fatalf("the audit log holds the password: %s", a.After)
			}
			var after struct {
				Password string `json:"password"`
			}
			if a.Action == "settings.smtp" && json.Unmarshal(a.After, &after) == nil && after.Password == "changed" {
				changed++
			}
		}
		if changed != 2 { // set, then removed; the save without one is no change of it
			t.Errorf("%d settings.smtp entries say the password changed, want 2", changed)
		}

		del := e.do("villa", req{method: "DELETE", path: path})
		want(t, del, http.StatusOK)
		if d := e.do("villa", req{method: "GET", path: path}).data(t); d["configured"] != false {
			t.Errorf("after DELETE: %v", d)
		}
	})
}

// TestSMTPSettingsWithoutKey: a server without a secrets key answers the
// SMTP settings routes 503 not_configured (and stores nothing); previews
// still work.
func TestSMTPSettingsWithoutKey(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := hostapi.New(hostapi.Options{Host: e.replicas[0].host, Logger: logger, Clock: e.clock})
	for _, tt := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/settings/smtp", "", http.StatusServiceUnavailable},
		{"PUT", "/settings/smtp", `{"host":"smtp.example.com","from":"a@example.com","password":"x"}`, http.StatusServiceUnavailable},
		{"POST", "/settings/smtp/test", `{}`, http.StatusServiceUnavailable},
		{"GET", "/mail-templates/preview?kind=booking.confirmed&locale=en", "", http.StatusOK},
	} {
		t.Run(tt.method+tt.path, func(t *testing.T) {
			hr := httptest.NewRequest(tt.method, hostPath("villa", tt.path), strings.NewReader(tt.body))
			hr.Header.Set("Authorization", "Bearer "+e.keys["villa"])
			if tt.body != "" {
				hr.Header.Set("Content-Type", "application/json")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, hr)
			resp := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
			if err := loadContract(t).check(tt.method, hostPath("villa", tt.path), hr.Header, []byte(tt.body), resp); err != nil {
				t.Errorf("OpenAPI contract: %v", err)
			}
			if tt.status == http.StatusServiceUnavailable {
				want(t, resp, tt.status, "not_configured")
				if !bytes.Contains(resp.body, []byte("secrets")) {
					t.Errorf("the message does not say what is missing: %s", resp.body)
				}
			} else {
				want(t, resp, tt.status)
			}
		})
	}
	if _, err := e.replicas[0].store.Records.(mailsettings.Store).SMTPSettings(t.Context(), e.orgs["villa"].ID); booking.ErrorCode(err) != booking.CodeNotFound {
		t.Fatalf("settings stored without a key: %v", err)
	}
}

// fakeSMTP is an SMTP server that offers AUTH and refuses every login.
func fakeSMTP(t *testing.T) (host string, port int) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				r := bufio.NewReader(c)
				fmt.Fprint(c, "220 fake ESMTP\r\n")
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					switch cmd := strings.ToUpper(strings.TrimSpace(line)); {
					case strings.HasPrefix(cmd, "EHLO"):
						fmt.Fprint(c, "250-fake\r\n250 AUTH PLAIN LOGIN\r\n")
					case strings.HasPrefix(cmd, "AUTH"):
						fmt.Fprint(c, "535 5.7.8 Authentication credentials invalid\r\n")
						return // the client may not say QUIT
					case strings.HasPrefix(cmd, "QUIT"):
						fmt.Fprint(c, "221 bye\r\n")
						return
					default:
						fmt.Fprint(c, "250 ok\r\n")
					}
				}
			})
		}
	})
	a := ln.Addr().(*net.TCPAddr)
	return "127.0.0.1", a.Port
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

// TestSMTPTest: the test e-mail reaches MailDev through the saved
// settings, to the contact address or the one given; a refused login and
// an unreachable server are told in a sentence with their reason, in the
// answer's locale; without settings or an address the request is refused.
func TestSMTPTest(t *testing.T) {
	api, smtpAddr := testenv.MailSink(t)
	if api == "" {
		return
	}
	sinkHost, sinkPort, _ := net.SplitHostPort(smtpAddr)
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	path, test := hostPath("villa", "/settings/smtp"), hostPath("villa", "/settings/smtp/test")
	want(t, e.do("villa", req{method: "POST", path: test, body: map[string]any{}}), http.StatusUnprocessableEntity, "invalid")

	put := func(body map[string]any) {
		t.Helper()
		want(t, e.do("villa", req{method: "PUT", path: path, body: body}), http.StatusOK)
	}
	put(map[string]any{"host": sinkHost, "port": json.Number(sinkPort), "tls": "none", "from": "villa@example.com"})
	r := e.do("villa", req{method: "POST", path: test, body: map[string]any{}})
	want(t, r, http.StatusUnprocessableEntity, "invalid") // no contact address yet
	if !bytes.Contains(r.body, []byte(`"to"`)) {
		t.Errorf("the error does not name the field to: %s", r.body)
	}
	to := fmt.Sprintf("smtp-test-%d@example.com", time.Now().UnixNano())
	if err := e.replicas[0].store.Records.(interface {
		SetContactEmail(context.Context, int64, string) error
	}).SetContactEmail(t.Context(), e.orgs["villa"].ID, to); err != nil {
		t.Fatal(err)
	}
	ok := e.do("villa", req{method: "POST", path: test, body: map[string]any{}})
	want(t, ok, http.StatusOK)
	if d := ok.data(t); d["ok"] != true || d["to"] != to || d["reason"] != nil {
		t.Fatalf("test e-mail to the contact address: %v", d)
	}
	if got := sinkMails(t, api, to); len(got) != 1 || !strings.Contains(got[0], "villa") {
		t.Fatalf("MailDev got %d test e-mails for %s, want 1: %q", len(got), to, got)
	}

	authHost, authPort := fakeSMTP(t)
	for _, tt := range []struct {
		name, locale string
		body         map[string]any
		reason, says string
	}{
		{"RefusedLogin", "en", map[string]any{"host": authHost, "port": authPort, "tls": "none", "username": "villa", "password": "wrong", "from": "villa@example.com"},
			mailsettings.ReasonAuth, "refused the login"},
		{"RefusedLoginFrench", "fr", map[string]any{"host": authHost, "port": authPort, "tls": "none", "username": "villa", "password": "wrong", "from": "villa@example.com"},
			mailsettings.ReasonAuth, "a refusé la connexion"},
		{"Unreachable", "en", map[string]any{"host": "127.0.0.1", "port": closedPort(t), "tls": "none", "from": "villa@example.com"},
			mailsettings.ReasonCannotConnect, "Could not connect"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			put(tt.body)
			r := e.do("villa", req{method: "POST", path: test, body: map[string]any{"to": to}, header: map[string]string{"Accept-Language": tt.locale}})
			want(t, r, http.StatusOK)
			d := r.data(t)
			if d["ok"] != false || d["reason"] != tt.reason || !strings.Contains(d["message"].(string), tt.says) {
				t.Fatalf("answer = %v, want reason %s saying %q", d, tt.reason, tt.says)
			}
			if bytes.Contains(r.body, []byte("wrong")) {
				t.Errorf("the answer shows the password: %s", r.body)
			}
		})
	}
	want(t, e.do("villa", req{method: "POST", path: test, body: map[string]any{"to": "nope"}}), http.StatusUnprocessableEntity, "invalid")
}

// sinkMails returns the text of the e-mails MailDev received for to.
func sinkMails(t *testing.T, api, to string) []string {
	t.Helper()
	resp, err := http.Get(api + "/api/email")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct {
		Text string `json:"text"`
		To   []struct {
			Address string `json:"address"`
		} `json:"to"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range list {
		if len(m.To) == 1 && m.To[0].Address == to {
			out = append(out, m.Text)
		}
	}
	return out
}

// TestMailPreview: an e-mail is rendered in French and English, of a
// sample booking or one of the organisation's, for the guest or the host,
// and never sent; bad kinds, locales and others' bookings are refused.
func TestMailPreview(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
	preview := func(org, query string) response {
		return e.do(org, req{method: "GET", path: hostPath(org, "/mail-templates/preview?"+query)})
	}
	for _, tt := range []struct {
		name, query         string
		subject, text, html string
		sample              bool
	}{
		{"SampleEnglish", "kind=booking.confirmed&locale=en", "Your booking is confirmed", "Hello Jane Smith", "<html", true},
		{"SampleFrench", "kind=booking.confirmed&locale=fr", "Votre réservation est confirmée", "Bonjour Marie Martin", "<html", true},
		{"BookingFrench", fmt.Sprintf("kind=booking.cancelled&locale=fr&booking_id=%d", id), "Votre réservation est annulée", "Ana Guest", "10 juin 2026", false},
		{"BookingEnglishHost", fmt.Sprintf("kind=booking.confirmed&locale=en&to=host&booking_id=%d", id), "New confirmed booking", "Hello villa", "10 June 2026", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := preview("villa", tt.query)
			want(t, r, http.StatusOK)
			d := r.data(t)
			if !strings.Contains(d["subject"].(string), tt.subject) || !strings.Contains(d["text"].(string), tt.text) ||
				!strings.Contains(d["html"].(string), tt.html) || d["sample"] != tt.sample {
				t.Fatalf("preview = subject %q, sample %v, text %q", d["subject"], d["sample"], d["text"])
			}
		})
	}
	for _, tt := range []struct{ name, org, query, code string }{
		{"UnknownKind", "villa", "kind=booking.exploded&locale=en", "invalid"},
		{"HostOnlyKindToGuest", "villa", "kind=payment.failed&locale=en", "invalid"},
		{"UnknownLocale", "villa", "kind=booking.confirmed&locale=de", "invalid"},
		{"AnotherOrganisationsBooking", "other", fmt.Sprintf("kind=booking.confirmed&booking_id=%d", id), "not_found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status := http.StatusUnprocessableEntity
			if tt.code == "not_found" {
				status = http.StatusNotFound
			}
			want(t, preview(tt.org, tt.query), status, tt.code)
		})
	}
}

// TestResendEmail: resending a booking's e-mail makes the worker send the
// guest its latest e-mail exactly once more, audited; a booking that has
// mailed nothing yet, or whose guest was erased, is a conflict.
func TestResendEmail(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		mailer := &notifytest.Mailer{}
		worker := &notify.Worker{Store: e.replicas[0].store, Clock: e.clock, Mailer: mailer,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		resend := func(org string, id int64) response {
			return e.do(org, req{method: "POST", path: hostPath(org, fmt.Sprintf("/bookings/%d/resend-email", id))})
		}
		id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		want(t, resend("villa", id), http.StatusConflict, "conflict") // not dispatched yet
		if _, err := worker.Process(t.Context()); err != nil {
			t.Fatal(err)
		}
		before := mailer.To("ana@example.com")
		if len(before) == 0 {
			t.Fatal("the booking mailed its guest nothing")
		}
		last := before[len(before)-1]
		r := resend("villa", id)
		want(t, r, http.StatusAccepted)
		if d := r.data(t); d["status"] != "pending" || d["event_type"] != last.Kind {
			t.Fatalf("resend = %v, want the %s e-mail pending", d, last.Kind)
		}
		want(t, resend("other", id), http.StatusNotFound, "not_found")
		if _, err := worker.Process(t.Context()); err != nil {
			t.Fatal(err)
		}
		after := mailer.To("ana@example.com")
		if len(after) != len(before)+1 || after[len(after)-1].Kind != last.Kind || after[len(after)-1].ID != last.ID {
			t.Fatalf("after a resend: %d e-mails to the guest, want %d (one more %s)", len(after), len(before)+1, last.Kind)
		}
		if _, err := worker.Process(t.Context()); err != nil {
			t.Fatal(err)
		}
		if n := len(mailer.To("ana@example.com")); n != len(after) {
			t.Fatalf("the resend was sent %d times", n-len(before))
		}
		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		audited := 0
		for _, a := range log {
			if a.Action == "booking.resend_email" && a.Target == fmt.Sprintf("booking:%d", id) {
				audited++
			}
		}
		if audited != 1 {
			t.Errorf("%d booking.resend_email audit entries, want 1", audited)
		}

		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", id)), body: map[string]any{"refund": "none"}}), http.StatusOK)
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/erase-guest", id))}), http.StatusOK)
		r = resend("villa", id)
		want(t, r, http.StatusConflict, "conflict")
		if !bytes.Contains(r.body, []byte("effacées")) {
			t.Errorf("the conflict does not say the guest was erased: %s", r.body)
		}
	})
}

// TestOrganisationMailer: an organisation with SMTP settings sends its
// e-mails through them (MailDev here), one without through the server's
// mailer.
func TestOrganisationMailer(t *testing.T) {
	api, smtpAddr := testenv.MailSink(t)
	if api == "" {
		return
	}
	sinkHost, sinkPort, _ := net.SplitHostPort(smtpAddr)
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	server := &notifytest.Mailer{}
	worker := &notify.Worker{Store: e.replicas[0].store, Clock: e.clock, Mailer: server,
		Mailers: mailsettings.Resolver{Store: e.replicas[0].store.Records.(mailsettings.Store), Key: testSecretsKey(t)},
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil))}
	want(t, e.do("villa", req{method: "PUT", path: hostPath("villa", "/settings/smtp"), body: map[string]any{
		"host": sinkHost, "port": json.Number(sinkPort), "tls": "none", "from": "villa@example.com"}}), http.StatusOK)
	guest := fmt.Sprintf("guest-%d@example.com", time.Now().UnixNano())
	ctx := t.Context()
	for _, org := range []string{"villa", "other"} {
		prop := map[string]string{"villa": "soleil", "other": "bastide"}[org]
		res, err := e.replicas[0].svc.Checkout(ctx, org, booking.CheckoutRequest{PropertyID: e.props[prop],
			Stay:      booking.Stay{CheckIn: civil.MustParse("2026-06-10"), CheckOut: civil.MustParse("2026-06-12"), Guests: 2},
			GuestName: "Ana Guest", GuestEmail: guest, GuestPhone: "+33612345678"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.pay.SimulatePaid(res.Booking.PaymentIntentID); err != nil {
			t.Fatal(err)
		}
		if _, err := e.replicas[0].svc.Confirm(ctx, org, res.Booking.Token, booking.ConfirmRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := worker.Process(ctx); err != nil {
		t.Fatal(err)
	}
	viaServer, viaOwn := len(server.To(guest)), len(sinkMails(t, api, guest))
	if viaServer == 0 || viaOwn != viaServer {
		t.Fatalf("%d e-mails through the server's mailer (other), %d through villa's SMTP server; want the same, not 0", viaServer, viaOwn)
	}
}
