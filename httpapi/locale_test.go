package httpapi_test

import "testing"

func TestMessageLocale(t *testing.T) {
	const (
		fr = "Ces dates ne sont plus disponibles."
		en = "These dates are no longer available."
	)
	tests := []struct {
		name   string
		slug   string
		query  string
		accept string
		want   string
	}{
		{"org default fr", "villa", "", "", fr},
		{"query en wins over the org", "villa", "?locale=en", "", en},
		{"query wins over Accept-Language", "villa", "?locale=fr", "en", fr},
		{"query with a region", "villa", "?locale=en-GB", "", en},
		{"unsupported query falls through to Accept-Language", "villa", "?locale=de", "en", en},
		{"Accept-Language", "villa", "", "en-GB,en;q=0.9,fr;q=0.8", en},
		{"Accept-Language by quality", "villa", "", "de;q=1, fr;q=0.5, en;q=0.7", en},
		{"Accept-Language q=0 is refused", "villa", "", "en;q=0, de", fr},
		{"Accept-Language wildcard ignored", "villa", "", "*", fr},
		{"Accept-Language fr-CA", "other-org", "", "fr-CA", fr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			prop := "soleil"
			path := "/api/v1/book/" + tt.slug + "/checkout" + tt.query
			body := checkoutBody(e.Props[prop], "2026-09-02", "2026-09-05")
			if tt.slug != "villa" {
				// Take bastide's dates first, so that the checkout fails.
				first := checkoutBody(e.Props["bastide"], "2026-09-02", "2026-09-05")
				if r := e.do(call{method: "POST", path: "/api/v1/book/other-org/checkout", body: first}); r.Status != 201 {
					t.Fatalf("first checkout: %d %s", r.Status, r.Body)
				}
				body = first
			}
			h := map[string]string{}
			if tt.accept != "" {
				h["Accept-Language"] = tt.accept
			}
			r := e.do(call{method: "POST", path: path, body: body, header: h})
			if r.Status != 422 || r.Env.Code != "unavailable" {
				t.Fatalf("%d %s, want 422 unavailable", r.Status, r.Body)
			}
			if r.Env.Message != tt.want {
				t.Errorf("message = %q, want %q", r.Env.Message, tt.want)
			}
		})
	}
}

func TestMessageLocaleDefaults(t *testing.T) {
	e := newTestEnv(t)
	tests := []struct {
		name string
		path string
		want string
	}{
		{"org default en", "/api/v1/book/other-org/properties/999/availability", "This property does not exist."},
		{"org default fr", villa + "/properties/999/availability", "Ce logement n'existe pas."},
		{"unknown org is en", "/api/v1/book/nobody", "This organisation does not exist or does not take bookings online."},
		{"unknown route is en", "/api/v1/nowhere", "This resource does not exist."},
		{"unknown route in fr when asked", "/api/v1/nowhere?locale=fr", "Cette ressource n'existe pas."},
		{"route of an org in its locale", villa + "/nowhere", "Cette ressource n'existe pas."},
	}
	for _, tt := range tests {
		r := e.do(call{method: "GET", path: tt.path})
		if r.Env.Message != tt.want {
			t.Errorf("%s: message = %q, want %q", tt.name, r.Env.Message, tt.want)
		}
	}
}

func TestFieldMessagesInEnglish(t *testing.T) {
	e := newTestEnv(t)
	r := e.do(call{method: "POST", path: villa + "/checkout?locale=en", body: `{"guest_email":"nope","guest_phone":"12","locale":"de","message":""}`})
	want := map[string]string{
		"guest_email": "This e-mail address is not valid.",
		"guest_phone": "Enter a valid phone number, such as +33612345678.",
		"locale":      "Choose fr or en.",
		"guest_name":  "This field is required.",
	}
	for field, msg := range want {
		if got := r.Env.Errors[field]; len(got) != 1 || got[0] != msg {
			t.Errorf("errors[%s] = %q, want [%q]", field, got, msg)
		}
	}
	if r.Env.Message != "The request is invalid." {
		t.Errorf("message = %q", r.Env.Message)
	}
}
