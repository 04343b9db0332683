package hostapi_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/ratelimit"
)

// withChannels rebuilds e's handlers with channels that may reach
// loopback test servers (feeds and webhook receivers), as the icalsync
// and notify tests do.
func withChannels(e *env) *env {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	limiter := ratelimit.NewMemory(ratelimit.MemoryOptions{Now: e.clock.Now})
	for _, r := range e.replicas {
		syncer := icalsync.New(icalsync.Options{Store: r.store, Clock: e.clock, Logger: logger,
			Fetcher: &icalsync.Fetcher{Policy: outbound.Policy{AllowPrivate: true}, Timeout: 5 * time.Second}})
		ch := r.host.Channels(host.ChannelOptions{Syncer: syncer, WebhookPolicy: outbound.Policy{AllowPrivate: true}})
		mux := http.NewServeMux()
		mux.Handle("/api/", httpapi.New(httpapi.Options{Service: r.svc, Money: r.money, Logger: logger, Limiter: limiter}))
		mux.Handle(hostapi.Prefix, hostapi.New(hostapi.Options{Host: r.host, Logger: logger, Limiter: limiter, Clock: e.clock,
			Channels: ch, PublicURL: "https://book.example.com/"}))
		r.server = mux
	}
	return e
}

// withoutChannels is e with the host API's default channels: the fetcher
// and webhook checks a server has without options.
func withoutChannels(e *env) *env {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	r := *e.replicas[0]
	mux := http.NewServeMux()
	mux.Handle("/api/", httpapi.New(httpapi.Options{Service: r.svc, Money: r.money, Logger: logger}))
	mux.Handle(hostapi.Prefix, hostapi.New(hostapi.Options{Host: r.host, Logger: logger, Clock: e.clock}))
	r.server = mux
	s := *e
	s.replicas = []*replica{&r}
	return &s
}

func forEachChannelStore(t *testing.T, run func(t *testing.T, e *env)) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) { run(t, withChannels(newEnv(t, open(t, 1)))) })
	}
}

// feedServer serves an iCal feed whose body the test may change.
type feedServer struct {
	mu   sync.Mutex
	body string
	*httptest.Server
}

