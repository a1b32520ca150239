package cli

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"arbiter/api"
	"arbiter/commands"
)

// serveAPI serves the programs' API and the live wall at addr (API_ADDR)
// until ctx ends; nothing when addr is empty. The function it returns
// waits until the server stopped.
func serveAPI(ctx context.Context, addr string, svc *commands.Service, log *slog.Logger) (wait func()) {
	if addr == "" {
		return func() {}
	}
	srv := &http.Server{Addr: addr, Handler: api.New(svc, api.Options{Log: log}).Handler(),
		ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		log.Info("serving the programs' API and the live wall", "addr", addr)
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("API server stopped", "addr", addr, "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close() // its requests are streams and event pages: nothing to finish
	}()
	return func() { <-done }
}
