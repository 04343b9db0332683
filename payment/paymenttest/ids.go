package paymenttest

import "crypto/rand"

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// randomAlnum returns n characters drawn uniformly from alphanumerics with
// crypto/rand, the shape of the random part of Stripe's ids.
func randomAlnum(n int) string {
	// 248 is the largest multiple of 62 below 256: bytes at or above it are
	// rejected so that every character is equally likely.
	const limit = 248
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+1)
	for len(out) < n {
		rand.Read(buf) // never fails since Go 1.24
		for _, c := range buf {
			if c >= limit {
				continue
			}
			out = append(out, alphanumerics[int(c)%len(alphanumerics)])
			if len(out) == n {
				break
			}
		}
	}
	return string(out)
}

func newIntentID() string { return "pi_" + randomAlnum(24) }

func newClientSecret(intentID string) string { return intentID + "_secret_" + randomAlnum(25) }

func newEventID() string { return "evt_" + randomAlnum(24) }

func newRefundID() string { return "re_" + randomAlnum(24) }
