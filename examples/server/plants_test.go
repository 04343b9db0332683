package main

import (
	"net/http"
	"testing"

	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// TestPlantsSurviveRestart stores a plant, restarts the server on the same
// database, and finds the id taken: the plant store's own tables live in
// the server's SQLite file.
func TestPlantsSurviveRestart(t *testing.T) {
	db := sqlitetest.Path(t)
	env := map[string]string{"PLANTSTORE_TOKENS": "s3cret"}
	h := map[string]string{"Authorization": "Bearer s3cret"}
	plant := map[string]any{"id": 11, "name": "Monstera", "tag": "tropical"}
	for i, want := range []int{http.StatusOK, http.StatusConflict} {
		t.Run([]string{"FirstStart", "Restart"}[i], func(t *testing.T) {
			ts := startServer(t, env, "-db", db)
			if r := call(t, http.MethodPost, ts.URL+"/plants", plant, h); r.Status != want {
				t.Errorf("POST /plants = %d %s, want %d", r.Status, r.Raw, want)
			}
		})
	}
}
