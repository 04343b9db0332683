package notify

import (
	"bytes"
	"context"
	"fmt"
	htmltemplate "html/template"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
)

// pausedTexts are the host's e-mail about a paused webhook endpoint, per
// locale. It is not one of the overridable booking templates: it tells
// the host about their own setup, not a guest about a stay.
var pausedTexts = map[string]struct {
	Subject, Intro, Since, Failures, LastError, Held, Resume string
}{
	"fr": {
		Subject:   "Un webhook est en pause",
		Intro:     "staykit a mis en pause votre webhook %s : ses envois échouent depuis le %s.",
		Since:     "En pause depuis",
		Failures:  "Échecs consécutifs",
		LastError: "Dernière erreur",
		Held:      "Les événements suivants ne lui sont pas envoyés, mais gardés.",
		Resume:    "Une fois le service rétabli, reprenez-le depuis la page Webhooks du tableau de bord (ou POST /webhooks/%d/resume de l'API hôte), en rejouant les envois manqués.",
	},
	"en": {
		Subject:   "A webhook endpoint is paused",
		Intro:     "staykit paused your webhook endpoint %s: its deliveries have been failing since %s.",
		Since:     "Paused since",
		Failures:  "Failures in a row",
		LastError: "Last error",
		Held:      "The next events are not sent to it, but kept.",
		Resume:    "Once the receiver is back, resume it from the dashboard's Webhooks page (or POST /webhooks/%d/resume of the host API), replaying what it missed.",
	},
}

var pausedHTML = htmltemplate.Must(htmltemplate.New("paused").Parse(`<!doctype html>
<html lang="{{.Locale}}">
<body style="font-family: sans-serif; color: #1f2937;">
<p style="font-weight: bold;">{{.Org}}</p>
<h1>{{.T.Subject}}</h1>
<p>{{.Intro}}</p>
<table>
<tr><th align="left">{{.T.Since}}</th><td>{{.Since}}</td></tr>
<tr><th align="left">{{.T.Failures}}</th><td>{{.Failures}}</td></tr>
{{- if .LastError}}
<tr><th align="left">{{.T.LastError}}</th><td>{{.LastError}}</td></tr>
{{- end}}
</table>
<p>{{.T.Held}}</p>
<p>{{.Resume}}</p>
</body>
</html>
`))

// pausedMail is the host's e-mail about the endpoint a
// KindEndpointPaused event names, with its latest delivery's error.
func (w *Worker) pausedMail(ctx context.Context, ev *outbox.Event, d *outbox.Delivery, org *booking.Organization) (Mail, error) {
	id, ok := outbox.PausedEndpoint(*ev)
	if !ok {
		return Mail{}, fmt.Errorf("%w: event %d names no endpoint", errPermanent, ev.ID)
	}
	ep, err := w.Store.WebhookEndpoint(ctx, org.ID, id)
	if booking.ErrorCode(err) == booking.CodeNotFound {
		return Mail{}, fmt.Errorf("%w: endpoint %d was removed", errPermanent, id)
	}
	if err != nil {
		return Mail{}, err
	}
	to, err := w.Store.ContactEmail(ctx, org.ID)
	if err != nil {
		return Mail{}, err
	}
	if to == "" {
		return Mail{}, fmt.Errorf("%w: no address", errPermanent)
	}
	lastErr := ""
	if log, err := w.Store.OutboxDeliveries(ctx, 0, id, 0, 5); err == nil {
		for _, l := range log {
			if l.LastError != "" && l.Attempts > 0 {
				lastErr = l.LastError
				break
			}
		}
	}
	locale := mailLocale(org.DefaultLocale)
	t := pausedTexts[locale]
	loc := org.Location()
	when := func(at time.Time) string {
		return Date(civil.Of(at.In(loc)), locale) + at.In(loc).Format(" 15:04")
	}
	pausedAt, since := ep.PausedAt, ep.FailingSince
	if pausedAt.IsZero() { // resumed before the mail went out: the event's time
		pausedAt = ev.CreatedAt
	}
	if since.IsZero() {
		since = pausedAt
	}
	data := struct {
		Locale, Org, Intro, Since, LastError, Resume string
		Failures                                     int
		T                                            any
	}{Locale: locale, Org: org.Name, Intro: fmt.Sprintf(t.Intro, ep.URL, when(since)), Since: when(pausedAt),
		LastError: lastErr, Resume: fmt.Sprintf(t.Resume, ep.ID), Failures: ep.Failures, T: t}
	var html bytes.Buffer
	if err := pausedHTML.Execute(&html, data); err != nil {
		return Mail{}, fmt.Errorf("%w: %w", errPermanent, err)
	}
	text := fmt.Sprintf("%s\n\n%s\n\n%s\n\n%s: %s\n%s: %d\n", org.Name, t.Subject, data.Intro, t.Since, data.Since, t.Failures, ep.Failures)
	if lastErr != "" {
		text += fmt.Sprintf("%s: %s\n", t.LastError, lastErr)
	}
	text += "\n" + t.Held + "\n" + data.Resume + "\n"
	return Mail{ID: MessageID(ev) + "." + d.To, Kind: ev.Kind, To: to, Subject: org.Name + " – " + t.Subject,
		Text: text, HTML: html.String()}, nil
}
