package money_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite"
)

// The money fuzz's faults: a process that dies between any two steps of
// a use case. crashStore panics before a chosen write reaches the store,
// faultProvider after a chosen provider call was applied; the runner
// recovers the panic (crash values only) and goes on with a new Service,
// as a restarted process would, over the same database and provider.

// crash is the value the fault wrappers panic with. Its type is private to
// these tests, so that the runner recovers crashes and nothing else: any
// other panic is the engine's, and a failure.
type crash struct{ at string }

func (c crash) String() string { return "crash " + c.at }

// Where a crash is injected.
const (
	crashNowhere     = ""
	crashBeforeWrite = "store"    // before the k-th store write of the operation
	crashAfterCall   = "provider" // after the k-th mutating provider call returned
)

// crashSwitch arms one crash for one operation.
type crashSwitch struct {
	where string
	k     int
	seen  int
}

func (s *crashSwitch) arm(where string, k int) { s.where, s.k, s.seen = where, k, 0 }

func (s *crashSwitch) disarm() { s.arm(crashNowhere, 0) }

// hit counts one step at where and panics with a crash on the k-th.
func (s *crashSwitch) hit(where, name string) {
	if s.where != where {
		return
	}
	s.seen++
	if s.seen == s.k {
		at := fmt.Sprintf("before store write %d (%s)", s.k, name)
		if where == crashAfterCall {
			at = fmt.Sprintf("after provider call %d (%s)", s.k, name)
		}
		s.disarm()
		panic(crash{at: at})
	}
}

// crashStore is every store seam (booking.Stores, feed.FeedStore,
// booking.ReadModelStore) able to die before any write: every method that
// changes something is listed here and counted; reads are promoted from
// the embedded seams. TestMoneyFuzzCrashStoreCoversEveryWrite fails when
// a seam grows a method this list does not classify.
type crashStore struct {
	booking.Stores
	feed.FeedStore
	booking.ReadModelStore
	sw *crashSwitch
}

// newCrashStore wraps db's seams.
func newCrashStore(db *sqlite.DB, sw *crashSwitch) *crashStore {
	return &crashStore{Stores: db.Stores(), FeedStore: db, ReadModelStore: db, sw: sw}
}

// seams are s as every seam a Service consumes.
func (s *crashStore) seams() booking.Stores {
	return booking.Stores{CatalogStore: s, BookingStore: s, LedgerStore: s, TermsStore: s, CalendarStore: s,
		PaymentAccountStore: s, OutboxStore: s, HostCalendarStore: s, HostRequestPurger: s, UnitPriceReader: s}
}

// crashSeams are the interfaces crashStore serves: the fields of
// booking.Stores, the feeds and the read model's holds.
func crashSeams() []reflect.Type {
	var out []reflect.Type
	st := reflect.TypeFor[booking.Stores]()
	for i := range st.NumField() {
		out = append(out, st.Field(i).Type)
	}
	return append(out, reflect.TypeFor[feed.FeedStore](), reflect.TypeFor[booking.ReadModelStore]())
}

func (s *crashStore) write(name string) { s.sw.hit(crashBeforeWrite, name) }

// CatalogStore.

func (s *crashStore) CreateOrganization(ctx context.Context, o *booking.Organization) error {
	s.write("CreateOrganization")
	return s.Stores.CreateOrganization(ctx, o)
}

func (s *crashStore) UpdateOrganization(ctx context.Context, o *booking.Organization) error {
	s.write("UpdateOrganization")
	return s.Stores.UpdateOrganization(ctx, o)
}

func (s *crashStore) CreateProperty(ctx context.Context, p *booking.Property) error {
	s.write("CreateProperty")
	return s.Stores.CreateProperty(ctx, p)
}

func (s *crashStore) UpdateProperty(ctx context.Context, p *booking.Property) error {
	s.write("UpdateProperty")
	return s.Stores.UpdateProperty(ctx, p)
}

func (s *crashStore) AddBlock(ctx context.Context, propertyID int64, b *booking.Block, now time.Time) error {
	s.write("AddBlock")
	return s.Stores.AddBlock(ctx, propertyID, b, now)
}

func (s *crashStore) RemoveBlock(ctx context.Context, propertyID, blockID int64) error {
	s.write("RemoveBlock")
	return s.Stores.RemoveBlock(ctx, propertyID, blockID)
}

