package httpapi

import (
	"strings"

	"github.com/staykit/staykit/booking"
)

// stayRuleTexts are the messages of the stay rules and guest categories of
// issue #16; each says what would work. codeText reads them after byCode.
var stayRuleTexts = map[string][]variant{
	booking.CodeClosedToArrival: {{text: text{
		fr: "Aucune arrivée n'est possible le {date}.",
		en: "No arrival is possible on {date}."}}},
	booking.CodeClosedToDeparture: {{text: text{
		fr: "Aucun départ n'est possible le {date}.",
		en: "No departure is possible on {date}."}}},
	booking.CodeArrivalDay: {{text: text{
		fr: "Arrivées possibles uniquement le {days}.",
		en: "Arrivals on {days} only."}}},
	booking.CodeDepartureDay: {{text: text{
		fr: "Départs possibles uniquement le {days}.",
		en: "Departures on {days} only."}}},
	booking.CodeAdvanceNotice: {{text: text{
		fr: "Les réservations se font au moins {days} jours avant l'arrivée : première arrivée possible le {date}.",
		en: "Bookings must be made at least {days} days before arrival: the first possible arrival is {date}."}}},
	booking.CodeSameDayCutoff: {{text: text{
		fr: "Les arrivées le jour même se réservent avant {hour} h ; première arrivée possible le {date}.",
		en: "Same-day arrivals must be booked before {hour}:00; the first possible arrival is {date}."}}},
	booking.CodeBookingWindow: {{text: text{
		fr: "Les arrivées se réservent au plus {days} jours à l'avance, jusqu'au {date}.",
		en: "Arrivals can be booked up to {days} days ahead, until {date}."}}},
	booking.CodeMaxChildren: {{text: text{
		fr: "Ce logement accueille au maximum {max} enfant(s).",
		en: "This property takes at most {max} child(ren)."}}},
	booking.CodeMaxInfants: {{text: text{
		fr: "Ce logement accueille au maximum {max} bébé(s).",
		en: "This property takes at most {max} infant(s)."}}},
	booking.CodeMaxPets: {
		{when: equals("max", "0"), text: text{
			fr: "Les animaux ne sont pas acceptés dans ce logement.",
			en: "Pets are not allowed in this property."}},
		{text: text{
			fr: "Ce logement accepte au maximum {max} animal(aux).",
			en: "This property takes at most {max} pet(s)."}},
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
			if loc == localeFR {
				names[i] = w[0]
			} else {
				names[i] = w[1]
			}
		}
	}
	and := " and "
	if loc == localeFR {
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
