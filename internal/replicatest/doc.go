// Package replicatest holds the scale-out test: two replicas of the public
// API, each with its own booking.Service, PostgreSQL pool and Redis
// client, on one database and one Redis, must behave as one service: one
// winner among concurrent checkouts of the same nights, and one rate-limit
// count per client whichever replica it reaches. It has no code of its own.
//
// Run it with
//
//	STAYKIT_TEST_POSTGRES_URL='postgres://postgres@127.0.0.1:5432/test?sslmode=disable' \
//	STAYKIT_TEST_REDIS_ADDR=127.0.0.1:6379 go test ./internal/replicatest
//
// Without both variables it is skipped.
package replicatest
