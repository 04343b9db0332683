package hostapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestMessageTemplates: the host creates a template (an unknown
// placeholder refused with its field), lists, reads, previews it with a
// real booking, disables it; another organisation sees none of it and
// cannot preview with this one's booking.
func TestMessageTemplates(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		bookingID := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		path := hostPath("villa", "/message-templates")
		tpl := map[string]any{"name": "Welcome", "trigger": map[string]any{"when": "before_arrival", "days": 2, "at": "10:00"},
			"texts": map[string]any{
				"en": map[string]any{"subject": "See you soon at {{property}}", "body": "Hello {{guest_name}}, from {{check_in}}: {{booking_link}}"},
				"fr": map[string]any{"subject": "À bientôt", "body": "Bonjour {{guest_name}}, votre code : {{wifi}}"}}}
		bad := e.do("villa", req{method: "POST", path: path, body: tpl})
		want(t, bad, http.StatusUnprocessableEntity, "invalid")
		if !strings.Contains(string(bad.body), `"field_codes":{"texts.fr.body":["unknown_placeholder"]}`) || !strings.Contains(string(bad.body), "espace réservé inconnu") {
			t.Errorf("unknown placeholder answer: %s", bad.body)
		}
		want(t, e.do("villa", req{method: "POST", path: path, body: map[string]any{"name": "x", "texts": tpl["texts"],
			"trigger": map[string]any{"when": "before_arrival", "at": "25:00"}}}), http.StatusUnprocessableEntity, "invalid")
		tpl["texts"].(map[string]any)["fr"] = map[string]any{"subject": "À bientôt à {{property}}", "body": "Bonjour {{guest_name}}, arrivée le {{check_in}}"}

		preview := e.do("villa", req{method: "POST", path: hostPath("villa", "/message-preview"),
			body: map[string]any{"template": tpl, "booking_id": bookingID, "locale": "fr"}})
		want(t, preview, http.StatusOK)
		if d := preview.data(t); d["subject"] != "À bientôt à soleil" || !strings.Contains(d["text"].(string), "Bonjour Ana Guest, arrivée le 10 juin 2026") {
			t.Errorf("preview = %v", d)
		}
		en := e.do("villa", req{method: "POST", path: hostPath("villa", "/message-preview"), body: map[string]any{"template": tpl, "booking_id": bookingID}})
		want(t, en, http.StatusOK)
		if d := en.data(t); d["locale"] != "fr" || d["subject"] != "À bientôt à soleil" {
			t.Errorf("preview in the guest's locale (fr) = %v", d)
		}
		tpl["texts"].(map[string]any)["fr"] = map[string]any{"subject": "À bientôt à {{property}}", "body": "Votre réservation : {{booking_link}}"}
		link := e.do("villa", req{method: "POST", path: hostPath("villa", "/message-preview"), body: map[string]any{"template": tpl, "booking_id": bookingID}})
		if d := link.data(t); !strings.Contains(d["text"].(string), "https://book.example.com/?org=villa&booking=") {
			t.Errorf("preview lacks the booking link: %v", d)
		}
		want(t, e.do("other", req{method: "POST", path: hostPath("other", "/message-preview"),
			body: map[string]any{"template": tpl, "booking_id": bookingID}}), http.StatusNotFound, "not_found")
		if list := e.do("villa", req{method: "GET", path: path}).data(t)["items"].([]any); len(list) != 0 {
			t.Fatalf("previews saved templates: %v", list)
		}

		created := e.do("villa", req{method: "POST", path: path, body: tpl})
		want(t, created, http.StatusCreated)
		c := created.data(t)
		id := int64(c["id"].(float64))
		if c["active"] != true || c["trigger"].(map[string]any)["at"] != "10:00" || c["property_id"] != nil {
			t.Errorf("created = %v", c)
		}
		item := fmt.Sprintf("%s/%d", path, id)
		tpl["active"] = false
		tpl["property_id"] = e.props["soleil"]
		put := e.do("villa", req{method: "PUT", path: item, body: tpl})
		want(t, put, http.StatusOK)
		if d := put.data(t); d["active"] != false || d["property_id"] != float64(e.props["soleil"]) {
			t.Errorf("replaced = %v", d)
		}
		if d := e.do("villa", req{method: "GET", path: item}).data(t); d["active"] != false || d["name"] != "Welcome" {
			t.Errorf("read back = %v", d)
		}
		tpl["property_id"] = e.props["bastide"]
		want(t, e.do("villa", req{method: "PUT", path: item, body: tpl}), http.StatusNotFound, "not_found")
		want(t, e.do("other", req{method: "GET", path: fmt.Sprintf("%s/%d", hostPath("other", "/message-templates"), id)}), http.StatusNotFound, "not_found")
		if list := e.do("other", req{method: "GET", path: hostPath("other", "/message-templates")}).data(t)["items"].([]any); len(list) != 0 {
			t.Errorf("another organisation lists %v", list)
		}

		want(t, e.do("villa", req{method: "POST", path: path, body: map[string]any{"name": "No time", "texts": tpl["texts"],
			"trigger": map[string]any{"when": "after_departure", "days": 1}}}), http.StatusUnprocessableEntity, "invalid")
		audit := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log")})
		want(t, audit, http.StatusOK)
		if s := string(audit.body); !strings.Contains(s, "message_template.create") || !strings.Contains(s, "message_template.update") ||
			strings.Contains(s, "arrivée le") {
			t.Errorf("audit log = %s, want the creation and update without the texts", s)
		}

		settings := hostPath("villa", "/settings/messages")
		if d := e.do("villa", req{method: "GET", path: settings}).data(t); d["review_request"] != true {
			t.Errorf("settings = %v, want the review request on by default", d)
		}
		want(t, e.do("villa", req{method: "PUT", path: settings, body: map[string]any{"review_request": false}}), http.StatusOK)
		if d := e.do("villa", req{method: "GET", path: settings}).data(t); d["review_request"] != false {
			t.Errorf("settings = %v, want off", d)
		}
	})
}