func (s *crashStore) CreateCoupon(ctx context.Context, c *coupon.Coupon) error {
	s.write("CreateCoupon")
	return s.Stores.CreateCoupon(ctx, c)
}

func (s *crashStore) UpdateCoupon(ctx context.Context, c *coupon.Coupon) error {
	s.write("UpdateCoupon")
	return s.Stores.UpdateCoupon(ctx, c)
}

// BookingStore.

func (s *crashStore) CreateBooking(ctx context.Context, b *booking.Booking, c booking.CreateOptions) error {
	s.write("CreateBooking")
	return s.Stores.CreateBooking(ctx, b, c)
}

func (s *crashStore) DeleteBooking(ctx context.Context, id int64) error {
	s.write("DeleteBooking")
	return s.Stores.DeleteBooking(ctx, id)
}

func (s *crashStore) SetPaymentIntent(ctx context.Context, id int64, intentID, clientSecret string) error {
	s.write("SetPaymentIntent")
	return s.Stores.SetPaymentIntent(ctx, id, intentID, clientSecret)
}

func (s *crashStore) Transition(ctx context.Context, id int64, t booking.Transition) (*booking.Booking, error) {
	s.write("Transition")
	return s.Stores.Transition(ctx, id, t)
}

func (s *crashStore) SaveIdempotencyRecord(ctx context.Context, r *booking.IdempotencyRecord, notBefore time.Time) (*booking.IdempotencyRecord, error) {
	s.write("SaveIdempotencyRecord")
	return s.Stores.SaveIdempotencyRecord(ctx, r, notBefore)
}

func (s *crashStore) MarkEventProcessed(ctx context.Context, eventID string, at time.Time) (bool, error) {
	s.write("MarkEventProcessed")
	return s.Stores.MarkEventProcessed(ctx, eventID, at)
}

// LedgerStore.

func (s *crashStore) RecordLedger(ctx context.Context, entries []ledger.Entry, now time.Time) ([]ledger.Entry, error) {
	s.write("RecordLedger")
	return s.Stores.RecordLedger(ctx, entries, now)
}

func (s *crashStore) ClaimLedgerEntries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]ledger.Entry, error) {
	s.write("ClaimLedgerEntries")
	return s.Stores.ClaimLedgerEntries(ctx, now, leaseUntil, limit)
}

func (s *crashStore) UpdateLedgerEntry(ctx context.Context, e *ledger.Entry) error {
	s.write("UpdateLedgerEntry")
	return s.Stores.UpdateLedgerEntry(ctx, e)
}

// FeedStore.

func (s *crashStore) CreateFeed(ctx context.Context, f *feed.Feed, now time.Time) error {
	s.write("CreateFeed")
	return s.FeedStore.CreateFeed(ctx, f, now)
}

func (s *crashStore) UpdateFeed(ctx context.Context, f *feed.Feed, now time.Time) error {
	s.write("UpdateFeed")
	return s.FeedStore.UpdateFeed(ctx, f, now)
}

func (s *crashStore) DeleteFeed(ctx context.Context, orgID, feedID int64) error {
	s.write("DeleteFeed")
	return s.FeedStore.DeleteFeed(ctx, orgID, feedID)
}

func (s *crashStore) ClaimFeeds(ctx context.Context, now, leaseUntil time.Time, limit int) ([]feed.Feed, error) {
	s.write("ClaimFeeds")
	return s.FeedStore.ClaimFeeds(ctx, now, leaseUntil, limit)
}

func (s *crashStore) ClaimFeed(ctx context.Context, orgID, feedID int64, now, leaseUntil time.Time) (*feed.Feed, error) {
	s.write("ClaimFeed")
	return s.FeedStore.ClaimFeed(ctx, orgID, feedID, now, leaseUntil)
}

func (s *crashStore) ApplyFeedSync(ctx context.Context, sync feed.Sync) (*feed.SyncResult, error) {
	s.write("ApplyFeedSync")
	return s.FeedStore.ApplyFeedSync(ctx, sync)
}

func (s *crashStore) RecordFeedAttempt(ctx context.Context, a feed.Attempt) error {
	s.write("RecordFeedAttempt")
	return s.FeedStore.RecordFeedAttempt(ctx, a)
}

func (s *crashStore) SetExportToken(ctx context.Context, orgID, propertyID int64, token string, now time.Time) (*feed.ExportToken, error) {
	s.write("SetExportToken")
	return s.FeedStore.SetExportToken(ctx, orgID, propertyID, token, now)
}

