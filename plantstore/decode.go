package plantstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"regexp"
	"strconv"
	"strings"
)

// inputError is a request body the API refuses with 400; its message is
// meant for the client.
type inputError struct{ message string }

func (e *inputError) Error() string { return e.message }

func badRequest(format string, args ...any) error {
	return &inputError{message: fmt.Sprintf(format, args...)}
}

// jsonContentType reports whether a Content-Type header names JSON in
// UTF-8: "application/json", with an optional charset=utf-8 parameter.
func jsonContentType(header string) bool {
	mediaType, params, err := mime.ParseMediaType(header)
	if err != nil || mediaType != "application/json" {
		return false
	}
	charset, ok := params["charset"]
	return !ok || strings.EqualFold(charset, "utf-8")
}

// integerLiteral is a JSON number without fraction or exponent.
var integerLiteral = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)$`)

// decodeNewPlant parses a NewPlant body. Its errors are *inputError.
func decodeNewPlant(body []byte) (Plant, error) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&fields); err != nil {
		if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			return Plant{}, badRequest("the body must be a JSON object")
		}
		return Plant{}, badRequest("the body is not valid JSON")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Plant{}, badRequest("the body must hold a single JSON object")
	}
	if fields == nil {
		return Plant{}, badRequest("the body must be a JSON object")
	}

	var p Plant
	var err error
	if p.ID, err = decodeID(fields["id"]); err != nil {
		return Plant{}, err
	}
	name, present, err := decodeString(fields["name"], "name")
	if err != nil {
		return Plant{}, err
	}
	if !present {
		return Plant{}, badRequest("name is required")
	}
	if strings.TrimSpace(name) == "" {
		return Plant{}, badRequest("name must not be blank")
	}
	p.Name = name
	if p.Tag, _, err = decodeString(fields["tag"], "tag"); err != nil {
		return Plant{}, err
	}
	return p, nil
}

// decodeID parses the id: a JSON integer literal within int64.
func decodeID(raw json.RawMessage) (int64, error) {
	if raw == nil || string(raw) == "null" {
		return 0, badRequest("id is required")
	}
	if !integerLiteral.Match(raw) {
		return 0, badRequest("id must be an integer written without fraction or exponent")
	}
	id, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, badRequest("id must be between -9223372036854775808 and 9223372036854775807")
	}
	return id, nil
}

// decodeString parses an optional string field; null counts as absent.
func decodeString(raw json.RawMessage, field string) (s string, present bool, err error) {
	if raw == nil || string(raw) == "null" {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, badRequest("%s must be a string", field)
	}
	return s, true, nil
}
