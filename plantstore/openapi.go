package plantstore

import (
	"bytes"
	_ "embed" // for the OpenAPI document
)

//go:embed openapi.yaml
var openAPI []byte

// OpenAPI returns the OpenAPI 3.1 document of the API, in YAML. Each call
// returns a fresh copy the caller may modify.
func OpenAPI() []byte {
	return bytes.Clone(openAPI)
}
