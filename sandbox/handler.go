package sandbox

import (
	"context"
	_ "embed"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/apihttp"
)

// Prefix is where Handler is mounted.
const Prefix = "/api/v1/sandbox/"

// OpenAPI is the OpenAPI 3.1 document of the sandbox routes, served at
// /api/v1/sandbox/openapi.json.
//
//go:embed openapi.json
var OpenAPI []byte

// Handler serves the sandbox routes:
//
//	GET  /api/v1/sandbox/clock          the sandbox's time
//	POST /api/v1/sandbox/clock          {"advance": "P30D"}: move it, run what became due
//	GET  /api/v1/sandbox/openapi.json   their OpenAPI document
//
// With a nil Clock every route answers 404 not_found, with Refusal as its
// message: the sandbox is off.
type Handler struct {
	// Clock is the clock the server's services read.
	Clock *Clock
	// RunDue runs, once the clock moved, the work that became due
	// (jobs.Workers.RunDue); nil: nothing is run.
	RunDue func(ctx context.Context) error
	// Refusal says why the sandbox is off (Clock nil).
	Refusal string
	// Logger defaults to slog.Default().
	Logger *slog.Logger

	// mu makes moves one at a time, each with its due work.
	mu sync.Mutex
}

// ClockState is the answer of the clock routes.
type ClockState struct {
	// Now is the sandbox's time; Offset how far it is ahead of the wall
	// clock, in seconds.
	Now    time.Time `json:"now"`
	Offset int64     `json:"offset_seconds"`
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	apihttp.SetCommonHeaders(w, apihttp.RequestID(r))
	if h.Clock == nil {
		msg := h.Refusal
		if msg == "" {
			msg = "The sandbox is off."
		}
		fail(w, booking.CodeNotFound, msg)
		return
	}
	switch r.URL.Path {
	case Prefix + "openapi.json":
		if r.Method != http.MethodGet {
			fail(w, apihttp.CodeMethodNotAllowed, "Method not allowed.")
			return
		}
		apihttp.WriteBody(w, http.StatusOK, OpenAPI)
	case Prefix + "clock":
		switch r.Method {
		case http.MethodGet:
			apihttp.WriteData(w, http.StatusOK, h.state())
		case http.MethodPost:
			h.advance(w, r)
		default:
			w.Header().Set("Allow", "GET, POST")
			fail(w, apihttp.CodeMethodNotAllowed, "Method not allowed.")
		}
	default:
		fail(w, booking.CodeNotFound, "No such sandbox route.")
	}
}

func (h *Handler) state() ClockState {
	return ClockState{Now: h.Clock.Now().UTC(), Offset: int64(h.Clock.Offset() / time.Second)}
}

// advance moves the clock and runs the due work before answering.
func (h *Handler) advance(w http.ResponseWriter, r *http.Request) {
	body, err := apihttp.ReadJSON(w, r)
	if err != nil {
		e := apihttp.AsError(err)
		fail(w, e.Code, e.Message)
		return
	}
	var in struct {
		Advance string `json:"advance"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		fail(w, apihttp.CodeMalformedJSON, "The request body is not valid JSON.")
		return
	}
	d, err := ParseDuration(in.Advance)
	if err != nil {
		writeInvalid(w, err.Error())
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.Clock.Advance(d)
	log := h.Logger
	if log == nil {
		log = slog.Default()
	}
	log.InfoContext(r.Context(), "sandbox clock advanced", "by", d, "now", now)
	if h.RunDue != nil {
		if err := h.RunDue(r.Context()); err != nil {
			apihttp.LogFailure(r.Context(), log, "sandbox: due work failed", http.StatusInternalServerError, booking.CodeInternal, err)
			fail(w, booking.CodeInternal, "The clock moved but some due work failed; the job engine retries it.")
			return
		}
	}
	apihttp.WriteData(w, http.StatusOK, h.state())
}

// fail writes the API's failure envelope, its status the one of code
// (apihttp.Status).
func fail(w http.ResponseWriter, code, msg string) {
	apihttp.WriteJSON(w, apihttp.Status(code), apihttp.Failure{Message: msg, Code: code})
}

func writeInvalid(w http.ResponseWriter, msg string) {
	apihttp.WriteJSON(w, apihttp.Status(booking.CodeInvalid), apihttp.Failure{Message: msg, Code: booking.CodeInvalid,
		Errors: map[string][]string{"advance": {msg}}, FieldCodes: map[string][]string{"advance": {"invalid"}}})
}
