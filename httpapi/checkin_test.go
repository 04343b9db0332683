package httpapi_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/httpapi"
)

// TestGuestCheckin: the guest of a French stay reads how far the
// check-in is (and the fields France asks), enters two foreign guests,
// and reads it complete; a guest missing a field is refused naming it,
// an unknown field or a body that is not JSON too; an unknown token is
// not found; the request log holds none of the data; a server without
// check-in answers 404.
func TestGuestCheckin(t *testing.T) {
	e := newTestEnv(t)
	hs := host.New(host.Options{Stores: e.Store.DB.HostStores(), Bookings: e.Service, Clock: e.Clock, Logger: discardLogger()})
	h := httpapi.New(httpapi.Options{Service: e.Service, Money: e.Money, Logger: slog.New(slog.NewTextHandler(e.Logs, &slog.HandlerOptions{Level: slog.LevelDebug})), Checkin: hs})
	path := "/api/v1/book/villa/booking/" + e.Tokens["pending"] + "/checkin"

	r := do(t, h, call{method: "GET", path: path})
	if r.Status != 200 {
		t.Fatalf("status: %d %s", r.Status, r.Body)
	}
	var st struct {
		Country      string `json:"country"`
		Authority    string `json:"authority"`
		Completeness struct {
			Expected, Entered, Valid int
			Complete                 bool
		} `json:"completeness"`
		Fields []string `json:"fields"`
	}
	r.data(t, &st)
	if st.Country != "FR" || st.Authority != "fiche_police" || st.Completeness.Entered != 0 || st.Completeness.Complete ||
		!strings.Contains(strings.Join(st.Fields, ","), "birth_place") {
		t.Errorf("status before = %+v", st)
	}
	guest := `{"given_names": "Jonas", "surname": "Müller", "birth_date": "1980-11-20", "birth_place": "Hamburg", "birth_country": "DE",
	  "nationality": "DE", "address": "Unter den Linden 5", "postal_code": "10117", "city": "Berlin", "address_country": "DE",
	  "phone": "+4915112345678", "email": "jonas@example.com"}`
	noMail := strings.Replace(guest, `"email": "jonas@example.com"`, `"email": ""`, 1)
	for _, tt := range []struct {
		name, body  string
		contentType string
		status      int
		code, field string
	}{
		{"MissingEmail", `{"guests": [` + guest + `, ` + noMail + `]}`, "", 422, "invalid", "guests.1.email"},
		{"NoGuest", `{"guests": []}`, "", 422, "invalid", "guests"},
		{"UnknownField", `{"guests": [{"shoe_size": 42}]}`, "", 422, "invalid", "guests"},
		{"NotJSON", `{"guests": [`, "", 400, "malformed_json", ""},
		{"NotJSONType", `{}`, "text/plain", 415, "unsupported_media_type", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := call{method: "POST", path: path, body: tt.body}
			if tt.contentType != "" {
				c.header = map[string]string{"Content-Type": tt.contentType}
			}
			r := do(t, h, c)
			if r.Status != tt.status || r.Env.Code != tt.code || tt.field != "" && r.Env.FieldCodes[tt.field] == nil {
				t.Errorf("%d %s %v, want %d %s on %s", r.Status, r.Env.Code, r.Env.FieldCodes, tt.status, tt.code, tt.field)
			}
		})
	}
	second := strings.NewReplacer(`"Jonas"`, `"Lena"`, "jonas@", "lena@").Replace(guest)
	r = do(t, h, call{method: "POST", path: path, body: `{"guests": [` + guest + `, ` + second + `]}`})
	if r.Status != 200 {
		t.Fatalf("save: %d %s", r.Status, r.Body)
	}
	r.data(t, &st)
	if st.Completeness.Entered != 2 || st.Completeness.Valid != 2 {
		t.Errorf("after saving two: %+v", st.Completeness)
	}
	if strings.Contains(string(r.Body), "Müller") {
		t.Errorf("the answer reads the data back: %s", r.Body)
	}
	if r := do(t, h, call{method: "GET", path: "/api/v1/book/villa/booking/unknown-token-000000000000/checkin"}); r.Status != 404 {
		t.Errorf("unknown token: %d", r.Status)
	}
	for _, secret := range []string{"Müller", "jonas@example.com", "+4915112345678", "Unter den Linden"} {
		if strings.Contains(e.Logs.String(), secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
	if r := e.do(call{method: "GET", path: path}); r.Status != 404 || r.Env.Code != "not_found" {
		t.Errorf("without check-in: %d %s", r.Status, r.Env.Code)
	}
}
