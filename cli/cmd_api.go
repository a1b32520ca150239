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

// serveAPI serves the programs' API, the live wall and the play page at
// cfg.APIAddr (API_ADDR) until ctx ends; nothing when it is empty. The
// function it returns waits until the server stopped.
func serveAPI(ctx context.Context, cfg config, svc *commands.Service, log *slog.Logger) (wait func()) {
	addr := cfg.APIAddr
	if addr == "" {
		return func() {}
	}
	a := api.New(svc, api.Options{Log: log, PublicURL: cfg.PublicURL, Activity: api.ActivityConfig{
		ClientID: cfg.DiscordAppID, ClientSecret: cfg.ClientSecret, BotToken: cfg.DiscordToken}})
	svc.SetPlayPage(commands.PlayPage{Links: a, Activity: cfg.Activity})
	srv := &http.Server{Addr: addr, Handler: a.Handler(),
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
