package apihttp_test

import (
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/apihttp"
)

// TestMessagesWith: an API's variants of a code come before the shared
// ones, its field reasons apply only where the shared catalogue has none,
// and Base is left as it was.
func TestMessagesWith(t *testing.T) {
	m := apihttp.Base.With(map[string][]apihttp.Variant{
		booking.CodeNotFound: {{When: apihttp.Equals(booking.ParamSubject, "gadget"), Text: apihttp.Text{FR: "Pas de gadget.", EN: "No gadget."}}},
	}, map[string]apihttp.Text{
		"gadget_broken": {FR: "Gadget cassé.", EN: "Broken gadget."},
		"required":      {FR: "remplacé", EN: "replaced"},
	})
	gadget := &booking.Error{Code: booking.CodeNotFound, Params: map[string]string{booking.ParamSubject: "gadget"}}
	property := &booking.Error{Code: booking.CodeNotFound, Params: map[string]string{booking.ParamSubject: "property"}}
	for _, tt := range []struct {
		what string
		got  string
		want string
	}{
		{"the API's variant", m.Message("en", gadget), "No gadget."},
		{"a shared variant", m.Message("en", property), "This property does not exist."},
		{"Base without the API's variant", apihttp.Base.Message("en", gadget), "This resource does not exist."},
		{"the API's field reason", m.FieldMessage("fr", "x", "gadget_broken", nil), "Gadget cassé."},
		{"a shared field reason kept", m.FieldMessage("en", "x", "required", nil), apihttp.Base.FieldMessage("en", "x", "required", nil)},
		{"Base without the API's reason", apihttp.Base.FieldMessage("en", "x", "gadget_broken", nil), "This value is not valid."},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.what, tt.got, tt.want)
		}
	}
	if got := apihttp.Base.FieldMessage("en", "x", "required", nil); got == "replaced" {
		t.Errorf("a shared reason was replaced: %q", got)
	}
}