func newFeedServer(t *testing.T, body string) *feedServer {
	f := &feedServer{body: body}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.body == "" {
			http.Error(w, "gone", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/calendar")
		io.WriteString(w, f.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *feedServer) set(body string) { f.mu.Lock(); f.body = body; f.mu.Unlock() }

func icsEvents(events ...[3]string) string {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n")
	for _, ev := range events {
		fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:%s\r\nDTSTART;VALUE=DATE:%s\r\nDTEND;VALUE=DATE:%s\r\nSUMMARY:Reserved\r\nEND:VEVENT\r\n",
			ev[0], strings.ReplaceAll(ev[1], "-", ""), strings.ReplaceAll(ev[2], "-", ""))
	}
	b.WriteString("END:VCALENDAR\r\n")
	return b.String()
}

func availableOn(t *testing.T, e *env, prop int64, date string) bool {
	t.Helper()
	avail := fmt.Sprintf("/api/v1/book/villa/properties/%d/availability?from=%s&months=1", prop, date[:7])
	body := string(e.do("villa", req{method: "GET", path: avail}).body)
	switch {
	case strings.Contains(body, `{"date":"`+date+`","available":true`):
		return true
	case strings.Contains(body, `{"date":"`+date+`","available":false`):
		return false
	}
	t.Fatalf("no day %s in %s", date, body)
	return false
}

func TestFeedsThroughTheAPI(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		feeds := hostPath("villa", fmt.Sprintf("/properties/%d/feeds", soleil))
		src := newFeedServer(t, icsEvents([3]string{"airbnb-1", "2026-08-09", "2026-08-12"}))
		if !availableOn(t, e, soleil, "2026-08-10") {
			t.Fatal("2026-08-10 not available before the feed")
		}

		// Added: fetched at once, its event blocks the public calendar.
		created := e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "Airbnb", "url": src.URL}})
		want(t, created, http.StatusCreated)
		f := created.data(t)
		if f["events_imported"] != 1.0 || f["last_success_at"] == nil || f["last_error"] != nil || f["active"] != true {
			t.Errorf("new feed status: %v", f)
		}
		if availableOn(t, e, soleil, "2026-08-10") {
			t.Error("2026-08-10 still available after the feed was added")
		}
		feed := fmt.Sprintf("%s/%v", feeds, f["id"])
		// The host's calendar names the channel on the event's nights,
		// apart from owner blocks.
		cal := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d/calendar?from=2026-08-08&to=2026-08-13", soleil))})
		want(t, cal, http.StatusOK)
		for i, d := range cal.data(t)["days"].([]any) {
			d := d.(map[string]any)
			imported := i >= 1 && i <= 3 // the nights of 08-09, 08-10, 08-11
			if (d["channel"] == "Airbnb") != imported || (d["feed_id"] == f["id"]) != imported || d["block_id"] != nil {
				t.Errorf("calendar %v: channel %v feed %v block %v; want the Airbnb feed on its nights only", d["date"], d["channel"], d["feed_id"], d["block_id"])
			}
		}

		list := e.do("villa", req{method: "GET", path: feeds + "?limit=1"})
		want(t, list, http.StatusOK)
		if items := list.data(t)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["url"] != src.URL {
			t.Errorf("feeds: %s", list.body)
		}

		// Sync now: a failure is an outcome, recorded as the last error.
		src.set("")
		failed := e.do("villa", req{method: "POST", path: feed + "/sync"})
		want(t, failed, http.StatusOK)
		out := failed.data(t)
		if out["outcome"].(map[string]any)["error"] == nil || out["feed"].(map[string]any)["last_error"] == nil {
			t.Errorf("failed sync: %s", failed.body)
		}
		if availableOn(t, e, soleil, "2026-08-10") {
			t.Error("a failed fetch freed the nights")
		}
		// The event moves, and a second one overlaps a booking: a conflict.
		bookingID := e.paidBooking("villa", "soleil", "2026-09-01", "2026-09-04")
		src.set(icsEvents([3]string{"airbnb-1", "2026-08-20", "2026-08-22"}, [3]string{"airbnb-2", "2026-09-02", "2026-09-03"}))
		synced := e.do("villa", req{method: "POST", path: feed + "/sync"})
		want(t, synced, http.StatusOK)
		o := synced.data(t)["outcome"].(map[string]any)
		conflicts := o["conflicts"].([]any)
		if o["error"] != nil || o["events"] != 2.0 || o["moved"] != 1.0 || len(conflicts) != 1 ||
			conflicts[0].(map[string]any)["booking_id"] != float64(bookingID) {
			t.Errorf("sync outcome: %s", synced.body)
		}
		if fc := synced.data(t)["feed"].(map[string]any)["conflicts"].([]any); len(fc) != 1 {
			t.Errorf("feed conflicts: %v", fc)
		}
		if !availableOn(t, e, soleil, "2026-08-10") || availableOn(t, e, soleil, "2026-08-21") {
			t.Error("the moved event did not move its block")
		}

		// Changed, then removed: its nights are free again.
		patched := e.do("villa", req{method: "PATCH", path: feed, body: map[string]any{"name": "Airbnb (main)", "active": false, "end_is_last_night": true}})
		want(t, patched, http.StatusOK)
		if p := patched.data(t); p["name"] != "Airbnb (main)" || p["active"] != false || p["end_is_last_night"] != true || p["next_poll_at"] != nil {
			t.Errorf("patched: %v", p)
		}
		want(t, e.do("villa", req{method: "DELETE", path: feed}), http.StatusNoContent)
		if !availableOn(t, e, soleil, "2026-08-21") {
			t.Error("2026-08-21 still blocked after the feed was removed")
		}
		want(t, e.do("villa", req{method: "DELETE", path: feed}), http.StatusNotFound, "not_found")

		// Audited with before and after.
		auditLog := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log")})
		audit := string(auditLog.body)
		for _, action := range []string{"feed.create", "feed.sync", "feed.update", "feed.delete"} {
			if !strings.Contains(audit, `"action":"`+action+`"`) {
				t.Errorf("no %s in the audit log: %s", action, audit)
			}
		}
		for _, it := range auditLog.data(t)["items"].([]any) {
			entry := it.(map[string]any)
			if entry["action"] != "feed.update" {
				continue
			}
			before, _ := entry["before"].(map[string]any)
			after, _ := entry["after"].(map[string]any)
			if before["name"] != "Airbnb" || after["name"] != "Airbnb (main)" || after["active"] != false {
				t.Errorf("feed.update audited as %v → %v", before, after)
			}
		}
	})
}

