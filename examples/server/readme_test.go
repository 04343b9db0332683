package main

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock returns the first ```sh block after heading in the README.
func readmeBlock(t *testing.T, heading string) string {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(raw), heading)
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, block, ok := strings.Cut(after, "```sh\n")
	if !ok {
		t.Fatalf("no sh block after %q", heading)
	}
	block, _, _ = strings.Cut(block, "```")
	return block
}

// TestREADMEWalkThrough runs the README's command-line booking through the
// server: the quote's URL and the checkout's body as written there, then
// the card step and confirm. The checkout must charge what the quote said.
func TestREADMEWalkThrough(t *testing.T) {
	block := readmeBlock(t, "### A booking from the command line")
	in, out := stayDates(30, 3)
	shell := strings.NewReplacer("$IN", in, "$OUT", out)

	m := regexp.MustCompile(`curl -s "\$API(/properties/[^"]*/price\?[^"]*)"`).FindStringSubmatch(block)
	if m == nil {
		t.Fatalf("no price call in the README's walk-through:\n%s", block)
	}
	quotePath := shell.Replace(m[1])
	m = regexp.MustCompile(`(?s)"\$API/checkout" .*?-d "(.*?[^\\])"`).FindStringSubmatch(block)
	if m == nil {
		t.Fatalf("no checkout body in the README's walk-through:\n%s", block)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(shell.Replace(strings.ReplaceAll(m[1], `\"`, `"`))), &body); err != nil {
		t.Fatalf("checkout body %s: %v", m[1], err)
	}

	ts := startServer(t, nil)
	api := ts.URL + "/api/v1/book/demo"
	quote := call(t, http.MethodGet, api+quotePath, nil, nil)
	if quote.Status != http.StatusOK {
		t.Fatalf("quote %s: %d %s", quotePath, quote.Status, quote.Raw)
	}
	co := call(t, http.MethodPost, api+"/checkout", body, nil)
	if co.Status != http.StatusCreated {
		t.Fatalf("checkout %v: %d %s", body, co.Status, co.Raw)
	}
	q, c := quote.data(t), co.data(t)
	for _, field := range []string{"total_amount", "charge_amount"} {
		if num(q, field) != num(c, field) {
			t.Errorf("checkout %s = %s, quote said %s: the walk-through's quote and checkout disagree", field, num(c, field), num(q, field))
		}
	}
	if !strings.Contains(quotePath, "coupon_code=") || str(q, "coupon") == "" {
		t.Errorf("the walk-through's quote %s uses no coupon (quote %s)", quotePath, quote.Raw)
	}

	intent := intentOf(str(c, "client_secret"))
	token := str(c, "booking_token")
	if r := call(t, http.MethodPost, api+"/booking/"+token+"/confirm", map[string]any{}, nil); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("confirm before paying = %d, the README says 422", r.Status)
	}
	if r := call(t, http.MethodPost, ts.URL+"/fakepay/intents/"+intent, map[string]string{"card_number": "4242424242424242"}, nil); r.Status != http.StatusOK {
		t.Fatalf("pay: %d %s", r.Status, r.Raw)
	}
	if r := call(t, http.MethodPost, api+"/booking/"+token+"/confirm", map[string]any{}, nil); r.Status != http.StatusOK || str(r.data(t), "status") != "confirmed" {
		t.Errorf("confirm after paying = %d %s, the README says 200 confirmed", r.Status, r.Raw)
	}
}

// TestREADMEPlantStoreDoesNotCollide checks that the plant store example
// starts its server on the port its curl calls, which is not the first
// server's 8080.
func TestREADMEPlantStoreDoesNotCollide(t *testing.T) {
	block := readmeBlock(t, "## The plant store")
	run := regexp.MustCompile(`go run ./examples/server -addr 127\.0\.0\.1:(\d+)`).FindStringSubmatch(block)
	curl := regexp.MustCompile(`curl [^\n]*http://127\.0\.0\.1:(\d+)/plants`).FindStringSubmatch(block)
	if run == nil || curl == nil || run[1] != curl[1] || run[1] == "8080" {
		t.Errorf("plant store example: server %v, curl %v; want both on one port other than 8080:\n%s", run, curl, block)
	}
}

// TestREADMEEmbeddingRunsTheLibraryWorkers keeps the embedding snippet on
// the library's job engine rather than a hand-written loop.
func TestREADMEEmbeddingRunsTheLibraryWorkers(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(raw), "## Embedding")
	snippet, _, _ := strings.Cut(after, "\n```\n")
	if !strings.Contains(snippet, "go workers.Run(ctx)") || !strings.Contains(snippet, "jobs.NewSQLite(db, jobs.Options{") ||
		strings.Contains(snippet, "ExpireHolds") || strings.Contains(snippet, "RunSweeper") {
		t.Errorf("embedding snippet does not run the library's workers (package jobs):\n%s", snippet)
	}
}
