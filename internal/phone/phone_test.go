package phone

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nyaruka/phonenumbers"
)

// reference reads s as booking did before this package: the characters a
// number may be typed with, then libphonenumber's Go port (Parse, a
// possible length, a known calling code, E.164).
func reference(s, country string) (string, bool) {
	digits := 0
	for i, r := range s {
		switch {
		case '0' <= r && r <= '9':
			digits++
		case r == '+' && i == 0:
		case strings.ContainsRune(" ().-/", r):
		default:
			return "", false
		}
	}
	if digits == 0 {
		return "", false
	}
	n, err := phonenumbers.Parse(s, country)
	if err != nil || n.GetExtension() != "" || phonenumbers.IsPossibleNumberWithReason(n) != phonenumbers.IS_POSSIBLE ||
		phonenumbers.GetRegionCodeForCountryCode(int(n.GetCountryCode())) == "ZZ" {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}

// homes are the countries every number is also read in: the main ones of
// staykit's hosts, plans with national prefix rules of their own
// (Argentina, Mexico, Brazil, Russia), and no valid country at all.
var homes = []string{"FR", "US", "GB", "DE", "IT", "AR", "MX", "BR", "RU", "", "ZZ", "fr"}

// agree checks that E164 reads s in country as reference does.
func agree(t *testing.T, s, country string, mismatches *int) {
	t.Helper()
	wantNumber, wantOK := reference(s, country)
	gotNumber, gotOK := E164(s, country)
	if gotNumber != wantNumber || gotOK != wantOK {
		*mismatches++
		if *mismatches <= 20 {
			t.Errorf("E164(%q, %q) = %q, %v; libphonenumber reads %q, %v", s, country, gotNumber, gotOK, wantNumber, wantOK)
		}
	}
}

// examples returns each plan's example numbers, as libphonenumber writes
// them and altered: a digit less or more, with national and international
// prefixes, without its +.
func examples() (numbers []string, regionOf map[string]string) {
	regionOf = map[string]string{}
	types := []phonenumbers.PhoneNumberType{phonenumbers.FIXED_LINE, phonenumbers.MOBILE, phonenumbers.TOLL_FREE,
		phonenumbers.PREMIUM_RATE, phonenumbers.SHARED_COST, phonenumbers.VOIP, phonenumbers.PERSONAL_NUMBER,
		phonenumbers.PAGER, phonenumbers.UAN, phonenumbers.VOICEMAIL}
	add := func(region string, n *phonenumbers.PhoneNumber) {
		if n == nil {
			return
		}
		cc := strconv.Itoa(int(n.GetCountryCode()))
		nsn := phonenumbers.GetNationalSignificantNumber(n)
		for _, s := range []string{
			phonenumbers.Format(n, phonenumbers.E164),
			phonenumbers.Format(n, phonenumbers.INTERNATIONAL),
			phonenumbers.Format(n, phonenumbers.NATIONAL),
			"+" + cc + nsn[:len(nsn)-1], "+" + cc + nsn + "5", "+" + cc + " (0) " + nsn, "+" + cc + "0" + nsn,
			nsn, "0" + nsn, nsn[:len(nsn)-1], nsn + "7", "00" + cc + nsn, "011" + cc + nsn, "8" + cc + nsn, cc + nsn,
			cc + "0" + nsn,
		} {
			numbers = append(numbers, s)
			regionOf[s] = region
		}
	}
	for _, region := range slices.Sorted(maps.Keys(phonenumbers.GetSupportedRegions())) {
		for _, typ := range types {
			add(region, phonenumbers.GetExampleNumberForType(region, typ))
		}
	}
	for _, cc := range slices.Sorted(maps.Keys(phonenumbers.GetSupportedGlobalNetworkCallingCodes())) {
		add("", phonenumbers.GetExampleNumberForNonGeoEntity(cc))
	}
	return numbers, regionOf
}

// Every plan's example numbers, altered, read in their own country and in
// the homes, as libphonenumber reads them.
func TestE164ReadsExamplesAsLibphonenumber(t *testing.T) {
	numbers, regionOf := examples()
	step := 1
	if raced {
		step = 7 // every home still reads every plan's numbers
	}
	mismatches, n := 0, 0
	for i, s := range numbers {
		agree(t, s, regionOf[s], &mismatches)
		n++
		for j, home := range homes {
			if (i+j)%step == 0 {
				agree(t, s, home, &mismatches)
				n++
			}
		}
	}
	if mismatches > 0 {
		t.Errorf("%d of %d readings differ", mismatches, n)
	}
}

// Random strings of digits and separators, with and without + and
// prefixes, of every length a number has and more, read in every country.
func TestE164ReadsRandomNumbersAsLibphonenumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 2026))
	regions := slices.Sorted(maps.Keys(phonenumbers.GetSupportedRegions()))
	leads := []string{"", "+", "0", "00", "+0", "011", "(0)", " ", "+ "}
	seps := []string{"", "", "", " ", "-", ".", "/", "(", ")"}
	mismatches, n := 0, 40_000
	if testing.Short() || raced {
		n = 5_000
	}
	for range n {
		var b strings.Builder
		b.WriteString(leads[rng.IntN(len(leads))])
		for range 1 + rng.IntN(18) {
			b.WriteByte(byte('0' + rng.IntN(10)))
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		country := regions[rng.IntN(len(regions))]
		if rng.IntN(4) == 0 {
			country = homes[rng.IntN(len(homes))]
		}
		agree(t, b.String(), country, &mismatches)
	}
	if mismatches > 0 {
		t.Errorf("%d of %d readings differ", mismatches, n)
	}
}