func (s *crashStore) NoteExport(ctx context.Context, propertyID int64, etag string, now time.Time) (*feed.ExportToken, error) {
	s.write("NoteExport")
	return s.FeedStore.NoteExport(ctx, propertyID, etag, now)
}

// CalendarStore.

func (s *crashStore) SetCalendarDays(ctx context.Context, propertyID int64, days []booking.CalendarDay) error {
	s.write("SetCalendarDays")
	return s.Stores.SetCalendarDays(ctx, propertyID, days)
}

// HostCalendarStore.

func (s *crashStore) ApplyCalendar(ctx context.Context, orgID, propertyID int64, c booking.CalendarChange, now time.Time) error {
	s.write("ApplyCalendar")
	return s.Stores.ApplyCalendar(ctx, orgID, propertyID, c, now)
}

func (s *crashStore) UpdatePropertyFields(ctx context.Context, p *booking.Property) error {
	s.write("UpdatePropertyFields")
	return s.Stores.UpdatePropertyFields(ctx, p)
}

// TermsStore.

func (s *crashStore) SaveSettings(ctx context.Context, st booking.Settings) error {
	s.write("SaveSettings")
	return s.Stores.SaveSettings(ctx, st)
}

func (s *crashStore) SaveTerms(ctx context.Context, t *booking.Terms) error {
	s.write("SaveTerms")
	return s.Stores.SaveTerms(ctx, t)
}

// OutboxStore.

func (s *crashStore) RecordOutbox(ctx context.Context, events []outbox.Event, now time.Time) ([]outbox.Event, error) {
	s.write("RecordOutbox")
	return s.Stores.RecordOutbox(ctx, events, now)
}

func (s *crashStore) ClaimOutboxEvents(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Event, error) {
	s.write("ClaimOutboxEvents")
	return s.Stores.ClaimOutboxEvents(ctx, now, leaseUntil, limit)
}

func (s *crashStore) DispatchOutboxEvent(ctx context.Context, eventID int64, deliveries []outbox.Delivery, now time.Time) error {
	s.write("DispatchOutboxEvent")
	return s.Stores.DispatchOutboxEvent(ctx, eventID, deliveries, now)
}

func (s *crashStore) ClaimOutboxDeliveries(ctx context.Context, now, leaseUntil time.Time, limit int) ([]outbox.Delivery, error) {
	s.write("ClaimOutboxDeliveries")
	return s.Stores.ClaimOutboxDeliveries(ctx, now, leaseUntil, limit)
}

func (s *crashStore) UpdateOutboxDelivery(ctx context.Context, d *outbox.Delivery) error {
	s.write("UpdateOutboxDelivery")
	return s.Stores.UpdateOutboxDelivery(ctx, d)
}

func (s *crashStore) RedeliverOutbox(ctx context.Context, deliveryID int64, now time.Time) error {
	s.write("RedeliverOutbox")
	return s.Stores.RedeliverOutbox(ctx, deliveryID, now)
}

func (s *crashStore) PurgeHostRequests(ctx context.Context, before time.Time) (int, error) {
	s.write("PurgeHostRequests")
	return s.Stores.PurgeHostRequests(ctx, before)
}

func (s *crashStore) RecordWebhookAttempt(ctx context.Context, endpointID int64, ok bool, now time.Time) (*outbox.Endpoint, bool, error) {
	s.write("RecordWebhookAttempt")
	return s.Stores.RecordWebhookAttempt(ctx, endpointID, ok, now)
}

func (s *crashStore) ResumeWebhookEndpoint(ctx context.Context, orgID, id int64, replay bool, now time.Time) (*outbox.Endpoint, int, error) {
	s.write("ResumeWebhookEndpoint")
	return s.Stores.ResumeWebhookEndpoint(ctx, orgID, id, replay, now)
}

func (s *crashStore) SaveWebhookEndpoint(ctx context.Context, e *outbox.Endpoint) error {
	s.write("SaveWebhookEndpoint")
	return s.Stores.SaveWebhookEndpoint(ctx, e)
}

func (s *crashStore) DeleteWebhookEndpoint(ctx context.Context, orgID, id int64) error {
	s.write("DeleteWebhookEndpoint")
	return s.Stores.DeleteWebhookEndpoint(ctx, orgID, id)
}

