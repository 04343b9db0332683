package seed

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/registration"
)

// catalog is a checked seed file, ready to store.
type catalog struct {
	orgs []orgEntry
}

type orgEntry struct {
	path       string
	org        booking.Organization
	contact    string // the host's e-mail address, "" for none
	terms      *booking.Settings
	properties []booking.Property
	// propertyTerms are the terms of each property, by index; nil where
	// the organisation's apply.
	propertyTerms []*booking.Settings
	// parts are the names of each property's parts, by index.
	parts   [][]string
	coupons []couponEntry
}

type couponEntry struct {
	path   string
	coupon coupon.Coupon
	// properties are the names of the properties the coupon is
	// restricted to, resolved to IDs once they are stored.
	properties []string
}

// checker collects problems with their paths.
type checker struct {
	problems []Problem
}

func (c *checker) add(path, reason string) {
	c.problems = append(c.problems, Problem{Path: path, Reason: reason})
}

// fields records the per-field problems of a failed Validate, in field
// order, under path.
func (c *checker) fields(path string, fields map[string][]string) {
	names := make([]string, 0, len(fields))
	for f := range fields {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		for _, reason := range fields[f] {
			c.add(path+"."+f, reason)
		}
	}
}

// validation records the problems of a Validate method's error.
func (c *checker) validation(path string, err error) {
	var be *booking.Error
	var ce *coupon.ConfigError
	switch {
	case err == nil:
	case errors.As(err, &be) && len(be.Fields) > 0:
		c.fields(path, be.Fields)
	case errors.As(err, &ce):
		c.fields(path, ce.Fields)
	default:
		c.add(path, err.Error())
	}
}

// date parses an optional YYYY-MM-DD date; empty is the zero date.
func (c *checker) date(path, s string) civil.Date {
	if s == "" {
		return civil.Date{}
	}
	d, err := civil.Parse(s)
	if err != nil {
		c.add(path, "invalid_date: want YYYY-MM-DD, got "+fmt.Sprintf("%q", s))
	}
	return d
}

// parse checks a decoded seed file and turns it into domain values; now
// decides the years yearly seasons are expanded for.
func parse(f fileJSON, now time.Time) (*catalog, error) {
	c := &checker{}
	if len(f.Organizations) == 0 {
		c.add("organizations", "required")
	}
	cat := &catalog{}
	slugs := map[string]string{}
	for i, o := range f.Organizations {
		path := fmt.Sprintf("organizations[%d]", i)
		if prev, dup := slugs[o.Slug]; dup && o.Slug != "" {
			c.add(path+".slug", "duplicate: "+prev+" has it already")
		}
		slugs[o.Slug] = path
		cat.orgs = append(cat.orgs, parseOrg(c, path, o, now))
	}
	if len(c.problems) > 0 {
		return nil, &Error{Problems: c.problems}
	}
	return cat, nil
}