// Random national numbers of the plans whose national prefix is
// rewritten (Argentina's 0 and 15, the Caribbean's seven-digit numbers...),
// read in their country.
func TestE164ReadsRewrittenPrefixesAsLibphonenumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	leads := []string{"", "0", "1", "15", "9", "0 9", "8", "01"}
	mismatches, n := 0, 0
	for _, p := range regionPlans {
		if p.transform == "" {
			continue
		}
		for range 400 {
			var b strings.Builder
			b.WriteString(leads[rng.IntN(len(leads))])
			for range 5 + rng.IntN(9) {
				b.WriteByte(byte('0' + rng.IntN(10)))
			}
			agree(t, b.String(), p.region, &mismatches)
			n++
		}
	}
	if n == 0 {
		t.Fatal("no plan rewrites its national prefix")
	}
	if mismatches > 0 {
		t.Errorf("%d of %d readings differ", mismatches, n)
	}
}

// Numbers of several countries read at once, each country's plan
// compiled by whichever reads it first.
func TestE164Concurrently(t *testing.T) {
	tests := []struct{ in, country, want string }{
		{"06 12 34 56 78", "FR", "+33612345678"},
		{"(415) 555-2671", "US", "+14155552671"},
		{"030 901820", "DE", "+4930901820"},
		{"011 15 2345-6789", "AR", "+5491123456789"},
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 16 {
		tt := tests[i%len(tests)]
		wg.Go(func() {
			<-start
			if got, ok := E164(tt.in, tt.country); got != tt.want || !ok {
				t.Errorf("E164(%q, %q) = %q, %v; want %q", tt.in, tt.country, got, ok, tt.want)
			}
		})
	}
	close(start)
	wg.Wait()
}

// stripNationalPrefix on plans made for the purpose: each branch of
// libphonenumber's maybeStripNationalPrefixAndCarrierCode, including those
// no real plan's numbers reached in the tests above.
func TestStripNationalPrefix(t *testing.T) {
	removed := &plan{prefix: "0", pattern: `[0-8]\d{4}`, lengths: []int8{5}}
	rewritten := &plan{prefix: "0(1)?", transform: "9$1", pattern: `[0-8]\d{4}`, lengths: []int8{5}}
	for _, tt := range []struct {
		name     string
		p        *plan
		in, want string
		ok       bool
	}{
		{"removed", removed, "012345", "12345", true},
		{"no prefix", removed, "12345", "", false},
		// The number was one of the plan without removing its prefix,
		// and is none after: kept whole.
		{"removed, no longer a number", removed, "01234", "", false},
		{"rewritten", rewritten, "0123456", "9123456", true},
		{"rewritten, no longer a number", rewritten, "01234", "", false},
		// The group that the rule rewrites did not match: removed only.
		{"group unmatched", rewritten, "0567890", "567890", true},
		{"empty", removed, "", "", false},
		{"plan without prefix", &plan{pattern: `\d{5}`, lengths: []int8{5}}, "012345", "", false},
	} {
		got, ok := stripNationalPrefix(tt.in, tt.p)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: stripNationalPrefix(%q) = %q, %v; want %q, %v", tt.name, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestE164(t *testing.T) {
	for _, tt := range []struct {
		in, country, want string
	}{
		{"+33612345678", "FR", "+33612345678"},
		{"06 12 34 56 78", "FR", "+33612345678"},
		{"(0)6-12-34-56-78", "FR", "+33612345678"},
		{"0033 6 12 34 56 78", "FR", "+33612345678"},
		{"+49 30 901820", "FR", "+4930901820"},
		{"(415) 555-2671", "US", "+14155552671"},
		{"+44 (0) 20 7946 0958", "US", "+442079460958"},
		{"+39 06 6982 8000", "FR", "+390669828000"}, // Italy keeps its leading 0
		{"06 12", "FR", ""},
		{"++33612345678", "FR", ""},
		{"+999 12345678", "FR", ""},
		{"0612345678", "", ""}, // national, and no country to read it in
		{"+33 6 12 34 56 78 ext 5", "FR", ""},
		{"", "FR", ""},
		{"+", "FR", ""},
		{strings.Repeat("1", 251), "FR", ""},
	} {
		got, ok := E164(tt.in, tt.country)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("E164(%q, %q) = %q, %v; want %q", tt.in, tt.country, got, ok, tt.want)
		}
	}
}

// The generated plans are those of the module's metadata: plans.go is
// up to date (go generate ./internal/phone).
func TestPlansAreGenerated(t *testing.T) {
	for _, c := range mainRegions {
		if got := phonenumbers.GetRegionCodeForCountryCode(c.cc); got != c.region {
			t.Errorf("calling code %d: main region %q, libphonenumber's %q", c.cc, c.region, got)
		}
	}
	if got, want := len(mainRegions), len(phonenumbers.GetSupportedCallingCodes()); got != want {
		t.Errorf("%d calling codes, libphonenumber knows %d", got, want)
	}
	if got, want := len(regionPlans), len(phonenumbers.GetSupportedRegions()); got != want {
		t.Errorf("%d regions' plans, libphonenumber knows %d regions", got, want)
	}
	if got, want := len(nonGeoPlans), len(phonenumbers.GetSupportedGlobalNetworkCallingCodes()); got != want {
		t.Errorf("%d non-geographical plans, libphonenumber knows %d", got, want)
	}
	coll, err := phonenumbers.MetadataCollection()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range coll.GetMetadata() {
		var p *plan
		if m.GetId() == "001" {
			p = planOf(int(m.GetCountryCode()))
		} else {
			p = regionPlan(m.GetId())
		}
		g := m.GetGeneralDesc()
		want := plan{region: m.GetId(), cc: int(m.GetCountryCode()), idd: m.GetInternationalPrefix(),
			prefix: m.GetNationalPrefixForParsing(), transform: m.GetNationalPrefixTransformRule(),
			pattern: g.GetNationalNumberPattern(), lengths: int8s(g.GetPossibleLength()), local: int8s(g.GetPossibleLengthLocalOnly())}
		if p == nil || p.region != want.region || p.cc != want.cc || p.idd != want.idd || p.prefix != want.prefix ||
			p.transform != want.transform || p.pattern != want.pattern || !slices.Equal(p.lengths, want.lengths) || !slices.Equal(p.local, want.local) {
			t.Errorf("plan of %s (%d) = %+v, libphonenumber's metadata %+v", want.region, want.cc, p, want)
		}
	}
}

// int8s converts lengths; nil stays nil.
func int8s(ls []int32) []int8 {
	var out []int8
	for _, l := range ls {
		out = append(out, int8(l))
	}
	return out
}

func BenchmarkE164(b *testing.B) {
	for _, in := range []string{"+33612345678", "06 12 34 56 78"} {
		b.Run(in, func(b *testing.B) {
			for b.Loop() {
				if _, ok := E164(in, "FR"); !ok {
					b.Fatal("refused")
				}
			}
		})
	}
}
