package money_test

import (
	"context"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/policy"
)

func d(s string) civil.Date { return civil.MustParse(s) }

func (e *env) setPolicy(t *testing.T, slug, name string) {
	t.Helper()
	p, err := policy.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SaveSettings(context.Background(), slug, booking.Settings{Policy: &p}); err != nil {
		t.Fatal(err)
	}
}
