package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
)

// hostDemo is the host API of the demo organisation.
const hostDemo = "/api/v1/host/demo"

// copiedFields are the fields of a host property that a copy keeps: what
// prices and describes a stay.
var copiedFields = []string{"description", "photos", "city", "country", "max_guests", "bedrooms", "rates", "fees", "tax"}

// checkoutProperties adds n copies of the demo's first property (its
// rates, fees and taxes) to the demo organisation through the host API,
// as a host would, and returns their ids: the checkout route spreads its
// stays over them, so that a run at thousands of checkouts a second has
// enough distinct stays for its whole duration. The API key comes from
// the server binary's own command (apikey create) on its database, which
// dbArgs name (-db FILE or -postgres URL).
func checkoutProperties(ctx context.Context, bin string, dbArgs []string, base string, first int64, n int) ([]int64, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, append([]string{"apikey", "create", "-org", "demo", "-name", "loadtest"}, dbArgs...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("create an API key: %w: %s", err, out.Bytes())
	}
	// The key is the last word the command prints.
	words := strings.Fields(out.String())
	if len(words) == 0 {
		return nil, errors.New("create an API key: no key printed")
	}
	host := hostClient{base: base + hostDemo, key: words[len(words)-1]}

	var orig map[string]json.RawMessage
	if err := host.do(ctx, http.MethodGet, "/properties/"+strconv.FormatInt(first, 10), nil, http.StatusOK, &orig); err != nil {
		return nil, err
	}
	copied := make(map[string]json.RawMessage, len(copiedFields)+1)
	for _, f := range copiedFields {
		if v, ok := orig[f]; ok {
			copied[f] = v
		}
	}
	ids := make([]int64, 0, n)
	for i := range n {
		copied["name"] = json.RawMessage(strconv.Quote("Load test " + strconv.Itoa(i+1)))
		var created struct {
			ID int64 `json:"id"`
		}
		if err := host.do(ctx, http.MethodPost, "/properties", copied, http.StatusCreated, &created); err != nil {
			return nil, err
		}
		ids = append(ids, created.ID)
	}
	return ids, nil
}

// hostClient calls the host API with a bearer key.
type hostClient struct {
	base, key string
}

// do sends method path with body as JSON, wants status, and decodes the
// answer's data into v.
func (h hostClient) do(ctx context.Context, method, path string, body any, status int, v any) error {
	raw, err := send(ctx, method, h.base+path, h.key, body, status)
	if err != nil {
		return err
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return json.Unmarshal(env.Data, v)
}