func TestFeedFailures(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		soleil, bastide := e.props["soleil"], e.props["bastide"]
		feeds := hostPath("villa", fmt.Sprintf("/properties/%d/feeds", soleil))
		src := newFeedServer(t, icsEvents())
		want(t, e.do("villa", req{method: "GET", path: feeds, key: "-"}), http.StatusUnauthorized, "unauthorized")
		want(t, e.do("villa", req{method: "GET", path: feeds, key: e.keys["other"]}), http.StatusForbidden, "forbidden")
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d/feeds", bastide))}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "GET", path: feeds + "?limit=0"}), http.StatusUnprocessableEntity, "invalid")

		bad := e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "", "url": "ftp://x"}})
		want(t, bad, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(string(bad.body), `"name"`) || !strings.Contains(string(bad.body), `"url"`) {
			t.Errorf("422 without its fields: %s", bad.body)
		}
		want(t, e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "x", "url": src.URL, "colour": "red"}}),
			http.StatusUnprocessableEntity, "invalid")

		created := e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "Vrbo", "url": src.URL}})
		want(t, created, http.StatusCreated)
		id := created.data(t)["id"]
		// Another organisation's feed, or under another property, does not exist.
		want(t, e.do("villa", req{method: "PATCH", path: fmt.Sprintf("%s/%v", feeds, id), body: map[string]any{"url": "nope"}}),
			http.StatusUnprocessableEntity, "invalid")
		other := e.do("other", req{method: "PATCH", path: hostPath("other", fmt.Sprintf("/properties/%d/feeds/%v", bastide, id)), body: map[string]any{"name": "x"}})
		want(t, other, http.StatusNotFound, "not_found")
		if !strings.Contains(string(other.body), "Ce calendrier importé n'existe pas") {
			t.Errorf("404 of a feed in French: %s", other.body)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/properties/%d/feeds/999999/sync", soleil))}), http.StatusNotFound, "not_found")

		// The default fetcher refuses loopback: the API refuses such a URL
		// when it is given, saying why, and stores nothing.
		strict := withoutChannels(e)
		loop := strict.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "local", "url": src.URL}})
		want(t, loop, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(string(loop.body), `"https_required"`) || !strings.Contains(string(loop.body), "https://") {
			t.Errorf("a plain http loopback feed with the default fetcher: %s", loop.body)
		}
		loop = strict.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "local",
			"url": strings.Replace(src.URL, "http://", "https://", 1)}})
		want(t, loop, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(string(loop.body), `"private_address"`) {
			t.Errorf("an https loopback feed with the default fetcher: %s", loop.body)
		}

		// Idempotency-Key replays the creation.
		hdr := map[string]string{"Idempotency-Key": "feed-1"}
		first := e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "Booking", "url": src.URL}, header: hdr})
		again := e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "Booking", "url": src.URL}, header: hdr})
		want(t, again, http.StatusCreated)
		if again.header.Get("Idempotent-Replayed") != "true" || first.data(t)["id"] != again.data(t)["id"] {
			t.Errorf("replay: %s / %s", first.body, again.body)
		}
		want(t, e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "Other", "url": src.URL}, header: hdr}),
			http.StatusConflict, "conflict")
	})
}

