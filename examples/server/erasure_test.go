package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/privacy"
)

// guest is a person who books: what they type, and the strings that
// would betray them wherever they are kept (the name's parts, the
// e-mail address, the phone number with and without its country code,
// their check-in's document numbers).
type guest struct {
	name, email, phone string
	traces             []string
}

var (
	// erasedStay books a stay, checks in two guests, is noted by the
	// host, gets a scheduled message and a review request, reviews the
	// stay, and is erased once it has ended.
	erasedStay = guest{"Zélie Quenouille", "zelie.quenouille@example.org", "+33698765432",
		[]string{"Quenouille", "Zélie", "zelie.quenouille", "+33698765432", "698765432", "BE4711XQ", "BE4712XQ", "Rue des Tanneurs 17"}}
	// erasedRefund books, is cancelled by the host with a full refund
	// (a credit note), and is erased.
	erasedRefund = guest{"Yannick Brouillard", "yannick.brouillard@example.org", "+33687654321",
		[]string{"Brouillard", "Yannick", "yannick.brouillard", "+33687654321", "687654321"}}
	// kept books and is never erased: the scans must find them, proving
	// that they can find a guest.
	kept = guest{"Barnabé Keepsake", "barnabe.keepsake@example.org", "+33611122233",
		[]string{"Keepsake", "barnabe.keepsake", "+33611122233"}}
)

// traces lists the traces of g found in text.
func (g guest) found(text string) []string {
	var out []string
	for _, s := range g.traces {
		if strings.Contains(text, s) {
			out = append(out, s)
		}
	}
	return out
}

// erasureBackend is a way of running the reference server for the
// erasure test: its flags and a dump of its whole database.
type erasureBackend struct {
	name string
	// args are the server's and the command line's database flags.
	args func(t *testing.T) (server, cli []string, dump func(t *testing.T) []cell)
}

// cell is one non-empty value of the database, with where it is.
type cell struct{ table, column, text string }

