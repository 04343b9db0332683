package icalsync

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/outbound"
)

// AddFeed stores a new feed of a property, due at once. Errors:
// CodeInvalid (also a URL the fetcher would refuse: CheckURL),
// CodeNotFound (property not of f.OrgID).
func (s *Syncer) AddFeed(ctx context.Context, f *feed.Feed) error {
	if err := s.CheckURL(f.URL); err != nil {
		return err
	}
	if err := s.store.CreateFeed(ctx, f, s.clock.Now()); err != nil {
		return fmt.Errorf("add feed: %w", err)
	}
	return nil
}

// CheckURL refuses a feed URL that the fetcher's Policy refuses without
// connecting: plain http to a target it does not allow, an address or a
// name (localhost) of a private or reserved network. A name that
// resolves to one is refused at each fetch instead. Errors: CodeInvalid,
// the field "url" having the reason "https_required" or "private_address"
// (outbound.Refusal.Reason), or "invalid".
func (s *Syncer) CheckURL(raw string) error {
	err := s.fetcher.Policy.CheckURL(raw)
	var r *outbound.Refusal
	switch {
	case err == nil:
		return nil
	case errors.As(err, &r):
		return &booking.Error{Code: booking.CodeInvalid, Message: r.Explain(), Fields: booking.FieldErrors{"url": {r.Reason()}}, Err: err}
	}
	return &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: booking.FieldErrors{"url": {"invalid"}}, Err: err}
}

// RemoveFeed deletes a feed; the nights its events held are free again.
// Errors: CodeNotFound.
func (s *Syncer) RemoveFeed(ctx context.Context, orgID, feedID int64) error {
	if err := s.store.DeleteFeed(ctx, orgID, feedID); err != nil {
		return fmt.Errorf("remove feed %d: %w", feedID, err)
	}
	return nil
}

// Feeds lists an organisation's feeds.
func (s *Syncer) Feeds(ctx context.Context, orgID int64) ([]feed.Feed, error) {
	list, err := s.store.Feeds(ctx, orgID)
	if err != nil {
		return nil, fmt.Errorf("feeds: %w", err)
	}
	return list, nil
}

// ExportToken returns a property's export token, creating one the first
// time. Errors: CodeNotFound.
func (s *Syncer) ExportToken(ctx context.Context, orgID, propertyID int64) (*feed.ExportToken, error) {
	t, err := s.store.ExportToken(ctx, orgID, propertyID)
	if booking.ErrorCode(err) == booking.CodeNotFound {
		if _, perr := s.store.Property(ctx, orgID, propertyID); perr != nil {
			return nil, fmt.Errorf("export token: %w", perr)
		}
		return s.RotateExportToken(ctx, orgID, propertyID)
	}
	if err != nil {
		return nil, fmt.Errorf("export token: %w", err)
	}
	return t, nil
}

// RotateExportToken gives a property a new export token: the old URL
// stops working at once. Errors: CodeNotFound.
func (s *Syncer) RotateExportToken(ctx context.Context, orgID, propertyID int64) (*feed.ExportToken, error) {
	t, err := s.store.SetExportToken(ctx, orgID, propertyID, NewToken(), s.clock.Now())
	if err != nil {
		return nil, fmt.Errorf("rotate export token: %w", err)
	}
	return t, nil
}

// NewToken returns a random export token: 160 bits, URL-safe.
func NewToken() string { return rand.Text() }

// ExportPath is the path of a token's calendar under the Handler's
// mount point "/ical/".
func ExportPath(token string) string { return "/ical/" + token + ".ics" }
