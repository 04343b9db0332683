package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Goals of issue #31 (raised from issue #17's): server/bare ratios, and
// checkouts per second with 16 clients on SQLite and on PostgreSQL.
const (
	goalConfig            = 0.85
	goalProperties        = 0.85
	goalAvailability      = 0.70
	goalPrice             = 0.70
	goalCheckouts         = 4000
	goalCheckoutsPostgres = 2500
)

// maxCheckouts bounds the stays a run books: two nights each, one after
// the other, alternating between the checkout's properties.
const maxCheckouts = 200_000

// checkoutDays is how many days of each property, from 30 days ahead, the
// checkouts book: the demo's booking horizon is 730 days, and a stay
// ending past it is refused.
const checkoutDays = 690

// demo is the organisation of the demo seed the harness loads.
const demo = "/api/v1/book/demo"

// route is one measured route: GET path, or a checkout.
type route struct {
	name     string
	path     string // GET routes
	checkout bool
	goal     float64
}

// harness runs the whole measurement and prints the table.
func harness(ctx context.Context, o options, stdout, stderr io.Writer) error {
	dir, err := os.MkdirTemp("", "staykit-loadtest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	bin := o.serverBin
	if bin == "" {
		bin = filepath.Join(dir, "server")
		fmt.Fprintln(stderr, "building ./examples/server")
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/staykit/staykit/examples/server")
		build.Stdout, build.Stderr = stderr, stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build the server: %w", err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the harness binary: %w", err)
	}

	srvAddr, err := freeAddr()
	if err != nil {
		return err
	}
	bareAddr, err := freeAddr()
	if err != nil {
		return err
	}
	logPath := filepath.Join(dir, "server.log")
	// Every connection of the generator comes from 127.0.0.1: lift the
	// per-address connection cap above what it opens.
	conns := strconv.Itoa(2*max(o.conns, o.checkoutConns) + 16)
	args := []string{"-addr", srvAddr, "-no-rate-limits", "-max-conns", conns, "-max-conns-per-addr", conns}
	checkoutGoal := float64(goalCheckouts)
	var dbArgs []string
	if o.postgres != "" {
		dbURL, drop, err := freshDatabase(ctx, o.postgres)
		if err != nil {
			return err
		}
		defer drop()
		dbArgs = []string{"-postgres", dbURL}
		args = append(args, "-fake-payments")
		checkoutGoal = goalCheckoutsPostgres
	} else {
		dbArgs = []string{"-db", filepath.Join(dir, "staykit.db")}
	}
	args = append(args, dbArgs...)
	srv, err := start(bin, logPath, args...)
	if err != nil {
		return err
	}
	defer stop(srv)
	bare, err := start(self, filepath.Join(dir, "bare.log"), "-bare", "-addr", bareAddr)
	if err != nil {
		return err
	}
	defer stop(bare)

	srvBase, bareBase := "http://"+srvAddr, "http://"+bareAddr
	for _, u := range []string{srvBase + "/healthz", bareBase + "/healthz"} {
		if err := waitReady(ctx, u); err != nil {
			return fmt.Errorf("%w (server log: %s)", err, tail(logPath))
		}
	}

	propertyIDs, err := demoProperties(ctx, srvBase)
	if err != nil {
		return err
	}
	first := propertyIDs[0]
	in := time.Now().AddDate(0, 0, 45).Format(time.DateOnly)
	out := time.Now().AddDate(0, 0, 52).Format(time.DateOnly)
	routes := []route{
		{name: "config", path: demo, goal: goalConfig},
		{name: "properties", path: demo + "/properties", goal: goalProperties},
		{name: "availability 12m", path: fmt.Sprintf("%s/properties/%d/availability", demo, first), goal: goalAvailability},
		{name: "price 7n", path: fmt.Sprintf("%s/properties/%d/price?check_in=%s&check_out=%s&guests_count=2", demo, first, in, out), goal: goalPrice},
		{name: "checkout", checkout: true, goal: checkoutGoal},
	}
	if routes, err = pickRoutes(routes, o.routes); err != nil {
		return err
	}

	fmt.Fprintf(stderr, "server pid %d on %s, bare pid %d on %s; %d rounds of %s per side; GOMAXPROCS %d; load average %s\n",
		srv.Process.Pid, srvAddr, bare.Process.Pid, bareAddr, o.rounds, o.duration, runtime.GOMAXPROCS(0), loadAverage())
	var (
		results []result
		booked  atomic.Int64 // checkouts sent, over all rounds
	)
	for _, rt := range routes {
		res := result{route: rt.name, conns: o.conns, goal: rt.goal}
		if rt.checkout {
			res.conns = o.checkoutConns
			ids, err := checkoutProperties(ctx, bin, dbArgs, srvBase, first, o.checkoutProperties)
			if err != nil {
				return fmt.Errorf("add the checkout's properties: %w (server log: %s)", err, tail(logPath))
			}
			client := newClient(o.checkoutConns)
			next := checkoutRequest(srvBase, ids, &booked)
			for r := range o.rounds {
				s, err := load(ctx, client, o.checkoutConns, o.duration, http.StatusCreated, next)
				res.server.add(s)
				if err != nil {
					return fmt.Errorf("checkout round %d: %w (server log: %s)", r+1, err, tail(logPath))
				}
				fmt.Fprintf(stderr, "checkout round %d: %d in %s, %.0f/s\n", r+1, s.requests, s.elapsed.Round(time.Millisecond), float64(s.requests)/s.elapsed.Seconds())
				if s.exhausted {
					// A round cut short measures a burst, not a rate.
					return fmt.Errorf("checkout round %d ran out of stays after %s of %s: raise -checkout-properties (%d)",
						r+1, s.elapsed.Round(time.Millisecond), o.duration, o.checkoutProperties)
				}
			}
			client.CloseIdleConnections()
		} else {
			size, err := bodySize(ctx, srvBase+rt.path)
			if err != nil {
				return err
			}
			srvClient, bareClient := newClient(o.conns), newClient(o.conns)
			srvNext, bareNext := getRequest(srvBase+rt.path), getRequest(bareBase+"/bytes/"+strconv.Itoa(size))
			for r := range o.rounds {
				s, err := load(ctx, bareClient, o.conns, o.duration, http.StatusOK, bareNext)
				res.bare.add(s)
				if err != nil {
					return fmt.Errorf("%s round %d, bare: %w", rt.name, r+1, err)
				}
				s, err = load(ctx, srvClient, o.conns, o.duration, http.StatusOK, srvNext)
				res.server.add(s)
				if err != nil {
					return fmt.Errorf("%s round %d, server: %w (server log: %s)", rt.name, r+1, err, tail(logPath))
				}
			}
			srvClient.CloseIdleConnections()
			bareClient.CloseIdleConnections()
		}
		if status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", srv.Process.Pid)); err == nil {
			res.rssKiB, _ = parseVmRSS(string(status))
		}
		fmt.Fprintf(stderr, "%s: server %.0f req/s, bare %.0f req/s\n", rt.name, res.server.rate(), res.bare.rate())
		results = append(results, res)
	}
	fmt.Fprintf(stderr, "load average %s\n", loadAverage())
	return writeTable(stdout, results)
}

