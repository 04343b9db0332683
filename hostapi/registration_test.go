package hostapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/staykit/staykit/registration"
)

// TestRegistrationNumber: a host sets the property's registration number
// (Regulation (EU) 2024/1028), checked against its country's published
// format; the public property shows it once set.
func TestRegistrationNumber(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		prop := hostPath("villa", fmt.Sprintf("/properties/%d", e.props["soleil"]))
		patch := func(body any) response { return e.do("villa", req{method: "PATCH", path: prop, body: body}) }
		for _, tt := range []struct {
			name   string
			body   map[string]any
			want   string // the number stored; "" with reason
			reason string
		}{
			{"FrenchSpaced", map[string]any{"country": "FR", "registration_number": "75056 123456 ab"}, "75056123456AB", ""},
			{"FrenchWrongLength", map[string]any{"registration_number": "75056 12345 AB"}, "", registration.ReasonInvalidFormat},
			{"ItalianCIN", map[string]any{"country": "IT", "registration_number": "IT039007B100001"}, "IT039007B100001", ""},
			{"CountryTheNumberDoesNotFit", map[string]any{"country": "FR"}, "", registration.ReasonInvalidFormat},
			{"ItalianWithoutPrefix", map[string]any{"registration_number": "039007B100001"}, "", registration.ReasonInvalidFormat},
			{"SpanishFreeForm", map[string]any{"country": "ES", "registration_number": "VUT/MA/12345"}, "VUT/MA/12345", ""},
			{"ControlCharacter", map[string]any{"registration_number": "VUT\u202e1"}, "", registration.ReasonInvalidCharacters},
			{"TooLong", map[string]any{"registration_number": strings.Repeat("A", 65)}, "", registration.ReasonTooLong},
			{"Removed", map[string]any{"registration_number": ""}, "", ""},
			{"FrenchAgain", map[string]any{"country": "FR", "registration_number": "2B033000001ZZ"}, "2B033000001ZZ", ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := patch(tt.body)
				if tt.reason != "" {
					wantField(t, tt.name, r, "registration_number", tt.reason)
					return
				}
				want(t, r, http.StatusOK)
				if got := r.data(t)["registration_number"]; got != tt.want {
					t.Errorf("registration_number = %v, want %q", got, tt.want)
				}
				pub := e.do("villa", req{method: "GET", path: "/api/v1/book/villa/properties"})
				want(t, pub, http.StatusOK)
				var list struct {
					Data []map[string]any `json:"data"`
				}
				if err := json.Unmarshal(pub.body, &list); err != nil || len(list.Data) != 1 {
					t.Fatalf("public properties: %v %s", err, pub.body)
				}
				got, shown := list.Data[0]["registration_number"]
				if tt.want == "" && shown || tt.want != "" && got != tt.want {
					t.Errorf("public registration_number = %v (present %v), want %q", got, shown, tt.want)
				}
			})
		}
		created := e.do("villa", req{method: "POST", path: hostPath("villa", "/properties"), body: map[string]any{
			"name": "Mas", "country": "FR", "max_guests": 2, "rates": map[string]any{"base_rate": "80"}, "registration_number": "13001 000042 K9"}})
		want(t, created, http.StatusCreated)
		if got := created.data(t)["registration_number"]; got != "13001000042K9" {
			t.Errorf("created registration_number = %v", got)
		}
		wantField(t, "created with a wrong number", e.do("villa", req{method: "POST", path: hostPath("villa", "/properties"), body: map[string]any{
			"name": "Mas 2", "country": "FR", "max_guests": 2, "rates": map[string]any{"base_rate": "80"}, "registration_number": "13001"}}),
			"registration_number", registration.ReasonInvalidFormat)
	})
}