func parseOrg(c *checker, path string, o orgJSON, now time.Time) orgEntry {
	org := booking.Organization{
		Slug: o.Slug, Name: o.Name, Logo: o.Logo, PaymentMode: o.PaymentMode,
		DefaultLocale: o.DefaultLocale, Branding: o.Branding, TermsURL: o.TermsURL,
		MinStayNights: o.MinStayNights, MaxStayNights: o.MaxStayNights,
		Currency: o.Currency, Timezone: o.Timezone, DepositPercent: o.DepositPercent,
		BalanceDueDays: o.BalanceDueDays, HoldMinutes: o.HoldMinutes, RequestHoldHours: o.RequestHoldHours,
		CustomDomain: o.CustomDomain, AllowedOrigins: o.AllowedOrigins,
		PublicEngineEnabled: o.PublicEngineEnabled == nil || *o.PublicEngineEnabled,
		Country:             o.Country, BookingHorizonDays: o.BookingHorizonDays,
	}.WithDefaults()
	org.Currency = strings.ToUpper(org.Currency)
	org.Country = strings.ToUpper(org.Country)
	c.validation(path, org.Validate())
	c.validation(path, booking.CheckBounds(struct {
		booking.Organization
		ContactEmail string `json:"contact_email"`
	}{org, o.ContactEmail}, org.Currency))
	for j, origin := range o.AllowedOrigins {
		if !validOrigin(origin) {
			c.add(fmt.Sprintf("%s.allowed_origins[%d]", path, j), "invalid_origin: want scheme://host[:port], got "+fmt.Sprintf("%q", origin))
		}
	}
	if strings.Contains(o.CustomDomain, "/") || strings.Contains(o.CustomDomain, ":") {
		c.add(path+".custom_domain", "invalid_domain: want a bare host name such as villa-soleil.fr")
	}

	year := civil.Today(now, org.Location()).Year
	e := orgEntry{path: path, org: org, contact: strings.TrimSpace(o.ContactEmail), terms: parseTerms(c, path+".terms", o.Terms, org.Currency)}
	names := map[string]string{}
	for j, pj := range o.Properties {
		ppath := fmt.Sprintf("%s.properties[%d]", path, j)
		if prev, dup := names[pj.Name]; dup && pj.Name != "" {
			c.add(ppath+".name", "duplicate: "+prev+" has it already")
		}
		names[pj.Name] = ppath
		e.properties = append(e.properties, parseProperty(c, ppath, pj, year, org.Currency))
		e.propertyTerms = append(e.propertyTerms, parseTerms(c, ppath+".terms", pj.Terms, org.Currency))
		e.parts = append(e.parts, pj.Parts)
	}
	// Linked listings: parts are properties of the organisation, each of
	// one whole, and a whole is no part and sells one unit.
	partOf := map[string]string{}
	for j, pj := range o.Properties {
		ppath := fmt.Sprintf("%s.properties[%d]", path, j)
		if len(pj.Parts) > 0 && len(pj.Units) > 1 {
			c.add(ppath+".units", "whole_has_one_unit: a property made of parts sells one unit")
		}
		for k, name := range pj.Parts {
			kpath := fmt.Sprintf("%s.parts[%d]", ppath, k)
			switch _, ok := names[name]; {
			case !ok:
				c.add(kpath, fmt.Sprintf("unknown_property: no property of this organisation is named %q", name))
			case name == pj.Name:
				c.add(kpath, "invalid: a property is no part of itself")
			case partOf[name] != "":
				c.add(kpath, "already_linked: "+partOf[name]+" has this part already")
			default:
				partOf[name] = ppath
			}
		}
	}
	for j, pj := range o.Properties {
		if partOf[pj.Name] != "" && len(pj.Parts) > 0 {
			c.add(fmt.Sprintf("%s.properties[%d].parts", path, j), "already_linked: a part is itself no whole")
		}
	}
	codes := map[string]string{}
	for j, cj := range o.Coupons {
		cpath := fmt.Sprintf("%s.coupons[%d]", path, j)
		code := coupon.Normalize(cj.Code)
		if prev, dup := codes[code]; dup && code != "" {
			c.add(cpath+".code", "duplicate: "+prev+" has it already")
		}
		codes[code] = cpath
		for k, name := range cj.Properties {
			if _, ok := names[name]; !ok {
				c.add(fmt.Sprintf("%s.properties[%d]", cpath, k), fmt.Sprintf("unknown_property: no property of this organisation is named %q", name))
			}
		}
		e.coupons = append(e.coupons, couponEntry{path: cpath, coupon: parseCoupon(c, cpath, cj, org.Currency), properties: cj.Properties})
	}
	return e
}

