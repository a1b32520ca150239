// Package httplimit bounds what one client can hold of an HTTP server on
// the open internet: every server Arbiter listens with (Discord's
// interactions endpoint, the programs' API and the live wall, metrics) is
// made by Server, with read-header, read and idle timeouts, a header and a
// body cap, a cap on the connections (idle ones included) one address and
// all addresses hold at once, and a cap on the requests one address has in
// flight at once. Behind a reverse proxy the address is the one the proxy
// names, if the proxy is one of Limits.TrustedProxies.
//
// Invariants a change must keep: no request is served without the
// timeouts and caps; a long-lived stream (server-sent events, a
// websocket) must clear its read deadline itself (Unbounded), and is
// counted against its address for as long as it lasts.
package httplimit

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Limits are a server's bounds; a zero field takes Defaults' value.
type Limits struct {
	// ReadHeader is the time a client has to send a request's headers;
	// Read, to send the whole request, body included.
	ReadHeader, Read time.Duration
	// Write bounds writing an answer (not a stream, which clears it).
	Write time.Duration
	// Idle is how long a kept-alive connection waits for its next request.
	Idle time.Duration
	// MaxHeader and MaxBody cap a request's headers and body, in bytes.
	MaxHeader int
	MaxBody   int64
	// PerAddress caps the requests (streams included) one client address
	// has in flight at once.
	PerAddress int
	// ConnsPerAddress caps the connections, idle or not, one peer address
	// holds at once (a trusted proxy's are counted only in MaxConns);
	// MaxConns caps all connections at once. A connection over either
	// cap is answered 503 and closed.
	ConnsPerAddress, MaxConns int
	// TrustedProxies are the peers whose X-Forwarded-For names the client
	// (TRUSTED_PROXIES); nil trusts loopback only (a proxy on this
	// machine). An empty non-nil list trusts none.
	TrustedProxies []netip.Prefix
}

// Loopback is the trusted proxies by default: a proxy on this machine.
func Loopback() []netip.Prefix {
	return []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
}

// Defaults are bounds no class reaches: 5 s for headers, 10 s for a
// request, 30 s to write an answer, 2 min idle, 16 KiB of headers, 1 MiB of
// body, 64 requests in flight per address, 256 connections per address
// and 8192 in all (far below the open files a process may have).
func Defaults() Limits {
	return Limits{ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 30 * time.Second, Idle: 2 * time.Minute,
		MaxHeader: 16 << 10, MaxBody: 1 << 20, PerAddress: 64, ConnsPerAddress: 256, MaxConns: 8192}
}

// withDefaults fills l's zero fields.
func (l Limits) withDefaults() Limits {
	d := Defaults()
	orDefault(&l.ReadHeader, d.ReadHeader)
	orDefault(&l.Read, d.Read)
	orDefault(&l.Write, d.Write)
	orDefault(&l.Idle, d.Idle)
	orDefault(&l.MaxHeader, d.MaxHeader)
	orDefault(&l.MaxBody, d.MaxBody)
	orDefault(&l.PerAddress, d.PerAddress)
	orDefault(&l.ConnsPerAddress, d.ConnsPerAddress)
	orDefault(&l.MaxConns, d.MaxConns)
	if l.TrustedProxies == nil {
		l.TrustedProxies = Loopback()
	}
	return l
}

