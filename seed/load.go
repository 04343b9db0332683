package seed

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/units"
)

// MaxFileSize is the largest seed file Load reads (8 MiB).
const MaxFileSize = 8 << 20

// Load reads a seed file (see the package comment for its format), checks
// all of it, then stores its organisations, properties and coupons in
// store. now is the moment yearly seasons are expanded from (the current
// year in each organisation's time zone).
//
// A file with problems stores nothing and returns an *Error listing them.
// Once checked, the file is stored one record at a time: a store failure
// (a slug already taken, say) is returned with the path of the record and
// leaves the records before it stored. Hosts load a seed into an empty
// database, as the reference server does on first start.
func Load(ctx context.Context, store booking.CatalogStore, r io.Reader, now time.Time) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return fmt.Errorf("seed: read: %w", err)
	}
	if len(data) > MaxFileSize {
		return fmt.Errorf("seed: the file is larger than %d bytes", MaxFileSize)
	}
	var f fileJSON
	if err := decode(data, &f); err != nil {
		return err
	}
	cat, err := parse(f, now)
	if err != nil {
		return err
	}
	return cat.store(ctx, store, now)
}

// LoadFile is Load on the file at path; errors name the file.
func LoadFile(ctx context.Context, store booking.CatalogStore, path string, now time.Time) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	defer f.Close()
	if err := Load(ctx, store, f, now); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// linker is a store that keeps linked listings (units.Store's Link).
type linker interface {
	Link(ctx context.Context, orgID, wholeID, partID int64, today civil.Date, now time.Time) (*units.Link, error)
}

// storeLinks links each property of e, stored as org, to its parts, by
// the IDs of the properties stored.
func storeLinks(ctx context.Context, store booking.CatalogStore, e orgEntry, org booking.Organization, ids map[string]int64, now time.Time) error {
	for j, parts := range e.parts {
		for k, name := range parts {
			l, ok := store.(linker)
			if !ok {
				return fmt.Errorf("seed: %s.properties[%d].parts: this store keeps no linked listings", e.path, j)
			}
			if _, err := l.Link(ctx, org.ID, ids[e.properties[j].Name], ids[name], civil.Today(now, org.Location()), now); err != nil {
				return fmt.Errorf("seed: store %s.properties[%d].parts[%d] (%q): %w", e.path, j, k, name, err)
			}
		}
	}
	return nil
}

// store writes a checked catalogue: each organisation, then its
// properties, their links (at now), then its coupons with their property
// names turned into IDs.
func (cat *catalog) store(ctx context.Context, store booking.CatalogStore, now time.Time) error {
	for _, e := range cat.orgs {
		org := e.org
		if err := store.CreateOrganization(ctx, &org); err != nil {
			return fmt.Errorf("seed: store %s (%q): %w", e.path, org.Slug, err)
		}
		if e.contact != "" {
			cs, ok := store.(interface {
				SetContactEmail(ctx context.Context, orgID int64, email string) error
			})
			if !ok {
				return fmt.Errorf("seed: %s.contact_email: this store keeps no contact address", e.path)
			}
			if err := cs.SetContactEmail(ctx, org.ID, e.contact); err != nil {
				return fmt.Errorf("seed: store %s.contact_email: %w", e.path, err)
			}
		}
		if err := saveTerms(ctx, store, e.path, e.terms, org.ID, 0); err != nil {
			return err
		}
		ids := make(map[string]int64, len(e.properties))
		for j := range e.properties {
			p := e.properties[j]
			p.OrgID = org.ID
			if err := store.CreateProperty(ctx, &p); err != nil {
				return fmt.Errorf("seed: store %s.properties[%d] (%q): %w", e.path, j, p.Name, err)
			}
			ids[p.Name] = p.ID
			if err := saveTerms(ctx, store, fmt.Sprintf("%s.properties[%d]", e.path, j), e.propertyTerms[j], org.ID, p.ID); err != nil {
				return err
			}
		}
		if err := storeLinks(ctx, store, e, org, ids, now); err != nil {
			return err
		}
		for _, ce := range e.coupons {
			c := ce.coupon
			c.OrgID = org.ID
			for _, name := range ce.properties {
				c.PropertyIDs = append(c.PropertyIDs, ids[name])
			}
			if err := store.CreateCoupon(ctx, &c); err != nil {
				return fmt.Errorf("seed: store %s (%q): %w", ce.path, c.Code, err)
			}
		}
	}
	return nil
}
