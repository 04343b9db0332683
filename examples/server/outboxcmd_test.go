package main

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/internal/serverenv"
	"github.com/staykit/staykit/payment/paymenttest"
)

// cli runs a host command in the process and returns its output.
func cli(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &out, &errOut)
	return out.String() + errOut.String(), err
}

func TestWebhookAndContactCommands(t *testing.T) {
	// The commands insert their jobs with the change (a redelivery's
	// delivery); one asked for while the delivery's finished job is still
	// being marked completed is left to the next sweep: sweep often.
	ts := startServerWith(t, nil, func(c *serverenv.Config) { c.SweepEvery = 250 * time.Millisecond },
		"-webhooks-allow-private")
	sink := &hookSink{accepted: map[string]int{}, types: map[string]string{}}
	rs := httptest.NewServer(sink)
	defer rs.Close()
	db := []string{"-db", ts.dbPath, "-org", "demo"}

	if out, err := cli(t, append([]string{"contact", "-email", "host@example.com"}, db...)...); err != nil || !strings.Contains(out, "contact of demo: host@example.com") {
		t.Fatalf("contact: %v\n%s", err, out)
	}
	if out, err := cli(t, append([]string{"webhook", "add", "-url", rs.URL}, db...)...); !errors.Is(err, errUsage) {
		t.Fatalf("adding a plain http endpoint without -allow-private: %v\n%s", err, out)
	}
	out, err := cli(t, append([]string{"webhook", "add", "-url", rs.URL + "/hook", "-allow-private", "-events", "booking.confirmed"}, db...)...)
	m := secretLine.FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("webhook add: %v\n%s", err, out)
	}
	sink.mu.Lock()
	sink.secret = m[1]
	sink.mu.Unlock()
	if out, err := cli(t, append([]string{"webhook", "list"}, db...)...); err != nil || !strings.Contains(out, rs.URL+"/hook") || !strings.Contains(out, "booking.confirmed") || strings.Contains(out, "whsec_") {
		t.Fatalf("webhook list (without the secret): %v\n%s", err, out)
	}

	co := checkout(t, ts, "demo", propertyIDs(t, ts, "demo")[0], 30, 3, 2)
	call(t, "POST", ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil)
	if r := call(t, "POST", ts.URL+"/api/v1/book/demo/booking/"+str(co, "booking_token")+"/confirm", map[string]string{}, nil); r.Status != 200 {
		t.Fatalf("confirm: %d %s", r.Status, r.Raw)
	}
	waitFor(t, func() bool { return len(sink.snapshot()) == 1 })

	// The receiver has the webhook; the worker records the outcome just
	// after it answered.
	delivered := regexp.MustCompile(`(?m)^(\d+)\s+\d+\s+delivered\s+1\s+200`)
	var row []string
	waitFor(t, func() bool {
		out, err = cli(t, append([]string{"webhook", "deliveries", "-id", "1"}, db...)...)
		row = delivered.FindStringSubmatch(out)
		return err != nil || row != nil
	})
	if err != nil || row == nil {
		t.Fatalf("webhook deliveries: %v\n%s", err, out)
	}
	if out, err := cli(t, append([]string{"webhook", "redeliver", "-id", row[1]}, db...)...); err != nil {
		t.Fatalf("webhook redeliver: %v\n%s", err, out)
	}
	waitFor(t, func() bool {
		for _, n := range sink.snapshot() {
			return n == 2
		}
		return false
	})
	// ...and has recorded it before the endpoint is resumed.
	waitFor(t, func() bool {
		out, err = cli(t, append([]string{"webhook", "deliveries", "-id", "1"}, db...)...)
		return err != nil || !strings.Contains(out, "pending")
	})
	out, err = cli(t, append([]string{"webhook", "resume", "-id", "1", "-replay"}, db...)...)
	if err != nil || !strings.Contains(out, "endpoint 1 resumed; 0 deliveries due now") {
		t.Fatalf("webhook resume: %v\n%s", err, out)
	}
	// A time range replayed: the event's delivery is sent again.
	span := []string{"-from", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339), "-to", time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}
	if out, err := cli(t, append(append([]string{"webhook", "replay", "-id", "1"}, span...), db...)...); err != nil ||
		!regexp.MustCompile(`^[1-9]\d* deliveries of endpoint 1 will be sent again`).MatchString(out) {
		t.Errorf("webhook replay: %v\n%s", err, out)
	}
	if _, err := cli(t, append([]string{"webhook", "replay", "-id", "1", "-from", "yesterday"}, db...)...); err == nil {
		t.Error("webhook replay without a valid range: no error")
	}
	if out, err := cli(t, append([]string{"webhook", "remove", "-id", "1"}, db...)...); err != nil {
		t.Fatalf("webhook remove: %v\n%s", err, out)
	}
	if out, _ := cli(t, append([]string{"webhook", "list"}, db...)...); strings.Contains(out, rs.URL) {
		t.Errorf("the endpoint is still listed:\n%s", out)
	}
	// The host's mail went to the log, without its address.
	if logs := ts.logs.String(); !strings.Contains(logs, "mail not sent") || strings.Contains(logs, "host@example.com") {
		t.Errorf("log: want the mails, without the host's address:\n%s", logs)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 15s")
		}
	}
}
