package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// side is what one server did on one route over all rounds.
type side struct {
	requests  int64
	elapsed   time.Duration
	latencies []time.Duration
}

// add merges a round's sample.
func (s *side) add(r sample) {
	s.requests += r.requests
	s.elapsed += r.elapsed
	s.latencies = append(s.latencies, r.latencies...)
}

// rate is the requests answered per second over all rounds.
func (s *side) rate() float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return float64(s.requests) / s.elapsed.Seconds()
}

// percentile returns the p-th percentile (0 < p ≤ 100) of latencies by the
// nearest-rank method: the smallest value with at least p % of the values
// at or below it. It sorts latencies; zero when there are none.
func percentile(latencies []time.Duration, p float64) time.Duration {
	if len(latencies) == 0 {
		return 0
	}
	slices.Sort(latencies)
	rank := int(math.Ceil(float64(len(latencies)) * p / 100))
	rank = min(max(rank, 1), len(latencies))
	return latencies[rank-1]
}

// result is one line of the table.
type result struct {
	route  string
	conns  int
	server side
	bare   side // empty for checkout, which has no bare twin
	// goal is the wanted server/bare ratio, or for checkout the wanted
	// checkouts per second; 0: none.
	goal   float64
	rssKiB int64 // the server's resident memory after the route's rounds
}

// ratio is server req/s over bare req/s, 0 without a bare side.
func (r result) ratio() float64 {
	if b := r.bare.rate(); b > 0 {
		return r.server.rate() / b
	}
	return 0
}

// verdict says whether the goal is met.
func (r result) verdict() string {
	switch {
	case r.goal == 0:
		return ""
	case r.bare.requests == 0 && r.server.rate() >= r.goal,
		r.bare.requests > 0 && r.ratio() >= r.goal:
		return "ok"
	default:
		return "below"
	}
}

// writeTable prints the results as an aligned table, then the rate of
// each route without a bare twin (checkouts/s).
func writeTable(w io.Writer, results []result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "route\tconns\tserver req/s\tbare req/s\tratio\tgoal\t\tserver p50\tserver p99\tbare p50\tbare p99\tserver RSS\t")
	for _, r := range results {
		bareRate, ratio, goal, bp50, bp99 := "-", "-", "-", "-", "-"
		if r.bare.requests > 0 {
			bareRate = fmt.Sprintf("%.0f", r.bare.rate())
			ratio = fmt.Sprintf("%.2f", r.ratio())
			bp50 = fmtLatency(percentile(r.bare.latencies, 50))
			bp99 = fmtLatency(percentile(r.bare.latencies, 99))
			if r.goal > 0 {
				goal = fmt.Sprintf("≥ %.2f", r.goal)
			}
		} else if r.goal > 0 {
			goal = fmt.Sprintf("≥ %.0f/s", r.goal)
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			r.route, r.conns, r.server.rate(), bareRate, ratio, goal, r.verdict(),
			fmtLatency(percentile(r.server.latencies, 50)), fmtLatency(percentile(r.server.latencies, 99)),
			bp50, bp99, fmtRSS(r.rssKiB))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range results {
		if r.bare.requests == 0 && r.server.requests > 0 {
			if _, err := fmt.Fprintf(w, "%s: %.0f/s\n", r.route, r.server.rate()); err != nil {
				return err
			}
		}
	}
	return nil
}

// fmtLatency prints a latency in milliseconds with two decimals.
func fmtLatency(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

// fmtRSS prints a resident size in MiB, "-" when unknown.
func fmtRSS(kib int64) string {
	if kib <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fMiB", float64(kib)/1024)
}

// parseVmRSS reads the VmRSS line of a /proc/PID/status file, in KiB.
func parseVmRSS(status string) (int64, error) {
	for _, line := range strings.Split(status, "\n") {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		var kib int64
		if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kib); err != nil {
			return 0, fmt.Errorf("VmRSS line %q: %w", line, err)
		}
		return kib, nil
	}
	return 0, fmt.Errorf("no VmRSS line")
}
