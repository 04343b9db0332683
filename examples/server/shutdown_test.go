package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// process is the real server binary running in a child process.
type process struct {
	cmd  *exec.Cmd
	URL  string
	logs *syncBuffer
	// lines receives every log line.
	lines chan string
	done  chan error
}

// buildBinary compiles the server once for the test.
func buildBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "staykit-server")
	out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var readyLine = regexp.MustCompile(`msg="staykit reference server ready" url=(http://127\.0\.0\.1:\d+)/`)

// startBinary starts the binary on a free port with the database at db and
// waits until it says where it listens; args are more flags.
func startBinary(t *testing.T, bin, db string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-db", db}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")} // no Stripe keys: fake payments
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, logs: &syncBuffer{}, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.logs.Write([]byte(sc.Text() + "\n"))
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server log:\n%s", p.logs.String())
		}
	})
	line := p.waitLine(t, "server ready")
	m := readyLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no URL in %q", line)
	}
	p.URL = m[1]
	return p
}

// waitLine waits for a log line containing s.
func (p *process) waitLine(t *testing.T, s string) string {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line := <-p.lines:
			if strings.Contains(line, s) {
				return line
			}
		case <-timeout:
			t.Fatalf("no log line with %q within 20s; log:\n%s", s, p.logs.String())
		}
	}
}

// wait waits for the process to exit and returns its error.
func (p *process) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("the server did not exit within 20s; log:\n%s", p.logs.String())
		return nil
	}
}

// TestSIGTERMFinishesTheRequestInFlight sends SIGTERM while a checkout is
// half sent: the server stops listening, waits for the rest of the request,
// answers it, exits cleanly, and the booking is there after a restart.
func TestSIGTERMFinishesTheRequestInFlight(t *testing.T) {
	bin := buildBinary(t)
	db := sqlitetest.Path(t)
	p := startBinary(t, bin, db)
	p.waitLine(t, "price a stay") // the welcome is logged: the seed is in
	if !strings.Contains(p.logs.String(), "first start: seed loaded") {
		t.Errorf("first start did not load the seed:\n%s", p.logs.String())
	}

	in, out := stayDates(25, 3)
	body := fmt.Sprintf(`{"property_id": 2, "check_in": %q, "check_out": %q, "guests_count": 2, "guest_name": "Grace Hopper", "guest_email": "grace@example.com", "guest_phone": "+33698765432"}`, in, out)
	host := strings.TrimPrefix(p.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	half := len(body) / 2
	fmt.Fprintf(conn, "POST /api/v1/book/demo/checkout HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", host, len(body), body[:half])
	// Give the server the time to read the headers: the connection is then
	// active and Shutdown waits for it.
	time.Sleep(300 * time.Millisecond)

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitLine(t, "shutting down")
	// The listener closes right after that line: new connections are
	// refused while the request in flight is still waited for.
	refused := false
	for deadline := time.Now().Add(3 * time.Second); !refused && time.Now().Before(deadline); {
		c, err := net.DialTimeout("tcp", host, time.Second)
		if err != nil {
			refused = true
			break
		}
		c.Close()
		time.Sleep(20 * time.Millisecond)
	}
	if !refused {
		t.Error("the server still accepts connections 3s after SIGTERM")
	}

	if _, err := io.WriteString(conn, body[half:]); err != nil {
		t.Fatalf("send the rest of the body: %v", err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read the response of the request in flight: %v", err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("checkout in flight = %d %s, want 201", res.StatusCode, raw)
	}
	var created struct {
		Data struct {
			Token string      `json:"booking_token"`
			Total json.Number `json:"total_amount"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &created); err != nil || created.Data.Token == "" {
		t.Fatalf("checkout answer %s: %v", raw, err)
	}
	if err := p.wait(t); err != nil {
		t.Errorf("exit after SIGTERM: %v, want status 0", err)
	}
	if !strings.Contains(p.logs.String(), "msg=stopped") {
		t.Errorf("no clean stop in the log:\n%s", p.logs.String())
	}

	// Restart on the same database: the booking is there, the seed is not
	// loaded twice.
	p2 := startBinary(t, bin, db)
	p2.waitLine(t, "price a stay")
	r := call(t, http.MethodGet, p2.URL+"/api/v1/book/demo/booking/"+created.Data.Token, nil, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("booking after restart: %d %s", r.Status, r.Raw)
	}
	d := r.data(t)
	got := []string{str(d, "status"), str(d, "check_in"), str(d, "check_out"), str(d, "guest_name"), num(d, "total_amount")}
	want := []string{"pending", in, out, "Grace Hopper", created.Data.Total.String()}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("booking after restart = %v, want %v", got, want)
	}
	if strings.Contains(p2.logs.String(), "first start") {
		t.Errorf("the seed was loaded again on restart:\n%s", p2.logs.String())
	}
	if props := propertyIDs(t, &testServer{URL: p2.URL}, "demo"); len(props) != 2 {
		t.Errorf("demo has %d properties after restart, want 2 (seeded once)", len(props))
	}
	if err := p2.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := p2.wait(t); err != nil {
		t.Errorf("exit after SIGINT: %v, want status 0", err)
	}
}