func (s *crashStore) SettleLedgerEntry(ctx context.Context, e *ledger.Entry, owed []ledger.Entry, events []outbox.Event, now time.Time) error {
	s.write("SettleLedgerEntry")
	return s.Stores.SettleLedgerEntry(ctx, e, owed, events, now)
}

func (s *crashStore) SetContactEmail(ctx context.Context, orgID int64, email string) error {
	s.write("SetContactEmail")
	return s.Stores.SetContactEmail(ctx, orgID, email)
}

// PaymentAccountStore.

func (s *crashStore) SetBookingPaymentAccount(ctx context.Context, bookingID int64, accountID string) error {
	s.write("SetBookingPaymentAccount")
	return s.Stores.SetBookingPaymentAccount(ctx, bookingID, accountID)
}

// storeReads are the seams' methods that change nothing, promoted
// unwrapped by crashStore.
var storeReads = []string{
	"BookingByID", "BookingByIntent", "BookingByToken",
	"BookingPaymentAccount", "Bookings", "BookingsArriving", "BookingsPage", "CalendarDays", "ContactEmail",
	"CouponByCode", "CouponRedemptions", "EventProcessed", "ExportToken",
	"ExportTokenByValue", "Feed", "FeedBlocks", "FeedConflicts", "Feeds", "Holds", "IdempotencyRecord",
	"LapsedHolds", "LedgerEntries", "LedgerEntryByProviderID", "Occupied", "OrganizationByID",
	"OrganizationBySlug", "Organizations", "OutboxDeliveries", "OutboxDelivery", "OutboxEvent", "PaymentAccount",
	"Properties", "Property", "Settings", "Terms", "UnitPrices", "WebhookEndpoint",
	"WebhookEndpoints",
}

// TestMoneyFuzzCrashStoreCoversEveryWrite calls every method of every
// store seam on a crashStore armed to crash at the first write, over no
// store at all: a wrapped write crashes before reaching it, a promoted
// method panics on the missing store. Each must be what storeReads says,
// so that a write added to a seam is not left out of the crash points.
func TestMoneyFuzzCrashStoreCoversEveryWrite(t *testing.T) {
	for _, iface := range crashSeams() {
		for i := range iface.NumMethod() {
			checkCrashPoint(t, iface, iface.Method(i).Name)
		}
	}
}

// checkCrashPoint checks that crashStore's method name of the seam iface
// is what storeReads says.
func checkCrashPoint(t *testing.T, iface reflect.Type, name string) {
	t.Helper()
	sw := &crashSwitch{}
	sw.arm(crashBeforeWrite, 1)
	m := reflect.ValueOf(&crashStore{sw: sw}).MethodByName(name)
	args := make([]reflect.Value, m.Type().NumIn())
	for j := range args {
		args[j] = reflect.Zero(m.Type().In(j))
	}
	crashed := func() (crashed bool) {
		defer func() { _, crashed = recover().(crash) }()
		m.Call(args)
		return false
	}()
	switch read := slices.Contains(storeReads, name); {
	case crashed && read:
		t.Errorf("%s.%s is listed as a read but crashStore counts it as a write", iface, name)
	case !crashed && !read:
		t.Errorf("%s.%s is neither wrapped by crashStore (a write) nor listed in storeReads: classify it", iface, name)
	}
}

// faultProvider is the fake provider as the engine sees it, implementing
// payment.Provider and payment.SavedCards by delegating to it, with two
// faults of its own: a crash after a chosen mutating call returned (the
// call applied, the process gone before it could record it), and the
// provider's events about what each call did, handed to event as Stripe
// sends them: a refund's charge.refunded possibly before the refund call
// has even returned.
type faultProvider struct {
	fake *paymenttest.Provider
	sw   *crashSwitch
	// event receives the events a call gave rise to, before the call
	// returns; refund says whether it is a refund's.
	event func(ev payment.Event, refund bool)
}

var (
	_ payment.Provider   = (*faultProvider)(nil)
	_ payment.SavedCards = (*faultProvider)(nil)
)

// watch remembers the state of intents before a mutating call; the
// function it returns sends an event for each intent the call changed
// or created, and crashes if this call is the armed one.
func (p *faultProvider) watch(op string, ids ...string) func() {
	before := map[string]payment.Intent{}
	n := len(p.fake.Intents())
	for _, id := range ids {
		if in, ok := p.fake.Intent(id); ok {
			before[id] = in
		}
	}
	return func() {
		all := p.fake.Intents()
		changed := all[n:] // created by the call
		for _, id := range ids {
			if in, ok := p.fake.Intent(id); ok && intentMoved(before[id], in) {
				changed = append(changed, in)
			}
		}
		for _, in := range changed {
			if typ, ok := eventFor(in); ok {
				if ev, err := p.fake.Event(typ, in.ID); err == nil {
					p.event(*ev, false)
				}
			}
		}
		p.sw.hit(crashAfterCall, op)
	}
}

