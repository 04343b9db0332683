package host_test

import (
	"context"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// pageReads is a store that remembers the limits its delivery log was read
// with.
type pageReads struct {
	booking.OutboxStore
	limits []int
}

func (p *pageReads) OutboxDeliveries(ctx context.Context, eventID, endpointID, before int64, limit int) ([]outbox.Delivery, error) {
	p.limits = append(p.limits, limit)
	return p.OutboxStore.OutboxDeliveries(ctx, eventID, endpointID, before, limit)
}

// TestDeliveryLogReadsOnlyItsPage: the delivery log and redeliver read a
// page, or one delivery, never the endpoint's whole history.
func TestDeliveryLogReadsOnlyItsPage(t *testing.T) {
	ctx := context.Background()
	db := sqlitetest.Open(t)
	store := &pageReads{OutboxStore: db}
	stores := db.Stores()
	stores.OutboxStore = store
	now := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
	org := booking.Organization{Slug: "villa", Name: "Villa", PublicEngineEnabled: true}.WithDefaults()
	if err := db.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	ep := outbox.Endpoint{OrgID: org.ID, URL: "https://hooks.example.com/x", Secret: outbox.NewSecret(), Active: true, CreatedAt: now, UpdatedAt: now}
	if err := db.SaveWebhookEndpoint(ctx, &ep); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		evs, err := db.RecordOutbox(ctx, []outbox.Event{{Key: "e" + string(rune('a'+i)), Kind: booking.NotifyConfirmed, OrgID: org.ID}}, now)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.DispatchOutboxEvent(ctx, evs[0].ID, []outbox.Delivery{{Channel: outbox.ChannelWebhook, EndpointID: ep.ID}}, now); err != nil {
			t.Fatal(err)
		}
	}
	hs := host.New(host.Options{Stores: host.Stores{Stores: stores, FeedStore: db, Records: db},
		Bookings: booking.NewService(booking.Options{Stores: stores, Payments: paymenttest.New()})})
	ch := hs.Channels(host.ChannelOptions{})
	var seen []int64
	before := int64(0)
	for page := 0; ; page++ {
		list, next, err := ch.Deliveries(ctx, &org, ep.ID, before, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range list {
			seen = append(seen, d.ID)
		}
		if next == 0 {
			break
		}
		before = next
		if page > 5 {
			t.Fatal("pages never end")
		}
	}
	if len(seen) != 5 {
		t.Fatalf("paged through %v, want the 5 deliveries once each", seen)
	}
	if _, err := ch.Redeliver(ctx, &org, seen[4], host.Actor{}); err != nil {
		t.Fatal(err)
	}
	for _, l := range store.limits {
		if l <= 0 || l > 3 {
			t.Errorf("the log was read with limit %d, want a page (at most 3 rows for pages of 2): reads %v", l, store.limits)
		}
	}
}
