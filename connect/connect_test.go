package connect_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// clock is a fixed clock.
type clock struct{}

func (clock) Now() time.Time { return now }

// memStore is connect.Store in memory.
type memStore struct {
	mu        sync.Mutex
	accounts  map[int64]booking.PaymentAccount
	processed map[string]bool
	saves     int
}

func newMemStore() *memStore {
	return &memStore{accounts: map[int64]booking.PaymentAccount{}, processed: map[string]bool{}}
}

func notFound(what string) error {
	return &booking.Error{Code: booking.CodeNotFound, Message: what + " not found"}
}

func (m *memStore) PaymentAccount(_ context.Context, orgID int64) (*booking.PaymentAccount, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[orgID]
	if !ok {
		return nil, notFound("payment account")
	}
	return &a, nil
}

func (m *memStore) PaymentAccountByAccountID(_ context.Context, accountID string) (*booking.PaymentAccount, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range m.accounts {
		if accountID != "" && a.AccountID == accountID {
			return &a, nil
		}
	}
	return nil, notFound("payment account")
}

func (m *memStore) SavePaymentAccount(_ context.Context, a *booking.PaymentAccount) error {
	if err := a.Validate(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.accounts[a.OrgID] = *a
	m.saves++
	return nil
}

func (m *memStore) EventProcessed(_ context.Context, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.processed[id], nil
}

func (m *memStore) MarkEventProcessed(_ context.Context, id string, _ time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.processed[id] {
		return false, nil
	}
	m.processed[id] = true
	return true, nil
}

// events records the events handed to the booking engine.
type events struct{ got []payment.Event }

func (e *events) HandlePaymentEvent(_ context.Context, ev payment.Event) error {
	e.got = append(e.got, ev)
	return nil
}

var org = &booking.Organization{ID: 7, Slug: "villa", Country: "FR"}

// platformEnv is a Service on a fake Connect platform.
type platformEnv struct {
	svc    *connect.Service
	store  *memStore
	pl     *paymenttest.Platform
	events *events
}

func newPlatformEnv(t *testing.T) *platformEnv {
	t.Helper()
	e := &platformEnv{store: newMemStore(), events: &events{}}
	e.pl = paymenttest.NewPlatform(paymenttest.New(paymenttest.WithClock(clock{}.Now)), payment.ChargeDestination)
	e.svc = connect.New(connect.Options{Store: e.store, Platform: e.pl, Events: e.events, Clock: clock{}})
	return e
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := booking.ErrorCode(err); got != code {
		t.Fatalf("error = %v (code %q), want code %q", err, got, code)
	}
}

func TestNoPlatform(t *testing.T) {
	ctx := context.Background()
	for name, svc := range map[string]*connect.Service{
		"zero":             {},
		"with no platform": connect.New(connect.Options{Store: newMemStore()}),
	} {
		t.Run(name, func(t *testing.T) {
			st, err := svc.Status(ctx, org)
			if err != nil || st.Enabled || st.ChargeType != "" || st.Account.OrgID != org.ID || st.Account.State != booking.OnboardingNone {
				t.Errorf("Status = %+v, %v; want not enabled, state none", st, err)
			}
			_, err = svc.StartOnboarding(ctx, org, "https://h.test/a", "https://h.test/b")
			wantCode(t, err, booking.CodeInvalid)
			wantCode(t, svc.HandleWebhook(ctx, []byte(`{}`), "t=1,v1=00"), booking.CodeInvalid)
		})
	}
}

func TestSetPlatformFee(t *testing.T) {
	ctx := context.Background()
	wantCode(t, (&connect.Service{}).SetPlatformFee(ctx, org, decimal.NewFromInt(3), 50), booking.CodeInvalid)

	// Without a platform the fee is still recorded, as it was in booking.
	store := newMemStore()
	svc := connect.New(connect.Options{Store: store, Clock: clock{}})
	if err := svc.SetPlatformFee(ctx, org, decimal.RequireFromString("2.5"), 30); err != nil {
		t.Fatal(err)
	}
	a := store.accounts[org.ID]
	if !a.FeePercent.Equal(decimal.RequireFromString("2.5")) || a.FeeFixed != 30 || a.State != booking.OnboardingNone || !a.UpdatedAt.Equal(now) {
		t.Errorf("saved account = %+v; want 2.5 %% + 30, state none, updated now", a)
	}
	wantCode(t, svc.SetPlatformFee(ctx, org, decimal.NewFromInt(101), 0), booking.CodeInvalid)
}

func TestStartOnboardingCreatesTheAccountOnce(t *testing.T) {
	ctx := context.Background()
	e := newPlatformEnv(t)
	link, err := e.svc.StartOnboarding(ctx, org, "https://h.test/done", "https://h.test/again")
	if err != nil || !strings.Contains(link, "return_url=") {
		t.Fatalf("StartOnboarding = %q, %v; want a link", link, err)
	}
	st, err := e.svc.Status(ctx, org)
	if err != nil || !st.Enabled || st.ChargeType != payment.ChargeDestination || st.Account.AccountID == "" ||
		st.Account.State != booking.OnboardingPending || st.Account.ChargesEnabled {
		t.Fatalf("Status = %+v, %v; want an enabled platform with a pending account", st, err)
	}
	if _, err := e.svc.StartOnboarding(ctx, org, "https://h.test/done", "https://h.test/again"); err != nil {
		t.Fatal(err)
	}
	if again, _ := e.svc.Status(ctx, org); again.Account.AccountID != st.Account.AccountID || e.store.saves != 1 {
		t.Errorf("second onboarding: account %s after %d saves; want %s saved once", again.Account.AccountID, e.store.saves, st.Account.AccountID)
	}
}

// failingCreate is a platform whose CreateAccount fails with err.
type failingCreate struct {
	*paymenttest.Platform
	err error
}

func (f failingCreate) CreateAccount(context.Context, payment.AccountParams) (*payment.Account, error) {
	return nil, f.err
}

func TestStartOnboardingProviderErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail error
		code string
	}{
		{"refused", payment.ErrInvalid, booking.CodeInvalid},
		{"unreachable", errors.New("connection reset"), booking.CodePaymentUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newPlatformEnv(t)
			svc := connect.New(connect.Options{Store: e.store, Platform: failingCreate{e.pl, tc.fail}, Events: e.events, Clock: clock{}})
			_, err := svc.StartOnboarding(context.Background(), org, "https://h.test/done", "https://h.test/again")
			wantCode(t, err, tc.code)
			if e.store.saves != 0 {
				t.Errorf("%d accounts saved after a failed create", e.store.saves)
			}
		})
	}
}

