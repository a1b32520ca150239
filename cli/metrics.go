package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"arbiter/internal/httplimit"
	"arbiter/metrics"
)

// metricsServer is the HTTP server of METRICS_ADDR, within httplimit's
// bounds: a scraper sends no body, and a few requests at a time.
func metricsServer(h http.Handler, log *slog.Logger) *http.Server {
	return httplimit.Server(h, httplimit.Limits{MaxBody: 1 << 10, PerAddress: 8}, log)
}

// serveMetrics serves m's /metrics and /healthz at addr (METRICS_ADDR)
// until ctx ends; nothing when addr is empty. The function it returns
// waits until the server stopped.
func serveMetrics(ctx context.Context, addr string, m *metrics.Metrics, log *slog.Logger) (wait func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("METRICS_ADDR %s: %w", addr, err)
	}
	srv := metricsServer(m.Handler(), log)
	done := make(chan struct{})
	go func() {
		defer close(done)
		log.Info("serving metrics and health", "addr", ln.Addr().String(), "paths", "/metrics /healthz")
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "addr", addr, "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return func() { <-done }, nil
}
