package httplimit_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"arbiter/internal/httplimit"
)

// serve serves h within l on a real loopback listener and returns its
// address.
func serve(t *testing.T, h http.Handler, l httplimit.Limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httplimit.Server(h, l, nil)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// closedWithin reports whether the server closes conn (after any answer)
// within limit, and what it answered.
func closedWithin(t *testing.T, conn net.Conn, limit time.Duration) (bool, string) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(limit))
	data, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false, string(data)
	}
	return true, string(data)
}

// TestSlowRequestsAreDropped: a client that sends its headers and never
// its body, or never finishes its headers, loses its connection at the
// read timeout; the handler sees the body fail, not a hang.
func TestSlowRequestsAreDropped(t *testing.T) {
	bodyErr := make(chan error, 1)
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		bodyErr <- err
		if err != nil {
			http.Error(w, "the request's body did not come in time", http.StatusRequestTimeout)
		}
	}), httplimit.Limits{ReadHeader: time.Second, Read: time.Second})

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
	if closed, _ := closedWithin(t, conn, 10*time.Second); !closed {
		t.Fatal("a request whose body never comes still holds its connection after 10 s (read timeout 1 s)")
	}
	select {
	case err := <-bodyErr:
		if err == nil {
			t.Error("the handler read a body that never came")
		}
	case <-time.After(10 * time.Second):
		t.Error("the handler never returned")
	}

	half, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	fmt.Fprint(half, "GET / HTTP/1.1\r\nHost: x\r\n")
	if closed, _ := closedWithin(t, half, 10*time.Second); !closed {
		t.Fatal("a request whose headers never end still holds its connection after 10 s (header timeout 1 s)")
	}
}

// TestBodyCap: a body over the cap fails to read; the handler answers 413.
func TestBodyCap(t *testing.T) {
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
		}
	}), httplimit.Limits{MaxBody: 1024})
	resp, err := http.Post("http://"+addr+"/", "text/plain", strings.NewReader(strings.Repeat("x", 4096)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a 4 KiB body over a 1 KiB cap: %s", resp.Status)
	}
	resp, err = http.Post("http://"+addr+"/", "text/plain", strings.NewReader("small"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a small body: %s", resp.Status)
	}
}

// TestPerAddressCap: an address with as many requests in flight as the
// cap gets 429, saying why, for the next; once one ends, it is served.
func TestPerAddressCap(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 8)
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			started <- struct{}{}
			<-release
		}
	}), httplimit.Limits{PerAddress: 2})
	held := make(chan error, 2)
	for range 2 {
		go func() {
			resp, err := http.Get("http://" + addr + "/hold")
			if err == nil {
				resp.Body.Close()
			}
			held <- err
		}()
		<-started
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "too many requests from your address") {
		t.Errorf("a third request: %s %q", resp.Status, body)
	}
	close(release)
	for range 2 {
		if err := <-held; err != nil {
			t.Fatal(err)
		}
	}
	if resp, err := http.Get("http://" + addr + "/"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("after the others ended: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// TestUnboundedStreamOutlivesTheReadTimeout: a stream that clears its
// deadlines goes on sending past the read timeout.
func TestUnboundedStreamOutlivesTheReadTimeout(t *testing.T) {
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httplimit.Unbounded(w)
		for i := range 6 {
			fmt.Fprintf(w, "tick %d\n", i)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(150 * time.Millisecond):
			}
		}
	}), httplimit.Limits{ReadHeader: time.Second, Read: 300 * time.Millisecond, Write: 300 * time.Millisecond})
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n := 0
	for sc := bufio.NewScanner(resp.Body); sc.Scan(); n++ {
	}
	if n != 6 {
		t.Errorf("the stream sent %d ticks of 6 (900 ms, past the 300 ms timeouts)", n)
	}
}

// TestClientAddressBehindLoopbackProxy: a loopback peer's X-Forwarded-For
// names the client; anyone else's is ignored.
func TestClientAddressBehindLoopbackProxy(t *testing.T) {
	for _, c := range []struct{ remote, fwd, want string }{
		{"127.0.0.1:5000", "10.0.0.1, 203.0.113.9", "203.0.113.9"},
		{"[::1]:5000", "203.0.113.9", "203.0.113.9"},
		{"198.51.100.7:5000", "203.0.113.9", "198.51.100.7"},
		{"127.0.0.1:5000", "", "127.0.0.1"},
		{"127.0.0.1:5000", "garbage", "127.0.0.1"},
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		if c.fwd != "" {
			r.Header.Set("X-Forwarded-For", c.fwd)
		}
		if got := httplimit.ClientAddress(r); got != c.want {
			t.Errorf("%s forwarding %q: %q, want %q", c.remote, c.fwd, got, c.want)
		}
	}
}

