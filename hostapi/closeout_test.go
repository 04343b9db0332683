package hostapi_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestSyncCloseoutSetting: the threshold is null until set, takes whole
// minutes up to a week, is removed by null or 0, refuses anything else
// naming the field, and each change is audited.
func TestSyncCloseoutSetting(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		path := hostPath("villa", "/settings/sync-closeout")
		threshold := func(r response) any {
			t.Helper()
			return r.data(t)["max_exposure_minutes"]
		}
		get := e.do("villa", req{method: "GET", path: path})
		want(t, get, http.StatusOK)
		if got := threshold(get); got != nil {
			t.Fatalf("threshold before any setting = %v, want null", got)
		}
		for _, tt := range []struct {
			name   string
			body   any
			status int
			want   any
		}{
			{"SixHours", map[string]any{"max_exposure_minutes": 360}, http.StatusOK, float64(360)},
			{"AWeek", map[string]any{"max_exposure_minutes": 10080}, http.StatusOK, float64(10080)},
			{"Zero", map[string]any{"max_exposure_minutes": 0}, http.StatusOK, nil},
			{"Again", map[string]any{"max_exposure_minutes": 90}, http.StatusOK, float64(90)},
			{"Null", map[string]any{"max_exposure_minutes": nil}, http.StatusOK, nil},
			{"Negative", map[string]any{"max_exposure_minutes": -5}, http.StatusUnprocessableEntity, nil},
			{"OverAWeek", map[string]any{"max_exposure_minutes": 10081}, http.StatusUnprocessableEntity, nil},
			{"Text", map[string]any{"max_exposure_minutes": "6h"}, http.StatusUnprocessableEntity, nil},
			{"Missing", map[string]any{}, http.StatusUnprocessableEntity, nil},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := e.do("villa", req{method: "PATCH", path: path, body: tt.body})
				if tt.status != http.StatusOK {
					want(t, r, tt.status, "invalid")
					var f struct {
						Errors map[string][]string `json:"errors"`
					}
					if err := json.Unmarshal(r.body, &f); err != nil || len(f.Errors["max_exposure_minutes"]) == 0 {
						t.Errorf("refusal does not name the field: %s", r.body)
					}
					return
				}
				want(t, r, http.StatusOK)
				if got := threshold(r); got != tt.want {
					t.Errorf("answer = %v, want %v", got, tt.want)
				}
				if got := threshold(e.do("villa", req{method: "GET", path: path})); got != tt.want {
					t.Errorf("read back = %v, want %v", got, tt.want)
				}
			})
		}
		if got := threshold(e.do("other", req{method: "GET", path: hostPath("other", "/settings/sync-closeout")})); got != nil {
			t.Errorf("another organisation's threshold = %v, want null", got)
		}
		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range log {
			if a.Action == "settings.sync_closeout" {
				n++
			}
		}
		if n != 5 {
			t.Errorf("%d settings.sync_closeout audit entries, want 5", n)
		}
	})
}
