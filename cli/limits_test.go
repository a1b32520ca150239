package cli

import (
	"io"
	"log/slog"
	"net/http"
	"testing"

	"arbiter/commands"
	"arbiter/internal/httplimit"
	"arbiter/rules/games"
)

// TestPublicServersAreBounded: API_ADDR's server, the interactions
// endpoint's and METRICS_ADDR's are made within httplimit's bounds (whose behaviour over real
// sockets internal/httplimit tests): no timeout or cap is left unset.
func TestPublicServersAreBounded(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := commands.New(commands.Config{}, nil, games.Registry(), discardNotifier{}, log, nil)
	d := httplimit.Defaults()
	for name, srv := range map[string]*http.Server{
		"API_ADDR":     apiServer(config{APIAddr: ":0"}, svc, log),
		"interactions": interactionServer(http.NotFoundHandler(), nil, log),
		"METRICS_ADDR": metricsServer(http.NotFoundHandler(), log),
	} {
		if srv.ReadHeaderTimeout != d.ReadHeader || srv.ReadTimeout != d.Read || srv.WriteTimeout != d.Write ||
			srv.IdleTimeout != d.Idle || srv.MaxHeaderBytes != d.MaxHeader {
			t.Errorf("%s: timeouts %v %v %v %v, header cap %d; want httplimit's defaults", name,
				srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
		}
		if srv.ConnState == nil {
			t.Errorf("%s: connections are not counted", name)
		}
	}
}
