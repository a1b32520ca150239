package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"arbiter/api"
	"arbiter/commands"
	"arbiter/internal/httplimit"
)

// listenAPI opens the address of the programs' API, the live wall and
// the play page (API_ADDR), for the bot and the console alike: nil when
// it is empty; an error when it cannot listen there. The cfg it returns
// has the address listened on (the port chosen for ":0").
func listenAPI(cfg config) (net.Listener, config, error) {
	if cfg.APIAddr == "" {
		return nil, cfg, nil
	}
	ln, err := net.Listen("tcp", cfg.APIAddr)
	if err != nil {
		return nil, cfg, fmt.Errorf("API_ADDR: the programs' API cannot listen at %s: %w", cfg.APIAddr, err)
	}
	cfg.APIAddr = ln.Addr().String()
	return ln, cfg, nil
}

// serveAPI serves the programs' API, the live wall and the play page on
// ln (from listenAPI) until ctx ends; nothing when ln is nil. The function
// it returns waits until the server stopped.
func serveAPI(ctx context.Context, ln net.Listener, cfg config, svc *commands.Service, log *slog.Logger) (wait func()) {
	if ln == nil {
		return func() {}
	}
	srv := apiServer(cfg, svc, log)
	done := make(chan struct{})
	go func() {
		defer close(done)
		log.Info("serving the programs' API, the live wall and the play page", "addr", cfg.APIAddr)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("API server stopped", "addr", cfg.APIAddr, "err", err)
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
	a := api.New(svc, api.Options{Log: log, PublicURL: publicURL(cfg), Activity: api.ActivityConfig{
		ClientID: cfg.DiscordAppID, ClientSecret: cfg.ClientSecret, BotToken: cfg.DiscordToken}})
	svc.SetPlayPage(commands.PlayPage{Links: a, Activity: cfg.Activity})
	return httplimit.Server(a.Handler(), httplimit.Limits{MaxBody: api.MaxMessage, TrustedProxies: cfg.TrustedProxies}, log)
}

// publicURL is where players reach the API server: PUBLIC_URL, else
// API_ADDR on this host ("localhost" for an address of every interface).
func publicURL(cfg config) string {
	if cfg.PublicURL != "" {
		return cfg.PublicURL
	}
	host, port, err := net.SplitHostPort(cfg.APIAddr)
	if err != nil {
		return "http://" + cfg.APIAddr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
