package checkin

import (
	"sort"
	"strings"

	"github.com/staykit/staykit/civil"
)

// Retention is how long after a stay's check-out its check-in is kept,
// in months (0: deleted the day after check-out), by country; the key ""
// is every other country.
type Retention map[string]int

// DefaultRetention are the keeping periods staykit applies unless the
// host configures others:
//
//   - FR: 6 months — CESEDA art. R. 814-1: the fiches "doivent être
//     conservées pendant une durée de six mois".
//   - ES: 36 months — Real Decreto 933/2021, art. 5.3: the records are
//     kept three years from the end of the service.
//   - IT: 0 — art. 109 TULPS asks the host to transmit the data to the
//     Questura within 24 hours of arrival and no keeping of it after;
//     staykit deletes it once the stay has ended (the Alloggiati Web
//     receipts, which the portal keeps 5 years, hold no guest data here).
//   - DE: 12 months — Bundesmeldegesetz § 30(4): the Meldeschein is kept
//     one year from the day of departure (and destroyed within three
//     months after).
//   - any other country: 6 months, a staykit choice (no law known to it).
var DefaultRetention = Retention{"FR": 6, "ES": 36, "IT": 0, "DE": 12, "": 6}

// Cutoffs are the deletions the retention job makes on today: one Cutoff
// per country, and one for the other countries, each with the last
// check-out day whose check-in is past keeping.
func (r Retention) Cutoffs(today civil.Date) []Cutoff {
	var named []string
	for c := range r {
		if c != "" {
			named = append(named, strings.ToUpper(c))
		}
	}
	sort.Strings(named)
	var out []Cutoff
	for _, c := range named {
		out = append(out, Cutoff{Countries: []string{c}, DepartedBy: today.AddMonths(-r[c]).AddDays(-1)})
	}
	months, ok := r[""]
	if !ok {
		months = DefaultRetention[""]
	}
	return append(out, Cutoff{Countries: named, Others: true, DepartedBy: today.AddMonths(-months).AddDays(-1)})
}
