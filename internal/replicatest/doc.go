// Package replicatest holds the scale-out test: two replicas of the public
// API, each with its own booking.Service, PostgreSQL pool and Redis
// client, on one database and one Redis, must behave as one service: one
// winner among concurrent checkouts of the same nights, and one rate-limit
// count per client whichever replica it reaches. It has no code of its own.
//
// It finds PostgreSQL and Redis through internal/testenv: from
// STAYKIT_TEST_POSTGRES_URL and STAYKIT_TEST_REDIS_ADDR, else on their
// usual local addresses; it is skipped only when one is absent (and fails
// then with STAYKIT_TEST_REQUIRE_SERVICES=1).
package replicatest
