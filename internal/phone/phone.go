// Package phone reads a telephone number typed by a guest, in
// international form or in the national form of a country, and writes it
// in E.164, the way libphonenumber reads it.
//
// It follows Google's libphonenumber, as its Go port
// github.com/nyaruka/phonenumbers does (its parseHelper,
// maybeExtractCountryCode, maybeStripNationalPrefixAndCarrierCode and
// IsPossibleNumberWithReason), on the characters a guest's number may be
// typed with (digits, a leading +, spaces and ( ) . - /), and with that
// library's numbering plans, copied into plans.go by `go generate` (gen):
// each country's calling code, international and national prefixes, the
// pattern of its national numbers and their possible lengths. The test
// checks that both read every number alike. That library builds every
// plan of the world, its patterns and a protocol-buffer runtime when a
// program starts — 8 MiB of the reference server's resident memory and
// 30 ms of every command's start; this package reads two plans at most
// per number, and compiles a plan's patterns when a number first needs
// them.
package phone

//go:generate go run ./gen

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// plan is a numbering plan: a region's, or a non-geographical entity's
// (region "001").
type plan struct {
	region string
	cc     int
	// idd is the pattern of the international prefix (00, 011...).
	idd string
	// prefix is the pattern of the national prefix (the trunk 0...), and
	// transform how a match of it is rewritten (empty: removed).
	prefix, transform string
	// pattern matches the plan's national significant numbers.
	pattern string
	// lengths are the possible lengths of its national significant
	// numbers, in order; local those of numbers dialled only locally.
	lengths, local []int8
}

// callingCode is a country calling code and its main region.
type callingCode struct {
	cc     int
	region string
}

// Lengths of a national significant number, as libphonenumber's
// MIN_LENGTH_FOR_NSN and MAX_LENGTH_FOR_NSN.
const (
	minNSN = 2
	maxNSN = 17
)

// maxInput is the longest string read, as libphonenumber's
// MAX_INPUT_STRING_LENGTH.
const maxInput = 250

// E164 reads s, a number typed in international form (+33 6 12 34 56 78,
// or with the international prefix of country: 0033...) or in the
// national form of country (06 12 34 56 78 in FR), and returns it in
// E.164 (+33612345678). country is an ISO 3166 region code in upper case.
// ok is false when s is not a possible number: a character other than
// digits, a leading + and spaces, ( ) . - /; an unknown calling code; a
// national number of a length no number of its plan has.
func E164(s, country string) (e164 string, ok bool) {
	if len(s) > maxInput || !typable(s) {
		return "", false
	}
	cc, nsn, ok := parse(s, country)
	if !ok {
		return "", false
	}
	if p := planOf(cc); p == nil || lengthOf(nsn, p) != possible {
		return "", false
	}
	return "+" + strconv.Itoa(cc) + nsn, true
}

