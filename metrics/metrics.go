// Package metrics shows how a running Arbiter is doing: /metrics in
// Prometheus' text format and /healthz for a supervisor or a load
// balancer, served at METRICS_ADDR.
//
// Invariants a change must keep: the game flow reports to it through the
// small commands.Meter interface, so neither commands nor store import
// Prometheus; what is measured at scrape time (the store's round trip, the
// bot-turn queue, the outbox, the dead letters) is bounded by a timeout,
// so a store that does not answer makes a scrape slow by at most that, never
// stuck; /healthz says in one line what is wrong, never a secret.
package metrics

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"arbiter/store"
)

// probeTimeout bounds each look into the store at a scrape or a health
// check.
const probeTimeout = 2 * time.Second

// Metrics keeps Arbiter's metrics and serves them with its health. It is
// a commands.Meter. It is safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry
	st  store.Store

	commands     *prometheus.CounterVec
	commandTime  *prometheus.HistogramVec
	moves        *prometheus.CounterVec
	botTurnWait  *prometheus.HistogramVec
	botTurnsLate *prometheus.CounterVec
	storeRTT     prometheus.Histogram

	mu      sync.Mutex
	gateway func() (connected bool, reconnects int64)
	ready   func() bool
}

// New returns the metrics of a process whose store is st, labelled with
// its build (version is `arbiter version`'s line). The series of each of
// games start at zero, so that they exist before the first event.
func New(st store.Store, version string, games []string) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		st:  st,
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "arbiter_commands_total", Help: "Commands and buttons answered, by command.",
		}, []string{"command"}),
		commandTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "arbiter_command_duration_seconds", Help: "Time to answer a command, by command.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"command"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "arbiter_moves_total", Help: "Moves played and saved, by game and by whom (person or bot).",
		}, []string{"game", "by"}),
		botTurnWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "arbiter_bot_turn_wait_seconds", Help: "Time a bot turn waited in the queue before a worker took it up, by game.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"game"}),
		botTurnsLate: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "arbiter_bot_turns_late_total", Help: "Bot turns taken up after waiting longer than the game's time per move, by game.",
		}, []string{"game"}),
		storeRTT: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "arbiter_store_round_trip_seconds", Help: "Round trip to the store (its clock read), at each scrape and health check.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}),
	}
	m.reg.MustRegister(m.commands, m.commandTime, m.moves, m.botTurnWait, m.botTurnsLate, m.storeRTT,
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "arbiter_build_info", Help: "1, labelled with the build (arbiter version).",
			ConstLabels: prometheus.Labels{"version": version},
		}, func() float64 { return 1 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "arbiter_gateway_connected", Help: "1 when the Discord gateway is connected, else 0 (always 0 in a process without a gateway).",
		}, func() float64 {
			if up, _, ok := m.gatewayState(); ok && up {
				return 1
			}
			return 0
		}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "arbiter_gateway_reconnects_total", Help: "Connections to the Discord gateway after the first.",
		}, func() float64 { _, n, _ := m.gatewayState(); return float64(n) }),
		&storeCollector{m: m},
	)
	for _, g := range games {
		m.moves.WithLabelValues(g, "person")
		m.moves.WithLabelValues(g, "bot")
		m.botTurnsLate.WithLabelValues(g)
	}
	return m
}

// SetGateway gives the Discord gateway's state, for /metrics and /healthz
// (the bot over the gateway).
func (m *Metrics) SetGateway(state func() (connected bool, reconnects int64)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gateway = state
}

// SetReady gives whether the HTTP interactions endpoint takes requests,
// for /healthz (the bot with --http).
func (m *Metrics) SetReady(ready func() bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ready = ready
}

func (m *Metrics) gatewayState() (connected bool, reconnects int64, ok bool) {
	m.mu.Lock()
	gw := m.gateway
	m.mu.Unlock()
	if gw == nil {
		return false, 0, false
	}
	connected, reconnects = gw()
	return connected, reconnects, true
}