func TestCalendarExportURL(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		ical := hostPath("villa", fmt.Sprintf("/properties/%d/ical", soleil))
		got := e.do("villa", req{method: "GET", path: ical})
		want(t, got, http.StatusOK)
		url := got.data(t)["url"].(string)
		if !strings.HasPrefix(url, "https://book.example.com/ical/") || !strings.HasSuffix(url, ".ics") {
			t.Fatalf("export URL %q", url)
		}
		if again := e.do("villa", req{method: "GET", path: ical}).data(t)["url"]; again != url {
			t.Errorf("the URL changed without a rotation: %v", again)
		}
		// Each unit's calendar (issue #27) is the property's URL with its
		// unit.
		units := got.data(t)["units"].([]any)
		if len(units) != 1 || units[0].(map[string]any)["url"] != fmt.Sprintf("%s?unit=%v", url, units[0].(map[string]any)["unit_id"]) {
			t.Errorf("the units' calendars: %v", units)
		}
		token := strings.TrimSuffix(strings.TrimPrefix(url, "https://book.example.com/ical/"), ".ics")
		rotated := e.do("villa", req{method: "POST", path: ical + "/rotate"})
		want(t, rotated, http.StatusOK)
		if rotated.data(t)["url"] == url {
			t.Error("rotation kept the URL")
		}
		if _, err := e.replicas[0].store.ExportTokenByValue(t.Context(), token); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("the old token still works: %v", err)
		}
		audit := string(e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log")}).body)
		if !strings.Contains(audit, `"action":"ical.rotate"`) || strings.Contains(audit, token) {
			t.Errorf("rotation audit (must not hold the token): %s", audit)
		}
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d/ical", e.props["bastide"]))}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "POST", path: ical + "/rotate", key: e.keys["other"]}), http.StatusForbidden, "forbidden")
		want(t, e.do("villa", req{method: "GET", path: ical, key: "-"}), http.StatusUnauthorized, "unauthorized")
	})
}

// TestCalendarExportURLFromConfigurationOnly: the export URL is built on
// Options.PublicURL whatever Host the request names; without a public URL
// it is not shown at all (503 not_configured), since a Host header is the
// client's to choose.
func TestCalendarExportURLFromConfigurationOnly(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		ical := hostPath("villa", fmt.Sprintf("/properties/%d/ical", e.props["soleil"]))
		forged := map[string]string{"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
		got := e.do("villa", req{method: "GET", path: ical, header: forged})
		want(t, got, http.StatusOK)
		if url := got.data(t)["url"].(string); !strings.HasPrefix(url, "https://book.example.com/ical/") {
			t.Errorf("export URL %q, want it on the public URL", url)
		}

		bare := withoutChannels(e)
		for _, r := range []req{{method: "GET", path: ical, header: forged}, {method: "POST", path: ical + "/rotate", header: forged}} {
			got := bare.do("villa", r)
			want(t, got, http.StatusServiceUnavailable, "not_configured")
			if strings.Contains(string(got.body), "evil.example") || strings.Contains(string(got.body), "/ical/") {
				t.Errorf("%s without a public URL: %s", r.method, got.body)
			}
		}
	})
}

// receiver records webhook requests whose Standard Webhooks signature
// checks with its secret.
type receiver struct {
	mu       sync.Mutex
	secret   string
	verified []map[string]any
	rejected int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(rc.secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(r.Header.Get("webhook-id") + "." + r.Header.Get("webhook-timestamp") + "." + string(body)))
	sig := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if err != nil || !strings.Contains(" "+r.Header.Get("webhook-signature")+" ", " "+sig+" ") {
		rc.rejected++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var ev map[string]any
	json.Unmarshal(body, &ev)
	rc.verified = append(rc.verified, ev)
}

func (rc *receiver) count() (verified, rejected int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.verified), rc.rejected
}

