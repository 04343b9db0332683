// Package fakepay is the card step of fake payments (package
// paymenttest) over HTTP, for a booking page or a widget to pay with
// Stripe's test cards while no Stripe account is involved: mount
// Handler.Routes on a mux, and 4242 4242 4242 4242 pays, 4000 0000 0000
// 0002 is declined. Never mount it beside real payments.
package fakepay

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strings"

	"github.com/staykit/staykit/internal/httpserve"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// Handler is the card step of fake payments: POST
// /fakepay/intents/{intent_id} with {"card_number": "4242424242424242"}
// pays the intent (or authorises it, for manual capture) and
// 4000000000000002 declines it, as the test cards do on Stripe. Answers:
// 200 {"status": ...}; 402 card_declined; 404 unknown intent; 400 bad
// input; 409 when the intent cannot be paid any more; 415 without JSON.
//
// A successful payment is also delivered to the money service as the
// provider's event, as Stripe's webhook would be, so a guest who closes the
// tab after paying still gets a confirmed booking. It is mounted only with
// the fake provider. Messages are in English, or French by ?locale=fr or
// Accept-Language.
type Handler struct {
	fake   *paymenttest.Provider
	events EventHandler
	logger *slog.Logger
}

// EventHandler receives the provider's events: *money.Service does.
type EventHandler interface {
	HandlePaymentEvent(ctx context.Context, ev payment.Event) error
}

// New returns the card step of fake's intents, handing each payment's
// event to events; logger receives what fails.
func New(fake *paymenttest.Provider, events EventHandler, logger *slog.Logger) *Handler {
	return &Handler{fake: fake, events: events, logger: logger}
}

// maxFakePayBody bounds the request body.
const maxFakePayBody = 4 << 10

// Routes mounts the card step on mux at POST /fakepay/intents/{intent_id}
// (and answers 405 to other methods there).
func (f *Handler) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /fakepay/intents/{intent_id}", f.pay)
	mux.HandleFunc("/fakepay/intents/{intent_id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", http.MethodPost)
		writeFakePayError(w, r, http.StatusMethodNotAllowed, "method_not_allowed")
	})
}

func (f *Handler) pay(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("intent_id")
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeFakePayError(w, r, http.StatusUnsupportedMediaType, "unsupported_media_type")
		return
	}
	var body struct {
		CardNumber string `json:"card_number"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxFakePayBody))
	if err := dec.Decode(&body); err != nil {
		writeFakePayError(w, r, http.StatusBadRequest, "malformed_json")
		return
	}
	if strings.TrimSpace(body.CardNumber) == "" {
		writeFakePayError(w, r, http.StatusBadRequest, "card_number_required")
		return
	}

	intent, err := f.fake.Pay(id, body.CardNumber)
	switch {
	case err == nil:
	case errors.Is(err, paymenttest.ErrCardDeclined):
		f.deliver(r.Context(), payment.EventFailed, id)
		writeFakePayError(w, r, http.StatusPaymentRequired, "card_declined")
		return
	case errors.Is(err, payment.ErrNotFound):
		writeFakePayError(w, r, http.StatusNotFound, "intent_not_found")
		return
	case errors.Is(err, payment.ErrInvalid):
		writeFakePayError(w, r, http.StatusBadRequest, "invalid_card")
		return
	case errors.Is(err, payment.ErrState):
		writeFakePayError(w, r, http.StatusConflict, "intent_not_payable")
		return
	default:
		f.logger.ErrorContext(r.Context(), "fake payment failed", "intent", id, "err", err)
		writeFakePayError(w, r, http.StatusServiceUnavailable, "payment_unavailable")
		return
	}

	ev := payment.EventSucceeded
	if intent.Status == payment.StatusAuthorized {
		ev = payment.EventAuthorized
	}
	f.deliver(r.Context(), ev, id)
	httpserve.WriteJSON(w, http.StatusOK, map[string]string{"status": string(intent.Status), "intent_id": intent.ID})
}

// deliver hands the booking service the event the provider's webhook would
// carry. The payment stands whatever happens here; a failure is logged and
// the page's confirm call (or the sweeper) settles the booking.
func (f *Handler) deliver(ctx context.Context, typ payment.EventType, intentID string) {
	ev, err := f.fake.Event(typ, intentID)
	if err == nil {
		err = f.events.HandlePaymentEvent(context.WithoutCancel(ctx), *ev)
	}
	if err != nil {
		f.logger.ErrorContext(ctx, "deliver fake payment event", "type", string(typ), "intent", intentID, "err", err)
	}
}

// messages are the fake card step's messages, by code and locale.
var messages = map[string][2]string{ // {en, fr}
	"card_declined":          {"Your card was declined. Try another card.", "Votre carte a été refusée. Essayez une autre carte."},
	"intent_not_found":       {"This payment does not exist.", "Ce paiement n'existe pas."},
	"invalid_card":           {"Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.", "Utilisez une carte de test : 4242 4242 4242 4242 paie, 4000 0000 0000 0002 est refusée."},
	"card_number_required":   {"Enter a card number.", "Saisissez un numéro de carte."},
	"malformed_json":         {"The request body is not valid JSON.", "Le corps de la requête n'est pas du JSON valide."},
	"unsupported_media_type": {"The request body must be sent as application/json.", "Le corps de la requête doit être envoyé en application/json."},
	"intent_not_payable":     {"This payment is already complete or was cancelled.", "Ce paiement est déjà effectué ou a été annulé."},
	"payment_unavailable":    {"The payment could not be processed. Please try again.", "Le paiement n'a pas pu être traité. Veuillez réessayer."},
	"method_not_allowed":     {"This method is not allowed on this resource.", "Cette méthode n'est pas autorisée sur cette ressource."},
}

// Message is the card step's message for an error code ("card_declined",
// "intent_not_found", ...) in locale (fr, else English); "" for an
// unknown code.
func Message(code, locale string) string {
	msg := messages[code]
	if locale == "fr" {
		return msg[1]
	}
	return msg[0]
}

func writeFakePayError(w http.ResponseWriter, r *http.Request, status int, code string) {
	text := Message(code, requestLocale(r))
	httpserve.WriteJSON(w, status, map[string]string{"error": code, "message": text})
}

// requestLocale is fr or en: ?locale=, else the first of those in
// Accept-Language that is not refused with q=0, else en.
func requestLocale(r *http.Request) string {
	switch l := r.URL.Query().Get("locale"); l {
	case "fr", "en":
		return l
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok && strings.Trim(q, "0.") == "" {
			continue
		}
		lang, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if lang == "fr" || lang == "en" {
			return lang
		}
	}
	return "en"
}

// AnyOrigin wraps next so that the card step under /fakepay/ answers
// browsers on any origin (CORS, preflights included): a widget on another
// site pays with a test card. No credentials are involved, and the intent
// id is the capability. Other paths go to next untouched. Real payments
// go to Stripe directly.
func AnyOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/fakepay/") || r.Header.Get("Origin") == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Add("Vary", "Origin")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "POST")
			h.Set("Access-Control-Allow-Headers", "Content-Type")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
