package apihttp

import (
	"strings"

	"github.com/staykit/staykit/booking"
)

// stayRuleTexts are the messages of the stay rules and guest categories of
// issue #16; each says what would work. codeText reads them after byCode.
var stayRuleTexts = map[string][]Variant{
	booking.CodeClosedToArrival: {{Text: Text{
		FR: "Aucune arrivée n'est possible le {date}.",
		EN: "No arrival is possible on {date}."}}},
	booking.CodeClosedToDeparture: {{Text: Text{
		FR: "Aucun départ n'est possible le {date}.",
		EN: "No departure is possible on {date}."}}},
	booking.CodeArrivalDay: {{Text: Text{
		FR: "Arrivées possibles uniquement le {days}.",
		EN: "Arrivals on {days} only."}}},
	booking.CodeDepartureDay: {{Text: Text{
		FR: "Départs possibles uniquement le {days}.",
		EN: "Departures on {days} only."}}},
	booking.CodeAdvanceNotice: {{Text: Text{
		FR: "Les réservations se font au moins {days} jours avant l'arrivée : première arrivée possible le {date}.",
		EN: "Bookings must be made at least {days} days before arrival: the first possible arrival is {date}."}}},
	booking.CodeSameDayCutoff: {{Text: Text{
		FR: "Les arrivées le jour même se réservent avant {hour} h ; première arrivée possible le {date}.",
		EN: "Same-day arrivals must be booked before {hour}:00; the first possible arrival is {date}."}}},
	booking.CodeBookingWindow: {{Text: Text{
		FR: "Les arrivées se réservent au plus {days} jours à l'avance, jusqu'au {date}.",
		EN: "Arrivals can be booked up to {days} days ahead, until {date}."}}},
	booking.CodeMaxChildren: {{Text: Text{
		FR: "Ce logement accueille au maximum {max} enfant(s).",
		EN: "This property takes at most {max} child(ren)."}}},
	booking.CodeMaxInfants: {{Text: Text{
		FR: "Ce logement accueille au maximum {max} bébé(s).",
		EN: "This property takes at most {max} infant(s)."}}},
	booking.CodeMaxPets: {
		{When: Equals("max", "0"), Text: Text{
			FR: "Les animaux ne sont pas acceptés dans ce logement.",
			EN: "Pets are not allowed in this property."}},
		{Text: Text{
			FR: "Ce logement accepte au maximum {max} animal(aux).",
			EN: "This property takes at most {max} pet(s)."}},
	},
}

// weekdayNames are the English names of package rules and their French.
var weekdayNames = map[string][2]string{
	"monday": {"lundi", "Monday"}, "tuesday": {"mardi", "Tuesday"}, "wednesday": {"mercredi", "Wednesday"},
	"thursday": {"jeudi", "Thursday"}, "friday": {"vendredi", "Friday"}, "saturday": {"samedi", "Saturday"},
	"sunday": {"dimanche", "Sunday"},
}

// localDays words a "days" param ("saturday,sunday") in loc: "samedi et
// dimanche", "Saturday and Sunday".
func localDays(loc, days string) string {
	names := strings.Split(days, ",")
	for i, n := range names {
		if w, ok := weekdayNames[n]; ok {
			if loc == FR {
				names[i] = w[0]
			} else {
				names[i] = w[1]
			}
		}
	}
	and := " and "
	if loc == FR {
		and = " et "
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + and + names[len(names)-1]
}

// localParams returns params with the weekday names in loc.
func localParams(loc string, params map[string]string) map[string]string {
	days, ok := params["days"]
	if !ok || strings.ContainsAny(days, "0123456789") {
		return params
	}
	out := make(map[string]string, len(params))
	for k, v := range params {
		out[k] = v
	}
	out["days"] = localDays(loc, days)
	return out
}
