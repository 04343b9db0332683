package host

import (
	"context"
	"fmt"
	"net/mail"
	"strings"

	"github.com/staykit/staykit/booking"
)

// ContactEmail returns the address the host's e-mails (new bookings,
// refunds that failed, disputes) go to, "" when none is set.
func (s *Service) ContactEmail(ctx context.Context, org *booking.Organization) (string, error) {
	email, err := s.store.ContactEmail(ctx, org.ID)
	if err != nil {
		return "", fmt.Errorf("read contact e-mail of %s: %w", org.Slug, err)
	}
	return email, nil
}

// CheckContactEmail reports whether email would be accepted by
// SetContactEmail: "" (none) or a bare address. Errors: CodeInvalid.
func CheckContactEmail(email string) error {
	email = strings.TrimSpace(email)
	if email == "" {
		return nil
	}
	if err := booking.CheckBounds(struct {
		Email string `json:"contact_email"`
	}{email}, ""); err != nil {
		return err
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 254 {
		return invalid("contact_email", "invalid_email")
	}
	return nil
}

// SetContactEmail sets the address the host's e-mails go to ("" for
// none), as the contact command does, and audits the change. Errors:
// CodeInvalid, CodeNotFound.
func (s *Service) SetContactEmail(ctx context.Context, org *booking.Organization, email string, by Actor) error {
	email = strings.TrimSpace(email)
	if err := CheckContactEmail(email); err != nil {
		return err
	}
	before, err := s.ContactEmail(ctx, org)
	if err != nil {
		return err
	}
	if before == email {
		return nil
	}
	type contact struct {
		Email string `json:"contact_email"`
	}
	return s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.SetContactEmail(ctx, org.ID, email); err != nil {
			return notFoundAs(err, "organization", "set contact e-mail")
		}
		return s.audit(ctx, org, by, "contact.update", target("organization", org.ID), contact{before}, contact{email})
	})
}
