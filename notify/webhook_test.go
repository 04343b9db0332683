package notify_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/notify/notifytest"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
)

// verify checks a Standard Webhooks request, written from the scheme's
// text rather than with notify.Sign: the signed content is
// "{webhook-id}.{webhook-timestamp}.{body}", the key the base64 after
// "whsec_", and webhook-signature a space-separated list of "v1,{base64}".
func verify(secret string, h http.Header, body []byte) bool {
	key, err := base64.StdEncoding.DecodeString(secret[len("whsec_"):])
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "." + string(body)))
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		v, b64, ok := strings.Cut(sig, ",")
		got, err := base64.StdEncoding.DecodeString(b64)
		if ok && v == "v1" && err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}

// receiver records verified deliveries; it fails the first failFirst.
type receiver struct {
	mu        sync.Mutex
	secret    string
	failFirst int
	calls     int
	ids       []string
	events    []notify.Event
	rejected  int
	headers   []http.Header
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.headers = append(r.headers, req.Header.Clone())
	if !verify(r.secret, req.Header, body) {
		r.rejected++
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	r.ids = append(r.ids, req.Header.Get("webhook-id"))
	if r.calls <= r.failFirst {
		http.Error(w, "try later", http.StatusServiceUnavailable)
		return
	}
	var ev notify.Event
	if err := json.Unmarshal(body, &ev); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	// Every event a test sends is one the event feed's schema describes:
	// refused otherwise, so the test fails.
	if err := validateAsCloudEvent(body); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	r.events = append(r.events, ev)
}

// eventSchema is eventfeed.Schema compiled.
var eventSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(eventfeed.Schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("events.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("events.schema.json")
})

// validateAsCloudEvent checks a webhook body, in the feed's CloudEvents
// envelope (the same id, type and data), against eventfeed.Schema.
func validateAsCloudEvent(body []byte) error {
	var w struct {
		ID      string          `json:"id"`
		Type    string          `json:"type"`
		Created time.Time       `json:"created"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return err
	}
	ce, err := json.Marshal(map[string]any{"specversion": "1.0", "id": w.ID, "source": "/api/v1/host/demo", "type": w.Type,
		"time": w.Created, "datacontenttype": "application/json", "acknowledged": false, "data": w.Data})
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ce))
	if err != nil {
		return err
	}
	sch, err := eventSchema()
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// newHTTPServer serves h for the test and returns its URL.
func newHTTPServer(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/hooks"
}

func newReceiver(t *testing.T, e *env, failFirst int) (*receiver, outbox.Endpoint) {
	rec := &receiver{failFirst: failFirst}
	ep := e.addEndpoint(t, "demo", newHTTPServer(t, rec))
	rec.secret = ep.Secret
	return rec, ep
}

func TestWebhookSignedEventWithBooking(t *testing.T) {
	e := newEnv(t)
	rec, _ := newReceiver(t, e, 0)
	b := e.book(t, "demo", "en")
	e.process(t)
	if len(rec.events) != 1 || rec.rejected != 0 {
		t.Fatalf("events = %+v, rejected %d; want one verified event", rec.events, rec.rejected)
	}
	ev := rec.events[0]
	bd := ev.Data.Booking
	if ev.Type != booking.NotifyConfirmed || ev.ID != rec.ids[0] || ev.Data.Organization != "demo" || bd == nil ||
		bd.Token != b.Token || bd.Status != "confirmed" || bd.Total != "3059.00" || bd.Paid != "3059.00" ||
		bd.CheckIn != "2026-06-08" || bd.GuestEmail != "camille@example.com" {
		t.Fatalf("event = %+v, booking %+v", ev, bd)
	}
	h := rec.headers[0]
	if got := h.Get("User-Agent"); !strings.Contains(got, "staykit") {
		t.Errorf("User-Agent = %q", got)
	}
	if got, want := h.Get("webhook-timestamp"), "1780300800"; got != want { // start
		t.Errorf("webhook-timestamp = %s, want %s", got, want)
	}
	// Nothing is sent twice.
	e.clock.Advance(time.Hour)
	e.process(t)
	if rec.calls != 1 {
		t.Errorf("receiver called %d times, want 1", rec.calls)
	}
}

func TestWebhookSignatureRejectsTamperedBody(t *testing.T) {
	secret := outbox.NewSecret()
	body := []byte(`{"id":"evt_1","type":"booking.confirmed"}`)
	at := time.Unix(1780300800, 0)
	sig, err := notify.Sign(secret, "evt_1", at, body)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Set("webhook-id", "evt_1")
	h.Set("webhook-timestamp", "1780300800")
	h.Set("webhook-signature", sig)
	if !verify(secret, h, body) {
		t.Fatal("a genuine signature does not verify")
	}
	tampered := []byte(strings.Replace(string(body), "confirmed", "cancelled", 1))
	if verify(secret, h, tampered) {
		t.Error("a tampered body verifies")
	}
	h.Set("webhook-id", "evt_2")
	if verify(secret, h, body) {
		t.Error("another id verifies")
	}
	if verify(outbox.NewSecret(), h, body) {
		t.Error("another secret verifies")
	}
}

func TestWebhookRetriedWithSameIDUntilAccepted(t *testing.T) {
	e := newEnv(t)
	rec, ep := newReceiver(t, e, 5)
	e.book(t, "demo", "fr")
	e.process(t)
	for i := 0; i < 10; i++ {
		e.clock.Advance(outbox.Backoff(i + 1))
		e.process(t)
	}
	if rec.calls != 6 || len(rec.events) != 1 {
		t.Fatalf("calls = %d, accepted %d; want 6 calls (5 failures, then success) and one event", rec.calls, len(rec.events))
	}
	for _, id := range rec.ids {
		if id != rec.ids[0] {
			t.Fatalf("ids = %v, want the same id on every attempt", rec.ids)
		}
	}
	log, err := e.store.OutboxDeliveries(context.Background(), 0, ep.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || log[0].Status != outbox.StatusDelivered || log[0].Attempts != 6 || log[0].ResponseCode != 200 {
		t.Fatalf("delivery log = %+v, want one delivered after 6 attempts", log)
	}
	// Redelivery on demand sends it once more, with the same id.
	if err := e.store.RedeliverOutbox(context.Background(), log[0].ID, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	e.process(t)
	if rec.calls != 7 || rec.ids[6] != rec.ids[0] {
		t.Fatalf("after redelivery: calls %d, ids %v", rec.calls, rec.ids)
	}
}

// TestDeadEndpointPausedHostToldResumeReplays: an endpoint whose attempts
// all fail is paused once PauseFailures of them in a row span PauseSpan
// (about four hours of retries of one delivery, not five deliveries of a
// day each), and the host gets one e-mail naming it. While paused, its
// deliveries are held without an attempt; resumed with a replay, the
// endpoint gets each of them once.
func TestDeadEndpointPausedHostToldResumeReplays(t *testing.T) {
	e := newEnv(t)
	mailer := &notifytest.Mailer{}
	e.worker.Mailer = mailer
	if err := e.store.SetContactEmail(context.Background(), e.orgs["demo"], "host@example.com"); err != nil {
		t.Fatal(err)
	}
	rec, ep := newReceiver(t, e, 1<<30)
	e.book(t, "demo", "fr")
	var got *outbox.Endpoint
	for i := 0; i < 40; i++ {
		e.process(t)
		var err error
		if got, err = e.store.WebhookEndpoint(context.Background(), e.orgs["demo"], ep.ID); err != nil {
			t.Fatal(err)
		}
		if got.Paused() {
			break
		}
		e.clock.Advance(outbox.Backoff(i + 1))
	}
	if !got.Paused() || got.Failures != outbox.PauseFailures || rec.calls != outbox.PauseFailures || !got.Active {
		t.Fatalf("endpoint %+v after %d calls: want paused (still active) after %d failed attempts", got, rec.calls, outbox.PauseFailures)
	}
	if took := got.PausedAt.Sub(start); took < outbox.PauseSpan || took > 5*time.Hour {
		t.Errorf("paused %v after the first failure, want between PauseSpan and five hours", took)
	}
	e.process(t) // the event telling the host is dispatched and mailed
	told := mailer.OfKind(outbox.KindEndpointPaused)
	if len(told) != 1 || told[0].To != "host@example.com" || !strings.Contains(told[0].Text, ep.URL) ||
		!strings.Contains(told[0].Text, "/resume") || !strings.Contains(told[0].Text, "503") {
		t.Fatalf("host told %+v, want one e-mail naming the endpoint, its last error and how to resume", told)
	}

	// Paused: a new event is kept for it, not sent.
	calls := rec.calls
	e.bookAsOn(t, "demo", "en", "ada@example.com", "2026-06-20", "2026-06-23")
	e.clock.Advance(3 * time.Hour)
	e.process(t)
	if rec.calls != calls {
		t.Errorf("a paused endpoint was called")
	}
	log, err := e.store.OutboxDeliveries(context.Background(), 0, ep.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range log {
		if d.Status != outbox.StatusFailed || !strings.Contains(d.LastError, "paused") {
			t.Errorf("delivery %+v while paused, want held (failed, saying the endpoint is paused)", d)
		}
	}
	if len(mailer.OfKind(outbox.KindEndpointPaused)) != 1 {
		t.Errorf("the host was told %d times of one pause", len(mailer.OfKind(outbox.KindEndpointPaused)))
	}

	// The receiver is back: resumed with a replay, it gets both events once.
	rec.mu.Lock()
	rec.failFirst = rec.calls
	rec.mu.Unlock()
	resumed, replayed, err := e.store.ResumeWebhookEndpoint(context.Background(), e.orgs["demo"], ep.ID, true, e.clock.Now())
	if err != nil || replayed != 2 || resumed.Paused() || resumed.Failures != 0 {
		t.Fatalf("resume: %+v, %d replayed, %v; want 2 replayed and the pause cleared", resumed, replayed, err)
	}
	e.process(t)
	if len(rec.events) != 2 || rec.events[0].ID == rec.events[1].ID {
		t.Fatalf("after the replay the receiver accepted %d events, want the 2 it missed, once each", len(rec.events))
	}
}

// TestMailFailsAfterTheRetryWindow: a delivery that keeps failing is
// retried with backoff for RetryWindow, then fails for good.
func TestMailFailsAfterTheRetryWindow(t *testing.T) {
	e := newEnv(t)
	e.worker.Mailer = failingMailer{}
	e.book(t, "demo", "fr")
	for e.clock.Now().Before(start.Add(outbox.RetryWindow + 2*time.Hour)) {
		e.process(t)
		e.clock.Advance(time.Hour)
	}
	log, err := e.store.OutboxDeliveries(context.Background(), 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || log[0].Status != outbox.StatusFailed || log[0].Attempts < 10 || !strings.Contains(log[0].LastError, "smtp down") {
		t.Fatalf("delivery log %+v, want the mail failed for good after a day of attempts", log)
	}
}

// failingMailer is an SMTP server that refuses every mail.
type failingMailer struct{}

func (failingMailer) Send(context.Context, notify.Mail) error { return errors.New("smtp down") }

// TestWebhookClientRefusesWhatFeedsRefuse: the webhook client dials
// through the one outbound policy, so every address the feed fetcher
// refuses is refused before connecting: the ranges the sender used to
// reach (carrier-grade NAT, IETF assignments, benchmarking, reserved,
// "this network"), NAT64 and IPv4-compatible spellings of loopback and
// link-local, and the private ones; plain http too.
func TestWebhookClientRefusesWhatFeedsRefuse(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	c := notify.NewWebhookClient(notify.WebhookOptions{})
	for _, url := range []string{srv.URL, strings.Replace(srv.URL, "https", "http", 1), "https://localhost:1/x",
		"https://10.0.0.1:1/x", "https://100.64.0.1/x", "https://100.100.100.200/latest/meta-data", "https://192.0.0.1/x",
		"https://198.18.0.1/x", "https://240.0.0.1/x", "https://0.0.0.1/x", "https://[64:ff9b::7f00:1]/x",
		"https://[64:ff9b::a9fe:a9fe]/latest/meta-data", "https://[::127.0.0.1]/x", "https://[::ffff:7f00:1]/x",
		"https://[::ffff:169.254.169.254]/x", "https://[fd00::1]/x"} {
		ep := outbox.Endpoint{URL: url, Secret: outbox.NewSecret()}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		code, err := c.Post(ctx, ep, "evt_1", time.Now(), []byte(`{}`))
		cancel()
		if !errors.Is(err, outbound.ErrRefused) || code != 0 {
			t.Errorf("post to %s: code %d, err %v; want refused by the outbound policy before any request", url, code, err)
		}
	}
}

// TestPrivateEndpointAnswerNotLogged: the delivery log keeps the start of
// a public receiver's failed answer, never that of an endpoint on a
// private address (one the operator allowed): it could be an internal
// service's page.
func TestPrivateEndpointAnswerNotLogged(t *testing.T) {
	e := newEnv(t)
	srv := newHTTPServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "internal service: db password hunter2", http.StatusInternalServerError)
	}))
	ep := e.addEndpoint(t, "demo", srv)
	e.book(t, "demo", "en")
	e.process(t)
	log, err := e.store.OutboxDeliveries(context.Background(), 0, ep.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || log[0].ResponseCode != 500 || log[0].LastError == "" || strings.Contains(log[0].LastError, "hunter2") {
		t.Fatalf("delivery log %+v: want the 500 recorded without the answer's text", log)
	}
}

func TestRedirectNotFollowed(t *testing.T) {
	target := 0
	dst := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { target++ }))
	defer dst.Close()
	src := httptest.NewServer(http.RedirectHandler(dst.URL, http.StatusTemporaryRedirect))
	defer src.Close()
	c := notify.NewWebhookClient(notify.WebhookOptions{Policy: outbound.Policy{AllowPrivate: true}})
	code, err := c.Post(context.Background(), outbox.Endpoint{URL: src.URL, Secret: outbox.NewSecret()}, "evt_1", time.Now(), []byte(`{}`))
	if err == nil || code != http.StatusTemporaryRedirect || target != 0 {
		t.Fatalf("code %d, err %v, redirect target called %d times; want the redirect as a failure", code, err, target)
	}
}

// fixedClock tells one time.
type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

// webhook-timestamp follows SignClock when one is set (the wall clock of a
// server whose Clock runs ahead, as the sandbox's), else Clock.
func TestWebhookTimestampClock(t *testing.T) {
	for _, tc := range []struct {
		name string
		sign booking.Clock
		want string
	}{
		{"Clock", nil, "1780300800"},
		{"SignClock", fixedClock(time.Unix(1700000000, 0)), "1700000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.worker.SignClock = tc.sign
			rec, _ := newReceiver(t, e, 0)
			e.book(t, "demo", "en")
			e.process(t)
			if len(rec.headers) != 1 || rec.rejected != 0 {
				t.Fatalf("%d calls, %d rejected; want one verified", len(rec.headers), rec.rejected)
			}
			if got := rec.headers[0].Get("webhook-timestamp"); got != tc.want {
				t.Errorf("webhook-timestamp = %s, want %s", got, tc.want)
			}
		})
	}
}
