// Package hostweb is the host dashboard: a sign-in page and one page
// whose script calls the host API (package hostapi) with the session
// cookie, so scripts and people go through one code path. Its assets
// (plain HTML, CSS and JavaScript, no build step, nothing from a CDN) are
// embedded in the package.
//
// An embedder builds a host.Service, the dashboard over it, and the host
// API with the dashboard's Session hook, then mounts both on one origin:
//
//	hs := host.New(host.Options{Stores: host.Stores{Stores: db.Stores(), FeedStore: db}, Bookings: svc, Logger: logger})
//	dash := hostweb.New(hostweb.Options{Host: hs, Limiter: limiter, Logger: logger,
//		SecureCookies: strings.HasPrefix(publicURL, "https://")})
//	mux.Handle("/host/", dash)
//	mux.Handle(hostapi.Prefix, hostapi.New(hostapi.Options{Host: hs, Session: dash.Session, ...}))
//
// The dashboard serves /host/ (the app), /host/login, /host/logout,
// /host/invitation (accepting a team invitation, with Options.Team) and
// /host/assets/. A user who belongs to several organisations picks one
// (/host/?org=SLUG, kept in OrgCookie) and sees the views of their role
// there; the host API enforces the role. It refuses cross-origin browser requests that change
// anything (http.CrossOriginProtection) and any request with several
// Origin headers; wrap the host API likewise (see OneOrigin). Sign-ins
// are limited by Options.Limiter (see LoginFailures): give it a shared
// limiter when several replicas serve the dashboard.
package hostweb

import (
	"embed"
	"encoding/json"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/internal/apihttp"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/team"
)

// assetFS holds the dashboard's assets.
//
//go:embed assets
var assetFS embed.FS

// SessionCookie names the dashboard's session cookie. With
// Options.SecureCookies it gets the __Host- prefix, which browsers only
// accept Secure, on /, without Domain.
const SessionCookie = "staykit_host"

// Options configure the dashboard.
type Options struct {
	// Host is the host use cases: sign-in, sessions, the organisation.
	// Required.
	Host *host.Service
	// Limiter counts sign-in attempts (see LoginFailures); when it fails,
	// attempts are allowed. Nil means a limiter in this process's memory:
	// enough for one server, but replicas behind one address should share
	// one (ratelimit/redislimit), or each counts its own attempts.
	Limiter ratelimit.Limiter
	// Logger receives the dashboard's logs; nil discards them.
	Logger *slog.Logger
	// TrustedProxies are the networks whose X-Forwarded-For is believed
	// when the sign-in limits find the client's address.
	TrustedProxies []netip.Prefix
	// SecureCookies marks the session cookie Secure (with the __Host-
	// prefix): set it when the dashboard is reached over https.
	SecureCookies bool
	// Team is the organisations' members and invitations (package team):
	// a user opens each organisation they belong to, with its role, and
	// accepts invitations at /host/invitation. Nil: each user is the
	// owner of its own organisation (User.OrgID) alone, as before teams.
	Team *team.Service
}

// Dashboard is the host dashboard, an http.Handler for /host/. Its
// Session method is the host API's Session hook.
type Dashboard struct {
	host    *host.Service
	log     *slog.Logger
	limiter ratelimit.Limiter
	proxies []netip.Prefix
	secure  bool
	team    *team.Service
	handler http.Handler
}

// New returns the dashboard of o. It panics when o.Host is nil, a
// programming error.
func New(o Options) *Dashboard {
	if o.Host == nil {
		panic("hostweb: New needs the host use cases (Options.Host)")
	}
	d := &Dashboard{host: o.Host, log: o.Logger, limiter: o.Limiter, proxies: o.TrustedProxies, secure: o.SecureCookies, team: o.Team}
	if d.limiter == nil {
		d.limiter = ratelimit.NewMemory(ratelimit.MemoryOptions{})
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	deny := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Cross-origin request refused: changes are accepted only from this server's own pages.", http.StatusForbidden)
	})
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(deny)
	d.handler = OneOrigin(deny, csrf.Handler(d.routes()))
	return d
}

// ServeHTTP serves the dashboard's routes under /host/.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) { d.handler.ServeHTTP(w, r) }

