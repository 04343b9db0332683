package policy_test

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/policy"
)

func mustPreset(t *testing.T, name string) policy.Policy {
	t.Helper()
	p, err := policy.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("preset %s: %v", name, err)
	}
	return p
}

// TestPresetsAtBoundaries cancels one second before and at each tier's
// deadline, in Paris, across the spring and autumn daylight saving
// changes: a deadline is local midnight on the calendar, not a multiple of
// 24 hours.
func TestPresetsAtBoundaries(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	total := decimal.RequireFromString("1000.00")
	// 2026-03-29 is the spring change in Paris (a 23-hour day), 2026-10-25
	// the autumn one (25 hours).
	spring := civil.Date{Year: 2026, Month: 3, Day: 30}
	autumn := civil.Date{Year: 2026, Month: 10, Day: 26}
	at := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name    string
		preset  string
		checkIn civil.Date
		now     time.Time
		want    string
		until   time.Time
	}{
		// flexible: full refund until midnight (Paris) starting 2026-03-29,
		// which is 2026-03-28T23:00Z (still winter time, UTC+1).
		{"flexible just before", policy.Flexible, spring, at("2026-03-28T22:59:59Z"), "1000", at("2026-03-28T23:00:00Z")},
		{"flexible at deadline", policy.Flexible, spring, at("2026-03-28T23:00:00Z"), "0", time.Time{}},
		// 24 hours before check-in midnight (2026-03-29T22:00Z) would be an
		// hour late: the 29th has 23 hours.
		{"flexible 24h before is too late", policy.Flexible, spring, at("2026-03-28T23:30:00Z"), "0", time.Time{}},
		{"moderate 5 days", policy.Moderate, spring, at("2026-03-24T22:59:59Z"), "1000", at("2026-03-24T23:00:00Z")},
		{"moderate half", policy.Moderate, spring, at("2026-03-24T23:00:00Z"), "500", at("2026-03-29T22:00:00Z")},
		{"moderate after check-in day began", policy.Moderate, spring, at("2026-03-29T22:00:00Z"), "0", time.Time{}},
		// Autumn: the 25th has 25 hours; midnight on the 25th is 22:00Z on
		// the 24th (summer time), midnight on the 26th is 23:00Z.
		{"flexible autumn before", policy.Flexible, autumn, at("2026-10-24T21:59:59Z"), "1000", at("2026-10-24T22:00:00Z")},
		{"flexible autumn at", policy.Flexible, autumn, at("2026-10-24T22:00:00Z"), "0", time.Time{}},
		{"moderate autumn half until check-in", policy.Moderate, autumn, at("2026-10-25T22:59:59Z"), "500", at("2026-10-25T23:00:00Z")},
		{"strict 30 days", policy.Strict, autumn, at("2026-09-25T21:59:59Z"), "1000", at("2026-09-25T22:00:00Z")},
		{"strict half", policy.Strict, autumn, at("2026-09-25T22:00:00Z"), "500", at("2026-10-18T22:00:00Z")},
		{"strict last half second", policy.Strict, autumn, at("2026-10-18T21:59:59Z"), "500", at("2026-10-18T22:00:00Z")},
		{"strict nothing", policy.Strict, autumn, at("2026-10-18T22:00:00Z"), "0", time.Time{}},
		{"non refundable long before", policy.NonRefundable, autumn, at("2025-01-01T00:00:00Z"), "0", time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustPreset(t, tt.preset).Evaluate(total, tt.checkIn, paris, tt.now, 2)
			if want := decimal.RequireFromString(tt.want); !got.Refund.Equal(want) {
				t.Errorf("refund = %s, want %s", got.Refund, want)
			}
			if !got.Until.Equal(tt.until) {
				t.Errorf("until = %v, want %v", got.Until, tt.until)
			}
		})
	}
}

func TestNonRefundableAmountAndRounding(t *testing.T) {
	p := policy.Policy{Name: policy.Custom, Tiers: []policy.Tier{{DaysBefore: 10, RefundPercent: decimal.RequireFromString("33.333")}},
		NonRefundable: decimal.RequireFromString("100")}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	got := p.Evaluate(decimal.RequireFromString("400.00"), civil.Date{Year: 2026, Month: 7, Day: 20}, time.UTC,
		time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), 2)
	// (400 − 100) × 33.333 % = 99.999, rounded down in the host's favour.
	if want := decimal.RequireFromString("99.99"); !got.Refund.Equal(want) {
		t.Errorf("refund = %s, want %s", got.Refund, want)
	}
	small := p.Evaluate(decimal.RequireFromString("50"), civil.Date{Year: 2026, Month: 7, Day: 20}, time.UTC,
		time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), 2)
	if !small.Refund.IsZero() {
		t.Errorf("refund of a total below the non-refundable amount = %s, want 0", small.Refund)
	}
}

func TestValidate(t *testing.T) {
	pct := decimal.NewFromInt
	tests := []struct {
		name string
		p    policy.Policy
	}{
		{"unknown name", policy.Policy{Name: "lenient"}},
		{"negative days", policy.Policy{Name: policy.Custom, Tiers: []policy.Tier{{-1, pct(10)}}}},
		{"over 100", policy.Policy{Name: policy.Custom, Tiers: []policy.Tier{{3, pct(101)}}}},
		{"days not decreasing", policy.Policy{Name: policy.Custom, Tiers: []policy.Tier{{3, pct(100)}, {3, pct(50)}}}},
		{"more generous later", policy.Policy{Name: policy.Custom, Tiers: []policy.Tier{{10, pct(50)}, {3, pct(100)}}}},
		{"negative fee", policy.Policy{Name: policy.Custom, NonRefundable: pct(-1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.p.Validate(); !errors.Is(err, policy.ErrInvalid) {
				t.Errorf("Validate() = %v, want ErrInvalid", err)
			}
		})
	}
	if _, err := policy.Preset("lenient"); !errors.Is(err, policy.ErrInvalid) {
		t.Errorf("Preset(lenient) = %v, want ErrInvalid", err)
	}
}
