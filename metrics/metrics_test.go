package metrics_test

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"arbiter/commands"
	"arbiter/metrics"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
)

type discard struct{}

func (discard) Post(context.Context, string, commands.Message) error { return nil }

// get returns the status and body of a GET of path.
func get(t *testing.T, base, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestMetricsAfterAGame: after a whole game against the bot, /metrics
// reads with Prometheus' own text parser and counts the game's commands
// and moves (the person's and the bot's), the bot turns' waits and the
// store's round trips.
func TestMetricsAfterAGame(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := games.Registry()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := open.Store(ctx, store.Config{RedisURL: srv.URL(), Registry: reg, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	m := metrics.New(st, "arbiter v0.0.0-test", reg.Names())
	svc := commands.New(commands.Config{BotMoveTime: 20 * time.Millisecond, Workers: 1, TableMB: 1, Meter: m}, st, reg, discard{}, log, nil)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { svc.RunWorkers(ctx) })
	web := httptest.NewServer(m.Handler())
	defer web.Close()

	game := reg.Names()[0]
	ann := commands.User{ID: "100", Name: "ann"}
	do := func(line string) commands.Reply {
		inv, err := commands.ParseLine(line, commands.CommandSet(reg.Names()))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		inv.Guild, inv.Channel, inv.User = "g1", "c1", ann
		return svc.Handle(ctx, inv)
	}
	if r := do("/play game:" + game + " level:1 side:first"); r.Private {
		t.Fatalf("/play: %s", r.Text)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	personMoves := 0
	for deadline := time.Now().Add(60 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("the game did not end in time")
		}
		g, err := st.Load(ctx, "c1")
		if err != nil || g.Status != store.Active {
			break
		}
		if g.Players[g.State.ToMove()].Kind != store.Human {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		var list rules.MoveList
		g.State.Moves(&list)
		if r := do("/move " + g.State.FormatMove(list.Moves[rng.IntN(list.N)])); !r.Private {
			personMoves++
		}
	}

	if code, body := get(t, web.URL, "/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz: %d %s", code, body)
	}
	code, body := get(t, web.URL, "/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", code, body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	value := func(name string, labels map[string]string) float64 {
		t.Helper()
		f := fams[name]
		if f == nil {
			t.Fatalf("/metrics has no %s", name)
		}
	next:
		for _, mt := range f.Metric {
			for k, v := range labels {
				if !hasLabel(mt, k, v) {
					continue next
				}
			}
			switch {
			case mt.Counter != nil:
				return mt.Counter.GetValue()
			case mt.Gauge != nil:
				return mt.Gauge.GetValue()
			case mt.Histogram != nil:
				return float64(mt.Histogram.GetSampleCount())
			}
		}
		t.Fatalf("%s has no series %v", name, labels)
		return 0
	}
	if got := value("arbiter_moves_total", map[string]string{"game": game, "by": "person"}); got != float64(personMoves) {
		t.Errorf("person moves: %v, want %d", got, personMoves)
	}
	botMoves := value("arbiter_moves_total", map[string]string{"game": game, "by": "bot"})
	if botMoves < 1 {
		t.Errorf("bot moves: %v", botMoves)
	}
	if got := value("arbiter_bot_turn_wait_seconds", map[string]string{"game": game}); got < botMoves {
		t.Errorf("bot turns' waits observed: %v, want one at least for each bot move (%v)", got, botMoves)
	}
	if got := value("arbiter_commands_total", map[string]string{"command": "play"}); got != 1 {
		t.Errorf("/play counted %v times", got)
	}
	if got := value("arbiter_command_duration_seconds", map[string]string{"command": "move"}); got < float64(personMoves) {
		t.Errorf("/move timed %v times, want at least %d", got, personMoves)
	}
	if got := value("arbiter_store_up", nil); got != 1 {
		t.Errorf("arbiter_store_up %v", got)
	}
	for _, name := range []string{"arbiter_bot_turns_queued", "arbiter_outbox_overdue", "arbiter_dead_letters", "arbiter_gateway_reconnects_total"} {
		value(name, nil)
	}
	if got := value("arbiter_store_round_trip_seconds", nil); got < 1 {
		t.Errorf("store round trips observed: %v", got)
	}
	if got := value("arbiter_build_info", map[string]string{"version": "arbiter v0.0.0-test"}); got != 1 {
		t.Errorf("arbiter_build_info %v", got)
	}
	// The Grafana dashboard shows only metrics that exist.
	dash, err := os.ReadFile("../deploy/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range regexp.MustCompile(`arbiter_[a-z_]+`).FindAllString(string(dash), -1) {
		if fams[strings.TrimSuffix(name, "_bucket")] == nil {
			t.Errorf("deploy/grafana-dashboard.json shows %s, which /metrics does not serve", name)
		}
	}
}

func hasLabel(m *dto.Metric, name, value string) bool {
	for _, l := range m.Label {
		if l.GetName() == name && l.GetValue() == value {
			return true
		}
	}
	return false
}

// TestHealthFollowsRedis: /healthz is 200 with a reason while the store
// answers, 503 saying the store does not answer once the real
// redis-server stops, and 200 again when it is back; and 503 while the
// gateway is not connected.
func TestHealthFollowsRedis(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{TCP: true})
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	redisstore.RouteClientLogs(log)
	st, err := open.Store(ctx, store.Config{RedisURL: srv.URL(), Registry: games.Registry(), Logger: log, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	m := metrics.New(st, "test", nil)
	web := httptest.NewServer(m.Handler())
	defer web.Close()

	if code, body := get(t, web.URL, "/healthz"); code != http.StatusOK || !strings.HasPrefix(body, "ok: the store answered in ") || strings.Count(body, "\n") != 1 {
		t.Fatalf("healthy: %d %q", code, body)
	}
	srv.Stop()
	if code, body := get(t, web.URL, "/healthz"); code != http.StatusServiceUnavailable || !strings.HasPrefix(body, "the store does not answer") {
		t.Fatalf("Redis stopped: %d %q", code, body)
	}
	srv.Restart()
	var code int
	var body string
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if code, body = get(t, web.URL, "/healthz"); code == http.StatusOK {
			break
		}
	}
	if code != http.StatusOK {
		t.Fatalf("Redis back: %d %q", code, body)
	}

	connected := false
	m.SetGateway(func() (bool, int64) { return connected, 3 })
	if code, body := get(t, web.URL, "/healthz"); code != http.StatusServiceUnavailable || !strings.HasPrefix(body, "the Discord gateway is not connected") {
		t.Fatalf("gateway down: %d %q", code, body)
	}
	connected = true
	if code, body := get(t, web.URL, "/healthz"); code != http.StatusOK || !strings.Contains(body, "the Discord gateway is connected") {
		t.Fatalf("gateway up: %d %q", code, body)
	}
	m.SetReady(func() bool { return false })
	if code, body := get(t, web.URL, "/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "HTTP interactions endpoint is not ready") {
		t.Fatalf("endpoint not ready: %d %q", code, body)
	}
}
