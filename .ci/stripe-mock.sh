#!/usr/bin/env bash
# Starts stripe-mock (Stripe's official API mock, github.com/stripe/stripe-mock)
# on loopback for the payment/stripe integration test, installing it first if
# it is not on PATH or in $(go env GOPATH)/bin.
#
# Usage:
#   .ci/stripe-mock.sh            # install if needed, start, wait, print the export line
#   eval "$(.ci/stripe-mock.sh)"  # same, and export STAYKIT_TEST_STRIPE_MOCK_URL
#   go test ./payment/stripe/ -run StripeMock
#
# Environment: STRIPE_MOCK_VERSION (default v0.203.0), STRIPE_MOCK_HTTP_PORT
# (default 12111), STRIPE_MOCK_HTTPS_PORT (default 12112), STRIPE_MOCK_LOG
# (default $TMPDIR/stripe-mock.log).
# The PID is written to $TMPDIR/stripe-mock.pid; stop it with
#   kill "$(cat "${TMPDIR:-/tmp}/stripe-mock.pid")"
# Progress goes to stderr; stdout holds only the export line.
set -euo pipefail

version="${STRIPE_MOCK_VERSION:-v0.203.0}"
http_port="${STRIPE_MOCK_HTTP_PORT:-12111}"
https_port="${STRIPE_MOCK_HTTPS_PORT:-12112}"
tmp="${TMPDIR:-/tmp}"
log="${STRIPE_MOCK_LOG:-$tmp/stripe-mock.log}"
pidfile="$tmp/stripe-mock.pid"
url="http://127.0.0.1:${http_port}"

say() { echo "stripe-mock.sh: $*" >&2; }

# answers reports whether something serves HTTP on the port. stripe-mock
# answers an unauthenticated request with 401, which is fine: it is up.
answers() {
	if command -v curl >/dev/null 2>&1; then
		curl -s -o /dev/null --max-time 2 "$url/v1/payment_intents" && return 0
		return 1
	fi
	(exec 3<>"/dev/tcp/127.0.0.1/${http_port}") 2>/dev/null
}

if answers; then
	say "something already answers on $url; reusing it"
	echo "export STAYKIT_TEST_STRIPE_MOCK_URL=$url"
	exit 0
fi

bin="$(command -v stripe-mock || true)"
if [[ -z "$bin" ]]; then
	gobin="$(go env GOBIN)"
	[[ -n "$gobin" ]] || gobin="$(go env GOPATH)/bin"
	bin="$gobin/stripe-mock"
	if [[ ! -x "$bin" ]]; then
		say "installing github.com/stripe/stripe-mock@${version}"
		go install "github.com/stripe/stripe-mock@${version}" >&2
	fi
fi

# Flags checked against `stripe-mock -h` of v0.203.0: -http-addr/-https-addr
# bind an address (host:port); -http-port/-https-port would bind all
# interfaces, which a test helper has no reason to do.
say "starting $bin on $url (log: $log)"
nohup "$bin" -http-addr "127.0.0.1:${http_port}" -https-addr "127.0.0.1:${https_port}" >"$log" 2>&1 &
pid=$!
echo "$pid" >"$pidfile"

for _ in $(seq 1 100); do
	if answers; then
		say "up (pid $pid)"
		echo "export STAYKIT_TEST_STRIPE_MOCK_URL=$url"
		exit 0
	fi
	if ! kill -0 "$pid" 2>/dev/null; then
		say "stripe-mock exited; log follows"
		cat "$log" >&2
		exit 1
	fi
	sleep 0.1
done
say "stripe-mock did not answer on $url within 10s; log follows"
cat "$log" >&2
kill "$pid" 2>/dev/null || true
exit 1
