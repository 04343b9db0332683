package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"html"
	"net/http"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/hostweb"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/reports"
	"github.com/staykit/staykit/team"
)

// hostSide returns the host API (package hostapi), mounted at
// /api/v1/host/, and the dashboard (package hostweb), mounted at /host/,
// over one host.Service. The dashboard's pages call the host API with the
// session cookie: one code path for scripts and people. Both refuse
// cross-origin browser requests that change anything
// (http.CrossOriginProtection), and any request with several Origin
// headers; failed authentications and logins count in the server's
// limiter, shared by replicas with -redis. publicURL is where the server
// is reached (-public-url, else its listen address): the calendar export
// URLs are built on it, never on a request's Host header.
func (s *server) hostSide(publicURL string) (api, dashboard http.Handler) {
	hs := host.New(host.Options{Stores: s.back.Store.Through(s.readModel), Units: s.readModel.Units(s.back.Store.Records), Bookings: s.svc, Connect: s.connect, Logger: s.log, Clock: s.clock})
	ts := team.New(team.Options{Host: hs, Records: s.back.Store.Records, Store: s.back.Store.Team(), Mailer: s.teamMailer(),
		PublicURL: publicURL, Logger: s.log})
	d := hostweb.New(hostweb.Options{Host: hs, Logger: s.log, Limiter: s.back.Limiter, TrustedProxies: s.cfg.TrustedProxies,
		SecureCookies: strings.HasPrefix(s.cfg.PublicURL, "https://"), Team: ts})
	apiDeny := hostapi.Deny(s.log, errCrossOrigin())
	apiCSRF := http.NewCrossOriginProtection()
	apiCSRF.SetDenyHandler(apiDeny)
	api = hostweb.OneOrigin(apiDeny, apiCSRF.Handler(hostapi.New(hostapi.Options{Host: hs, Logger: s.log, Limiter: s.back.Limiter,
		TrustedProxies: s.cfg.TrustedProxies, Session: d.Session, PublicURL: publicURL, KeyRequests: s.cfg.HostKeyRequests,
		Channels: hs.Channels(host.ChannelOptions{Syncer: s.calendarSync(), WebhookPolicy: s.cfg.Outbox.WebhookPolicy()}),
		Reports:  reports.New(reports.Options{Store: s.back.Store.Reports(), Clock: s.clock}),
		Clock:    s.clock, Events: s.eventFeed(publicURL), Mail: s.hostMail(hs, publicURL), Team: ts, Reviews: s.reviews, Changes: s.changes,
		Invoices: s.back.Store.Invoices(s.clock), Messages: s.scheduleService(publicURL)})))
	return api, d
}

// eventFeed is the host API's event feed (package eventfeed) on the
// database; its events' source is the organisation's host API at
// publicURL. nil when the database serves none.
func (s *server) eventFeed(publicURL string) *eventfeed.Service {
	store := s.back.Store.Events()
	if store == nil {
		return nil
	}
	return &eventfeed.Service{Store: store, Payloads: s.back.Store.Booking(),
		Source: func(org *booking.Organization) string { return publicURL + hostapi.Prefix + org.Slug }}
}

// teamMailer sends the team's invitations straight through the SMTP
// server of -smtp-host (not the outbox, which would keep the link's
// single-use token in the database); nil without one: an invitation is
// then created unsent (mail_sent false), since the log must not carry its
// link.
func (s *server) teamMailer() team.Mailer {
	if s.cfg.Outbox.SMTP.Host == "" {
		return nil
	}
	m, err := notify.NewSMTPMailer(s.cfg.Outbox.SMTP)
	if err != nil {
		s.log.Error("team invitations: SMTP mailer", "err", err)
		return nil
	}
	return invitationMailer{m}
}

// invitationMailer is a notify.Mailer as a team.Mailer.
type invitationMailer struct{ m notify.Mailer }

func (i invitationMailer) Send(ctx context.Context, to, subject, text string) error {
	id := make([]byte, 12)
	rand.Read(id)
	return i.m.Send(ctx, notify.Mail{ID: "invitation-" + hex.EncodeToString(id), Kind: "team.invitation", To: to, Subject: subject,
		Text: text, HTML: "<pre>" + html.EscapeString(text) + "</pre>", Private: []string{text}})
}

// errCrossOrigin is the host API's refusal of a cross-origin browser
// request.
func errCrossOrigin() error {
	return &booking.Error{Code: booking.CodeForbidden, Message: "Cross-origin request refused.",
		Params: map[string]string{booking.ParamReason: booking.ReasonCrossOrigin}}
}

// hostMail are the host's mail use cases: the organisations' own SMTP
// servers sealed under -secrets-key, and the previews of their e-mails
// with the outbox worker's templates and links.
func (s *server) hostMail(hs *host.Service, publicURL string) *host.Mail {
	tpl, err := s.cfg.Outbox.Templates()
	if err != nil { // checked when the configuration was read
		s.log.Error("mail templates: previews use the built-in ones", "err", err)
		tpl = nil
	}
	return hs.Mail(host.MailOptions{Key: s.cfg.Outbox.SecretsKey, Templates: tpl,
		BookingURL: bookingURL(publicURL), HostBookingURL: hostBookingURL(publicURL)})
}

// guestHost is a host.Service for what the host side does outside the
// host API: the guests' online check-in from their booking page (the
// public API) and the check-ins' retention job.
func (s *server) guestHost() *host.Service {
	return host.New(host.Options{Stores: s.back.Store.Through(s.readModel), Units: s.readModel.Units(s.back.Store.Records),
		Bookings: s.svc, Logger: s.log, Clock: s.clock})
}