// typable reports whether s holds only digits, a leading + and the
// separators a number is typed with.
func typable(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
		case c == '+' && i == 0:
		case strings.IndexByte(" ().-/", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// parse reads s (typable) as libphonenumber's Parse(s, country) does and
// returns its calling code and national significant number.
func parse(s, country string) (cc int, nsn string, ok bool) {
	// extractPossibleNumber: from the first + or digit. (The Go port's
	// pattern of trailing characters to drop never matches these.)
	start := strings.IndexFunc(s, func(r rune) bool { return r == '+' || '0' <= r && r <= '9' })
	if start < 0 {
		return 0, "", false
	}
	s = s[start:]
	if !viable(s) {
		return 0, "", false
	}
	home := regionPlan(country)
	if home == nil && s[0] != '+' {
		return 0, "", false
	}
	cc, national, err := extractCountryCode(s, home)
	if err == errInvalidCountryCode && s[0] == '+' {
		// Read again without the plus, as a number of country.
		cc, national, err = extractCountryCode(s[1:], home)
		if err == 0 && cc == 0 {
			err = errInvalidCountryCode
		}
	}
	if err != 0 {
		return 0, "", false
	}
	p := home
	if cc != 0 {
		if region := mainRegion(cc); region != country {
			p = planOf(cc)
		}
	} else {
		national = digits(s)
		if home != nil {
			cc = home.cc
		}
	}
	if len(national) < minNSN {
		return 0, "", false
	}
	if p != nil {
		// The national prefix goes only if what is left can be a number
		// of the plan: otherwise the whole may be a short number.
		if stripped, ok := stripNationalPrefix(national, p); ok {
			switch lengthOf(stripped, p) {
			case tooShort, localOnly, invalidLength:
			default:
				national = stripped
			}
		}
	}
	if len(national) < minNSN || len(national) > maxNSN || cc == 0 {
		return 0, "", false
	}
	return cc, national, true
}

// viable reports whether s (typable, from its first + or digit) could be
// a number at all: two digits alone, or three digits or more.
func viable(s string) bool {
	if len(s) < minNSN {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if '0' <= s[i] && s[i] <= '9' {
			n++
		}
	}
	return n >= 3 || n == 2 && len(s) == 2
}

// digits returns the digits of s.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if '0' <= r && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// parseError is why extractCountryCode found no number; 0 for none.
type parseError int

const (
	errInvalidCountryCode parseError = iota + 1
	errTooShortAfterIDD
)

// extractCountryCode is libphonenumber's maybeExtractCountryCode: it
// returns the calling code s starts with (after a + or home's
// international prefix) and the digits after it, or 0 when s is a
// national number — unless s, not a number of home's plan, starts with
// home's calling code and is one without it.
func extractCountryCode(s string, home *plan) (int, string, parseError) {
	if s == "" {
		return 0, "", 0
	}
	var full string
	international := false
	if s[0] == '+' {
		full, international = digits(s[1:]), true
	} else {
		full = digits(s)
		if home != nil {
			if rest, ok := stripIDD(full, home); ok {
				full, international = rest, true
			}
		}
	}
	if international {
		if len(full) <= minNSN {
			return 0, "", errTooShortAfterIDD
		}
		if cc, rest, ok := leadingCallingCode(full); ok {
			return cc, rest, 0
		}
		return 0, "", errInvalidCountryCode
	}
	if home != nil {
		code := strconv.Itoa(home.cc)
		if rest, ok := strings.CutPrefix(full, code); ok {
			national := rest
			if stripped, ok := stripNationalPrefix(rest, home); ok {
				national = stripped
			}
			whole := compiled(home).whole
			if !whole.MatchString(full) && whole.MatchString(national) || lengthOf(full, home) == tooLong {
				return home.cc, national, 0
			}
		}
	}
	return 0, "", 0
}

// stripIDD strips home's international prefix from the start of digits,
// unless a 0 follows it (no calling code starts with 0).
func stripIDD(digits string, home *plan) (string, bool) {
	m := compiled(home).idd.FindStringIndex(digits)
	if m == nil || m[0] != 0 {
		return "", false
	}
	rest := digits[m[1]:]
	if rest != "" && rest[0] == '0' {
		return "", false
	}
	return rest, true
}

// leadingCallingCode splits the calling code digits start with from the
// rest.
func leadingCallingCode(digits string) (int, string, bool) {
	if digits == "" || digits[0] == '0' {
		return 0, "", false
	}
	for i := 1; i <= 3 && i <= len(digits); i++ {
		cc, _ := strconv.Atoi(digits[:i])
		if mainRegion(cc) != "" {
			return cc, digits[i:], true
		}
	}
	return 0, "", false
}

// stripNationalPrefix is libphonenumber's
// maybeStripNationalPrefixAndCarrierCode: national without p's national
// prefix, rewritten by p's transform rule when it has one, and false when
// national has no such prefix or when a national number of the plan
// would no longer be one without it.
func stripNationalPrefix(national string, p *plan) (string, bool) {
	if national == "" || p.prefix == "" {
		return "", false
	}
	r := compiled(p)
	groups := r.prefix.FindStringSubmatchIndex(national)
	if groups == nil {
		return "", false
	}
	viableBefore := r.whole.MatchString(national)
	last := len(groups)/2 - 1
	if p.transform == "" || groups[2*last] < 0 {
		rest := national[groups[1]:]
		if viableBefore && !r.whole.MatchString(rest) {
			return "", false
		}
		return rest, true
	}
	transformed := r.prefix.ReplaceAllString(national, p.transform)
	if viableBefore && !r.whole.MatchString(transformed) {
		return "", false
	}
	return transformed, true
}

// lengthResult is libphonenumber's ValidationResult of a length.
type lengthResult int

const (
	possible lengthResult = iota
	localOnly
	tooShort
	tooLong
	invalidLength
)

// lengthOf is libphonenumber's testNumberLength of nsn in p's plan (the
// general description).
func lengthOf(nsn string, p *plan) lengthResult {
	n := int8(min(len(nsn), 127))
	if slices.Contains(p.local, n) {
		return localOnly
	}
	switch {
	case n == p.lengths[0]:
		return possible
	case n < p.lengths[0]:
		return tooShort
	case n > p.lengths[len(p.lengths)-1]:
		return tooLong
	case slices.Contains(p.lengths, n):
		return possible
	}
	return invalidLength
}

// mainRegion returns cc's main region ("001": non-geographical), or ""
// when cc is no calling code.
func mainRegion(cc int) string {
	i, ok := slices.BinarySearchFunc(mainRegions[:], cc, func(c callingCode, cc int) int { return c.cc - cc })
	if !ok {
		return ""
	}
	return mainRegions[i].region
}

// regionPlan returns region's plan, nil for none.
func regionPlan(region string) *plan {
	i, ok := slices.BinarySearchFunc(regionPlans[:], region, func(p plan, r string) int { return strings.Compare(p.region, r) })
	if !ok {
		return nil
	}
	return &regionPlans[i]
}

// planOf returns the plan of cc's main region, or of its non-geographical
// entity; nil when cc is no calling code.
func planOf(cc int) *plan {
	switch region := mainRegion(cc); region {
	case "":
		return nil
	case "001":
		i, ok := slices.BinarySearchFunc(nonGeoPlans[:], cc, func(p plan, cc int) int { return p.cc - cc })
		if !ok {
			return nil
		}
		return &nonGeoPlans[i]
	default:
		return regionPlan(region)
	}
}

// planRegexps are a plan's patterns, compiled as libphonenumber anchors
// them.
type planRegexps struct {
	idd    *regexp.Regexp // anywhere: a match must start at 0
	prefix *regexp.Regexp // at the start
	whole  *regexp.Regexp // the whole number
}

// compiledPlans holds each plan's patterns once compiled (*plan →
// *planRegexps): a number needs one or two plans, so a plan is compiled
// when a number first needs it, not at start.
var compiledPlans sync.Map

// compiled returns p's patterns.
func compiled(p *plan) *planRegexps {
	if r, ok := compiledPlans.Load(p); ok {
		return r.(*planRegexps)
	}
	r := &planRegexps{
		idd:    regexp.MustCompile(p.idd),
		prefix: regexp.MustCompile("^(?:" + p.prefix + ")"),
		whole:  regexp.MustCompile("^(?:" + p.pattern + ")$"),
	}
	actual, _ := compiledPlans.LoadOrStore(p, r)
	return actual.(*planRegexps)
}