func TestWebhooksThroughTheAPI(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		rc := &receiver{}
		srv := httptest.NewServer(rc)
		t.Cleanup(srv.Close)
		hooks := hostPath("villa", "/webhooks")
		created := e.do("villa", req{method: "POST", path: hooks, body: map[string]any{"url": srv.URL, "event_types": []string{"booking.confirmed"}}})
		want(t, created, http.StatusCreated)
		w := created.data(t)
		secret, _ := w["secret"].(string)
		if !strings.HasPrefix(secret, "whsec_") || w["active"] != true {
			t.Fatalf("created: %s", created.body)
		}
		rc.mu.Lock()
		rc.secret = secret
		rc.mu.Unlock()
		hook := fmt.Sprintf("%s/%v", hooks, w["id"])

		list := e.do("villa", req{method: "GET", path: hooks})
		want(t, list, http.StatusOK)
		if strings.Contains(string(list.body), secret) || strings.Contains(string(list.body), `"secret"`) {
			t.Errorf("the list shows the secret: %s", list.body)
		}

		// A confirmed booking reaches the endpoint, signed.
		worker := &notify.Worker{Store: e.replicas[0].store, Clock: e.clock,
			Webhooks: notify.NewWebhookClient(notify.WebhookOptions{Policy: outbound.Policy{AllowPrivate: true}}),
			Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
			BookingURL: func(org *booking.Organization, b *booking.Booking) string {
				return "https://book.example.com/?booking=" + b.Token
			}}
		bookingID := e.paidBooking("villa", "soleil", "2026-07-01", "2026-07-04")
		if _, err := worker.Process(t.Context()); err != nil {
			t.Fatal(err)
		}
		if v, rej := rc.count(); v != 1 || rej != 0 {
			t.Fatalf("receiver: %d verified, %d rejected; want 1, 0", v, rej)
		}
		rc.mu.Lock()
		ev := rc.verified[0]
		rc.mu.Unlock()
		if ev["type"] != "booking.confirmed" {
			t.Errorf("event: %v (booking %d)", ev, bookingID)
		}

		// The delivery log, then a redelivery.
		log := e.do("villa", req{method: "GET", path: hook + "/deliveries"})
		want(t, log, http.StatusOK)
		items := log.data(t)["items"].([]any)
		if len(items) != 1 {
			t.Fatalf("deliveries: %s", log.body)
		}
		d := items[0].(map[string]any)
		if d["status"] != "delivered" || d["event_type"] != "booking.confirmed" || d["response_code"] != 200.0 {
			t.Errorf("delivery: %v", d)
		}
		red := e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/webhooks/deliveries/%v/redeliver", d["id"]))})
		want(t, red, http.StatusOK)
		if r := red.data(t); r["status"] != "pending" || r["attempts"] != 0.0 {
			t.Errorf("redelivered: %v", r)
		}
		if _, err := worker.Process(t.Context()); err != nil {
			t.Fatal(err)
		}
		if v, _ := rc.count(); v != 2 {
			t.Errorf("after the redelivery the receiver has %d verified, want 2", v)
		}

		// Rotated: the old secret no longer verifies, the new one does.
		rot := e.do("villa", req{method: "POST", path: hook + "/rotate-secret"})
		want(t, rot, http.StatusOK)
		newSecret := rot.data(t)["secret"].(string)
		if newSecret == secret || !strings.HasPrefix(newSecret, "whsec_") {
			t.Fatalf("rotated secret %q", newSecret)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/webhooks/deliveries/%v/redeliver", d["id"]))}), http.StatusOK)
		worker.Process(t.Context())
		if _, rej := rc.count(); rej != 1 {
			t.Errorf("a delivery signed with the new secret verified with the old one (%d rejected)", rej)
		}

		// Changed, disabled, re-enabled, removed.
		p := e.do("villa", req{method: "PATCH", path: hook, body: map[string]any{"event_types": []string{}, "active": false}})
		want(t, p, http.StatusOK)
		if pd := p.data(t); pd["active"] != false || len(pd["event_types"].([]any)) != 0 || strings.Contains(string(p.body), "whsec_") {
			t.Errorf("patched: %s", p.body)
		}
		want(t, e.do("villa", req{method: "DELETE", path: hook}), http.StatusNoContent)
		want(t, e.do("villa", req{method: "GET", path: hook + "/deliveries"}), http.StatusNotFound, "not_found")

		audit := string(e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=100")}).body)
		for _, action := range []string{"webhook.create", "webhook.redeliver", "webhook.rotate_secret", "webhook.disable", "webhook.delete"} {
			if !strings.Contains(audit, `"action":"`+action+`"`) {
				t.Errorf("no %s in the audit log", action)
			}
		}
		if strings.Contains(audit, "whsec_") {
			t.Error("a secret in the audit log")
		}
	})
}

