package host

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/invoice"
)

// InvoiceSeller returns the seller's details org's invoices print
// (package invoice). Errors: CodeNotConfigured when the database keeps
// no invoices.
func (s *Service) InvoiceSeller(ctx context.Context, org *booking.Organization) (invoice.Seller, error) {
	if s.invoices == nil {
		return invoice.Seller{}, errNoInvoices()
	}
	v, err := s.invoices.InvoiceSeller(ctx, org.ID)
	if err != nil {
		return v, fmt.Errorf("invoice seller of %s: %w", org.Slug, err)
	}
	return v, nil
}

// SetInvoiceSeller checks (invoice.CheckSeller) and saves the seller's
// details org's invoices print from now on, audited as
// "settings.invoicing" in the same unit of work. Errors: CodeInvalid,
// CodeNotConfigured.
func (s *Service) SetInvoiceSeller(ctx context.Context, org *booking.Organization, v invoice.Seller, by Actor) (invoice.Seller, error) {
	if err := invoice.CheckSeller(v); err != nil {
		return v, err
	}
	before, err := s.InvoiceSeller(ctx, org)
	if err != nil {
		return v, err
	}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := s.invoices.SetInvoiceSeller(ctx, org.ID, v); err != nil {
			return fmt.Errorf("set invoice seller of %s: %w", org.Slug, err)
		}
		return s.audit(ctx, org, by, "settings.invoicing", target("organization", org.ID), before, v)
	})
	return v, err
}

func errNoInvoices() error {
	return &booking.Error{Code: booking.CodeNotConfigured, Message: "Invoices are not set up on this server.",
		Params: map[string]string{booking.ParamReason: "invoices"}}
}
