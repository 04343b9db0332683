package notify_test

import (
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

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notify"
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
	r.events = append(r.events, ev)
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
	log, err := e.store.OutboxDeliveries(context.Background(), 0, ep.ID, 0)
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

func TestWebhookFailsAfterADayAndEndpointDisabled(t *testing.T) {
	e := newEnv(t)
	rec, ep := newReceiver(t, e, 1<<30)
	for i := 0; i < outbox.MaxEndpointFailures; i++ {
		b := e.book(t, "demo", "fr")
		if _, err := e.svc.Cancel(context.Background(), "demo", b.Token, true); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 40 && e.clock.Now().Before(start.Add(25*time.Hour)); i++ {
		e.process(t)
		e.clock.Advance(time.Hour)
	}
	e.process(t)
	got, err := e.store.WebhookEndpoint(context.Background(), e.orgs["demo"], ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Active || got.Failures < outbox.MaxEndpointFailures {
		t.Fatalf("endpoint = %+v, want disabled after %d failures", got, outbox.MaxEndpointFailures)
	}
	log, _ := e.store.OutboxDeliveries(context.Background(), 0, ep.ID, 0)
	for _, d := range log {
		if d.Status != outbox.StatusFailed || d.ResponseCode != http.StatusServiceUnavailable {
			t.Fatalf("delivery %+v, want failed with 503", d)
		}
	}
	calls := rec.calls
	e.book(t, "demo", "fr")
	e.process(t)
	if rec.calls != calls {
		t.Errorf("a disabled endpoint was called")
	}
}

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
	log, err := e.store.OutboxDeliveries(context.Background(), 0, ep.ID, 0)
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
