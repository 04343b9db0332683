package postgres

import (
	"embed"

	"github.com/staykit/staykit/internal/pgmigrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrations returns the booking store's migrations, recorded in
// schema_migrations. Every step takes the advisory lock of
// "staykit:migrate", so that replicas starting together apply each
// migration once, one after the other. It is one key for the whole
// database, not one per schema: CREATE EXTENSION and CREATE SCHEMA are not
// safe to race either. Neither the table nor the key may change: existing
// databases and running replicas rely on them.
func migrations() pgmigrate.Migrations {
	return pgmigrate.Migrations{
		Files:   migrationFiles,
		Glob:    "migrations/*.sql",
		Table:   "schema_migrations",
		LockKey: "staykit:migrate",
	}
}
