package cli

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/httplimit"
)

// serveAPI serves the programs' API and the live wall at addr (API_ADDR)
// until ctx ends; nothing when addr is empty. The function it returns
// waits until the server stopped.
func serveAPI(ctx context.Context, addr string, svc *commands.Service, log *slog.Logger) (wait func()) {
	if addr == "" {
		return func() {}
	}
	srv := apiServer(svc, log)
	srv.Addr = addr
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

// apiServer is the HTTP server of API_ADDR, within httplimit's bounds (a
// program's requests have no body beyond an API message).
func apiServer(svc *commands.Service, log *slog.Logger) *http.Server {
	return httplimit.Server(api.New(svc, api.Options{Log: log}).Handler(), httplimit.Limits{MaxBody: api.MaxMessage}, log)
}