func TestWebhookFailures(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		hooks := hostPath("villa", "/webhooks")
		want(t, e.do("villa", req{method: "GET", path: hooks, key: "-"}), http.StatusUnauthorized, "unauthorized")
		want(t, e.do("villa", req{method: "POST", path: hooks, key: e.keys["other"], body: map[string]any{"url": "https://x.example"}}), http.StatusForbidden, "forbidden")
		want(t, e.do("villa", req{method: "POST", path: hooks, body: map[string]any{"url": "ftp://x.example"}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "POST", path: hooks, body: map[string]any{}}), http.StatusUnprocessableEntity, "invalid")
		bad := e.do("villa", req{method: "POST", path: hooks, body: map[string]any{"url": "https://x.example", "event_types": []string{"booking.exploded"}}})
		want(t, bad, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(string(bad.body), "event_types") {
			t.Errorf("422 without its field: %s", bad.body)
		}
		other := e.do("other", req{method: "POST", path: hostPath("other", "/webhooks"), body: map[string]any{"url": "https://hooks.example"}})
		want(t, other, http.StatusCreated)
		id := other.data(t)["id"]
		// Another organisation's endpoint does not exist here.
		want(t, e.do("villa", req{method: "PATCH", path: fmt.Sprintf("%s/%v", hooks, id), body: map[string]any{"active": false}}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "DELETE", path: fmt.Sprintf("%s/%v", hooks, id)}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "POST", path: fmt.Sprintf("%s/%v/rotate-secret", hooks, id)}), http.StatusNotFound, "not_found")
		en := e.do("villa", req{method: "GET", path: fmt.Sprintf("%s/%v/deliveries?locale=en", hooks, id)})
		want(t, en, http.StatusNotFound, "not_found")
		if !strings.Contains(string(en.body), "This webhook endpoint does not exist") {
			t.Errorf("404 of an endpoint: %s", en.body)
		}
		want(t, e.do("villa", req{method: "POST", path: hooks + "/deliveries/999999/redeliver"}), http.StatusNotFound, "not_found")
		// Plain http is refused unless the server allows private receivers.
		strict := withoutChannels(e)
		want(t, strict.do("villa", req{method: "POST", path: hooks, body: map[string]any{"url": "http://127.0.0.1:9/hook"}}), http.StatusUnprocessableEntity, "invalid")
		// Pagination by cursor.
		for i := range 3 {
			want(t, e.do("villa", req{method: "POST", path: hooks, body: map[string]any{"url": fmt.Sprintf("https://h%d.example", i)}}), http.StatusCreated)
		}
		p1 := e.do("villa", req{method: "GET", path: hooks + "?limit=2"})
		want(t, p1, http.StatusOK)
		next, _ := p1.data(t)["next_cursor"].(string)
		p2 := e.do("villa", req{method: "GET", path: hooks + "?limit=2&cursor=" + next})
		if next == "" || len(p2.data(t)["items"].([]any)) != 1 || p2.data(t)["next_cursor"] != nil {
			t.Errorf("pages: %s / %s", p1.body, p2.body)
		}
	})
}

