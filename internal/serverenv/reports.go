package serverenv

import "github.com/staykit/staykit/reports"

// Reports is the database as package reports' store
// (reports.Options.Store), read directly rather than through the read
// model: reports add up what is stored; nil when it is neither
// store/sqlite nor store/postgres.
func (db Database) Reports() reports.Store {
	switch {
	case db.pg != nil:
		return db.pg
	case db.lite != nil:
		return db.lite
	}
	return nil
}
