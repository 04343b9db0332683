package datechange

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/notify"
)

// Records keeps the host's audit log in units of work: the database's
// host.Store. Nil (Options.Records) records no audit.
type Records interface {
	Atomically(ctx context.Context, fn func(ctx context.Context) error) error
	RecordAudit(ctx context.Context, e *host.AuditEntry) error
}

// audited is what the audit log keeps of a change: its status and stays,
// no amount or guest data.
type audited struct {
	Status   Status `json:"status"`
	From     string `json:"from"`
	To       string `json:"to"`
	Approval *bool  `json:"approval,omitempty"`
}

func auditOf(c *Change) json.RawMessage {
	b, _ := json.Marshal(audited{Status: c.Status, From: c.OldCheckIn.String() + "/" + c.OldCheckOut.String(),
		To: c.Offer.CheckIn.String() + "/" + c.Offer.CheckOut.String()})
	return b
}

// audit records an entry of the host's audit log, within ctx's unit when
// there is one; without Records nothing is recorded.
func (s *Service) audit(ctx context.Context, org *booking.Organization, by host.Actor, action, target string, before, after json.RawMessage) error {
	if s.records == nil {
		return nil
	}
	return s.records.RecordAudit(ctx, &host.AuditEntry{OrgID: org.ID, Actor: by.String(), ActorName: by.Name,
		Action: action, Target: target, Before: before, After: after, At: s.clock.Now()})
}

// ChangesOf lists the changes of booking id of org, newest first, for the
// host. Errors: booking.CodeNotFound.
func (s *Service) ChangesOf(ctx context.Context, org *booking.Organization, id int64) ([]Change, error) {
	b, err := s.store.BookingByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if b.OrgID != org.ID {
		return nil, &booking.Error{Code: booking.CodeNotFound, Message: "This booking does not exist.",
			Params: map[string]string{booking.ParamSubject: "booking"}}
	}
	changes, err := s.store.DateChanges(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("read changes of booking %d: %w", b.ID, err)
	}
	return changes, nil
}

// Approve carries out a requested change of org, priced again now (the
// policy and the new stay's price as they are at this moment, which the
// guest agreed to be asked again for only if it differs: see the README),
// as Accept would without approval. Errors: booking.CodeNotFound,
// booking.CodeConflict (reason ReasonChangeClosed: not requested any
// more, or lapsed), those of Quote (the new stay refused now: the change
// is declined with that reason). The approval is written to the audit log
// (date_change.approve) once it is carried out.
func (s *Service) Approve(ctx context.Context, org *booking.Organization, id int64, by host.Actor) (*View, error) {
	c, err := s.store.DateChange(ctx, org.ID, id)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if c.Status != StatusRequested || !now.Before(c.ExpiresAt) {
		return nil, ErrChangeClosed()
	}
	b, err := s.store.BookingByID(ctx, c.BookingID)
	if err != nil {
		return nil, fmt.Errorf("find booking of change %d: %w", c.ID, err)
	}
	sub, err := s.learnt(ctx, org, b)
	if err != nil {
		return nil, err
	}
	o, rs, err := s.offer(ctx, sub, Request{CheckIn: c.Offer.CheckIn, CheckOut: c.Offer.CheckOut, Guests: c.Offer.Guests, Locale: b.Locale}, now)
	if err != nil {
		switch booking.ErrorCode(err) {
		case booking.CodeInternal, booking.CodeServiceUnavailable, booking.CodePaymentUnavailable:
			return nil, err
		}
		evs, cerr := closing(c, StatusDeclined, notify.CauseUnavailable, "", b.Currency, nil, nil)
		if cerr != nil {
			return nil, cerr
		}
		if _, cerr := s.store.CloseDateChange(ctx, Close{ID: c.ID, From: []Status{StatusRequested}, To: StatusDeclined,
			Reason: "refused when approved: " + err.Error(), Outbox: evs, At: now}); cerr != nil && booking.ErrorCode(cerr) != booking.CodeConflict {
			return nil, cerr
		}
		return nil, err
	}
	o.ApprovalRequired = true
	before := auditOf(c)
	c.Offer = *o
	v, err := s.execute(ctx, sub, c, rs.Guard, now)
	if err != nil {
		return nil, err
	}
	// The change moved money at the provider: it is not undone if the
	// audit cannot be written, which is logged.
	if err := s.audit(ctx, org, by, "date_change.approve", "date_change:"+strconv.FormatInt(c.ID, 10), before, auditOf(v.Change)); err != nil {
		s.logger.ErrorContext(ctx, "audit a date change's approval", "change", c.ID, "err", err)
	}
	return v, nil
}

// Decline ends a requested change of org; the booking keeps its stay.
// The decline, its event (booking.change_declined: the guest is e-mailed,
// with the host's reason when given) and its audit entry
// (date_change.decline) are written in one unit. Errors:
// booking.CodeNotFound, booking.CodeConflict (reason ReasonChangeClosed).
func (s *Service) Decline(ctx context.Context, org *booking.Organization, id int64, reason string, by host.Actor) (*Change, error) {
	hostReason := reason
	if reason == "" {
		reason = "declined by the host"
	}
	var out *Change
	err := s.unit(ctx, func(ctx context.Context) error {
		c, err := s.store.DateChange(ctx, org.ID, id)
		if err != nil {
			return err
		}
		evs, err := closing(c, StatusDeclined, notify.CauseHostDeclined, hostReason, cmp.Or(c.Offer.Quote.Currency, org.Currency), nil, nil)
		if err != nil {
			return err
		}
		if out, err = s.store.CloseDateChange(ctx, Close{ID: id, From: []Status{StatusRequested}, To: StatusDeclined, Reason: reason,
			Outbox: evs, At: s.clock.Now()}); err != nil {
			return err
		}
		return s.audit(ctx, org, by, "date_change.decline", "date_change:"+strconv.FormatInt(id, 10), auditOf(c), auditOf(out))
	})
	return out, err
}

// unit runs fn in a unit of work of Records, or as it is without one.
func (s *Service) unit(ctx context.Context, fn func(ctx context.Context) error) error {
	if s.records == nil {
		return fn(ctx)
	}
	return s.records.Atomically(ctx, fn)
}

// Approval reports whether org's host approves changes before they apply.
func (s *Service) Approval(ctx context.Context, org *booking.Organization) (bool, error) {
	return s.store.DateChangeApproval(ctx, org.ID)
}

// SetApproval sets whether org's host approves changes before they apply;
// changes already requested stay requested. The setting and its audit
// entry (date_change.settings) are written in one unit.
func (s *Service) SetApproval(ctx context.Context, org *booking.Organization, required bool, by host.Actor) error {
	return s.unit(ctx, func(ctx context.Context) error {
		was, err := s.store.DateChangeApproval(ctx, org.ID)
		if err != nil {
			return err
		}
		if err := s.store.SetDateChangeApproval(ctx, org.ID, required); err != nil {
			return err
		}
		raw := func(v bool) json.RawMessage { b, _ := json.Marshal(audited{Approval: &v}); return b }
		return s.audit(ctx, org, by, "date_change.settings", "organization:"+strconv.FormatInt(org.ID, 10), raw(was), raw(required))
	})
}
