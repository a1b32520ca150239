package bot_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawInteraction opens a connection to the interactions endpoint at url
// and sends a POST's headers (signature and timestamp as given, the
// declared length) and the first sent bytes of its body, then stalls.
func rawInteraction(t *testing.T, url, sig, stamp string, length, sent int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %s\r\nContent-Length: %d\r\n\r\n%s",
		sig, stamp, length, strings.Repeat("x", sent))
	return conn
}

// answer reads the endpoint's answer on conn, failing the test when none
// comes while the request's body is still unsent (the endpoint would be
// waiting for it).
func answer(t *testing.T, conn net.Conn) (int, string) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(hang))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer while the body is unsent: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestInteractionRefusedBeforeItsBody: a request whose signature or
// timestamp header is malformed or stale, or that declares a body larger
// than an interaction, is refused on its headers alone, without waiting
// for (or keeping) its body.
func TestInteractionRefusedBeforeItsBody(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{})
	url := p.serveHTTP()
	good := strings.Repeat("ab", 64) // well formed, and wrong
	now := fmt.Sprint(w.srv.Now().Unix())
	for _, c := range []struct {
		name, sig, stamp string
		length, status   int
		says             string
	}{
		{"short signature", "abcd", now, 1 << 20, http.StatusUnauthorized, "not a hex Ed25519 signature"},
		{"timestamp not a number", good, "yesterday", 1 << 20, http.StatusUnauthorized, "not a Unix time"},
		{"stale timestamp", good, fmt.Sprint(w.srv.Now().Add(-time.Hour).Unix()), 1 << 20, http.StatusUnauthorized, "stale"},
		{"a MiB of body", good, now, 1<<20 - 1, http.StatusRequestEntityTooLarge, "too large"},
	} {
		status, body := answer(t, rawInteraction(t, url, c.sig, c.stamp, c.length, 100))
		if status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %q; want %d saying %q", c.name, status, body, c.status, c.says)
		}
	}
}

// TestUnverifiedBodiesBounded: one address may have 16 bodies being read
// before their signature is checked; the 17th is refused at once with
// 503.
func TestUnverifiedBodiesBounded(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{})
	url := p.serveHTTP()
	good := strings.Repeat("ab", 64)
	now := fmt.Sprint(w.srv.Now().Unix())
	// What the server says of a held body, should it answer or close one,
	// is kept for the failure message.
	var (
		mu      sync.Mutex
		dropped []string
	)
	for range 16 {
		conn := rawInteraction(t, url, good, now, 60<<10, 1000)
		go func() {
			why := "closed"
			if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil {
				why = err.Error()
			} else {
				body, _ := io.ReadAll(resp.Body)
				why = fmt.Sprintf("answered %d %q", resp.StatusCode, body)
			}
			mu.Lock()
			defer mu.Unlock()
			dropped = append(dropped, why)
		}()
	}
	// The server reads the 16 bodies once it has their headers.
	for end := time.Now().Add(hang); p.b.UnverifiedBodies() < 16; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("the server reads %d of the 16 held bodies; held bodies dropped: %q", p.b.UnverifiedBodies(), dropped)
		}
	}
	status, body := answer(t, rawInteraction(t, url, good, now, 100, 100))
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "too many unverified requests") {
		mu.Lock()
		defer mu.Unlock()
		t.Errorf("a 17th unverified body from one address: %d %q; want 503; the server reads %d bodies; held bodies dropped: %q",
			status, body, p.b.UnverifiedBodies(), dropped)
	}
}
