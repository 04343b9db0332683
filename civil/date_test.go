package civil_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/staykit/staykit/civil"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    civil.Date
		wantErr bool
	}{
		{in: "2026-07-14", want: civil.Date{Year: 2026, Month: time.July, Day: 14}},
		{in: "2028-02-29", want: civil.Date{Year: 2028, Month: time.February, Day: 29}},
		{in: "2026-02-29", wantErr: true},
		{in: "2026-7-14", wantErr: true},
		{in: "14/07/2026", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		got, err := civil.Parse(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) err = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestArithmetic(t *testing.T) {
	d := civil.MustParse("2026-12-30")
	if got, want := d.AddDays(3).String(), "2027-01-02"; got != want {
		t.Errorf("AddDays(3) = %s, want %s", got, want)
	}
	if got, want := d.AddDays(-30).String(), "2026-11-30"; got != want {
		t.Errorf("AddDays(-30) = %s, want %s", got, want)
	}
	if got, want := d.DaysUntil(civil.MustParse("2027-03-01")), 61; got != want {
		t.Errorf("DaysUntil = %d, want %d", got, want)
	}
	// The DST change in Europe/Paris (2026-10-25) must not shift day counts.
	if got := civil.MustParse("2026-10-24").DaysUntil(civil.MustParse("2026-10-26")); got != 2 {
		t.Errorf("DaysUntil across DST = %d, want 2", got)
	}
	if got, want := civil.MustParse("2026-11-20").Weekday(), time.Friday; got != want {
		t.Errorf("Weekday = %v, want %v", got, want)
	}
	if got, want := civil.MustParse("2026-01-31").AddMonths(1).FirstOfMonth().String(), "2026-03-01"; got != want {
		t.Errorf("AddMonths normalises like time.AddDate: got %s, want %s", got, want)
	}
}

func TestToday(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	// 23:30 UTC on 20 November is already 21 November in Paris.
	now := time.Date(2026, 11, 20, 23, 30, 0, 0, time.UTC)
	if got, want := civil.Today(now, paris).String(), "2026-11-21"; got != want {
		t.Errorf("Today in Paris = %s, want %s", got, want)
	}
	if got, want := civil.Today(now, time.UTC).String(), "2026-11-20"; got != want {
		t.Errorf("Today in UTC = %s, want %s", got, want)
	}
}

func TestRange(t *testing.T) {
	r := civil.Range{Start: civil.MustParse("2026-07-10"), End: civil.MustParse("2026-07-13")}
	tests := []struct {
		name string
		o    civil.Range
		want bool
	}{
		{"same", r, true},
		{"check-out day is the next check-in", civil.Range{Start: civil.MustParse("2026-07-13"), End: civil.MustParse("2026-07-15")}, false},
		{"ends on our check-in", civil.Range{Start: civil.MustParse("2026-07-08"), End: civil.MustParse("2026-07-10")}, false},
		{"last night shared", civil.Range{Start: civil.MustParse("2026-07-12"), End: civil.MustParse("2026-07-14")}, true},
		{"inside", civil.Range{Start: civil.MustParse("2026-07-11"), End: civil.MustParse("2026-07-12")}, true},
	}
	for _, tt := range tests {
		if got := r.Overlaps(tt.o); got != tt.want {
			t.Errorf("%s: Overlaps = %v, want %v", tt.name, got, tt.want)
		}
	}
	if r.Nights() != 3 || !r.Contains(civil.MustParse("2026-07-12")) || r.Contains(civil.MustParse("2026-07-13")) {
		t.Errorf("Nights/Contains wrong for %v", r)
	}
}

func TestTextRoundTrip(t *testing.T) {
	var d civil.Date
	if err := d.UnmarshalText([]byte("2026-03-05")); err != nil {
		t.Fatal(err)
	}
	b, _ := d.MarshalText()
	if string(b) != "2026-03-05" {
		t.Errorf("round trip = %s", b)
	}
	if err := d.UnmarshalText([]byte("nope")); err == nil {
		t.Error("UnmarshalText accepted garbage")
	}
	// The zero Date round-trips as an empty text.
	b, _ = civil.Date{}.MarshalText()
	var z civil.Date = civil.MustParse("2026-01-01")
	if err := z.UnmarshalText(b); err != nil || !z.IsZero() || len(b) != 0 {
		t.Errorf("zero round trip: text %q, date %v, err %v", b, z, err)
	}
}

// TestString: YYYY-MM-DD, zero-padded, for every day of a few years and
// for out-of-range fields as fmt's %04d-%02d-%02d writes them.
func TestString(t *testing.T) {
	for d := civil.MustParse("0999-12-25"); d.Before(civil.MustParse("1001-01-05")); d = d.AddDays(1) {
		if got, want := d.String(), d.In(time.UTC).Format(time.DateOnly); got != want {
			t.Fatalf("%v: %q, want %q", d, got, want)
		}
	}
	for d := civil.MustParse("2024-01-01"); d.Before(civil.MustParse("2027-01-01")); d = d.AddDays(1) {
		if got, want := d.String(), d.In(time.UTC).Format(time.DateOnly); got != want {
			t.Fatalf("%v: %q, want %q", d, got, want)
		}
	}
	for _, tt := range []struct {
		d    civil.Date
		want string
	}{
		{civil.Date{}, "0000-00-00"},
		{civil.Date{Year: 9999, Month: 12, Day: 31}, "9999-12-31"},
		{civil.Date{Year: 10000, Month: 1, Day: 2}, "10000-01-02"},
		{civil.Date{Year: -1, Month: 1, Day: 2}, "-001-01-02"},
		{civil.Date{Year: 2026, Month: 13, Day: 100}, "2026-13-100"},
	} {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestDayArithmeticMatchesTime compares AddDays, DaysUntil and Weekday
// with the same arithmetic through time.Date, over years 1 to 9999
// (leap centuries included), negative and large steps, and out-of-range
// days and months, which both normalise.
func TestDayArithmeticMatchesTime(t *testing.T) {
	utc := func(d civil.Date) time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }
	rng := rand.New(rand.NewPCG(5, 6))
	dates := []civil.Date{
		{Year: 1970, Month: 1, Day: 1}, {Year: 1969, Month: 12, Day: 31}, {Year: 2000, Month: 2, Day: 29},
		{Year: 1900, Month: 2, Day: 28}, {Year: 2100, Month: 3, Day: 1}, {Year: 2400, Month: 2, Day: 29},
		{Year: 1, Month: 1, Day: 1}, {Year: 9999, Month: 12, Day: 31}, {Year: 0, Month: 3, Day: 1}, {Year: -1, Month: 12, Day: 31},
		{Year: 2026, Month: 2, Day: 30}, {Year: 2026, Month: 13, Day: 1}, {Year: 2026, Month: 0, Day: 0}, {Year: 2026, Month: -14, Day: 45},
	}
	for range 20000 {
		dates = append(dates, civil.Date{Year: 1 + rng.IntN(9999), Month: time.Month(1 + rng.IntN(12)), Day: 1 + rng.IntN(31)})
	}
	for i, d := range dates {
		n := rng.IntN(2000) - 1000
		if i%10 == 0 {
			n = rng.IntN(2_000_000) - 1_000_000
		}
		if got, want := d.AddDays(n), civil.Of(utc(d).AddDate(0, 0, n)); got != want {
			t.Fatalf("%+v.AddDays(%d) = %+v, want %+v", d, n, got, want)
		}
		if got, want := d.Weekday(), utc(d).Weekday(); got != want {
			t.Fatalf("%+v.Weekday() = %v, want %v", d, got, want)
		}
		o := dates[rng.IntN(len(dates))]
		if got, want := d.DaysUntil(o), int((utc(o).Unix()-utc(d).Unix())/86400); got != want {
			t.Fatalf("%+v.DaysUntil(%+v) = %d, want %d", d, o, got, want)
		}
	}
}

func BenchmarkAddDays(b *testing.B) {
	d := civil.MustParse("2026-06-10")
	for b.Loop() {
		d = d.AddDays(1)
		if d.Year > 2100 {
			d = civil.MustParse("2026-06-10")
		}
	}
}