// holding lists "table.column" of the cells of dump holding a trace of g.
func holding(dump []cell, g guest) []string {
	seen := map[string]bool{}
	for _, c := range dump {
		for _, s := range g.found(c.text) {
			seen[c.table+"."+c.column+" ("+s+")"] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var erasureBackends = []erasureBackend{
	{"sqlite", func(t *testing.T) ([]string, []string, func(*testing.T) []cell) {
		path := filepath.Join(t.TempDir(), "staykit.db")
		return []string{"-db", path}, []string{"-db", path}, func(t *testing.T) []cell { return dumpSQLite(t, path) }
	}},
	{"postgres", func(t *testing.T) ([]string, []string, func(*testing.T) []cell) {
		pgURL := testenv.PostgresURL(t)
		schema := testenv.PostgresSchema(t, "staykit_erasure_")
		conn, err := pgx.Connect(t.Context(), pgURL)
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Exec(t.Context(), `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize())
		conn.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(pgURL)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return []string{"-postgres", u.String(), "-fake-payments"}, []string{"-postgres", u.String()},
			func(t *testing.T) []cell { return dumpPostgres(t, pgURL, schema) }
	}},
}

// dumpSQLite reads every value of every table of the SQLite database at
// path, as text (the tables listed by sqlite_master, none named here).
func dumpSQLite(t *testing.T, path string) []cell {
	t.Helper()
	db, err := sql.Open("sqlite", rawDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.QueryContext(t.Context(), `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var out []cell
	for _, table := range tables {
		rows, err := db.QueryContext(t.Context(), `SELECT * FROM "`+strings.ReplaceAll(table, `"`, `""`)+`"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("read %s: %v", table, err)
			}
			for i, v := range vals {
				if s := cellText(v); s != "" {
					out = append(out, cell{table, cols[i], s})
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		rows.Close()
	}
	if len(tables) < 30 {
		t.Fatalf("the SQLite database has %d tables: %v", len(tables), tables)
	}
	return out
}

// dumpPostgres reads every value of every table of schema, as text (the
// tables listed by information_schema, none named here).
func dumpPostgres(t *testing.T, pgURL, schema string) []cell {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(t.Context(), `SELECT table_name FROM information_schema.tables
		WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, schema)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var out []cell
	for _, table := range tables {
		rows, err := conn.Query(t.Context(), `SELECT * FROM `+pgx.Identifier{schema, table}.Sanitize())
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		fields := rows.FieldDescriptions()
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatalf("read %s: %v", table, err)
			}
			for i, v := range vals {
				if s := cellText(v); s != "" {
					out = append(out, cell{table, fields[i].Name, s})
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
	}
	if len(tables) < 30 {
		t.Fatalf("the schema %s has %d tables: %v", schema, len(tables), tables)
	}
	return out
}

// cellText is a database value as text: strings and bytes as they are,
// anything else (JSON documents, arrays) as JSON; "" for NULL and numbers.
func cellText(v any) string {
	switch v := v.(type) {
	case nil, int64, int32, int16, float64, bool:
		return ""
	case string:
		return v
	case []byte:
		return string(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// hookRecorder is a webhook receiver that keeps every body it is sent,
// and refuses them (503) while refusing is set.
type hookRecorder struct {
	mu       sync.Mutex
	refusing bool
	bodies   []string
}

func (h *hookRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.refusing {
		http.Error(w, "try later", http.StatusServiceUnavailable)
		return
	}
	h.bodies = append(h.bodies, string(body))
}

// take returns the bodies accepted since the last take.
func (h *hookRecorder) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.bodies
	h.bodies = nil
	return out
}

func (h *hookRecorder) refuse(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.refusing = on
}

// TestErasedGuestAppearsNowhere is issue #29's proof, on both stores,
// through the reference server as it runs (the job engine, the outbox and
// its e-mails to the log, webhooks, the sandbox's clock). Two guests go
// through everything that keeps a trace of a person — a checkout with an
// Idempotency-Key, their online check-in, the host's note, a scheduled
// message and its preview, webhooks (one receiver down, so deliveries are
// queued), an invoice, a refund and its credit note, a review — and are
// erased. Afterwards none of their traces is left in any value of any
// table of the database (every table the database lists, River's
// included), in any line the server logged from its start, in the
// webhooks sent after the erasure, in the host API's answers, the data
// export, the event feed, or the text of their invoices' PDFs; the
// invoices keep their numbers and amounts, and the host's revenue and tax
// reports are unchanged. A third guest, never erased, is found by the
// same scans, which proves they can find one.
func TestErasedGuestAppearsNowhere(t *testing.T) {
	pdftotext := testenv.Program(t, "pdftotext")
	for _, backend := range erasureBackends {
		t.Run(backend.name, func(t *testing.T) {
			serverArgs, cliArgs, dump := backend.args(t)
			ts := startServer(t, nil, append(serverArgs, "-sandbox", "-webhooks-allow-private")...)
			var out, errOut bytes.Buffer
			if err := run(context.Background(), append([]string{"apikey", "create", "-org", "demo", "-name", "erasure"}, cliArgs...),
				func(string) string { return "" }, &out, &errOut); err != nil {
				t.Fatalf("apikey create: %v\n%s", err, errOut.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			auth := "Bearer " + lines[len(lines)-1]
			host := func(method, path string, body any, key string) response {
				t.Helper()
				h := map[string]string{"Authorization": auth}
				if key != "" {
					h["Idempotency-Key"] = key
				}
				return call(t, method, ts.URL+"/api/v1/host/demo"+path, body, h)
			}
			must := func(r response, status int, what string) response {
				t.Helper()
				if r.Status != status {
					t.Fatalf("%s: %d %s, want %d", what, r.Status, r.Raw, status)
				}
				return r
			}
			advance := func(by string) {
				t.Helper()
				must(call(t, http.MethodPost, ts.URL+"/api/v1/sandbox/clock", map[string]string{"advance": by}, nil), http.StatusOK, "advance "+by)
			}

			// Two webhook receivers: one takes every event, one is down.
			up, down := &hookRecorder{}, &hookRecorder{refusing: true}
			var downID string
			for _, h := range []*hookRecorder{up, down} {
				srv := httptest.NewServer(h)
				t.Cleanup(srv.Close)
				downID = num(must(host(http.MethodPost, "/webhooks", map[string]any{"url": srv.URL + "/hook"}, ""), http.StatusCreated, "add a webhook").data(t), "id")
			}
			// A message two days before arrival, naming the guest.
			must(host(http.MethodPost, "/message-templates", map[string]any{"name": "Bienvenue",
				"trigger": map[string]any{"when": "before_arrival", "days": 2, "at": "10:00"},
				"texts": map[string]any{"fr": map[string]any{"subject": "À bientôt {{guest_name}}", "body": "Bonjour {{guest_name}}, arrivée le {{check_in}}."},
					"en": map[string]any{"subject": "See you soon {{guest_name}}", "body": "Hello {{guest_name}}, arriving on {{check_in}}."}}},
				"tpl-1"), http.StatusCreated, "message template")

			villa := propertyIDs(t, ts, "demo")[0]
			book := func(g guest, daysAhead, nights int, key string) (token string, id int64) {
				t.Helper()
				in, outDate := stayDates(daysAhead, nights)
				r := must(call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/checkout", map[string]any{
					"property_id": villa, "check_in": in, "check_out": outDate, "guests_count": 2, "locale": "fr",
					"guest_name": g.name, "guest_email": g.email, "guest_phone": g.phone,
					"message": "Nous arriverons en train. " + g.name + ", " + g.phone,
				}, map[string]string{"Idempotency-Key": key}), http.StatusCreated, "checkout "+g.name)
				d := r.data(t)
				token = str(d, "booking_token")
				must(call(t, http.MethodPost, ts.URL+"/fakepay/intents/"+intentOf(str(d, "client_secret")),
					map[string]string{"card_number": paymenttest.CardSucceeds}, nil), http.StatusOK, "pay")
				must(call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/booking/"+token+"/confirm", map[string]string{}, nil), http.StatusOK, "confirm")
				list := must(host(http.MethodGet, "/bookings?limit=100", nil, ""), http.StatusOK, "bookings").data(t)["items"].([]any)
				for _, item := range list {
					if b := item.(map[string]any); str(b, "token") == token {
						id, _ = b["id"].(json.Number).Int64()
					}
				}
				if id == 0 {
					t.Fatalf("booking %s not in the host's list", token)
				}
				return token, id
			}
			stayToken, stayID := book(erasedStay, 10, 3, "3f2c9a1e-checkout-1")
			_, refundID := book(erasedRefund, 40, 2, "3f2c9a1e-checkout-2")
			keptToken, keptID := book(kept, 60, 2, "3f2c9a1e-checkout-3")

			// The online check-in of the stay's two guests.
			guestOf := func(given, doc string) map[string]any {
				return map[string]any{"given_names": given, "surname": "Quenouille", "birth_date": "1984-05-06", "birth_place": "Liège", "birth_country": "BE",
					"nationality": "BE", "address": "Rue des Tanneurs 17", "postal_code": "4000", "city": "Liège", "address_country": "BE",
					"phone": erasedStay.phone, "email": erasedStay.email, "document_type": "id_card", "document_number": doc, "document_country": "BE"}
			}
			must(call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/booking/"+stayToken+"/checkin",
				map[string]any{"guests": []any{guestOf("Zélie", "BE4711XQ"), guestOf("Hugo", "BE4712XQ")}}, nil), http.StatusOK, "check-in")
			must(host(http.MethodGet, fmt.Sprintf("/bookings/%d/checkin", stayID), nil, ""), http.StatusOK, "read the check-in")

			// A change of the stay the guest asks for and the host
			// declines in words naming them (issue #28): the host's mail,
			// the guest's, and the events' webhooks (queued for the
			// receiver that is down) carry the change.
			must(host(http.MethodPatch, "/change-settings", map[string]any{"approval": true}, ""), http.StatusOK, "require approval of changes")
			stayIn, stayOut := stayDates(10, 3)
			asked := must(call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/booking/"+stayToken+"/change",
				map[string]any{"check_in": stayIn, "check_out": stayOut, "guests_count": 1}, nil), http.StatusOK, "ask a change").data(t)
			must(host(http.MethodPost, "/changes/"+num(asked, "id")+"/decline",
				map[string]any{"reason": "Désolé " + erasedStay.name + ", la maison est réservée pour deux."}, ""), http.StatusOK, "decline the change")
			must(host(http.MethodPatch, "/change-settings", map[string]any{"approval": false}, ""), http.StatusOK, "approve no more")

			// The stay passes, a day at a time (a message is sent within a
			// day of its time): the message, the invoices, the review
			// request; then the guest reviews it.
			for range 15 {
				advance("P1D")
			}
			// The host's note and a preview of the message with the stay,
			// both answers kept for retries of their Idempotency-Keys (a
			// day: these are made after the clock moved, so no purge of old
			// records has taken them yet).
			notes := map[int64]map[string]any{}
			for _, id := range []int64{stayID, keptID} {
				b := must(host(http.MethodGet, fmt.Sprintf("/bookings/%d", id), nil, ""), http.StatusOK, "booking").data(t)
				notes[id] = map[string]any{"body": "Appeler " + str(b, "guest_name") + " au " + str(b, "guest_phone")}
				must(host(http.MethodPost, fmt.Sprintf("/bookings/%d/notes", id), notes[id], fmt.Sprintf("note-%d", id)), http.StatusCreated, "note")
			}
			must(host(http.MethodPost, "/message-preview", map[string]any{"booking_id": stayID, "template": map[string]any{"name": "x",
				"trigger": map[string]any{"when": "before_arrival", "days": 1, "at": "09:00"},
				"texts":   map[string]any{"fr": map[string]any{"subject": "Pour {{guest_name}}", "body": "Bonjour {{guest_name}}"}}}},
				"preview-1"), http.StatusOK, "preview")

			must(call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/booking/"+stayToken+"/review",
				map[string]any{"rating": 5, "comment": "Merci pour tout ! " + erasedStay.name}, nil), http.StatusCreated, "review")
			must(host(http.MethodPost, fmt.Sprintf("/bookings/%d/resend-email", stayID), nil, "resend-1"), http.StatusAccepted, "resend the e-mail")
			// The thread of each stay: the guest writes, signing, and the
			// host answers, naming them; each message is e-mailed.
			for token, g := range map[string]guest{stayToken: erasedStay, keptToken: kept} {
				must(call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/booking/"+token+"/messages",
					map[string]any{"body": "Où laisser les clés ? " + g.name + ", " + g.phone}, nil), http.StatusCreated, "the guest's message")
			}
			for id, g := range map[int64]guest{stayID: erasedStay, keptID: kept} {
				must(host(http.MethodPost, fmt.Sprintf("/bookings/%d/messages", id),
					map[string]any{"body": "Dans la boîte, " + g.name + "."}, fmt.Sprintf("reply-%d", id)), http.StatusCreated, "the host's answer")
			}
			// The refunded stay, still ahead: cancelled by the host,
			// everything paid given back; an hour later the refund is sent
			// and its credit note issued.
			must(host(http.MethodPost, fmt.Sprintf("/bookings/%d/cancel", refundID), map[string]any{"refund": "full"}, "cancel-1"), http.StatusOK, "cancel")
			advance("PT1H")

			invoicesOf := func(id int64) []map[string]any {
				t.Helper()
				var out []map[string]any
				for _, item := range must(host(http.MethodGet, fmt.Sprintf("/bookings/%d/invoices", id), nil, ""), http.StatusOK, "invoices").data(t)["items"].([]any) {
					out = append(out, item.(map[string]any))
				}
				return out
			}
			pdfText := func(inv map[string]any) string {
				t.Helper()
				r := call(t, http.MethodGet, fmt.Sprintf("%s/api/v1/host/demo/invoices/%s/pdf", ts.URL, num(inv, "id")), nil, map[string]string{"Authorization": auth})
				if r.Status != http.StatusOK || !strings.HasPrefix(r.Raw, "%PDF") {
					t.Fatalf("invoice %s's PDF: %d %.40q", num(inv, "id"), r.Status, r.Raw)
				}
				pdf := filepath.Join(t.TempDir(), "invoice.pdf")
				if err := os.WriteFile(pdf, []byte(r.Raw), 0o600); err != nil {
					t.Fatal(err)
				}
				text, err := exec.Command(pdftotext, pdf, "-").CombinedOutput()
				if err != nil {
					t.Fatalf("pdftotext: %v %s", err, text)
				}
				return string(text)
			}
			summary := func(invs []map[string]any) []string {
				var out []string
				for _, inv := range invs {
					out = append(out, fmt.Sprintf("%s %s %s %s", str(inv, "kind"), str(inv, "number"), num(inv, "total"), str(inv, "issued_at")))
				}
				return out
			}
			stayInvoices, refundInvoices := invoicesOf(stayID), invoicesOf(refundID)
			if len(stayInvoices) != 1 || len(refundInvoices) != 2 {
				t.Fatalf("invoices before the erasure: %v and %v, want an invoice, and an invoice and its credit note", summary(stayInvoices), summary(refundInvoices))
			}
			if got := erasedStay.found(pdfText(stayInvoices[0])); len(got) == 0 {
				t.Fatalf("the invoice's PDF names none of %v before the erasure: the scan of PDFs finds nothing", erasedStay.traces)
			}
			// The months of the three stays, wherever the clock is.
			period := "?from=" + time.Now().Format("2006-01") + "&to=" + time.Now().AddDate(0, 4, 0).Format("2006-01")
			reports := func() map[string]string {
				out := map[string]string{}
				for _, p := range []string{"/reports/monthly", "/reports/tourist-tax", "/reports/vat", "/reports/taxes"} {
					r := must(host(http.MethodGet, p+period, nil, ""), http.StatusOK, p)
					out[p] = r.Raw
				}
				return out
			}
			before := reports()

			// Before: the scans find all three guests.
			dumped := dump(t)
			if !slices.ContainsFunc(dumped, func(c cell) bool {
				return c.table == "outbox_events" && c.column == "data" && len(erasedStay.found(c.text)) > 0
			}) {
				t.Fatalf("no event of the declined change holds the host's words naming %s: the test proves nothing", erasedStay.name)
			}
			for _, g := range []guest{erasedStay, erasedRefund, kept} {
				if len(holding(dumped, g)) == 0 {
					t.Fatalf("the dump of the database finds no trace of %s before any erasure", g.name)
				}
			}
			t.Logf("%s: traces of %s before the erasure: %v", backend.name, erasedStay.name, holding(dumped, erasedStay))

			// The erasures; the receiver that was down comes back, and a
			// day later everything due is done (its deliveries included).
			for i, id := range []int64{stayID, refundID} {
				r := must(host(http.MethodPost, fmt.Sprintf("/bookings/%d/erase-guest", id), nil, fmt.Sprintf("erase-%d", i)), http.StatusOK, "erase")
				if d := r.data(t); str(d, "guest_name") != privacy.ErasedName {
					t.Errorf("erased booking %d: %v", id, d)
				}
			}
			// At once, nothing in the database holds them: every table
			// was read, River's jobs included.
			dumped = dump(t)
			tables := map[string]bool{}
			for _, c := range dumped {
				tables[c.table] = true
			}
			for _, want := range []string{"river_job", "host_requests", "outbox_deliveries", "invoices", "audit_log", "idempotency_keys"} {
				if !tables[want] {
					t.Errorf("the dump read nothing of %s", want)
				}
			}
			for _, g := range []guest{erasedStay, erasedRefund} {
				if got := holding(dumped, g); len(got) > 0 {
					t.Errorf("%s: right after the erasure the database still holds %s in %v", backend.name, g.name, got)
				}
			}
			up.take()
			down.refuse(false)
			// Its failures paused it: resumed, what it missed is replayed.
			must(host(http.MethodPost, "/webhooks/"+downID+"/resume", map[string]any{"replay": true}, ""), http.StatusOK, "resume")
			advance("PT1M")
			sentAfter := append(up.take(), down.take()...)
			if !slices.ContainsFunc(sentAfter, func(b string) bool { return strings.Contains(b, privacy.ErasedName) }) {
				t.Errorf("no webhook about an erased booking was sent after the erasure (%d sent): the queued ones were not checked", len(sentAfter))
			}
			if !slices.ContainsFunc(sentAfter, func(b string) bool {
				return strings.Contains(b, `"booking.change_declined"`) && strings.Contains(b, `"old_check_in"`)
			}) {
				t.Errorf("the declined change's webhook was not among those sent after the erasure: its data was not checked")
			}
			// A retry of a request whose kept answer showed the guest is
			// refused, not replayed; the other guest's is replayed.
			retry := host(http.MethodPost, fmt.Sprintf("/bookings/%d/notes", stayID), notes[stayID], fmt.Sprintf("note-%d", stayID))
			if retry.Status != http.StatusConflict || !strings.Contains(retry.Raw, "effacées depuis") {
				t.Errorf("retry of the erased guest's note: %d %s, want 409 saying the answer was erased", retry.Status, retry.Raw)
			}
			if again := host(http.MethodPost, fmt.Sprintf("/bookings/%d/notes", keptID), notes[keptID], fmt.Sprintf("note-%d", keptID)); again.Status != http.StatusCreated ||
				again.Header.Get("Idempotent-Replayed") != "true" || len(kept.found(again.Raw)) == 0 {
				t.Errorf("retry of the kept guest's note: %d %v %s, want its answer replayed", again.Status, again.Header, again.Raw)
			}

			// Nor once the due work has run.
			dumped = dump(t)
			for _, g := range []guest{erasedStay, erasedRefund} {
				if got := holding(dumped, g); len(got) > 0 {
					t.Errorf("%s: the database still holds %s in %v", backend.name, g.name, got)
				}
			}
			if len(holding(dumped, kept)) == 0 {
				t.Errorf("the database lost %s, who was not erased", kept.name)
			}
			// Nowhere in the log, from the server's start (a log line
			// cannot be taken back: it never named a guest).
			logs := ts.logs.String()
			for _, g := range []guest{erasedStay, erasedRefund, kept} {
				if got := g.found(logs); len(got) > 0 {
					t.Errorf("%s: the server's log holds %v of %s", backend.name, got, g.name)
				}
			}
			if !strings.Contains(logs, "mail not sent: no SMTP server configured") {
				t.Errorf("no e-mail went to the log: the log was not searched where the e-mails are")
			}
			// Not in what was sent after the erasure.
			for _, body := range sentAfter {
				for _, g := range []guest{erasedStay, erasedRefund} {
					if got := g.found(body); len(got) > 0 {
						t.Errorf("a webhook sent after the erasure holds %v: %s", got, body)
					}
				}
			}
			// Not in what the host reads.
			reads := []string{"/bookings?limit=100", "/invoices", "/reviews", "/events?limit=100", "/audit-log?limit=100",
				"/reports/movements", "/planning?from=" + time.Now().Format(time.DateOnly) + "&to=" + time.Now().AddDate(0, 0, 60).Format(time.DateOnly), "/webhooks"}
			for _, id := range []int64{stayID, refundID} {
				for _, rest := range []string{"", "/notes", "/messages", "/invoices", "/guest-data", "/checkin", "/checkin/status", "/changes"} {
					reads = append(reads, fmt.Sprintf("/bookings/%d%s", id, rest))
				}
			}
			for _, p := range reads {
				r := must(host(http.MethodGet, p, nil, ""), http.StatusOK, p)
				for _, g := range []guest{erasedStay, erasedRefund} {
					if got := g.found(r.Raw); len(got) > 0 {
						t.Errorf("GET %s after the erasure holds %v", p, got)
					}
				}
			}
			// Nor in what the guest's link shows.
			for _, p := range []string{"/api/v1/book/demo/booking/" + stayToken, "/api/v1/book/demo/booking/" + stayToken + "/review",
				"/api/v1/book/demo/booking/" + stayToken + "/checkin", "/api/v1/book/demo/booking/" + stayToken + "/messages",
				"/api/v1/book/demo/booking/" + stayToken + "/change",
				"/guest-invoices/demo/" + stayToken} {
				r := must(call(t, http.MethodGet, ts.URL+p, nil, nil), http.StatusOK, p)
				if got := erasedStay.found(r.Raw); len(got) > 0 {
					t.Errorf("GET %s after the erasure holds %v", p, got)
				}
			}
			// The invoices keep their numbers and amounts, not the person.
			afterStay, afterRefund := invoicesOf(stayID), invoicesOf(refundID)
			if !slices.Equal(summary(afterStay), summary(stayInvoices)) || !slices.Equal(summary(afterRefund), summary(refundInvoices)) {
				t.Errorf("the invoices changed: %v %v, were %v %v", summary(afterStay), summary(afterRefund), summary(stayInvoices), summary(refundInvoices))
			}
			for _, inv := range append(afterStay, afterRefund...) {
				text := pdfText(inv)
				for _, g := range []guest{erasedStay, erasedRefund} {
					if got := g.found(text); len(got) > 0 {
						t.Errorf("invoice %s's PDF after the erasure holds %v", str(inv, "number"), got)
					}
				}
				if !strings.Contains(text, privacy.ErasedName) || !strings.Contains(text, str(inv, "number")) {
					t.Errorf("invoice %s's PDF lacks its number or the erased buyer:\n%s", str(inv, "number"), text)
				}
			}
			// The host's figures are the same.
			for p, was := range before {
				if got := must(host(http.MethodGet, p+period, nil, ""), http.StatusOK, p).Raw; got != was {
					t.Errorf("%s changed with the erasure:\nbefore %s\nafter  %s", p, was, got)
				}
			}
		})
	}
}