// OneOrigin refuses, with deny, a request with more than one Origin
// header, as the public API does: no browser sends that, and
// http.CrossOriginProtection would judge it by the first alone. The
// dashboard applies it to itself; an embedder wraps the host API in it.
func OneOrigin(deny, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header.Values("Origin")) > 1 {
			deny.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (d *Dashboard) cookieName() string {
	if d.secure {
		return "__Host-" + SessionCookie
	}
	return SessionCookie
}

func (d *Dashboard) routes() http.Handler {
	sub, err := fs.Sub(assetFS, "assets")
	if err != nil {
		panic(err) // the embedded tree always has assets/
	}
	assets := http.StripPrefix("/host/assets/", http.FileServerFS(sub))
	mux := http.NewServeMux()
	mux.Handle("GET /host/assets/", assets)
	mux.HandleFunc("GET /host/login", d.loginPage)
	mux.HandleFunc("POST /host/login", d.login)
	mux.HandleFunc("POST /host/logout", d.logout)
	mux.HandleFunc("GET /host/invitation", d.invitationPage)
	mux.HandleFunc("POST /host/invitation", d.acceptInvitation)
	mux.HandleFunc("GET /host/{$}", d.app)
	mux.HandleFunc("/host/", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})
}

// Session is the host API's Session hook (hostapi.Options.Session): the
// dashboard user of the request's session cookie, as an actor with its
// role in the organisation of the request's path ({org_slug}), and that
// organisation when the user is a member of it (else 0: the host API
// answers 403). Without Options.Team, the user's own organisation, as
// its owner.
func (d *Dashboard) Session(r *http.Request) (host.Actor, int64, bool) {
	u := d.user(r)
	if u == nil {
		return host.Actor{}, 0, false
	}
	actor := host.UserActor(u)
	if d.team == nil {
		actor.Role = string(team.Owner)
		return actor, u.OrgID, true
	}
	org, err := d.host.Organization(r.Context(), r.PathValue("org_slug"))
	if err != nil {
		return actor, 0, true
	}
	role, err := d.team.Role(r.Context(), org.ID, u.ID)
	if err != nil {
		if booking.ErrorCode(err) != booking.CodeNotFound {
			d.log.ErrorContext(r.Context(), "read membership", "err", err)
		}
		return actor, 0, true
	}
	actor.Role = string(role)
	return actor, org.ID, true
}

func (d *Dashboard) user(r *http.Request) *host.User {
	c, err := r.Cookie(d.cookieName())
	if err != nil {
		return nil
	}
	u, err := d.host.Session(r.Context(), c.Value)
	if err != nil {
		if booking.ErrorCode(err) != booking.CodeUnauthorized {
			d.log.ErrorContext(r.Context(), "read dashboard session", "err", err)
		}
		return nil
	}
	return u
}

// pageLocale is fr or en: ?lang=, else Accept-Language, else French.
func pageLocale(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l == "en" || l == "fr" {
		return l
	}
	return apihttp.Locale(r, "fr")
}

