package hostweb

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/internal/apihttp"
	"github.com/staykit/staykit/team"
)

var invitationTemplate = template.Must(template.New("invitation").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.T.Title}}</title>
<link rel="stylesheet" href="/host/assets/style.css">
</head>
<body class="login">
<main>
<h1>{{.T.Title}}</h1>
{{if .Error}}<p class="error" id="invitation-error" role="alert">{{.Error}}</p>{{end}}
{{if .Org}}<p id="invitation-text">{{.Intro}}</p>
<form method="post" action="/host/invitation?lang={{.Lang}}">
<input type="hidden" name="token" value="{{.Token}}">
<label>{{.T.Email}} <input type="email" id="email" autocomplete="username" value="{{.Email}}" readonly></label>
<label>{{if .HasUser}}{{.T.Password}}{{else}}{{.T.NewPassword}}{{end}} <input type="password" name="password" id="password" autocomplete="{{if .HasUser}}current-password{{else}}new-password{{end}}" required{{if not .HasUser}} minlength="10"{{end}}></label>
<button type="submit" id="accept">{{.T.Accept}}</button>
</form>{{end}}
</main>
</body>
</html>
`))

type invitationTexts struct {
	Title, Email, Password, NewPassword, Accept, Intro, Gone, Short, Wrong, Throttled, Already string
	Roles                                                                                      map[team.Role]string
}

var invitationText = map[string]invitationTexts{
	"fr": {"Invitation", "Adresse e-mail", "Votre mot de passe actuel", "Choisissez un mot de passe (10 caractères au moins)",
		"Rejoindre", "Vous êtes invité(e) à rejoindre %s (%s).", "Cette invitation est inconnue, déjà utilisée ou expirée.",
		"Le mot de passe doit compter au moins 10 caractères.", "Mot de passe incorrect.", "Trop de tentatives. Réessayez dans quelques minutes.",
		"Vous faites déjà partie de cet établissement : connectez-vous.",
		map[team.Role]string{team.Owner: "propriétaire", team.Manager: "gestionnaire", team.Housekeeping: "ménage, lecture seule"}},
	"en": {"Invitation", "E-mail address", "Your current password", "Choose a password (at least 10 characters)",
		"Join", "You are invited to join %s (%s).", "This invitation is unknown, used or expired.",
		"The password must have at least 10 characters.", "Wrong password.", "Too many attempts. Please try again in a few minutes.",
		"You are already a member of this organisation: sign in.",
		map[team.Role]string{team.Owner: "owner", team.Manager: "manager", team.Housekeeping: "housekeeping, read-only"}},
}

func (d *Dashboard) renderInvitation(w http.ResponseWriter, r *http.Request, status int, token string, p *team.Pending, problem string) {
	lang := pageLocale(r)
	t := invitationText[lang]
	data := struct {
		Lang, Token, Email, Org, Intro, Error string
		HasUser                               bool
		T                                     invitationTexts
	}{Lang: lang, Token: token, Error: problem, T: t}
	if p != nil {
		data.Email, data.Org, data.HasUser = p.Email, p.Org.Name, p.HasUser
		data.Intro = strings.Replace(strings.Replace(t.Intro, "%s", p.Org.Name, 1), "%s", t.Roles[p.Role], 1)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := invitationTemplate.Execute(w, data); err != nil {
		d.log.ErrorContext(r.Context(), "render invitation page", "err", err)
	}
}

// invitationPage shows an invitation of ?token=: the organisation and
// role, and a password to choose (or, for an existing user, theirs).
func (d *Dashboard) invitationPage(w http.ResponseWriter, r *http.Request) {
	if d.team == nil {
		http.NotFound(w, r)
		return
	}
	token := r.URL.Query().Get("token")
	p, err := d.team.Lookup(r.Context(), token)
	if err != nil {
		if booking.ErrorCode(err) != booking.CodeNotFound {
			d.log.ErrorContext(r.Context(), "find invitation", "err", err)
		}
		d.renderInvitation(w, r, http.StatusNotFound, "", nil, invitationText[pageLocale(r)].Gone)
		return
	}
	d.renderInvitation(w, r, http.StatusOK, token, p, "")
}

// acceptInvitation accepts the invitation of the form's token, signs the
// new member in and opens the organisation. An existing user's password
// is checked under the sign-in limits (loginlimit.go).
func (d *Dashboard) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	if d.team == nil {
		http.NotFound(w, r)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	token, password := r.PostFormValue("token"), r.PostFormValue("password")
	t := invitationText[pageLocale(r)]
	p, err := d.team.Lookup(r.Context(), token)
	if err != nil {
		d.renderInvitation(w, r, http.StatusNotFound, "", nil, t.Gone)
		return
	}
	attempt, wait := d.admitLogin(r.Context(), apihttp.ClientKey(r, d.proxies), p.Email)
	if wait > 0 {
		w.Header().Set("Retry-After", retryAfter(wait))
		d.renderInvitation(w, r, http.StatusTooManyRequests, token, p, t.Throttled)
		return
	}
	u, org, err := d.team.Accept(r.Context(), token, password)
	switch booking.ErrorCode(err) {
	case "":
	case booking.CodeUnauthorized:
		d.loginFailed(r.Context(), attempt)
		d.renderInvitation(w, r, http.StatusUnauthorized, token, p, t.Wrong)
		return
	case booking.CodeInvalid:
		d.renderInvitation(w, r, http.StatusUnprocessableEntity, token, p, t.Short)
		return
	case booking.CodeNotFound:
		d.renderInvitation(w, r, http.StatusNotFound, "", nil, t.Gone)
		return
	case booking.CodeConflict:
		d.renderInvitation(w, r, http.StatusConflict, "", nil, t.Already)
		return
	default:
		d.log.ErrorContext(r.Context(), "accept invitation", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	d.log.InfoContext(r.Context(), "invitation accepted", "user_id", u.ID, "org_id", org.ID)
	token, _, err = d.host.Login(r.Context(), u.Email, password)
	if err != nil {
		// Accepted; the member signs in on the login page.
		http.Redirect(w, r, "/host/login?lang="+pageLocale(r), http.StatusSeeOther)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: d.cookieName(), Value: token, Path: "/", HttpOnly: true, Secure: d.secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int(host.SessionTTL.Seconds())})
	http.Redirect(w, r, "/host/?"+url.Values{"org": {org.Slug}, "lang": {pageLocale(r)}}.Encode(), http.StatusSeeOther)
}
