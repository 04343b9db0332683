package hostapi_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// The authority files are text the contract checks as strings.
func init() {
	openapi3filter.RegisterBodyDecoder("application/xml", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.FileBodyDecoder)
}

// spanishGuests are two adults of a Spanish property's stay.
func spanishGuests() []map[string]any {
	return []map[string]any{
		{"given_names": "Ana", "surname": "García", "second_surname": "Pérez", "sex": "F", "birth_date": "1985-03-02",
			"nationality": "ES", "document_type": "id_card", "document_number": "12345678Z", "document_support": "ABC123456",
			"document_country": "ES", "address": "Calle Mayor 1", "postal_code": "28013", "city": "Madrid",
			"municipality_code": "28079", "address_country": "ES", "phone": "+34600000000"},
		{"given_names": "Jonas", "surname": "Müller", "sex": "M", "birth_date": "1980-11-20", "nationality": "DE",
			"document_type": "passport", "document_number": "C01X00T47", "document_country": "DE", "address": "Unter den Linden 5",
			"postal_code": "10117", "city": "Berlin", "address_country": "DE", "email": "jonas@example.com"},
	}
}

// TestBookingCheckin: the host fills in a Spanish stay's check-in, sees
// its completeness, reads it (audited without the data) and downloads the
// SES.HOSPEDAJES file; a bad guest is refused naming the field; another
// organisation's booking is not found; the erasure of the guest deletes
// the check-in.
func TestBookingCheckin(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", fmt.Sprintf("/properties/%d", e.props["soleil"])),
			body: map[string]any{"country": "ES"}}), http.StatusOK)
		id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		path := func(org, rest string) string { return hostPath(org, fmt.Sprintf("/bookings/%d/checkin%s", id, rest)) }

		status := e.do("villa", req{method: "GET", path: path("villa", "/status")})
		want(t, status, http.StatusOK)
		if c := status.data(t)["completeness"].(map[string]any); c["expected"] != 2.0 || c["entered"] != 0.0 || c["complete"] != false {
			t.Errorf("completeness before = %v", c)
		}
		want(t, e.do("villa", req{method: "GET", path: path("villa", "/file") + "?establishment_code=0000012345"}), http.StatusNotFound, "not_found")

		half := spanishGuests()[:1]
		r := e.do("villa", req{method: "PUT", path: path("villa", ""), body: map[string]any{"guests": half}})
		want(t, r, http.StatusOK)
		if c := r.data(t)["completeness"].(map[string]any); c["valid"] != 1.0 || c["complete"] != false {
			t.Errorf("one guest of two: %v", c)
		}
		bad := spanishGuests()
		bad[1]["email"] = ""
		bad[0]["document_number"] = "12345678A"
		r = e.do("villa", req{method: "PUT", path: path("villa", ""), body: map[string]any{"guests": bad}})
		want(t, r, http.StatusUnprocessableEntity, "invalid")
		for _, f := range []string{"guests.0.document_number", "guests.1.phone"} {
			if !strings.Contains(string(r.body), f) {
				t.Errorf("422 does not name %s: %s", f, r.body)
			}
		}
		r = e.do("villa", req{method: "PUT", path: path("villa", ""), body: map[string]any{"guests": spanishGuests()}})
		want(t, r, http.StatusOK)
		if c := r.data(t)["completeness"].(map[string]any); c["complete"] != true || c["valid"] != 2.0 {
			t.Errorf("two valid guests: %v", c)
		}
		read := e.do("villa", req{method: "GET", path: path("villa", "")})
		want(t, read, http.StatusOK)
		if g := read.data(t)["guests"].([]any); len(g) != 2 || g[1].(map[string]any)["surname"] != "Müller" || read.data(t)["authority"] != "ses_hospedajes" {
			t.Errorf("check-in read = %v", read.data(t))
		}

		want(t, e.do("villa", req{method: "GET", path: path("villa", "/file")}), http.StatusUnprocessableEntity, "invalid")
		f := e.do("villa", req{method: "GET", path: path("villa", "/file") + "?establishment_code=0000012345"})
		want(t, f, http.StatusOK)
		if ct := f.header.Get("Content-Type"); ct != "application/xml" ||
			!strings.Contains(f.header.Get("Content-Disposition"), fmt.Sprintf(`booking-%d.xml`, id)) {
			t.Errorf("file headers %v", f.header)
		}
		var doc struct {
			Personas []struct {
				Nombre string `xml:"nombre"`
				Tipo   string `xml:"tipoDocumento"`
			} `xml:"solicitud>comunicacion>persona"`
		}
		if err := xml.Unmarshal(f.body, &doc); err != nil || len(doc.Personas) != 2 || doc.Personas[0].Tipo != "NIF" || doc.Personas[1].Tipo != "PAS" {
			t.Errorf("SES file %+v, %v:\n%s", doc, err, f.body)
		}
		arrivals := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d/checkin-file?date=2026-06-10&establishment_code=0000012345", e.props["soleil"]))})
		want(t, arrivals, http.StatusOK)
		if !bytes.Equal(bytes.ReplaceAll(arrivals.body, []byte("arrivals"), nil), bytes.ReplaceAll(f.body, []byte("arrivals"), nil)) {
			t.Errorf("the day's file differs from the booking's, the only arrival:\n%s\n%s", arrivals.body, f.body)
		}
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d/checkin-file?date=2026-06-11", e.props["soleil"]))}), http.StatusNotFound, "not_found")

		want(t, e.do("other", req{method: "GET", path: path("other", "")}), http.StatusNotFound, "not_found")
		want(t, e.do("other", req{method: "PUT", path: path("other", ""), body: map[string]any{"guests": spanishGuests()}}), http.StatusNotFound, "not_found")

		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, a := range log {
			if strings.HasPrefix(a.Action, "checkin.") {
				counts[a.Action]++
				for _, secret := range []string{"García", "Müller", "12345678Z", "C01X00T47", "jonas@example.com", "600000000", "1985"} {
					if bytes.Contains(a.After, []byte(secret)) || bytes.Contains(a.Before, []byte(secret)) {
						t.Errorf("audit %s holds %q: %s", a.Action, secret, a.After)
					}
				}
			}
		}
		// Two saves answered with the check-in, one GET: three reads.
		if counts["checkin.save"] != 2 || counts["checkin.read"] != 3 || counts["checkin.file"] != 2 {
			t.Errorf("audit entries %v, want 2 saves, 3 reads, 2 files", counts)
		}

		export := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/guest-data", id))})
		want(t, export, http.StatusOK)
		if got := export.data(t)["checkin"].([]any); len(got) != 2 || got[0].(map[string]any)["document_number"] != "12345678Z" {
			t.Errorf("the guest's data export carries the check-in %v", got)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", id)), body: map[string]any{"refund": "none"}}), http.StatusOK)
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/erase-guest", id))}), http.StatusOK)
		if got := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/guest-data", id))}).data(t)["checkin"].([]any); len(got) != 0 {
			t.Errorf("the export after the erasure carries %v", got)
		}
		after := e.do("villa", req{method: "GET", path: path("villa", "")})
		want(t, after, http.StatusOK)
		if g := after.data(t)["guests"].([]any); len(g) != 0 {
			t.Errorf("the erasure kept the check-in: %v", g)
		}
	})
}

