package httpserve

import (
	"encoding/json"
	"net/http"
)

// WriteJSON answers v as JSON with status, never cached: the plain JSON
// of a server's own routes (health, readiness, the booking page's
// configuration, the fake card step), not the APIs' envelope (package
// internal/apihttp).
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
