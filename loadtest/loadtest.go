// Package loadtest drives Arbiter's real command path (package commands,
// the store, the bot-turn workers and the deadline clock; no Discord) with
// many channels at once, and measures it: moves a second, /move latency,
// how late the bot's moves are against their game's limit, the store's
// round trips and commands a move, memory a game, and the process's CPU
// time a move.
//
// Invariants a change must keep: the load goes through the real command
// path and a real store, never a stand-in; `arbiter loadtest`'s summary
// line keeps its fields (new ones are appended); what it measures is
// reported, never asserted against a time.
package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/store"
)

// Config says what load to make.
type Config struct {
	// Channels is how many channels play student-vs-student games; each
	// game that ends is followed by a new one in its channel.
	Channels int
	// Bots is how many channels play a student against the bot; the
	// student answers each bot move at once, so every bot game waits on
	// the workers nearly all the time.
	Bots int
	// Clients is how many moves are sent at once (the student games'
	// clients); default 1.
	Clients int
	// Duration is how long moves are sent.
	Duration time.Duration
	// Game is the student games' game; default "hique". BotGame is the
	// bot games' game; default "sixes".
	Game, BotGame string
	// BotMoveTime is the bot's time a move (the limit its lateness is
	// measured against); default 1s. BotLevel default 5.
	BotMoveTime time.Duration
	BotLevel    int
	// Workers is how many bot turns are thought about at once; default
	// one per core.
	Workers int
	// Progress receives a progress line a second while it runs (nil: none).
	Progress io.Writer
	// Prefix starts every channel's name, so that runs do not meet;
	// default a name from the time.
	Prefix string
}

// Result is what one run measured.
type Result struct {
	Channels, Bots, Clients int
	Elapsed                 time.Duration
	Moves                   int64 // student moves applied
	Refused                 int64 // student moves refused (should be 0)
	MovesPerSec             float64
	P50, P99, Max           time.Duration // /move latency
	BotMoves                int64
	BotLateP99, BotLateMax  time.Duration // a bot move's time past its limit (0 when within)
	BotOverLimit1s          int64         // bot moves later than limit + 1 s
	RoundTripsPerMove       float64       // store round trips per move (student and bot)
	CommandsPerMove         float64       // store commands per move
	StoreBytesPerGame       int64         // Redis memory of a running game's keys; -1 when the store cannot say
	ProcessBytesPerGame     int64         // Go heap growth per game in this process (the driver's own copy included)
	// CPUPerMove is the CPU time (user and system, from getrusage) the
	// whole process used while moves were sent, divided by the moves
	// (student and bot): the command path, the store's client and the
	// driver itself. -1 when the system cannot say.
	CPUPerMove time.Duration
}

// GameMemory is met by a store that can say how many bytes a channel's
// running game takes (redisstore.Redis: MEMORY USAGE of its keys).
type GameMemory interface {
	GameMemory(ctx context.Context, channel string) (int64, error)
}