func intentMoved(a, b payment.Intent) bool {
	return a.Status != b.Status || a.AmountReceived != b.AmountReceived || a.LastPaymentError != b.LastPaymentError
}

// eventFor is the event the provider sends about an intent in its current
// state; false for states it sends none about.
func eventFor(in payment.Intent) (payment.EventType, bool) {
	switch {
	case in.Status == payment.StatusSucceeded:
		return payment.EventSucceeded, true
	case in.Status == payment.StatusAuthorized:
		return payment.EventAuthorized, true
	case in.Status == payment.StatusCanceled:
		return payment.EventCanceled, true
	case in.LastPaymentError != "" || in.Status == payment.StatusRequiresAction:
		return payment.EventFailed, true
	}
	return "", false
}

func (p *faultProvider) CreateIntent(ctx context.Context, params payment.CreateParams) (*payment.Intent, error) {
	defer p.watch(paymenttest.OpCreate)()
	return p.fake.CreateIntent(ctx, params)
}

func (p *faultProvider) GetIntent(ctx context.Context, id string) (*payment.Intent, error) {
	return p.fake.GetIntent(ctx, id)
}

func (p *faultProvider) CaptureIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	defer p.watch(paymenttest.OpCapture, id)()
	return p.fake.CaptureIntent(ctx, id, key)
}

func (p *faultProvider) CancelIntent(ctx context.Context, id, key string) (*payment.Intent, error) {
	defer p.watch(paymenttest.OpCancel, id)()
	return p.fake.CancelIntent(ctx, id, key)
}

// Refund sends the provider's charge.refunded for a refund it applied,
// answer lost or not, with the refund attached, before returning.
func (p *faultProvider) Refund(ctx context.Context, rp payment.RefundParams) (*payment.Refund, error) {
	defer p.watch(paymenttest.OpRefund)()
	before := len(p.fake.Refunds(rp.IntentID))
	r, err := p.fake.Refund(ctx, rp)
	if after := p.fake.Refunds(rp.IntentID); len(after) > before {
		if ev, eerr := p.fake.Event(payment.EventRefunded, rp.IntentID); eerr == nil {
			applied := after[len(after)-1]
			ev.Refund = &applied
			p.event(*ev, true)
		}
	}
	return r, err
}

func (p *faultProvider) ParseWebhook(payload []byte, signature string) (*payment.Event, error) {
	return p.fake.ParseWebhook(payload, signature)
}

func (p *faultProvider) PublicKey() string { return p.fake.PublicKey() }

// ListRefunds and IntentByKey only read: no fault of their own.
func (p *faultProvider) ListRefunds(ctx context.Context, intentID string) ([]payment.Refund, error) {
	return p.fake.ListRefunds(ctx, intentID)
}

func (p *faultProvider) IntentByKey(ctx context.Context, customer, key string) (*payment.Intent, error) {
	return p.fake.IntentByKey(ctx, customer, key)
}

func (p *faultProvider) CreateCustomer(ctx context.Context, c payment.CustomerParams) (string, error) {
	defer p.watch(paymenttest.OpCustomer)()
	return p.fake.CreateCustomer(ctx, c)
}

func (p *faultProvider) ChargeSaved(ctx context.Context, c payment.SavedChargeParams) (*payment.Intent, error) {
	defer p.watch(paymenttest.OpChargeSaved)()
	return p.fake.ChargeSaved(ctx, c)
}

func (p *faultProvider) ConfirmSaved(ctx context.Context, id, paymentMethod, key string) (*payment.Intent, error) {
	defer p.watch(paymenttest.OpConfirmSaved, id)()
	return p.fake.ConfirmSaved(ctx, id, paymentMethod, key)
}

func (p *faultProvider) CaptureAmount(ctx context.Context, id string, amount int64, key string) (*payment.Intent, error) {
	defer p.watch(paymenttest.OpCaptureAmount, id)()
	return p.fake.CaptureAmount(ctx, id, amount, key)
}
