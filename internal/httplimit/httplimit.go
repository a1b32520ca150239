// Package httplimit bounds what one client can hold of an HTTP server on
// the open internet: every server Arbiter listens with (Discord's
// interactions endpoint, the programs' API and the live wall) is made by
// Server, with read-header, read and idle timeouts, a header and a body
// cap, and a cap on the requests one address has in flight at once.
//
// Invariants a change must keep: no request is served without the
// timeouts and caps; a long-lived stream (server-sent events, a
// websocket) must clear its read deadline itself (Unbounded), and is
// counted against its address for as long as it lasts.
package httplimit

import (
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
}

// Defaults are bounds no class reaches: 5 s for headers, 10 s for a
// request, 30 s to write an answer, 2 min idle, 16 KiB of headers, 1 MiB of
// body, 64 requests in flight per address.
func Defaults() Limits {
	return Limits{ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 30 * time.Second, Idle: 2 * time.Minute,
		MaxHeader: 16 << 10, MaxBody: 1 << 20, PerAddress: 64}
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
	return &http.Server{
		Handler:           Handler(h, l),
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeader,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Handler wraps h with l's body cap and per-address cap; a request over
// the per-address cap is answered 429 with what to do.
func Handler(h http.Handler, l Limits) http.Handler {
	l = l.withDefaults()
	var mu sync.Mutex
	inFlight := map[string]int{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := ClientAddress(r)
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

// ClientAddress is the address a request comes from: its peer's IP, or,
// when the peer is a proxy on this machine (loopback) that says whom it
// forwards for (X-Forwarded-For), the last address that proxy added.
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return host
	}
	fwd := r.Header.Values("X-Forwarded-For")
	if len(fwd) == 0 {
		return host
	}
	parts := strings.Split(fwd[len(fwd)-1], ",")
	if last, err := netip.ParseAddr(strings.TrimSpace(parts[len(parts)-1])); err == nil {
		return last.String()
	}
	return host
}
