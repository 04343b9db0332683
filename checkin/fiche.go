package checkin

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/staykit/staykit/civil"
)

// FicheVersion names what the fiche follows.
const FicheVersion = `CESEDA art. R. 814-1 (ex R. 611-42 as written by décret n° 2015-1002 of 18 August 2015, in force 1 October 2015); model of the arrêté of 1 October 2015`

// FicheChildAge is the age under which a child may be written on the
// fiche of an adult who accompanies them rather than on their own.
const FicheChildAge = 15

// fiche is one fiche individuelle de police: a foreign guest, and the
// foreign children under 15 who travel with them.
type fiche struct {
	Establishment Establishment
	Guest         Guest
	BirthDate     string
	Arrival       string
	Departure     string
	Children      []ficheChild
}

type ficheChild struct {
	Name      string
	BirthDate string
}

// Fiches writes the fiches individuelles de police of stays at e as one
// printable HTML document (a page per fiche), in French and English as
// the model is: one fiche per foreign guest (nationality other than FR)
// of 15 or more, with the data article R. 814-1 lists (names, date and
// place of birth, nationality, usual residence, mobile phone and e-mail
// address, arrival and expected departure dates); foreign children under
// 15 on the fiche of the first foreign adult of the stay. The host prints
// it for the guest to sign, keeps it six months and hands it to the
// police or gendarmerie on request: it is not sent anywhere. A stay of
// French guests only has no fiche.
func Fiches(e Establishment, stays []Stay) ([]byte, error) {
	var list []fiche
	for _, s := range stays {
		arrival := civil.Of(s.Arrival)
		first := -1
		for _, g := range s.Guests {
			g = Normalize(g)
			if g.Nationality == "FR" {
				continue
			}
			if !g.BirthDate.IsZero() && arrival.Before(g.BirthDate.AddMonths(12*FicheChildAge)) && first >= 0 {
				list[first].Children = append(list[first].Children, ficheChild{Name: g.Surname + ", " + g.GivenNames, BirthDate: frDate(g.BirthDate)})
				continue
			}
			list = append(list, fiche{Establishment: e, Guest: g, BirthDate: frDate(g.BirthDate),
				Arrival: frDate(arrival), Departure: frDate(civil.Of(s.Departure))})
			if first < 0 {
				first = len(list) - 1
			}
		}
	}
	var buf bytes.Buffer
	if err := ficheTemplate.Execute(&buf, struct {
		Fiches  []fiche
		Version string
	}{list, FicheVersion}); err != nil {
		return nil, fmt.Errorf("fiche de police: %w", err)
	}
	return buf.Bytes(), nil
}

func frDate(d civil.Date) string {
	if d.IsZero() {
		return ""
	}
	return fmt.Sprintf("%02d/%02d/%04d", d.Day, d.Month, d.Year)
}

var ficheTemplate = template.Must(template.New("fiche").Parse(`<!DOCTYPE html>
<html lang="fr">
<head>
<meta charset="utf-8">
<title>Fiche individuelle de police</title>
<style>
body { font-family: sans-serif; font-size: 11pt; }
section { page-break-after: always; border: 1px solid #000; padding: 1em; margin-bottom: 1em; }
dt { font-weight: bold; margin-top: .4em; }
dd { margin-left: 0; border-bottom: 1px dotted #000; min-height: 1.2em; }
</style>
</head>
<body>
{{- range .Fiches}}
<section class="fiche">
<h1>Fiche individuelle de police / Individual police form</h1>
<p>{{.Establishment.Name}} — {{.Establishment.Address}} {{.Establishment.City}}{{if .Establishment.RegistrationNumber}} — N° {{.Establishment.RegistrationNumber}}{{end}}</p>
<dl>
<dt>Nom / Name</dt><dd data-field="surname">{{.Guest.Surname}}</dd>
<dt>Prénoms / Christian names</dt><dd data-field="given_names">{{.Guest.GivenNames}}</dd>
<dt>Date de naissance / Date of birth</dt><dd data-field="birth_date">{{.BirthDate}}</dd>
<dt>Lieu de naissance / Place of birth</dt><dd data-field="birth_place">{{.Guest.BirthPlace}} ({{.Guest.BirthCountry}})</dd>
<dt>Nationalité / Nationality</dt><dd data-field="nationality">{{.Guest.Nationality}}</dd>
<dt>Domicile habituel / Home address</dt><dd data-field="address">{{.Guest.Address}}, {{.Guest.PostalCode}} {{.Guest.City}} ({{.Guest.AddressCountry}})</dd>
<dt>Téléphone mobile / Mobile phone</dt><dd data-field="phone">{{.Guest.Phone}}</dd>
<dt>Adresse électronique / E-mail address</dt><dd data-field="email">{{.Guest.Email}}</dd>
<dt>Date d'arrivée / Date of arrival</dt><dd data-field="arrival">{{.Arrival}}</dd>
<dt>Date de départ prévue / Expected date of departure</dt><dd data-field="departure">{{.Departure}}</dd>
<dt>Enfants de moins de 15 ans accompagnant / Accompanying children under 15</dt>
<dd data-field="children">{{range .Children}}{{.Name}} ({{.BirthDate}}); {{end}}</dd>
<dt>Date et signature / Date and signature</dt><dd></dd>
</dl>
<p><small>{{$.Version}}. Conservée six mois ; remise sur leur demande aux services de police et unités de gendarmerie.</small></p>
</section>
{{- end}}
</body>
</html>
`))