// orDefault sets *v to d when it is not above zero.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Server returns an http.Server serving h within l; log receives the
// server's own errors.
func Server(h http.Handler, l Limits, log *slog.Logger) *http.Server {
	if log == nil {
		log = slog.Default()
	}
	l = l.withDefaults()
	conns := &connCount{limits: l, byAddr: map[netip.Addr]int{}, counted: map[net.Conn]netip.Addr{}}
	return &http.Server{
		Handler:           Handler(h, l),
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeader,
		ConnState:         conns.track,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// connCount counts a server's open connections, in all and by peer.
type connCount struct {
	limits  Limits
	mu      sync.Mutex
	total   int
	byAddr  map[netip.Addr]int
	counted map[net.Conn]netip.Addr
}

// tooManyConns is the whole answer to a connection over a cap.
const tooManyConns = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nRetry-After: 10\r\n\r\n" +
	"too many connections at once: close some pages or bridges, then try again\n"

// track is the server's ConnState hook: a new connection over a cap is
// answered 503 and closed before it is served; a closed or hijacked one
// frees its place (a hijacked one, a websocket, stays counted as a
// request in flight by Handler).
func (c *connCount) track(conn net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		addr := peerAddr(conn.RemoteAddr())
		proxy := trusted(addr, c.limits.TrustedProxies)
		c.mu.Lock()
		if c.total >= c.limits.MaxConns || (!proxy && c.byAddr[addr] >= c.limits.ConnsPerAddress) {
			c.mu.Unlock()
			// A new connection's send buffer is empty: this write does not
			// wait on the client; the deadline is a guard.
			_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = io.WriteString(conn, tooManyConns)
			_ = conn.Close()
			return
		}
		c.total++
		c.byAddr[addr]++
		c.counted[conn] = addr
		c.mu.Unlock()
	case http.StateClosed, http.StateHijacked:
		c.mu.Lock()
		defer c.mu.Unlock()
		addr, ok := c.counted[conn]
		if !ok {
			return
		}
		delete(c.counted, conn)
		c.total--
		if c.byAddr[addr]--; c.byAddr[addr] <= 0 {
			delete(c.byAddr, addr)
		}
	}
}

// peerAddr is the IP of a connection's peer (unmapped from IPv4-in-IPv6).
func peerAddr(a net.Addr) netip.Addr {
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// trusted reports whether ip is in one of proxies.
func trusted(ip netip.Addr, proxies []netip.Prefix) bool {
	for _, p := range proxies {
		if ip.IsValid() && p.Contains(ip.Unmap()) {
			return true
		}
	}
	return false
}

// Handler wraps h with l's body cap and per-address cap; a request over
// the per-address cap is answered 429 with what to do.
func Handler(h http.Handler, l Limits) http.Handler {
	l = l.withDefaults()
	var mu sync.Mutex
	inFlight := map[string]int{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := clientAddress(r, l.TrustedProxies)
		r = r.WithContext(context.WithValue(r.Context(), clientKey{}, addr))
		mu.Lock()
		if inFlight[addr] >= l.PerAddress {
			mu.Unlock()
			w.Header().Set("Retry-After", "10")
			http.Error(w, "too many requests from your address at once: close some pages or bridges, then try again", http.StatusTooManyRequests)
			return
		}
		inFlight[addr]++
		mu.Unlock()
		defer func() {
			mu.Lock()
			if inFlight[addr]--; inFlight[addr] <= 0 {
				delete(inFlight, addr)
			}
			mu.Unlock()
		}()
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, l.MaxBody)
		}
		h.ServeHTTP(w, r)
	})
}

// Unbounded clears the read and write deadlines of a request that
// becomes a long-lived stream (server-sent events): it then ends when the
// client leaves or the server closes it, not at the read timeout.
func Unbounded(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
}

// clientKey keys the client's address in a request's context.
type clientKey struct{}

// ClientAddress is the address a request served by Handler comes from:
// its peer's IP or, when the peer is a trusted proxy, the address that
// proxy forwards for (see Limits.TrustedProxies).
func ClientAddress(r *http.Request) string {
	if a, ok := r.Context().Value(clientKey{}).(string); ok {
		return a
	}
	return clientAddress(r, Loopback())
}

// clientAddress is the address a request comes from: its peer's IP, or,
// when the peer is one of proxies, the rightmost address in its
// X-Forwarded-For that is not itself one of proxies (each proxy appends
// the peer it heard from; what a client wrote itself is further left).
func clientAddress(r *http.Request, proxies []netip.Prefix) string {
	// An IPv6 zone may hold "]", which net.SplitHostPort cannot split:
	// netip parses "ip:port" first.
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	ip := ap.Addr()
	if err != nil {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		if ip, err = netip.ParseAddr(host); err != nil {
			return host
		}
	}
	if !trusted(ip, proxies) {
		return ip.String() // the address in one spelling: "::0" and "::" are one client
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	client := ip.Unmap().String()
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // garbage: what the last good hop says stands
		}
		client = hop.Unmap().String()
		if !trusted(hop, proxies) {
			break
		}
	}
	return client
}
