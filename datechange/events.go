package datechange

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/pricing"
)

// The events of a change (package notify e-mails and webhooks them), each
// written in the store's write that gives the change the status it tells
// about, and keyed by the change and its kind (notify.ChangeEventKey): a
// retry, a replica or a second path closing the same change never writes
// one twice, and a write the store refuses writes none.
//   - booking.change_requested (SaveDateChange of a new request, only when
//     the host approves changes): the host is e-mailed to answer.
//   - booking.changed (ApplyDateChange): the guest and the host.
//   - booking.change_declined (CloseDateChange to declined, or to refused:
//     its dates were taken after its charge, given back): the guest.
//   - booking.change_expired (CloseDateChange to expired: the request
//     lapsed, or the guest did not complete its payment): the guest.
//
// A change that is paying (SaveDateChange to paying) tells nobody yet: its
// guest is on the booking page completing it, and it ends applied,
// refused or expired, each told.

// changeData is what the events of c carry, c in status, its amounts in
// cur.
func changeData(c *Change, status Status, cur string) notify.ChangeData {
	places := pricing.MinorUnits(cur)
	f := func(d decimal.Decimal) string { return d.StringFixed(places) }
	o := c.Offer
	d := notify.ChangeData{Status: string(status), OldCheckIn: c.OldCheckIn.String(), OldCheckOut: c.OldCheckOut.String(),
		OldGuests: c.OldGuests, CheckIn: o.CheckIn.String(), CheckOut: o.CheckOut.String(), Guests: o.Guests, Currency: cur,
		PreviousTotal: f(o.PreviousTotal), Total: f(o.Total), Charge: f(o.Charge), Refund: f(o.Refund), Balance: f(o.Balance)}
	if !o.BalanceDueDate.IsZero() && o.Balance.IsPositive() {
		d.BalanceDueDate = o.BalanceDueDate.String()
	}
	if status == StatusRequested && !c.ExpiresAt.IsZero() {
		at := c.ExpiresAt.UTC()
		d.ExpiresAt = &at
	}
	return d
}

// changeEvent is the event of kind telling d about c; a new change (no
// ID yet) gets its key from the store (KeyEvents).
func changeEvent(kind string, c *Change, d notify.ChangeData) (outbox.Event, error) {
	data, err := json.Marshal(d)
	if err != nil {
		return outbox.Event{}, fmt.Errorf("encode %s event: %w", kind, err)
	}
	ev := outbox.Event{Kind: kind, OrgID: c.OrgID, BookingID: c.BookingID, Data: data}
	if c.ID != 0 {
		ev.Key = notify.ChangeEventKey(kind, c.ID)
	}
	return ev, nil
}

// closing is the event of c closed to status for cause (a
// notify.Cause* constant), with what the close settles and records: a
// refused change's charge and its refunds.
func closing(c *Change, to Status, cause, hostReason string, cur string, settle *ledger.Entry, record []ledger.Entry) ([]outbox.Event, error) {
	kind := booking.NotifyChangeDeclined
	if to == StatusExpired {
		kind = booking.NotifyChangeExpired
	}
	d := changeData(c, to, cur)
	d.Cause, d.HostReason = cause, hostReason
	if settle != nil {
		d.Charge = pricing.FromMinor(settle.Amount, cur).StringFixed(pricing.MinorUnits(cur))
		d.Refund = pricing.FromMinor(refunded(record), cur).StringFixed(pricing.MinorUnits(cur))
	}
	ev, err := changeEvent(kind, c, d)
	if err != nil {
		return nil, err
	}
	return []outbox.Event{ev}, nil
}

// refunded is the sum of the refunds among entries.
func refunded(entries []ledger.Entry) int64 {
	var n int64
	for _, e := range entries {
		if e.Kind == ledger.KindRefund {
			n += e.Amount
		}
	}
	return n
}

// KeyEvents returns events with each unkeyed one keyed for change id
// (notify.ChangeEventKey): the events of a change not stored yet are made
// before the store gives it its id, and the store keys them in the same
// write.
func KeyEvents(events []outbox.Event, id int64) []outbox.Event {
	out := make([]outbox.Event, len(events))
	for i, e := range events {
		if e.Key == "" {
			e.Key = notify.ChangeEventKey(e.Kind, id)
		}
		out[i] = e
	}
	return out
}

// expiresIn is when a request made at now lapses for org.
func expiresIn(org *booking.Organization, now time.Time) time.Time {
	return now.Add(time.Duration(max(org.RequestHoldHours, 1)) * time.Hour)
}