// TestWebhookPausedShownAndResumed: an endpoint whose attempts keep
// failing shows as paused in the host API (paused_at, its failures in a
// row since failing_since); resumed with a replay, it gets what it missed.
func TestWebhookPausedShownAndResumed(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		rc := &receiver{} // no secret yet: it refuses every delivery
		srv := httptest.NewServer(rc)
		t.Cleanup(srv.Close)
		hooks := hostPath("villa", "/webhooks")
		created := e.do("villa", req{method: "POST", path: hooks, body: map[string]any{"url": srv.URL}})
		want(t, created, http.StatusCreated)
		w := created.data(t)
		if w["paused_at"] != nil || w["failing_since"] != nil {
			t.Errorf("a new endpoint: %s", created.body)
		}
		hook := fmt.Sprintf("%s/%v", hooks, w["id"])
		worker := &notify.Worker{Store: e.replicas[0].store, Clock: e.clock,
			Webhooks: notify.NewWebhookClient(notify.WebhookOptions{Policy: outbound.Policy{AllowPrivate: true}}),
			Logger:   slog.New(slog.NewTextHandler(io.Discard, nil))}
		e.paidBooking("villa", "soleil", "2026-07-01", "2026-07-04")
		var shown map[string]any
		for i := 0; i < 40; i++ {
			if _, err := worker.Process(t.Context()); err != nil {
				t.Fatal(err)
			}
			shown = e.do("villa", req{method: "GET", path: hooks}).data(t)["items"].([]any)[0].(map[string]any)
			if shown["paused_at"] != nil {
				break
			}
			e.clock.Advance(outbox.Backoff(i + 1))
		}
		if shown["paused_at"] == nil || shown["failing_since"] == nil || shown["failures"] != float64(outbox.PauseFailures) || shown["active"] != true {
			t.Fatalf("endpoint after its failures: %v, want paused", shown)
		}

		other := e.do("other", req{method: "POST", path: hostPath("other", "/webhooks"), body: map[string]any{"url": "https://hooks.example"}})
		want(t, e.do("villa", req{method: "POST", path: fmt.Sprintf("%s/%v/resume", hooks, other.data(t)["id"])}), http.StatusNotFound, "not_found")
		want(t, e.do("villa", req{method: "POST", path: hook + "/resume", body: map[string]any{"replay": "yes"}}), http.StatusUnprocessableEntity, "invalid")

		rc.mu.Lock()
		rc.secret = w["secret"].(string)
		rc.mu.Unlock()
		res := e.do("villa", req{method: "POST", path: hook + "/resume", body: map[string]any{"replay": true}})
		want(t, res, http.StatusOK)
		if r := res.data(t); r["paused_at"] != nil || r["failures"] != 0.0 || r["failing_since"] != nil || r["replayed"] != 1.0 {
			t.Fatalf("resumed: %s", res.body)
		}
		if _, err := worker.Process(t.Context()); err != nil {
			t.Fatal(err)
		}
		if v, _ := rc.count(); v != 1 {
			t.Errorf("after the replay the receiver verified %d deliveries, want 1", v)
		}
		audit := string(e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=100")}).body)
		if !strings.Contains(audit, `"action":"webhook.resume"`) {
			t.Error("no webhook.resume in the audit log")
		}
	})
}

