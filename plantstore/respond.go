package plantstore

import (
	"encoding/json"
	"net/http"
)

// apiError is the seed's Error body.
type apiError struct {
	Error   int    `json:"error"`
	Message string `json:"message"`
}

// writeError answers status with the Error body.
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, apiError{Error: status, Message: message})
}

// writeJSON answers status with v encoded as JSON. v is one of this
// package's own types, so encoding cannot fail.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"error":500,"message":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