// pickRoutes keeps the routes named in names (comma-separated, each the
// first word of a route's name); all of them when names is empty.
func pickRoutes(all []route, names string) ([]route, error) {
	if names == "" {
		return all, nil
	}
	var out []route
	for _, n := range strings.Split(names, ",") {
		i := slices.IndexFunc(all, func(r route) bool { return strings.Fields(r.name)[0] == strings.TrimSpace(n) })
		if i < 0 {
			return nil, fmt.Errorf("-routes: no route %q", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// freshDatabase creates an empty database on the PostgreSQL server of
// url, for the server to migrate and seed, and returns its URL and a
// function that drops it.
func freshDatabase(ctx context.Context, url string) (string, func(), error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return "", nil, fmt.Errorf("-postgres: %w", err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return "", nil, fmt.Errorf("-postgres: %w", err)
	}
	defer conn.Close(ctx)
	name := "staykit_loadtest_" + strconv.Itoa(os.Getpid())
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return "", nil, fmt.Errorf("create database %s: %w", name, err)
	}
	u, err := neturl.Parse(url)
	if err != nil {
		return "", nil, fmt.Errorf("-postgres: %w", err)
	}
	u.Path = "/" + name
	drop := func() {
		ctx := context.Background()
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err == nil {
			_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)")
			conn.Close(ctx)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "loadtest: drop database %s: %v\n", name, err)
		}
	}
	return u.String(), drop, nil
}

// getRequest sends GET url every time.
func getRequest(url string) request {
	return func(ctx context.Context, _ int64) (*http.Request, bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		return req, err == nil, err
	}
}

// checkoutRequest books two nights per request on the properties given
// in turn, each stay after the last one of its property, starting 30 days
// ahead, so that no two requests want the same dates; n counts them over
// all rounds. It stops after maxCheckouts.
func checkoutRequest(base string, propertyIDs []int64, n *atomic.Int64) request {
	from := time.Now().AddDate(0, 0, 30)
	return func(ctx context.Context, _ int64) (*http.Request, bool, error) {
		i := n.Add(1) - 1
		if i >= maxCheckouts {
			return nil, false, nil
		}
		slot := int(i) / len(propertyIDs)
		if 2*slot+2 > checkoutDays {
			return nil, false, nil // the booking horizon is reached
		}
		in := from.AddDate(0, 0, 2*slot)
		body, err := json.Marshal(map[string]any{
			"property_id": propertyIDs[int(i)%len(propertyIDs)],
			"check_in":    in.Format(time.DateOnly), "check_out": in.AddDate(0, 0, 2).Format(time.DateOnly),
			"guests_count": 2, "guest_name": "Load Test", "guest_email": "load@example.com", "guest_phone": "+33612345678",
		})
		if err != nil {
			return nil, false, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+demo+"/checkout", strings.NewReader(string(body)))
		if err != nil {
			return nil, false, err
		}
		req.Header.Set("Content-Type", "application/json")
		return req, true, nil
	}
}

// demoProperties lists the ids of the demo organisation's properties.
func demoProperties(ctx context.Context, base string) ([]int64, error) {
	var env struct {
		Data []struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	if err := getJSON(ctx, base+demo+"/properties", &env); err != nil {
		return nil, err
	}
	if len(env.Data) == 0 {
		return nil, errors.New("the demo organisation has no property")
	}
	ids := make([]int64, len(env.Data))
	for i, p := range env.Data {
		ids[i] = p.ID
	}
	return ids, nil
}

// getJSON decodes the answer of GET url, which must be 200.
func getJSON(ctx context.Context, url string, v any) error {
	body, err := get(ctx, url)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

// bodySize is the size of the answer of GET url, which must be 200.
func bodySize(ctx context.Context, url string) (int, error) {
	body, err := get(ctx, url)
	return len(body), err
}

// get returns the body of GET url, which must answer 200.
func get(ctx context.Context, url string) ([]byte, error) {
	return send(ctx, http.MethodGet, url, "", nil, http.StatusOK)
}

// send sends method to url, with body as JSON when not nil and key as a
// bearer token when not empty, and returns the answer's body, which must
// come with status.
func send(ctx context.Context, method, url, key string, body any, status int) ([]byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxBareBody))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	if res.StatusCode != status {
		return nil, fmt.Errorf("%s %s: status %d, want %d: %.300s", method, url, res.StatusCode, status, raw)
	}
	return raw, nil
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// start starts bin with args, its output going to logPath. The child gets
// SIGTERM if the harness dies first.
func start(bin, logPath string, args ...string) (*exec.Cmd, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	logf.Close() // the child has its own copy
	return cmd, nil
}

// stop asks cmd to finish (SIGTERM), and kills it after 10 seconds.
func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// waitReady polls url until it answers 200, for at most 30 seconds.
func waitReady(ctx context.Context, url string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := get(ctx, url)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s not ready: %w", url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tail returns the end of a log file, for error messages.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