// TestFeedHealthAndExposure: each feed shows what its last sync did, how
// long it has been unchanged and its exposure window (poll interval with
// jitter + time since the last success + the channel's export delay);
// the property shows the worst of its active feeds, unknown while one
// never synced.
func TestFeedHealthAndExposure(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		propPath := hostPath("villa", fmt.Sprintf("/properties/%d", soleil))
		feeds := propPath + "/feeds"
		calendarSync := func() map[string]any {
			t.Helper()
			r := e.do("villa", req{method: "GET", path: propPath})
			want(t, r, http.StatusOK)
			return r.data(t)["calendar_sync"].(map[string]any)
		}
		// PollEvery: 15 minutes and a tenth of it of jitter.
		const pollEvery = 15*60 + 90
		if cs := calendarSync(); cs["feeds"] != 0.0 || cs["exposure_seconds"] != nil || cs["poll_every_seconds"] != float64(pollEvery) {
			t.Errorf("calendar_sync without feeds: %v", cs)
		}

		src := newFeedServer(t, icsEvents([3]string{"a", "2026-08-09", "2026-08-12"}, [3]string{"b", "2026-08-20", "2026-08-22"}))
		created := e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "Mine", "url": src.URL, "export_delay_seconds": 1800}})
		want(t, created, http.StatusCreated)
		f := created.data(t)
		first := e.clock.Now()
		if f["channel"] != "other" || f["export_delay_seconds"] != 1800.0 || f["export_delay_default"] != false ||
			f["last_added"] != 2.0 || f["last_removed"] != 0.0 || f["stale"] != false ||
			f["exposure_seconds"] != float64(pollEvery+1800) || f["unchanged_since"] != first.UTC().Format(time.RFC3339) {
			t.Errorf("new feed's health: %v", f)
		}
		feed := fmt.Sprintf("%s/%v", feeds, f["id"])

		// An hour on, the window has grown by the hour.
		e.clock.Advance(time.Hour)
		if cs := calendarSync(); cs["feeds"] != 1.0 || cs["exposure_seconds"] != float64(pollEvery+1800+3600) || cs["worst_feed_id"] != f["id"] {
			t.Errorf("calendar_sync an hour on: %v", cs)
		}
		// A sync that removes one: counted, the window shrinks back.
		src.set(icsEvents([3]string{"a", "2026-08-09", "2026-08-12"}))
		synced := e.do("villa", req{method: "POST", path: feed + "/sync"})
		want(t, synced, http.StatusOK)
		if g := synced.data(t)["feed"].(map[string]any); g["last_added"] != 0.0 || g["last_removed"] != 1.0 ||
			g["exposure_seconds"] != float64(pollEvery+1800) || g["unchanged_since"] != e.clock.Now().UTC().Format(time.RFC3339) {
			t.Errorf("feed after removing one: %v", g)
		}
		changed := e.clock.Now()

		// Back to the channel's default; an export delay out of range is
		// refused.
		patched := e.do("villa", req{method: "PATCH", path: feed, body: map[string]any{"export_delay_seconds": 0}})
		want(t, patched, http.StatusOK)
		if p := patched.data(t); p["export_delay_seconds"] != 3600.0 || p["export_delay_default"] != true {
			t.Errorf("feed back to the default delay: %v", p)
		}
		bad := e.do("villa", req{method: "PATCH", path: feed, body: map[string]any{"export_delay_seconds": 8 * 24 * 3600}})
		want(t, bad, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(string(bad.body), `"export_delay_seconds":["out_of_range"]`) {
			t.Errorf("export delay of 8 days: %s", bad.body)
		}

		// Fifteen days of syncs that change nothing: stale, unchanged
		// since the last change.
		e.clock.Advance(15 * 24 * time.Hour)
		synced = e.do("villa", req{method: "POST", path: feed + "/sync"})
		want(t, synced, http.StatusOK)
		if g := synced.data(t)["feed"].(map[string]any); g["stale"] != true || g["unchanged_since"] != changed.UTC().Format(time.RFC3339) || g["last_removed"] != 0.0 {
			t.Errorf("feed unchanged for 15 days: %v", g)
		}
		if cs := calendarSync(); cs["stale_feeds"] != 1.0 || cs["exposure_seconds"] != float64(pollEvery+3600) {
			t.Errorf("calendar_sync with a stale feed: %v", cs)
		}

		// A second feed that never synced: the window is unknown, and
		// that feed is named.
		down := newFeedServer(t, "")
		second := e.do("villa", req{method: "POST", path: feeds, body: map[string]any{"name": "Down", "url": down.URL}})
		want(t, second, http.StatusCreated)
		if s := second.data(t); s["exposure_seconds"] != nil || s["unchanged_since"] != nil || s["last_error"] == nil {
			t.Errorf("feed that never synced: %v", s)
		}
		if cs := calendarSync(); cs["feeds"] != 2.0 || cs["exposure_seconds"] != nil || cs["worst_feed_id"] != second.data(t)["id"] {
			t.Errorf("calendar_sync with a feed never synced: %v", cs)
		}
		// Inactive feeds have no window and do not count.
		want(t, e.do("villa", req{method: "PATCH", path: fmt.Sprintf("%s/%v", feeds, second.data(t)["id"]), body: map[string]any{"active": false}}), http.StatusOK)
		if cs := calendarSync(); cs["feeds"] != 1.0 || cs["exposure_seconds"] != float64(pollEvery+3600) {
			t.Errorf("calendar_sync once the feed that never synced is inactive: %v", cs)
		}
	})
}
