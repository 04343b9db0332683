package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// hookSink is a webhook receiver that checks Standard Webhooks signatures
// on its own and counts the events it accepted, by webhook-id.
type hookSink struct {
	mu       sync.Mutex
	secret   string
	accepted map[string]int
	types    map[string]string
	// refuse is how many signed deliveries to refuse (503, not counted)
	// before accepting; each refusal is sent on refused when it is set.
	refuse  int
	refused chan string
}

func (h *hookSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	defer h.mu.Unlock()
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(h.secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(r.Header.Get("webhook-id") + "." + r.Header.Get("webhook-timestamp") + "." + string(body)))
	if r.Header.Get("webhook-signature") != "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var ev struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}
	json.Unmarshal(body, &ev)
	if h.refuse > 0 {
		h.refuse--
		if h.refused != nil {
			h.refused <- ev.ID
		}
		http.Error(w, "try later", http.StatusServiceUnavailable)
		return
	}
	h.accepted[ev.ID]++
	h.types[ev.ID] = ev.Type
}

func (h *hookSink) snapshot() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string]int{}
	for k, v := range h.accepted {
		out[k] = v
	}
	return out
}

var secretLine = regexp.MustCompile(`signing secret \(shown once\): (whsec_\S+)`)

// TestOutboxSurvivesSIGKILL books and confirms on a server whose webhook
// receiver refuses the first attempt, kills the server with SIGKILL (no
// shutdown code runs) once that failure is recorded, and restarts it: the
// confirmation's webhook arrives exactly once, signed, at its retry.
func TestOutboxSurvivesSIGKILL(t *testing.T) {
	bin := buildBinary(t)
	db := sqlitetest.Path(t)
	sink := &hookSink{accepted: map[string]int{}, types: map[string]string{}, refuse: 1, refused: make(chan string, 1)}
	rs := httptest.NewServer(sink)
	defer rs.Close()

	p := startBinary(t, bin, db, "-webhooks-allow-private")
	p.waitLine(t, "price a stay")
	out, err := exec.Command(bin, "webhook", "add", "-db", db, "-org", "demo", "-url", rs.URL+"/hook", "-allow-private").CombinedOutput()
	m := secretLine.FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("webhook add: %v\n%s", err, out)
	}
	sink.mu.Lock()
	sink.secret = string(m[1])
	sink.mu.Unlock()

	ts := &testServer{URL: p.URL}
	co := checkout(t, ts, "demo", propertyIDs(t, ts, "demo")[0], 30, 3, 2)
	token := str(co, "booking_token")
	if r := call(t, "POST", p.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Raw)
	}
	if r := call(t, "POST", p.URL+"/api/v1/book/demo/booking/"+token+"/confirm", map[string]string{}, nil); r.Status != 200 {
		t.Fatalf("confirm: %d %s", r.Status, r.Raw)
	}
	select {
	case <-sink.refused:
	case <-time.After(20 * time.Second):
		t.Fatal("no delivery attempted in 20 s")
	}
	// The refusal is recorded (the delivery pending, retried later) and
	// its job put to sleep until the retry (no outbox job left running,
	// which only River's rescuer would take back, minutes later) before
	// the kill, so the restarted server owns the retry.
	failed := regexp.MustCompile(`(?m)^\d+\s+\d+\s+pending\s+1\s+503`)
	waitFor(t, func() bool {
		out, err := exec.Command(bin, "webhook", "deliveries", "-db", db, "-org", "demo", "-id", "1").CombinedOutput()
		return err == nil && failed.Match(out)
	})
	raw, err := sql.Open("sqlite", "file:"+db+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	waitFor(t, func() bool {
		var running int
		err := raw.QueryRow(`SELECT count(*) FROM river_job WHERE state = 'running'
			AND kind IN ('staykit.outbox_event', 'staykit.outbox_delivery')`).Scan(&running)
		return err == nil && running == 0
	})
	if err := p.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	p.wait(t)
	if got := sink.snapshot(); len(got) != 0 {
		t.Fatalf("accepted before the kill: %v (the receiver refused)", got)
	}

	p2 := startBinary(t, bin, db, "-webhooks-allow-private")
	p2.waitLine(t, "price a stay")
	// The retry is due outbox.Backoff(1), 30 s, after the refusal.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for len(sink.snapshot()) == 0 && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	// The workers run on: nothing is sent again.
	time.Sleep(time.Second)
	got := sink.snapshot()
	if len(got) != 1 {
		t.Fatalf("accepted events %v, want exactly one", got)
	}
	for id, n := range got {
		if n != 1 || sink.types[id] != "booking.confirmed" {
			t.Errorf("event %s (%s) accepted %d times, want booking.confirmed once", id, sink.types[id], n)
		}
	}
	// The guest's mail went out (to the log: no SMTP) from one of the
	// two processes — its own job, which may run after the webhook's —,
	// and neither logged the guest's address.
	mailed := func() bool {
		return strings.Contains(p.logs.String()+p2.logs.String(), "mail not sent: no SMTP server configured")
	}
	for deadline := time.Now().Add(30 * time.Second); !mailed() && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	logs := p.logs.String() + p2.logs.String()
	if strings.Contains(logs, "ada@example.com") {
		t.Errorf("the log shows the guest's e-mail:\n%s", logs)
	}
	if !mailed() {
		t.Errorf("the guest's mail is not in the log (no SMTP):\n%s", logs)
	}
}