var loginTemplate = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.T.Title}}</title>
<link rel="stylesheet" href="/host/assets/style.css">
</head>
<body class="login">
<main>
<h1>{{.T.Title}}</h1>
{{if .Error}}<p class="error" id="login-error" role="alert">{{.Error}}</p>{{end}}
<form method="post" action="/host/login?lang={{.Lang}}">
<label>{{.T.Email}} <input type="email" name="email" id="email" autocomplete="username" required value="{{.Email}}"></label>
<label>{{.T.Password}} <input type="password" name="password" id="password" autocomplete="current-password" required></label>
<button type="submit" id="login">{{.T.Submit}}</button>
</form>
<p class="langs"><a href="/host/login?lang=fr">Français</a> · <a href="/host/login?lang=en">English</a></p>
</main>
<script src="/host/assets/login.js" defer></script>
</body>
</html>
`))

type loginTexts struct{ Title, Email, Password, Submit, Wrong, Throttled, Busy, NoOrg string }

var loginText = map[string]loginTexts{
	"fr": {"Espace hôte", "Adresse e-mail", "Mot de passe", "Se connecter",
		"Adresse e-mail ou mot de passe incorrect.", "Trop de tentatives. Réessayez dans quelques minutes.",
		"Le serveur est occupé. Réessayez dans un instant.", "Vous ne faites plus partie d'aucun établissement."},
	"en": {"Host dashboard", "E-mail address", "Password", "Sign in",
		"Wrong e-mail address or password.", "Too many attempts. Please try again in a few minutes.",
		"The server is busy. Please try again in a moment.", "You no longer belong to any organisation."},
}

func (d *Dashboard) renderLogin(w http.ResponseWriter, r *http.Request, status int, email, problem string) {
	lang := pageLocale(r)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	err := loginTemplate.Execute(w, struct {
		Lang, Email, Error string
		T                  loginTexts
	}{lang, email, problem, loginText[lang]})
	if err != nil {
		d.log.ErrorContext(r.Context(), "render login page", "err", err)
	}
}

func (d *Dashboard) loginPage(w http.ResponseWriter, r *http.Request) {
	if d.user(r) != nil {
		http.Redirect(w, r, "/host/", http.StatusSeeOther)
		return
	}
	d.renderLogin(w, r, http.StatusOK, "", "")
}

// login checks the form under the sign-in policy (loginlimit.go) and
// sets the session cookie.
func (d *Dashboard) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	email := strings.ToLower(strings.TrimSpace(r.PostFormValue("email")))
	password := r.PostFormValue("password")
	texts := loginText[pageLocale(r)]
	attempt, wait := d.admitLogin(r.Context(), apihttp.ClientKey(r, d.proxies), email)
	if wait > 0 {
		w.Header().Set("Retry-After", retryAfter(wait))
		d.renderLogin(w, r, http.StatusTooManyRequests, email, texts.Throttled)
		return
	}
	token, u, err := d.host.Login(r.Context(), email, password)
	switch code := booking.ErrorCode(err); {
	case code == booking.CodeBusy:
		// As many passwords are being hashed as memory allows: not a
		// failure of this attempt.
		d.log.WarnContext(r.Context(), "dashboard login refused: too many at once")
		w.Header().Set("Retry-After", retryAfter(host.BusyRetryAfter))
		d.renderLogin(w, r, http.StatusServiceUnavailable, email, texts.Busy)
		return
	case err != nil:
		if code == booking.CodeUnauthorized {
			d.loginFailed(r.Context(), attempt)
		} else {
			d.log.ErrorContext(r.Context(), "login", "err", err)
		}
		d.log.InfoContext(r.Context(), "dashboard login refused", "email", email)
		d.renderLogin(w, r, http.StatusUnauthorized, email, texts.Wrong)
		return
	}
	d.log.InfoContext(r.Context(), "dashboard login", "user_id", u.ID, "org_id", u.OrgID)
	http.SetCookie(w, &http.Cookie{Name: d.cookieName(), Value: token, Path: "/", HttpOnly: true, Secure: d.secure,
		SameSite: http.SameSiteStrictMode, MaxAge: int(host.SessionTTL.Seconds())})
	http.Redirect(w, r, "/host/?lang="+pageLocale(r), http.StatusSeeOther)
}

func (d *Dashboard) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(d.cookieName()); err == nil {
		if err := d.host.Logout(r.Context(), c.Value); err != nil {
			d.log.ErrorContext(r.Context(), "logout", "err", err)
		}
	}
	http.SetCookie(w, &http.Cookie{Name: d.cookieName(), Value: "", Path: "/", HttpOnly: true, Secure: d.secure,
		SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/host/login", http.StatusSeeOther)
}

var appTemplate = template.Must(template.New("app").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>staykit</title>
<link rel="stylesheet" href="/host/assets/style.css">
<script src="/host/assets/events.js" defer></script>
<script src="/host/assets/channels.js" defer></script>
<script src="/host/assets/rates.js" defer></script>
<script src="/host/assets/thread.js" defer></script>
<script src="/host/assets/bookingdetail.js" defer></script>
<script src="/host/assets/changes.js" defer></script>
<script src="/host/assets/compliance.js" defer></script>
<script src="/host/assets/checkin.js" defer></script>
<script src="/host/assets/invoicing.js" defer></script>
<script src="/host/assets/mail.js" defer></script>
<script src="/host/assets/planning.js" defer></script>
<script src="/host/assets/reports.js" defer></script>
<script src="/host/assets/team.js" defer></script>
<script src="/host/assets/reviews.js" defer></script>
<script src="/host/assets/messages.js" defer></script>
<script src="/host/assets/units.js" defer></script>
<script src="/host/assets/app.js" defer></script>
</head>
<body data-org="{{.Org}}" data-lang="{{.Lang}}" data-user="{{.Email}}" data-policies="{{.Policies}}" data-role="{{.Role}}" data-orgs="{{.Orgs}}">
<header>
<strong id="org-name">{{.Org}}</strong>
<nav id="nav"></nav>
<form method="post" action="/host/logout"><button type="submit" id="logout" class="link"></button></form>
</header>
<p id="flash" role="status" hidden></p>
<main id="main"></main>
</body>
</html>
`))