// parseProperty checks a property of an organisation paid in currency.
func parseProperty(c *checker, path string, pj propertyJSON, year int, currency string) booking.Property {
	p := booking.Property{
		Name: pj.Name, Description: pj.Description, Photos: pj.Photos, City: pj.City, Country: pj.Country,
		MaxGuests: pj.MaxGuests, Bedrooms: pj.Bedrooms,
		MinStayNights: pj.MinStayNights, MaxStayNights: pj.MaxStayNights,
		Active: pj.Active == nil || *pj.Active,
		Fees:   pj.Fees, Tax: pj.Tax,
	}
	if number, reason := registration.Check(pj.Country, pj.RegistrationNumber); reason != "" {
		c.add(path+".registration_number", reason)
	} else {
		p.RegistrationNumber = number
	}
	r := pj.Rates
	rpath := path + ".rates"
	if r.BaseRate == nil {
		c.add(rpath+".base_rate", "required")
	} else {
		p.Rates.BaseRate = *r.BaseRate
	}
	p.Rates.WeekendRate = r.WeekendRate
	p.Rates.WeeklyDiscountPercent = r.WeeklyDiscountPercent
	p.Rates.MonthlyDiscountPercent = r.MonthlyDiscountPercent
	p.Rates.EarlyBird, p.Rates.LastMinute = r.EarlyBird, r.LastMinute
	p.Rates.Rules = pj.Rules
	if r.WeekendNights != nil {
		p.Rates.WeekendNights = make([]time.Weekday, 0, len(r.WeekendNights))
		for k, name := range r.WeekendNights {
			wd, ok := weekday(name)
			if !ok {
				c.add(fmt.Sprintf("%s.weekend_nights[%d]", rpath, k), fmt.Sprintf("invalid_weekday: want a day name such as \"friday\", got %q", name))
			}
			p.Rates.WeekendNights = append(p.Rates.WeekendNights, wd)
		}
	}
	for k, s := range r.Seasons {
		p.Rates.Seasons = append(p.Rates.Seasons, expandSeason(c, fmt.Sprintf("%s.seasons[%d]", rpath, k), s, year)...)
	}
	for k, o := range r.Overrides {
		opath := fmt.Sprintf("%s.overrides[%d]", rpath, k)
		d := c.date(opath+".date", o.Date)
		if o.Date == "" {
			c.add(opath+".date", "required")
		}
		p.Rates.Overrides = append(p.Rates.Overrides, pricing.DateOverride{Date: d, Price: o.Price})
	}
	for k, b := range pj.Blocks {
		bpath := fmt.Sprintf("%s.blocks[%d]", path, k)
		start, end := c.date(bpath+".start", b.Start), c.date(bpath+".end", b.End)
		if b.Start == "" {
			c.add(bpath+".start", "required")
		}
		if b.End == "" {
			c.add(bpath+".end", "required")
		}
		if !start.IsZero() && !end.IsZero() && !start.Before(end) {
			c.add(bpath, "invalid_range: end must come after start (the end day is free again)")
		}
		p.Blocks = append(p.Blocks, booking.Block{Start: start, End: end, Reason: b.Reason})
	}
	for _, name := range pj.Units {
		p.Units = append(p.Units, booking.Unit{Name: name})
	}
	// Property.Validate judges the rest. A field with a problem already
	// recorded inside it (an unreadable season date, say) is not reported
	// again as a whole.
	var be *booking.Error
	if err := p.Validate(); errors.As(err, &be) && len(be.Fields) > 0 {
		fields := map[string][]string{}
		for f, reasons := range be.Fields {
			if !recordedUnder(c.problems, path+"."+f) {
				fields[f] = reasons
			}
		}
		c.fields(path, fields)
	} else {
		c.validation(path, err)
	}
	c.validation(path, booking.CheckBounds(p, currency))
	return p
}

// recordedUnder reports whether a problem was already recorded inside path.
func recordedUnder(ps []Problem, path string) bool {
	return slices.ContainsFunc(ps, func(p Problem) bool {
		return strings.HasPrefix(p.Path, path+".") || strings.HasPrefix(p.Path, path+"[")
	})
}

// parseCoupon checks a coupon of an organisation paid in currency.
func parseCoupon(c *checker, path string, cj couponJSON, currency string) coupon.Coupon {
	cp := coupon.Coupon{
		Code: coupon.Normalize(cj.Code), Label: cj.Label, Kind: cj.Kind, Value: cj.Value,
		Active:     cj.Active == nil || *cj.Active,
		ValidFrom:  c.date(path+".valid_from", cj.ValidFrom),
		ValidUntil: c.date(path+".valid_until", cj.ValidUntil),
		StayFrom:   c.date(path+".stay_from", cj.StayFrom),
		StayUntil:  c.date(path+".stay_until", cj.StayUntil),
		MinNights:  cj.MinNights, MinAmount: cj.MinAmount, MaxRedemptions: cj.MaxRedemptions,
	}
	c.validation(path, cp.Validate())
	c.validation(path, booking.CheckBounds(cp, currency))
	return cp
}

// weekday reads an English day name, full or three letters, any case.
func weekday(name string) (time.Weekday, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	for d := time.Sunday; d <= time.Saturday; d++ {
		full := strings.ToLower(d.String())
		if n == full || n == full[:3] {
			return d, true
		}
	}
	return 0, false
}

// validOrigin reports whether s is an origin as browsers send it:
// scheme://host[:port] with nothing after.
func validOrigin(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil &&
		u.Path == "" && u.RawQuery == "" && u.Fragment == "" && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "#")
}