// Run makes the load cfg describes on st until cfg.Duration has passed or
// ctx ends, and returns what it measured.
func Run(ctx context.Context, cfg Config, st store.Store, reg *rules.Registry) (Result, error) {
	if cfg.Clients < 1 {
		cfg.Clients = 1
	}
	if cfg.Game == "" {
		cfg.Game = "hique"
	}
	if cfg.BotGame == "" {
		cfg.BotGame = "sixes"
	}
	if cfg.BotMoveTime <= 0 {
		cfg.BotMoveTime = time.Second
	}
	if cfg.BotLevel == 0 {
		cfg.BotLevel = 5
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "lt" + strconv.FormatInt(time.Now().UnixMilli()%1e9, 36)
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	d := &driver{cfg: cfg, st: st, reg: reg, botTurns: make(chan string, 4*cfg.Bots+16), bots: map[string]bool{}}
	for i := range cfg.Bots {
		d.bots[d.botChannel(i)] = true
	}
	d.svc = commands.New(commands.Config{BotMoveTime: cfg.BotMoveTime, BotLevel: cfg.BotLevel, Workers: cfg.Workers,
		WorkerName: cfg.Prefix, TableMB: 8, ClockTick: time.Second}, st, reg, d, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapAlloc

	games := make([]*store.Game, cfg.Channels)
	for i := range cfg.Channels {
		g, err := d.startGame(runCtx, d.channel(i))
		if err != nil {
			return Result{}, err
		}
		games[i] = g
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	res := Result{Channels: cfg.Channels, Bots: cfg.Bots, Clients: cfg.Clients, StoreBytesPerGame: -1}
	if n := cfg.Channels; n > 0 {
		res.ProcessBytesPerGame = (int64(ms.HeapAlloc) - int64(heapBefore)) / int64(n)
	}
	if gm, ok := st.(GameMemory); ok && cfg.Channels > 0 {
		var sum, n int64
		for i := 0; i < cfg.Channels; i += max(1, cfg.Channels/100) {
			if b, err := gm.GameMemory(runCtx, d.channel(i)); err == nil {
				sum, n = sum+b, n+1
			}
		}
		if n > 0 {
			res.StoreBytesPerGame = sum / n
		}
	}

	var bg sync.WaitGroup
	bg.Go(func() { d.svc.RunWorkers(runCtx) })
	bg.Go(func() { d.svc.RunClock(runCtx) })
	for range min(cfg.Bots, 8) {
		bg.Go(func() { d.answerBots(runCtx) })
	}
	for i := range cfg.Bots {
		if r := d.svc.Handle(runCtx, commands.Invocation{Guild: cfg.Prefix, Channel: d.botChannel(i), User: d.user(1000000 + i),
			Command: "play", Options: map[string]string{"game": cfg.BotGame, "side": "second", "level": strconv.Itoa(cfg.BotLevel)}}); r.Private {
			return Result{}, fmt.Errorf("start a bot game: %s", r.Text)
		}
	}

	before := st.Stats()
	cpuBefore, cpuOK := processCPU()
	start := time.Now()
	end := start.Add(cfg.Duration)
	lats := make([][]time.Duration, cfg.Clients)
	var clients sync.WaitGroup
	var firstErr atomic.Value
	for c := range min(cfg.Clients, cfg.Channels) {
		clients.Go(func() {
			if err := d.client(runCtx, c, games, end, &lats[c]); err != nil {
				firstErr.CompareAndSwap(nil, err)
				stop()
			}
		})
	}
	progressDone := make(chan struct{})
	go d.progress(start, end, progressDone)
	clients.Wait()
	if cfg.Channels == 0 {
		select {
		case <-time.After(time.Until(end)):
		case <-runCtx.Done():
		}
	}
	close(progressDone)
	res.Elapsed = time.Since(start)
	cpuAfter, cpuOKAfter := processCPU()
	after := st.Stats()
	stop()
	bg.Wait()
	if err, ok := firstErr.Load().(error); ok && err != nil {
		return res, err
	}

	all := slices.Concat(lats...)
	slices.Sort(all)
	res.Moves, res.Refused = d.moves.Load(), d.refused.Load()
	res.MovesPerSec = float64(res.Moves) / res.Elapsed.Seconds()
	if n := len(all); n > 0 {
		res.P50, res.P99, res.Max = all[n/2], all[n*99/100], all[n-1]
	}
	d.mu.Lock()
	late := slices.Clone(d.late)
	d.mu.Unlock()
	slices.Sort(late)
	res.BotMoves = int64(len(late))
	if n := len(late); n > 0 {
		res.BotLateP99, res.BotLateMax = max(late[n*99/100], 0), max(late[n-1], 0)
		for _, l := range late {
			if l > time.Second {
				res.BotOverLimit1s++
			}
		}
	}
	if total := res.Moves + res.BotMoves; total > 0 {
		res.RoundTripsPerMove = float64(after.RoundTrips-before.RoundTrips) / float64(total)
		res.CommandsPerMove = float64(after.Commands-before.Commands) / float64(total)
	}
	res.CPUPerMove = -1
	if total := res.Moves + res.BotMoves; total > 0 && cpuOK && cpuOKAfter {
		res.CPUPerMove = (cpuAfter - cpuBefore) / time.Duration(total)
	}
	return res, nil
}

// driver sends the moves and answers the bot.
type driver struct {
	cfg      Config
	st       store.Store
	reg      *rules.Registry
	svc      *commands.Service
	bots     map[string]bool // read-only once running
	botTurns chan string     // bot channels whose game was posted to
	moves    atomic.Int64
	refused  atomic.Int64
	mu       sync.Mutex
	late     []time.Duration // each bot move's time past its limit
}

func (d *driver) channel(i int) string    { return fmt.Sprintf("%s-%d", d.cfg.Prefix, i) }
func (d *driver) botChannel(i int) string { return fmt.Sprintf("%s-bot-%d", d.cfg.Prefix, i) }
func (d *driver) user(i int) commands.User {
	return commands.User{ID: strconv.Itoa(1000 + i), Name: "student" + strconv.Itoa(i)}
}

// Post receives the service's later messages: for a bot game, it is the
// student's turn to answer (or the game is over).
func (d *driver) Post(_ context.Context, channel string, _ commands.Message) error {
	if d.bots[channel] {
		select {
		case d.botTurns <- channel:
		default:
		}
	}
	return nil
}

// startGame starts a student-vs-student game in channel through
// /referee start, and returns it as stored.
func (d *driver) startGame(ctx context.Context, channel string) (*store.Game, error) {
	a, b := d.user(1), d.user(2)
	r := d.svc.Handle(ctx, commands.Invocation{Guild: d.cfg.Prefix, Channel: channel, User: d.user(0), ManageServer: true,
		Command: "referee", Sub: "start", Options: map[string]string{"game": d.cfg.Game, "p1": a.ID, "p2": b.ID, "time": "1d"},
		Users: map[string]commands.User{"p1": a, "p2": b}})
	if r.Private {
		return nil, fmt.Errorf("start a game in channel %s: %s", channel, r.Text)
	}
	return d.st.Load(ctx, channel)
}

// client sends moves in its share of the channels, round and round, until
// end. It keeps each game as it knows it, so that it needs no read of its
// own to choose a move.
func (d *driver) client(ctx context.Context, c int, games []*store.Game, end time.Time, lats *[]time.Duration) error {
	if c >= len(games) {
		return errors.New("no channel to play in")
	}
	rng := rand.New(rand.NewPCG(uint64(c), 7))
	var list rules.MoveList
	for time.Now().Before(end) && ctx.Err() == nil {
		for i := c; i < len(games) && time.Now().Before(end); i += d.cfg.Clients {
			g := games[i]
			g.State.Moves(&list)
			if list.N == 0 || g.State.Status() != rules.Ongoing {
				n, err := d.restart(ctx, g.Channel)
				if err != nil {
					return err
				}
				games[i] = n
				continue
			}
			m := list.Moves[rng.IntN(list.N)]
			seat := g.State.ToMove()
			inv := commands.Invocation{Guild: d.cfg.Prefix, Channel: g.Channel, User: d.user(1 + int(seat-rules.P1)),
				Command: "move", Options: map[string]string{"move": g.State.FormatMove(m)}}
			t0 := time.Now()
			r := d.svc.Handle(ctx, inv)
			*lats = append(*lats, time.Since(t0))
			if r.Private {
				d.refused.Add(1)
				fresh, err := d.st.Load(ctx, g.Channel)
				if errors.Is(err, store.ErrNotFound) {
					fresh, err = d.restart(ctx, g.Channel)
				}
				if err != nil {
					return fmt.Errorf("reload channel %s after a refused move (%s): %w", g.Channel, r.Text, err)
				}
				games[i] = fresh
				continue
			}
			d.moves.Add(1)
			g.State.Play(m)
		}
	}
	return nil
}

// restart starts a new game in a channel whose game ended.
func (d *driver) restart(ctx context.Context, channel string) (*store.Game, error) {
	return d.startGame(ctx, channel)
}

// answerBots answers each bot move at once with a random legal move, and
// records how late the bot's move was against its limit.
func (d *driver) answerBots(ctx context.Context) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), 9))
	var list rules.MoveList
	for {
		var channel string
		select {
		case <-ctx.Done():
			return
		case channel = <-d.botTurns:
		}
		g, err := d.st.Load(ctx, channel)
		if err != nil || g.Status != store.Active {
			if ctx.Err() == nil && (errors.Is(err, store.ErrNotFound) || err == nil) {
				d.svc.Handle(ctx, commands.Invocation{Guild: d.cfg.Prefix, Channel: channel, User: d.user(7),
					Command: "play", Options: map[string]string{"game": d.cfg.BotGame, "side": "second", "level": strconv.Itoa(d.cfg.BotLevel)}})
			}
			continue
		}
		seat := g.State.ToMove()
		if g.Players[seat].Kind != store.Human || len(g.Moves) == 0 {
			continue
		}
		last := g.Moves[len(g.Moves)-1]
		from := g.Created
		if len(g.Moves) > 1 {
			from = g.Moves[len(g.Moves)-2].At
		}
		d.mu.Lock()
		d.late = append(d.late, last.At.Sub(from)-d.cfg.BotMoveTime)
		d.mu.Unlock()
		g.State.Moves(&list)
		if list.N == 0 {
			continue
		}
		d.svc.Handle(ctx, commands.Invocation{Guild: d.cfg.Prefix, Channel: channel, User: commands.User{ID: g.Players[seat].UserID, Name: g.Players[seat].Name},
			Command: "move", Options: map[string]string{"move": g.State.FormatMove(list.Moves[rng.IntN(list.N)])}})
	}
}