// presetPolicies are the cancellation policy presets by name, as JSON: the
// settings and property pages show the tiers of the one chosen.
var presetPolicies = func() string {
	m := map[string]policy.Policy{}
	for _, name := range policy.Presets() {
		p, err := policy.Preset(name)
		if err != nil {
			panic(err) // Presets lists presets only
		}
		m[name] = p
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// app serves the dashboard's page to a signed-in user, for one of their
// organisations (chooseOrg) and with their role there.
func (d *Dashboard) app(w http.ResponseWriter, r *http.Request) {
	u := d.user(r)
	if u == nil {
		http.Redirect(w, r, "/host/login?lang="+pageLocale(r), http.StatusSeeOther)
		return
	}
	access, err := d.access(r, u)
	if err != nil {
		d.log.ErrorContext(r.Context(), "dashboard organisations", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if len(access) == 0 {
		http.Error(w, loginText[pageLocale(r)].NoOrg, http.StatusForbidden)
		return
	}
	cur := d.chooseOrg(w, r, u, access)
	org, err := d.host.OrganizationByID(r.Context(), cur.OrgID)
	if err != nil {
		d.log.ErrorContext(r.Context(), "dashboard organisation", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	lang := r.URL.Query().Get("lang")
	if lang != "fr" && lang != "en" {
		lang = apihttp.Locale(r, org.DefaultLocale)
	}
	type orgItem struct {
		Slug string    `json:"slug"`
		Name string    `json:"name"`
		Role team.Role `json:"role"`
	}
	items := make([]orgItem, len(access))
	for i, a := range access {
		items[i] = orgItem{a.Slug, a.Name, a.Role}
	}
	orgs, err := json.Marshal(items)
	if err != nil {
		panic(err) // strings only
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := appTemplate.Execute(w, struct{ Org, Lang, Email, Policies, Role, Orgs string }{org.Slug, lang, u.Email, presetPolicies,
		string(cur.Role), string(orgs)}); err != nil {
		d.log.ErrorContext(r.Context(), "render dashboard", "err", err)
	}
}

// access lists the organisations u may open; without Options.Team, its
// own, as its owner.
func (d *Dashboard) access(r *http.Request, u *host.User) ([]team.OrgAccess, error) {
	if d.team == nil {
		org, err := d.host.OrganizationByID(r.Context(), u.OrgID)
		if err != nil {
			return nil, err
		}
		return []team.OrgAccess{{OrgID: org.ID, Slug: org.Slug, Name: org.Name, Role: team.Owner}}, nil
	}
	return d.team.Access(r.Context(), u.ID)
}

// OrgCookie names the cookie that keeps the organisation a user last
// opened (its slug; the host API checks the membership on every request).
const OrgCookie = "staykit_host_org"

// chooseOrg picks the organisation to show: ?org=SLUG (the switcher's
// choice, then kept in OrgCookie), else the cookie's, else the user's
// own, else the first of access.
func (d *Dashboard) chooseOrg(w http.ResponseWriter, r *http.Request, u *host.User, access []team.OrgAccess) team.OrgAccess {
	find := func(slug string) (team.OrgAccess, bool) {
		for _, a := range access {
			if a.Slug == slug {
				return a, true
			}
		}
		return team.OrgAccess{}, false
	}
	if a, ok := find(r.URL.Query().Get("org")); ok {
		http.SetCookie(w, &http.Cookie{Name: OrgCookie, Value: a.Slug, Path: "/host/", HttpOnly: true, Secure: d.secure,
			SameSite: http.SameSiteStrictMode, MaxAge: int(host.SessionTTL.Seconds())})
		return a
	}
	if c, err := r.Cookie(OrgCookie); err == nil {
		if a, ok := find(c.Value); ok {
			return a
		}
	}
	for _, a := range access {
		if a.OrgID == u.OrgID {
			return a
		}
	}
	return access[0]
}
