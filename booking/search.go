package booking

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/pricing"
)

// SearchRequest asks which properties are bookable for a stay.
type SearchRequest struct {
	Stay
	// Locale words the quotes' labels, as in QuoteRequest.
	Locale string
}

// SearchResult is a property bookable for the stay searched, and its quote.
type SearchResult struct {
	Listing Listing
	Quote   pricing.Quote
}

// Search lists the active properties of an organisation that accept a
// stay — rules, capacity, guest categories, extras and free dates — each
// with its quote, in the order of Properties. A property that refuses the
// stay (a 422 of Quote) is left out. Errors: CodeNotFound (organisation),
// CodeInvalid (dates missing or inverted, guests below one), and the date
// rules that no property can change (CodeCheckInPast, CodeBeyondHorizon).
func (s *Service) Search(ctx context.Context, slug string, r SearchRequest) ([]SearchResult, error) {
	f := FieldErrors{}
	r.Stay.validateShape(f)
	if err := f.Err(); err != nil {
		return nil, err
	}
	org, err := s.Organization(ctx, slug)
	if err != nil {
		return nil, err
	}
	if err := checkDates(org, r.Stay, s.today(org, s.clock.Now())); err != nil {
		return nil, err
	}
	listings, err := s.Properties(ctx, slug)
	if err != nil {
		return nil, err
	}
	out := make([]SearchResult, 0, len(listings))
	for _, l := range listings {
		q, err := s.Quote(ctx, slug, l.Property.ID, QuoteRequest{Stay: r.Stay, Locale: r.Locale})
		switch code := ErrorCode(err); {
		case err == nil:
			out = append(out, SearchResult{Listing: l, Quote: *q})
		case code == CodeInternal || code == CodePaymentUnavailable:
			return nil, fmt.Errorf("search property %d: %w", l.Property.ID, err)
		}
	}
	return out, nil
}
