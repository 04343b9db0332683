package hostapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/staykit/staykit/mailsettings"
)

// mailRoutes are the organisation's SMTP settings, the previews of its
// e-mails and sending a booking's e-mail to the guest again (host.Mail).
func (h *handler) mailRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/settings/smtp", h.getSMTP},
		{http.MethodPut, "/settings/smtp", h.putSMTP},
		{http.MethodDelete, "/settings/smtp", h.deleteSMTP},
		{http.MethodPost, "/settings/smtp/test", h.testSMTP},
		{http.MethodGet, "/mail-templates/preview", h.previewMail},
		{http.MethodPost, "/bookings/{id}/resend-email", h.resendEmail},
	}
}

// smtpView is an organisation's SMTP settings; the password is never
// shown, only whether one is set.
type smtpView struct {
	// Configured is false when the organisation has none: its e-mails
	// leave through the server's mailer.
	Configured  bool       `json:"configured"`
	Host        string     `json:"host"`
	Port        int        `json:"port"`
	TLS         string     `json:"tls"`
	Username    string     `json:"username"`
	PasswordSet bool       `json:"password_set"`
	From        string     `json:"from"`
	UpdatedAt   *time.Time `json:"updated_at"`
}

func newSMTPView(s *mailsettings.Settings) smtpView {
	if s == nil {
		return smtpView{TLS: mailsettings.TLSStartTLS}
	}
	return smtpView{Configured: true, Host: s.Host, Port: s.Port, TLS: s.TLS, Username: s.Username,
		PasswordSet: s.PasswordSet(), From: s.From, UpdatedAt: optTime(s.UpdatedAt)}
}

// smtpBody is PUT /settings/smtp: password absent keeps the stored one,
// "" removes it.
type smtpBody struct {
	Host     string  `json:"host"`
	Port     int     `json:"port"`
	TLS      string  `json:"tls"`
	Username string  `json:"username"`
	Password *string `json:"password"`
	From     string  `json:"from"`
}

func (h *handler) getSMTP(r *http.Request, c *call) (int, any, error) {
	s, err := h.mail.SMTP(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newSMTPView(s), nil
}

func (h *handler) putSMTP(r *http.Request, c *call) (int, any, error) {
	var b smtpBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	s, err := h.mail.SaveSMTP(r.Context(), c.org, mailsettings.Input{Host: b.Host, Port: b.Port, TLS: b.TLS,
		Username: b.Username, Password: b.Password, From: b.From}, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newSMTPView(s), nil
}

func (h *handler) deleteSMTP(r *http.Request, c *call) (int, any, error) {
	if err := h.mail.DeleteSMTP(r.Context(), c.org, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newSMTPView(nil), nil
}

// smtpTestView is the outcome of a test e-mail.
type smtpTestView struct {
	OK      bool    `json:"ok"`
	To      string  `json:"to"`
	Reason  *string `json:"reason"`
	Message string  `json:"message"`
	Detail  *string `json:"detail"`
}

var smtpTestMessagesFR = map[string]string{
	mailsettings.ReasonCannotConnect:    "Connexion impossible au serveur SMTP : vérifiez l'hôte et le port, et que le serveur accepte les connexions d'ici.",
	mailsettings.ReasonTLS:              "La connexion sécurisée (TLS) a échoué : vérifiez le mode TLS et le port (en général 587 avec starttls, 465 avec tls).",
	mailsettings.ReasonAuth:             "Le serveur a refusé la connexion : vérifiez l'utilisateur et le mot de passe.",
	mailsettings.ReasonSenderRefused:    "Le serveur a refusé l'adresse d'expéditeur : utilisez une adresse que votre fournisseur vous autorise.",
	mailsettings.ReasonRecipientRefused: "Le serveur a refusé l'adresse du destinataire.",
	mailsettings.ReasonPassword:         "Le mot de passe enregistré ne peut plus être lu (la clé du serveur a changé ?) : saisissez-le à nouveau.",
	mailsettings.ReasonFailed:           "Le serveur n'a pas accepté l'e-mail ; sa réponse suit.",
}

// testBody is POST /settings/smtp/test.
type testBody struct {
	To string `json:"to"`
}

func (h *handler) testSMTP(r *http.Request, c *call) (int, any, error) {
	var b testBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	res, err := h.mail.TestSMTP(r.Context(), c.org, b.To, c.loc)
	if err != nil {
		return 0, nil, err
	}
	v := smtpTestView{OK: res.OK, To: res.To, Message: res.Message}
	if !res.OK {
		v.Reason = &res.Reason
		if c.loc == "fr" && smtpTestMessagesFR[res.Reason] != "" {
			v.Message = smtpTestMessagesFR[res.Reason]
		}
		if res.Detail != "" {
			v.Detail = &res.Detail
		}
	} else if c.loc == "fr" {
		v.Message = "L'e-mail de test a été envoyé à " + res.To + "."
	}
	return http.StatusOK, v, nil
}

// mailPreviewView is an e-mail rendered, not sent.
type mailPreviewView struct {
	Kind      string `json:"kind"`
	Locale    string `json:"locale"`
	To        string `json:"to"`
	BookingID *int64 `json:"booking_id"`
	Sample    bool   `json:"sample"`
	Subject   string `json:"subject"`
	Text      string `json:"text"`
	HTML      string `json:"html"`
}

func (h *handler) previewMail(r *http.Request, c *call) (int, any, error) {
	q := r.URL.Query()
	var id int64
	if s := q.Get("booking_id"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0, nil, invalid("booking_id", "invalid_type")
		}
		id = n
	}
	p, err := h.mail.PreviewMail(r.Context(), c.org, q.Get("kind"), q.Get("locale"), q.Get("to"), id)
	if err != nil {
		return 0, nil, err
	}
	v := mailPreviewView{Kind: p.Kind, Locale: p.Locale, To: p.To, Sample: p.Sample, Subject: p.Subject, Text: p.Text, HTML: p.HTML}
	if !p.Sample {
		v.BookingID = &p.BookingID
	}
	return http.StatusOK, v, nil
}

func (h *handler) resendEmail(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	d, err := h.mail.ResendEmail(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusAccepted, newDeliveryView(d), nil
}
