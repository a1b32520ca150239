package cli

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/httplimit"
)

// serveAPI serves the programs' API, the live wall and the play page at
// cfg.APIAddr (API_ADDR) until ctx ends; nothing when it is empty. The
// function it returns waits until the server stopped.
func serveAPI(ctx context.Context, cfg config, svc *commands.Service, log *slog.Logger) (wait func()) {
	addr := cfg.APIAddr
	if addr == "" {
		return func() {}
	}
	srv := apiServer(cfg, svc, log)
	srv.Addr = addr
	done := make(chan struct{})
	go func() {
		defer close(done)
		log.Info("serving the programs' API, the live wall and the play page", "addr", addr)
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
// program's requests have no body beyond an API message), and tells svc
// that it serves the play page: its one-time links name PUBLIC_URL (or,
// unset, API_ADDR on this host).
func apiServer(cfg config, svc *commands.Service, log *slog.Logger) *http.Server {
	public := cfg.PublicURL
	if public == "" {
		public = "http://" + cfg.APIAddr
		if strings.HasPrefix(cfg.APIAddr, ":") {
			public = "http://localhost" + cfg.APIAddr
		}
	}
	a := api.New(svc, api.Options{Log: log, PublicURL: public, Activity: api.ActivityConfig{
		ClientID: cfg.DiscordAppID, ClientSecret: cfg.ClientSecret, BotToken: cfg.DiscordToken}})
	svc.SetPlayPage(commands.PlayPage{Links: a, Activity: cfg.Activity})
	return httplimit.Server(a.Handler(), httplimit.Limits{MaxBody: api.MaxMessage, TrustedProxies: cfg.TrustedProxies}, log)
}
