package httpapi

import (
	"reflect"
	"testing"
)

// TestConfigViewEqual: a configuration differing in any field encoded is
// not equal to the kept one, so that its body is encoded again. Every
// field of the view is changed in turn, found by reflection: a field added
// to the view and forgotten by equal fails here.
func TestConfigViewEqual(t *testing.T) {
	s, n := "a", 3
	base := configView{
		Organization: orgView{Name: "Villa", Slug: "villa", Logo: &s},
		Config: orgSettings{PaymentMode: "full", DefaultLocale: "fr", Branding: map[string]string{"color": "#000"},
			TermsURL: &s, MinStayNights: &n, MaxStayNights: &n, Currency: "EUR", Timezone: "Europe/Paris",
			Country: "FR", BookingHorizonDays: 365},
		PaymentPublicKey: "pk", PaymentsReady: true, PaymentAccount: "acct",
	}
	copyOf := func() configView {
		v := base
		v.Config.Branding = map[string]string{"color": "#000"}
		logo, terms, lo, hi := *base.Organization.Logo, *base.Config.TermsURL, *base.Config.MinStayNights, *base.Config.MaxStayNights
		v.Organization.Logo, v.Config.TermsURL, v.Config.MinStayNights, v.Config.MaxStayNights = &logo, &terms, &lo, &hi
		return v
	}
	if !base.equal(copyOf()) {
		t.Fatal("a deep copy is not equal")
	}
	var walk func(path string, f func(v *configView) reflect.Value)
	walk = func(path string, f func(v *configView) reflect.Value) {
		probe := copyOf()
		field := f(&probe)
		if field.Kind() == reflect.Struct {
			for i := range field.NumField() {
				walk(path+"."+field.Type().Field(i).Name, func(v *configView) reflect.Value { return f(v).Field(i) })
			}
			return
		}
		for _, change := range changes(field) {
			v := copyOf()
			change(f(&v))
			if base.equal(v) || v.equal(base) {
				t.Errorf("%s changed: still equal", path)
			}
		}
	}
	walk("configView", func(v *configView) reflect.Value { return reflect.ValueOf(v).Elem() })
}

// changes returns ways of changing a field's value (a pointer's target, a
// pointer to nil, a map's entry and nil map...).
func changes(f reflect.Value) []func(reflect.Value) {
	switch f.Kind() {
	case reflect.String:
		return []func(reflect.Value){func(v reflect.Value) { v.SetString(v.String() + "x") }}
	case reflect.Bool:
		return []func(reflect.Value){func(v reflect.Value) { v.SetBool(!v.Bool()) }}
	case reflect.Int:
		return []func(reflect.Value){func(v reflect.Value) { v.SetInt(v.Int() + 1) }}
	case reflect.Pointer:
		return append([]func(reflect.Value){func(v reflect.Value) { v.SetZero() }},
			func(v reflect.Value) {
				p := reflect.New(v.Type().Elem())
				p.Elem().Set(v.Elem())
				changes(p.Elem())[0](p.Elem())
				v.Set(p)
			})
	case reflect.Map:
		return []func(reflect.Value){
			func(v reflect.Value) { v.SetZero() },
			func(v reflect.Value) { v.SetMapIndex(reflect.ValueOf("color"), reflect.ValueOf("#fff")) },
			func(v reflect.Value) { v.SetMapIndex(reflect.ValueOf("font"), reflect.ValueOf("serif")) },
		}
	}
	panic("configView has a field of kind " + f.Kind().String() + ": teach changes to change it")
}