// Command counts a command answered after took.
func (m *Metrics) Command(command string, took time.Duration) {
	m.commands.WithLabelValues(command).Inc()
	m.commandTime.WithLabelValues(command).Observe(took.Seconds())
}

// Move counts a move of game.
func (m *Metrics) Move(game string, bot bool) {
	by := "person"
	if bot {
		by = "bot"
	}
	m.moves.WithLabelValues(game, by).Inc()
}

// BotTurn records a bot turn's wait in the queue, and counts it late when
// it waited past its game's time per move.
func (m *Metrics) BotTurn(game string, waited, late time.Duration) {
	m.botTurnWait.WithLabelValues(game).Observe(waited.Seconds())
	if late > 0 {
		m.botTurnsLate.WithLabelValues(game).Inc()
	}
}

// pingStore reads the store's clock and records the round trip.
func (m *Metrics) pingStore(ctx context.Context) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	begun := time.Now()
	if _, err := m.st.Time(ctx); err != nil {
		return 0, err
	}
	took := time.Since(begun)
	m.storeRTT.Observe(took.Seconds())
	return took, nil
}

// Health says whether this process can serve: the store answers, and the
// gateway is connected (over the gateway) or the HTTP endpoint is ready
// (with --http). The text is one line: why all is well, or what is wrong.
func (m *Metrics) Health(ctx context.Context) (ok bool, text string) {
	took, err := m.pingStore(ctx)
	if err != nil {
		return false, "the store does not answer: " + oneLine(err.Error())
	}
	parts := []string{fmt.Sprintf("the store answered in %s", took.Round(time.Microsecond))}
	if up, _, known := m.gatewayState(); known {
		if !up {
			return false, "the Discord gateway is not connected (" + parts[0] + ")"
		}
		parts = append(parts, "the Discord gateway is connected")
	}
	m.mu.Lock()
	ready := m.ready
	m.mu.Unlock()
	if ready != nil {
		if !ready() {
			return false, "the HTTP interactions endpoint is not ready (" + parts[0] + ")"
		}
		parts = append(parts, "the HTTP interactions endpoint is ready")
	}
	return true, "ok: " + strings.Join(parts, ", ")
}

// Handler serves /metrics and /healthz.
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Timeout: 10 * time.Second}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		ok, text := m.Health(r.Context())
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		fmt.Fprintln(w, text)
	})
	return mux
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// storeCollector measures the store at each scrape: whether it answers,
// the bot turns queued, the outbox entries overdue and the dead letters.
type storeCollector struct{ m *Metrics }

var (
	descStoreUp = prometheus.NewDesc("arbiter_store_up", "1 when the store answered at this scrape, else 0.", nil, nil)
	descQueued  = prometheus.NewDesc("arbiter_bot_turns_queued", "Bot turns in the queue, waiting or being thought about.", nil, nil)
	descOutbox  = prometheus.NewDesc("arbiter_outbox_overdue", "Outbox entries (announcements of saved changes) past their time, not yet delivered; counted up to 100.", nil, nil)
	descDead    = prometheus.NewDesc("arbiter_dead_letters", "Jobs given up and kept as dead letters; counted up to 100.", nil, nil)
)

func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descStoreUp
	ch <- descQueued
	ch <- descOutbox
	ch <- descDead
}

func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	if _, err := c.m.pingStore(ctx); err != nil {
		ch <- prometheus.MustNewConstMetric(descStoreUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descStoreUp, prometheus.GaugeValue, 1)
	if n, err := c.m.st.QueuedBotTurns(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(descQueued, prometheus.GaugeValue, float64(n))
	}
	if due, err := c.m.st.OutboxDue(ctx, time.Now(), store.MaxList); err == nil {
		ch <- prometheus.MustNewConstMetric(descOutbox, prometheus.GaugeValue, float64(len(due)))
	}
	if dead, err := c.m.st.DeadLetters(ctx, store.MaxList); err == nil {
		ch <- prometheus.MustNewConstMetric(descDead, prometheus.GaugeValue, float64(len(dead)))
	}
}