// progress writes a progress line a second until done.
func (d *driver) progress(start, end time.Time, done chan struct{}) {
	if d.cfg.Progress == nil {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-done:
			fmt.Fprintln(d.cfg.Progress)
			return
		case <-t.C:
			el := time.Since(start)
			d.mu.Lock()
			bots := len(d.late)
			d.mu.Unlock()
			fmt.Fprintf(d.cfg.Progress, "\rloadtest: %4.0fs of %.0fs  moves %d (%.0f/s)  bot moves %d  ",
				el.Seconds(), end.Sub(start).Seconds(), d.moves.Load(), float64(d.moves.Load())/el.Seconds(), bots)
		}
	}
}

// Summary is the run's one summary line, naming moves/s and p99.
func (r Result) Summary(storeName string) string {
	mem := "n/a"
	if r.StoreBytesPerGame >= 0 {
		mem = strconv.FormatInt(r.StoreBytesPerGame, 10)
	}
	return fmt.Sprintf("loadtest: store=%s channels=%d bots=%d clients=%d moves=%d refused=%d moves/s=%.0f p50=%s p99=%s max=%s "+
		"bot-moves=%d bot-late-p99=%s bot-late-max=%s bot-over-limit+1s=%d round-trips/move=%.2f commands/move=%.2f "+
		"store-bytes/game=%s process-bytes/game=%d cpu/move=%s",
		storeName, r.Channels, r.Bots, r.Clients, r.Moves, r.Refused, r.MovesPerSec, ms(r.P50), ms(r.P99), ms(r.Max),
		r.BotMoves, ms(r.BotLateP99), ms(r.BotLateMax), r.BotOverLimit1s, r.RoundTripsPerMove, r.CommandsPerMove,
		mem, r.ProcessBytesPerGame, micros(r.CPUPerMove))
}

// micros writes d in whole microseconds ("212µs"), or "n/a" for a
// negative d.
func micros(d time.Duration) string {
	if d < 0 {
		return "n/a"
	}
	return strconv.FormatInt(d.Microseconds(), 10) + "µs"
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + "ms"
}
