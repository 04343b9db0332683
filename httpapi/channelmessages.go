package httpapi

import (
	"github.com/staykit/staykit/booking"
)

// Messages of the host API's channels (calendar feeds, webhook
// endpoints), merged into byCode at start-up as hostCodes are.
var channelCodes = map[string][]variant{
	booking.CodeNotFound: {
		{when: equals(booking.ParamSubject, "feed"), text: text{
			fr: "Ce calendrier importé n'existe pas.",
			en: "This calendar feed does not exist."}},
		{when: equals(booking.ParamSubject, "webhook"), text: text{
			fr: "Ce webhook n'existe pas.",
			en: "This webhook endpoint does not exist."}},
		{when: equals(booking.ParamSubject, "delivery"), text: text{
			fr: "Cet envoi n'existe pas.",
			en: "This delivery does not exist."}},
	},
	booking.CodeConflict: {
		{when: equals(booking.ParamReason, "sync_in_progress"), text: text{
			fr: "Ce calendrier est en cours de synchronisation. Réessayez dans un instant.",
			en: "This feed is being synced at this moment. Please try again shortly."}},
	},
}

// channelReasons word the field reasons of a feed or webhook URL that
// the outbound policy refuses (outbound.Refusal.Reason).
var channelReasons = map[string]text{
	"https_required": {
		fr: "Saisissez l'adresse en https:// que donne le service : staykit ne joint les calendriers et les webhooks qu'en https.",
		en: "Enter the https:// address the service gives: staykit reaches calendars and webhooks over https only."},
	"private_address": {
		fr: "Cette adresse mène à un réseau privé ou au serveur lui-même, pas à Internet : staykit ne la joint pas, sauf si l'opérateur du serveur l'autorise.",
		en: "This address leads to a private network or to the server itself, not to the internet: staykit does not reach it unless the server's operator allows it."},
}

func init() {
	for code, vs := range channelCodes {
		byCode[code] = append(append([]variant(nil), vs...), byCode[code]...)
	}
	for reason, t := range channelReasons {
		if _, ok := fieldReasons[reason]; !ok {
			fieldReasons[reason] = t
		}
	}
}