// TestCheckinIsNotForHousekeeping: a housekeeping member can neither read
// nor fill in nor download a check-in; a manager can.
func TestCheckinIsNotForHousekeeping(t *testing.T) {
	e, _, _ := memberEnv(t, backends(t)["sqlite"](t, 1))
	id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
	for _, tt := range []struct {
		role, method, path string
		body               any
		status             int
	}{
		{"housekeeping", "GET", "/bookings/%d/checkin", nil, 403},
		{"housekeeping", "GET", "/bookings/%d/checkin/status", nil, 403},
		{"housekeeping", "PUT", "/bookings/%d/checkin", map[string]any{"guests": spanishGuests()}, 403},
		{"housekeeping", "GET", "/bookings/%d/checkin/file", nil, 403},
		{"manager", "GET", "/bookings/%d/checkin", nil, 200},
	} {
		t.Run(tt.role+" "+tt.method+" "+tt.path, func(t *testing.T) {
			e.t = t
			want(t, e.do("villa", req{method: tt.method, path: hostPath("villa", fmt.Sprintf(tt.path, id)), body: tt.body, key: "-", replica: 1,
				header: map[string]string{"X-Test-Member": "7:" + tt.role}}), tt.status)
		})
	}
}

// TestCheckinFilesPerCountry: an Italian and a French property's stays of
// two adults give their authority files through the host API: Alloggiati
// Web's records (text) and the fiches de police (HTML), each documented.
func TestCheckinFilesPerCountry(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		german := map[string]any{"given_names": "Jonas", "surname": "Müller", "sex": "M", "birth_date": "1980-11-20",
			"birth_place": "Hamburg", "birth_country": "DE", "nationality": "DE", "document_type": "passport",
			"document_number": "C01X00T47", "document_country": "DE", "address": "Unter den Linden 5", "postal_code": "10117",
			"city": "Berlin", "address_country": "DE", "phone": "+4915112345678", "email": "jonas@example.com"}
		second := map[string]any{}
		for k, v := range german {
			second[k] = v
		}
		second["given_names"], second["sex"] = "Lena", "F"
		for _, tt := range []struct {
			country, in, contentType, name string
			check                          func(body string) bool
		}{
			{"IT", "2026-06-10", "text/plain; charset=utf-8", ".txt", func(b string) bool {
				lines := strings.Split(b, "\r\n")
				return len(lines) == 2 && len([]rune(lines[0])) == 168 && strings.HasPrefix(lines[0], "18") && strings.HasPrefix(lines[1], "20") &&
					strings.Contains(lines[0], "100000216100000216PASOR")
			}},
			{"FR", "2026-06-20", "text/html; charset=utf-8", ".html", func(b string) bool {
				return strings.Count(b, `<section class="fiche">`) == 2 && strings.Contains(b, "Lena") && strings.Contains(b, "jonas@example.com")
			}},
		} {
			t.Run(tt.country, func(t *testing.T) {
				want(t, e.do("villa", req{method: "PATCH", path: hostPath("villa", fmt.Sprintf("/properties/%d", e.props["soleil"])),
					body: map[string]any{"country": tt.country}}), http.StatusOK)
				out, _ := time.Parse(time.DateOnly, tt.in)
				id := e.paidBooking("villa", "soleil", tt.in, out.AddDate(0, 0, 3).Format(time.DateOnly))
				want(t, e.do("villa", req{method: "PUT", path: hostPath("villa", fmt.Sprintf("/bookings/%d/checkin", id)),
					body: map[string]any{"guests": []any{german, second}}}), http.StatusOK)
				f := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/checkin/file", id))})
				want(t, f, http.StatusOK)
				if ct := f.header.Get("Content-Type"); ct != tt.contentType || !strings.Contains(f.header.Get("Content-Disposition"), tt.name) {
					t.Errorf("headers %v", f.header)
				}
				if !tt.check(string(f.body)) {
					t.Errorf("file:\n%s", f.body)
				}
			})
		}
	})
}
