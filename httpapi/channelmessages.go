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

func init() {
	for code, vs := range channelCodes {
		byCode[code] = append(append([]variant(nil), vs...), byCode[code]...)
	}
}
