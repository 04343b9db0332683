package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/payment/paymenttest"
)

// hookSink is a webhook receiver that checks Standard Webhooks signatures
// on its own and counts the events it accepted, by webhook-id.
type hookSink struct {
	mu       sync.Mutex
	secret   string
	accepted map[string]int
	types    map[string]string
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

// TestOutboxSurvivesSIGKILL books and confirms on a server whose outbox
// worker is not due before an hour, kills it with SIGKILL (no shutdown
// code runs), and restarts it: the confirmation's webhook arrives exactly
// once, signed.
func TestOutboxSurvivesSIGKILL(t *testing.T) {
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "staykit.db")
	sink := &hookSink{accepted: map[string]int{}, types: map[string]string{}}
	rs := httptest.NewServer(sink)
	defer rs.Close()

	p := startBinary(t, bin, db, "-outbox-every", "1h", "-webhooks-allow-private")
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
	if err := p.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	p.wait(t)
	if got := sink.snapshot(); len(got) != 0 {
		t.Fatalf("delivered before the kill: %v (the worker was not due)", got)
	}

	p2 := startBinary(t, bin, db, "-outbox-every", "100ms", "-webhooks-allow-private")
	p2.waitLine(t, "price a stay")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for len(sink.snapshot()) == 0 && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	// Several more rounds of the worker: nothing is sent again.
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
	if strings.Contains(p2.logs.String(), "ada@example.com") {
		t.Errorf("the log shows the guest's e-mail:\n%s", p2.logs.String())
	}
	if !strings.Contains(p2.logs.String(), "mail not sent: no SMTP server configured") {
		t.Errorf("the guest's mail is not in the log (no SMTP):\n%s", p2.logs.String())
	}
}
