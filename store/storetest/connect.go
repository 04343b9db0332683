package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
)

var connectScenarios = []scenario{
	{"Connect/PaymentAccountSaveAndFind", func(t *testing.T, s Stores) {
		w, c := newWorld(t, s), s.connectStore(t)
		_, err := s.PaymentAccount(t.Context(), w.org.ID)
		wantCode(t, err, booking.CodeNotFound)
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		a := booking.PaymentAccount{OrgID: w.org.ID, AccountID: "acct_A", State: booking.OnboardingPending,
			FeePercent: dec("2.5"), FeeFixed: 30, UpdatedAt: at}
		must(t, c.SavePaymentAccount(t.Context(), &a))
		got, err := s.PaymentAccount(t.Context(), w.org.ID)
		must(t, err)
		if got.AccountID != "acct_A" || got.State != booking.OnboardingPending || got.ChargesEnabled ||
			!got.FeePercent.Equal(dec("2.5")) || got.FeeFixed != 30 || !got.UpdatedAt.Equal(at) {
			t.Errorf("saved account = %+v", got)
		}
		a.ChargesEnabled, a.State = true, booking.OnboardingComplete
		must(t, c.SavePaymentAccount(t.Context(), &a))
		got, err = c.PaymentAccountByAccountID(t.Context(), "acct_A")
		must(t, err)
		if got.OrgID != w.org.ID || !got.ChargesEnabled || got.State != booking.OnboardingComplete {
			t.Errorf("account by id after update = %+v", got)
		}
		_, err = c.PaymentAccountByAccountID(t.Context(), "acct_unknown")
		wantCode(t, err, booking.CodeNotFound)
		_, err = c.PaymentAccountByAccountID(t.Context(), "")
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Connect/PaymentAccountRefusals", func(t *testing.T, s Stores) {
		w, c := newWorld(t, s), s.connectStore(t)
		must(t, c.SavePaymentAccount(t.Context(), &booking.PaymentAccount{OrgID: w.org.ID, AccountID: "acct_A", State: booking.OnboardingPending}))
		other := newOrg(t, s, "other-org")
		wantCode(t, c.SavePaymentAccount(t.Context(), &booking.PaymentAccount{OrgID: other.ID, AccountID: "acct_A", State: booking.OnboardingPending}), booking.CodeConflict)
		// Two organisations without an account yet are not a conflict.
		must(t, c.SavePaymentAccount(t.Context(), &booking.PaymentAccount{OrgID: other.ID, State: booking.OnboardingNone}))
		third := newOrg(t, s, "third-org")
		must(t, c.SavePaymentAccount(t.Context(), &booking.PaymentAccount{OrgID: third.ID, State: booking.OnboardingNone}))
		wantCode(t, c.SavePaymentAccount(t.Context(), &booking.PaymentAccount{OrgID: 999_999, State: booking.OnboardingNone}), booking.CodeNotFound)
		wantCode(t, c.SavePaymentAccount(t.Context(), &booking.PaymentAccount{OrgID: w.org.ID, State: "bogus"}), booking.CodeInvalid)
		wantCode(t, c.SavePaymentAccount(t.Context(), &booking.PaymentAccount{OrgID: w.org.ID, State: booking.OnboardingNone, FeePercent: dec("101")}), booking.CodeInvalid)
	}},
	{"Connect/BookingAccountRecordedOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-06-01", "2026-06-04", time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
		acct, err := s.BookingPaymentAccount(t.Context(), b.ID)
		must(t, err)
		if acct != "" {
			t.Errorf("account before any = %q, want empty", acct)
		}
		must(t, s.SetBookingPaymentAccount(t.Context(), b.ID, "acct_A"))
		must(t, s.SetBookingPaymentAccount(t.Context(), b.ID, "acct_A"))
		wantCode(t, s.SetBookingPaymentAccount(t.Context(), b.ID, "acct_B"), booking.CodeConflict)
		acct, err = s.BookingPaymentAccount(t.Context(), b.ID)
		must(t, err)
		if acct != "acct_A" {
			t.Errorf("account = %q, want acct_A (recorded once)", acct)
		}
		wantCode(t, s.SetBookingPaymentAccount(t.Context(), 999_999, "acct_A"), booking.CodeNotFound)
	}},
}