func TestHandleWebhook(t *testing.T) {
	ctx := context.Background()
	e := newPlatformEnv(t)
	if _, err := e.svc.StartOnboarding(ctx, org, "https://h.test/done", "https://h.test/again"); err != nil {
		t.Fatal(err)
	}
	st, _ := e.svc.Status(ctx, org)
	acct := st.Account.AccountID

	// account.updated: the account takes charges.
	e.pl.SetChargesEnabled(acct, true)
	updated, sig, err := e.pl.SignedConnectWebhook(payment.EventAccountUpdated, acct, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.HandleWebhook(ctx, updated, sig); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.svc.Status(ctx, org); !st.Account.ChargesEnabled || st.Account.State != booking.OnboardingComplete {
		t.Fatalf("after account.updated: %+v; want complete, charges enabled", st.Account)
	}
	// The same event again is not applied twice, even if stale by now.
	saves := e.store.saves
	if err := e.svc.HandleWebhook(ctx, updated, sig); err != nil || e.store.saves != saves {
		t.Errorf("redelivered account.updated: %v, %d saves; want none", err, e.store.saves-saves)
	}
	// An account staykit does not know is ignored.
	other, sig, _ := e.pl.SignedConnectWebhook(payment.EventAccountUpdated, "acct_unknown", "")
	if err := e.svc.HandleWebhook(ctx, other, sig); err != nil || e.store.saves != saves {
		t.Errorf("unknown account: %v, %d saves; want ignored", err, e.store.saves-saves)
	}
	if len(e.events.got) != 0 {
		t.Errorf("account events handed to the booking engine: %+v", e.events.got)
	}

	// A payment of the account goes to the booking engine, with its account.
	in, err := e.pl.ForAccount(acct).CreateIntent(ctx, payment.CreateParams{Amount: 1000, Currency: "EUR"})
	if err != nil {
		t.Fatal(err)
	}
	paid, sig, err := e.pl.SignedConnectWebhook(payment.EventSucceeded, acct, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.HandleWebhook(ctx, paid, sig); err != nil {
		t.Fatal(err)
	}
	if len(e.events.got) != 1 || e.events.got[0].Account != acct || e.events.got[0].Intent == nil || e.events.got[0].Intent.ID != in.ID {
		t.Errorf("events handed on = %+v; want the payment of %s on %s", e.events.got, in.ID, acct)
	}

	// Signed with another secret: refused.
	wantCode(t, e.svc.HandleWebhook(ctx, paid, e.pl.Provider().SignPayload(paid, now)), booking.CodeInvalid)
}