// TestCheckinInstructions: the host sets a property's instructions and
// door code; the public API never shows them.
func TestCheckinInstructions(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		path := hostPath("villa", fmt.Sprintf("/properties/%d/checkin-instructions", soleil))
		if d := e.do("villa", req{method: "GET", path: path}).data(t); d["door_code"] != "" || d["days_before"] != float64(1) || d["at"] != "10:00" || d["updated_at"] != nil {
			t.Errorf("before any = %v", d)
		}
		put := e.do("villa", req{method: "PUT", path: path, body: map[string]any{"checkin_instructions": "Key box by the blue door",
			"door_code": "4711", "days_before": 2, "at": "16:30"}})
		want(t, put, http.StatusOK)
		if d := put.data(t); d["door_code"] != "4711" || d["at"] != "16:30" || d["updated_at"] == nil {
			t.Errorf("saved = %v", d)
		}
		want(t, e.do("villa", req{method: "PUT", path: path, body: map[string]any{"door_code": "1\n2"}}), http.StatusUnprocessableEntity, "invalid")
		if audit := string(e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log")}).body); !strings.Contains(audit, "property.checkin") ||
			strings.Contains(audit, "4711") || strings.Contains(audit, "blue door") {
			t.Errorf("audit log = %s, want the change without the instructions nor the code", audit)
		}
		want(t, e.do("villa", req{method: "PUT", path: path, body: map[string]any{"at": "noon"}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("other", req{method: "GET", path: hostPath("other", fmt.Sprintf("/properties/%d/checkin-instructions", soleil))}), http.StatusNotFound, "not_found")
		pub := e.do("villa", req{method: "GET", path: "/api/v1/book/villa/properties", key: "-"})
		want(t, pub, http.StatusOK)
		if strings.Contains(string(pub.body), "4711") || strings.Contains(string(pub.body), "blue door") {
			t.Errorf("the public API shows the check-in instructions: %s", pub.body)
		}
	})
}
