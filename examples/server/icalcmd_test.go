package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// ical runs "server ical args..." against ts's database.
func icalCmd(t *testing.T, ts *testServer, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append(append([]string{"ical"}, args...), "-db", ts.dbPath), func(string) string { return "" }, &out, &errOut)
	if err != nil {
		return out.String() + errOut.String(), err
	}
	return out.String(), nil
}

// TestICalCommands: the host shows a property's export URL, the server
// serves it, rotation retires it; feeds are added, listed with their last
// error (the server fetches https only), and removed.
func TestICalCommands(t *testing.T) {
	ts := startServer(t, nil)
	prop := strconv.Itoa(propertyIDs(t, ts, "demo")[0])
	checkout(t, ts, "demo", propertyIDs(t, ts, "demo")[0], 30, 2, 2)

	out, err := icalCmd(t, ts, "export-url", "-org", "demo", "-property", prop, "-public-url", ts.URL)
	if err != nil {
		t.Fatalf("export-url: %v\n%s", err, out)
	}
	url := strings.TrimSpace(out)
	if !strings.HasPrefix(url, ts.URL+"/ical/") || !strings.HasSuffix(url, ".ics") {
		t.Fatalf("export-url printed %q", url)
	}
	r := call(t, http.MethodGet, url, nil, nil)
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/calendar") ||
		strings.Count(r.Raw, "BEGIN:VEVENT") != 1 || strings.Contains(r.Raw, "Ada") || r.Header.Get("ETag") == "" {
		t.Fatalf("GET the export: %d %v\n%s", r.Status, r.Header, r.Raw)
	}
	if again := call(t, http.MethodGet, url, nil, map[string]string{"If-None-Match": r.Header.Get("ETag")}); again.Status != http.StatusNotModified {
		t.Errorf("conditional GET: %d, want 304", again.Status)
	}
	same, _ := icalCmd(t, ts, "export-url", "-org", "demo", "-property", prop, "-public-url", ts.URL)
	if strings.TrimSpace(same) != url {
		t.Errorf("export-url changed without a rotation: %q then %q", url, same)
	}
	rotated, err := icalCmd(t, ts, "rotate-token", "-org", "demo", "-property", prop, "-public-url", ts.URL)
	if err != nil || strings.TrimSpace(rotated) == url {
		t.Fatalf("rotate-token: %q, %v", rotated, err)
	}
	if old := call(t, http.MethodGet, url, nil, nil); old.Status != http.StatusNotFound {
		t.Errorf("old URL after rotation: %d, want 404", old.Status)
	}
	if fresh := call(t, http.MethodGet, strings.TrimSpace(rotated), nil, nil); fresh.Status != http.StatusOK {
		t.Errorf("new URL: %d, want 200", fresh.Status)
	}

	// A feed on loopback is refused unless its host:port is allowed, as
	// the server's -outbound-allow does; then it is fetched over http.
	feedSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a@airbnb.com\r\nDTSTART;VALUE=DATE:20300110\r\n" +
			"DTEND;VALUE=DATE:20300112\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	}))
	defer feedSrv.Close()
	allow := strings.TrimPrefix(feedSrv.URL, "http://")
	if out, err := icalCmd(t, ts, "add-feed", "-org", "demo", "-property", prop, "-url", feedSrv.URL+"/airbnb.ics", "-name", "Airbnb"); err == nil ||
		!strings.Contains(out+err.Error(), "Only https addresses are reached") {
		t.Errorf("add-feed of a plain http feed on loopback: %q, %v; want refused with the reason", out, err)
	}
	out, err = icalCmd(t, ts, "add-feed", "-org", "demo", "-property", prop, "-url", feedSrv.URL+"/airbnb.ics", "-name", "Airbnb",
		"-outbound-allow", allow)
	if err != nil || !strings.Contains(out, "feed 1 added") {
		t.Fatalf("add-feed with -outbound-allow: %q, %v", out, err)
	}
	if out, err := icalCmd(t, ts, "sync-now", "-org", "demo", "-feed", "1", "-outbound-allow", allow); err != nil || !strings.Contains(out, "1 events") {
		t.Errorf("sync-now of the allowed feed: %q, %v", out, err)
	}
	if out, err := icalCmd(t, ts, "sync-now", "-org", "demo", "-feed", "1"); err == nil || !strings.Contains(out+err.Error(), "only https") {
		t.Errorf("sync-now of a plain http feed without -outbound-allow: %q, %v; want refused", out, err)
	}
	out, err = icalCmd(t, ts, "feeds", "-org", "demo")
	if err != nil || !strings.Contains(out, "Airbnb") || !strings.Contains(out, "Only https addresses are reached") {
		t.Errorf("feeds: %q, %v; want the feed with its last error, in words", out, err)
	}
	if out, err := icalCmd(t, ts, "add-feed", "-org", "demo", "-property", prop, "-url", "ftp://x/y", "-name", "X"); err == nil {
		t.Errorf("add-feed with an ftp URL: %q, want an error", out)
	}
	if out, err := icalCmd(t, ts, "remove-feed", "-org", "demo", "-feed", "1"); err != nil {
		t.Fatalf("remove-feed: %q, %v", out, err)
	}
	if out, _ := icalCmd(t, ts, "feeds", "-org", "demo"); !strings.Contains(out, "(no feeds)") {
		t.Errorf("feeds after remove: %q", out)
	}
	if _, err := icalCmd(t, ts, "add-feed", "-org", "demo"); err == nil {
		t.Error("add-feed without -property, -url, -name succeeded")
	}
}
