package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/policy"
)

var termsScenarios = []scenario{
	{"Terms/SettingsPerOrganizationAndProperty", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		_, err := s.Settings(t.Context(), w.org.ID, 0)
		wantCode(t, err, booking.CodeNotFound)
		strict, err := policy.Preset(policy.Strict)
		must(t, err)
		must(t, s.SaveSettings(t.Context(), booking.Settings{OrgID: w.org.ID, Policy: &strict}))
		prop := booking.Settings{OrgID: w.org.ID, PropertyID: w.prop.ID, SecurityDeposit: dec("300"), DepositHoldDays: 1, DepositReleaseDays: 2}
		must(t, s.SaveSettings(t.Context(), prop))
		got, err := s.Settings(t.Context(), w.org.ID, 0)
		must(t, err)
		if got.Policy == nil || got.Policy.Name != policy.Strict || got.OrgID != w.org.ID || got.PropertyID != 0 {
			t.Errorf("organisation settings = %+v, want the strict policy", got)
		}
		gotProp, err := s.Settings(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		sameJSON(t, "property settings", gotProp, prop)
		prop.SecurityDeposit = dec("150")
		must(t, s.SaveSettings(t.Context(), prop))
		gotProp, err = s.Settings(t.Context(), w.org.ID, w.prop.ID)
		must(t, err)
		if !gotProp.SecurityDeposit.Equal(dec("150")) {
			t.Errorf("deposit after replace = %s, want 150", gotProp.SecurityDeposit)
		}
		other := newOrg(t, s, "other-org")
		wantCode(t, s.SaveSettings(t.Context(), booking.Settings{OrgID: other.ID, PropertyID: w.prop.ID}), booking.CodeNotFound)
		wantCode(t, s.SaveSettings(t.Context(), booking.Settings{OrgID: 999_999}), booking.CodeNotFound)
	}},
	{"Terms/SaveAndVersion", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		_, err := s.Terms(t.Context(), b.ID)
		wantCode(t, err, booking.CodeNotFound)
		mod, err := policy.Preset(policy.Moderate)
		must(t, err)
		tm := &booking.Terms{BookingID: b.ID, Policy: mod, Customer: "cus_1", BalanceStatus: booking.BalanceScheduled,
			Deposit: dec("200"), DepositStatus: booking.DepositScheduled, DepositClaimed: dec("0"), UpdatedAt: t0}
		must(t, s.SaveTerms(t.Context(), tm))
		if tm.Version != 1 {
			t.Fatalf("version after first save = %d, want 1", tm.Version)
		}
		got, err := s.Terms(t.Context(), b.ID)
		must(t, err)
		sameJSON(t, "terms", got, tm)
		if got.Version != 1 || got.BookingID != b.ID {
			t.Errorf("read terms version %d booking %d, want 1 and %d", got.Version, got.BookingID, b.ID)
		}
		// A second first save, or a save from a stale version, loses.
		wantCode(t, s.SaveTerms(t.Context(), &booking.Terms{BookingID: b.ID}), booking.CodeConflict)
		got.BalanceStatus = booking.BalancePaid
		must(t, s.SaveTerms(t.Context(), got))
		stale := *tm
		stale.BalanceStatus = booking.BalanceFailed
		wantCode(t, s.SaveTerms(t.Context(), &stale), booking.CodeConflict)
		final, err := s.Terms(t.Context(), b.ID)
		must(t, err)
		if final.BalanceStatus != booking.BalancePaid || final.Version != 2 {
			t.Errorf("terms = %s v%d, want paid v2", final.BalanceStatus, final.Version)
		}
		wantCode(t, s.SaveTerms(t.Context(), &booking.Terms{BookingID: 999_999}), booking.CodeNotFound)
	}},
	{"Race/TermsOneWriterWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour))
		must(t, s.SaveTerms(t.Context(), &booking.Terms{BookingID: b.ID, BalanceStatus: booking.BalanceScheduled}))
		got := race(8, func(int) error {
			tm, err := s.Terms(t.Context(), b.ID)
			if err != nil {
				return err
			}
			tm.Version = 1 // all start from the same read
			tm.BalanceDeclines++
			return s.SaveTerms(t.Context(), tm)
		})
		wantCounts(t, got, map[string]int{"": 1, booking.CodeConflict: 7})
	}},
}