// idle opens a connection from local (nil: any) to addr, has one request
// answered on it, and leaves it open and idle; it returns the
// connection and the answer's status line.
func idle(t *testing.T, addr string, local net.Addr) (net.Conn, string) {
	t.Helper()
	d := net.Dialer{LocalAddr: local}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprint(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return conn, "no answer: " + err.Error()
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return conn, resp.Status + " " + string(body)
}

// TestIdleConnectionsAreCounted: with the default bounds, one address
// (not a trusted proxy) holds at most 256 connections, idle kept-alive
// ones included; the next is answered 503 saying why, and another address
// is still served. Once one closes, the address gets a connection again.
func TestIdleConnectionsAreCounted(t *testing.T) {
	addr := serve(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), httplimit.Limits{TrustedProxies: []netip.Prefix{}})
	var open []net.Conn
	for i := range 256 {
		conn, status := idle(t, addr, nil)
		if !strings.HasPrefix(status, "200") {
			t.Fatalf("idle connection %d: %s", i+1, status)
		}
		open = append(open, conn)
	}
	if _, status := idle(t, addr, nil); !strings.HasPrefix(status, "503") || !strings.Contains(status, "too many connections") {
		t.Errorf("a 257th connection from one address: %q; want 503", status)
	}
	other := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}
	if _, status := idle(t, addr, other); !strings.HasPrefix(status, "200") {
		t.Errorf("another address beside a full one: %q", status)
	}
	open[0].Close()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		conn, status := idle(t, addr, nil)
		if strings.HasPrefix(status, "200") {
			break
		}
		conn.Close()
		if time.Now().After(end) {
			t.Fatalf("a connection closed gave no place back: %q", status)
		}
	}
}

// TestConnectionsCappedInAll: MaxConns bounds the connections of every
// address together, a trusted proxy's included, which ConnsPerAddress
// leaves alone.
func TestConnectionsCappedInAll(t *testing.T) {
	addr := serve(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}),
		httplimit.Limits{ConnsPerAddress: 2, MaxConns: 6, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.3/32")}})
	from := func(last byte) net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, last)} }
	for i := range 4 { // a trusted proxy: past the per-address cap
		if _, status := idle(t, addr, from(3)); !strings.HasPrefix(status, "200") {
			t.Fatalf("the proxy's connection %d: %q", i+1, status)
		}
	}
	for i := range 2 {
		if _, status := idle(t, addr, from(4)); !strings.HasPrefix(status, "200") {
			t.Fatalf("a client's connection %d: %q", i+1, status)
		}
	}
	if _, status := idle(t, addr, from(5)); !strings.HasPrefix(status, "503") {
		t.Errorf("a 7th connection of 6 in all: %q; want 503", status)
	}
}

// TestClientAddressFromTrustedProxies: X-Forwarded-For names the client
// only when the peer is a trusted proxy (a container bridge's gateway,
// say), skipping further trusted hops from the right; a client's own
// header, left of what the proxies added, is not believed.
func TestClientAddressFromTrustedProxies(t *testing.T) {
	seen := make(chan string, 1)
	addr := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen <- httplimit.ClientAddress(r) }),
		httplimit.Limits{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("172.30.0.0/16")}})
	for _, c := range []struct{ fwd, want string }{
		{"6.6.6.6, 203.0.113.9", "203.0.113.9"},
		{"203.0.113.9, 172.30.0.5", "203.0.113.9"},
		{"", "127.0.0.1"},
	} {
		req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
		if c.fwd != "" {
			req.Header.Set("X-Forwarded-For", c.fwd)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := <-seen; got != c.want {
			t.Errorf("through a trusted proxy forwarding %q: %q, want %q", c.fwd, got, c.want)
		}
	}
}

// FuzzClientAddress: whatever a peer writes in X-Forwarded-For, the
// client's address is the peer's own unless the peer is a trusted proxy,
// and is always an IP address; never a panic.
func FuzzClientAddress(f *testing.F) {
	f.Add("127.0.0.1:5000", "10.0.0.1, 203.0.113.9")
	f.Add("172.30.0.1:5000", "203.0.113.9, 172.30.0.5")
	f.Add("198.51.100.7:5000", "203.0.113.9")
	f.Add("[::1]:1", "garbage,,")
	f.Add("[::ffff:127.0.0.1]:1", "::ffff:1.2.3.4")
	proxies := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("172.30.0.0/24"), netip.MustParsePrefix("::1/128")}
	f.Fuzz(func(t *testing.T, remote, fwd string) {
		peer, err := netip.ParseAddrPort(remote)
		if err != nil {
			return
		}
		var got string
		h := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = httplimit.ClientAddress(r) })
		r, _ := http.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		r.Header.Set("X-Forwarded-For", fwd)
		httplimit.Handler(h, httplimit.Limits{TrustedProxies: proxies}).ServeHTTP(httptest.NewRecorder(), r)
		if _, err := netip.ParseAddr(got); err != nil {
			t.Fatalf("peer %s forwarding %q: client %q is no address", remote, fwd, got)
		}
		trusted := false
		for _, p := range proxies {
			trusted = trusted || p.Contains(peer.Addr().Unmap())
		}
		if !trusted && got != peer.Addr().String() {
			t.Fatalf("an untrusted peer %s forwarding %q was taken for %q", remote, fwd, got)
		}
	})
}
