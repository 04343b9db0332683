package plantstore

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
)

// MaxBodyBytes is the largest request body accepted, 64 KiB; a larger one
// answers 413.
const MaxBodyBytes = 64 << 10

// Options configures the handler returned by New.
type Options struct {
	// Store keeps the plants. Required.
	Store Store
	// Tokens are the accepted bearer tokens. Empty strings are ignored.
	// With none, every request answers 401.
	Tokens []string
	// Logger receives store failures. Nil discards them.
	Logger *slog.Logger
}

type handler struct {
	store  Store
	tokens tokenSet
	log    *slog.Logger
}

// New returns the plant-store API handler. It serves POST /plants and
// answers 405 for other methods on /plants and 404 for other paths; mount
// it with mux.Handle("/plants", h). New panics when opts.Store is nil.
func New(opts Options) http.Handler {
	if opts.Store == nil {
		panic("plantstore: New: Options.Store is nil")
	}
	h := &handler{
		store:  opts.Store,
		tokens: newTokenSet(opts.Tokens),
		log:    opts.Logger,
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /plants", h.createPlant)
	mux.HandleFunc("/plants", methodNotAllowed)
	mux.HandleFunc("/", notFound)
	return h.requireToken(mux)
}

// createPlant serves POST /plants.
func (h *handler) createPlant(w http.ResponseWriter, r *http.Request) {
	if !jsonContentType(r.Header.Get("Content-Type")) {
		writeError(w, http.StatusUnsupportedMediaType, "the body must be application/json")
		return
	}
	if r.ContentLength > MaxBodyBytes {
		writeError(w, http.StatusRequestEntityTooLarge, tooLargeMessage)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			writeError(w, http.StatusRequestEntityTooLarge, tooLargeMessage)
			return
		}
		writeError(w, http.StatusBadRequest, "the body could not be read")
		return
	}
	p, err := decodeNewPlant(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := h.store.CreatePlant(r.Context(), p); err != nil {
		if errors.Is(err, ErrExists) {
			writeError(w, http.StatusConflict, "a plant with id "+strconv.FormatInt(p.ID, 10)+" exists")
			return
		}
		h.log.ErrorContext(r.Context(), "plantstore: create plant failed",
			slog.Int64("id", p.ID), slog.String("error", err.Error()))
		writeError(w, http.StatusInternalServerError, "the plant could not be stored")
		return
	}
	writeJSON(w, http.StatusOK, p)
}

const tooLargeMessage = "the body must not exceed 65536 bytes"

func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", http.MethodPost)
	writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed on /plants; use POST")
}

func notFound(w http.ResponseWriter, _ *http.Request) {
	writeError(w, http.StatusNotFound, "no such resource")
}
