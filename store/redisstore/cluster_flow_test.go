package redisstore_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/loadtest"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// TestClusterCommandPath: student games and bot games through the real
// command path on a Redis Cluster with the queue and the deadline index
// in 4 partitions: moves applied, none refused, bot turns played by the
// workers, and every game, running or archived, replays its move list.
func TestClusterCommandPath(t *testing.T) {
	e := &env{t: t, name: "cluster", cluster: sharedCluster(t), reg: games.Registry()}
	s := e.openRedis(func(cfg *store.Config) { cfg.Partitions = 4 })
	ctx := storetest.Context(t)
	res, err := loadtest.Run(ctx, loadtest.Config{Channels: 8, Bots: 2, Clients: 2, Duration: time.Second,
		Game: "hiya", BotGame: "sixes", BotMoveTime: 150 * time.Millisecond, BotLevel: 1, Workers: 2, Prefix: "cl"}, s, e.reg)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Summary("cluster"))
	if res.Moves == 0 || res.Refused != 0 || res.BotMoves == 0 {
		t.Fatalf("%d moves, %d refused, %d bot moves: want moves and bot moves, none refused", res.Moves, res.Refused, res.BotMoves)
	}
	running, err := s.Running(ctx, "cl")
	if err != nil {
		t.Fatal(err)
	}
	archived, total, err := s.Archived(ctx, "cl", 0, store.MaxList)
	if err != nil {
		t.Fatal(err)
	}
	// A game that just ended is archived, and its channel may not have
	// its next game yet.
	if len(running)+int(total) < 8 {
		t.Fatalf("%d games running and %d archived, want at least the 8 student games", len(running), total)
	}
	for _, g := range running {
		storetest.CheckReplays(t, e.reg, g)
	}
	for _, a := range archived {
		g, err := s.LoadArchived(ctx, "cl", a.ID)
		if err != nil {
			t.Fatal(err)
		}
		storetest.CheckReplays(t, e.reg, g)
	}
	t.Logf("%d games running, %d finished and archived", len(running), total)
}

// TestClusterDeadlines: games whose deadlines fall in every partition of
// the index time out through the clock (commands' Tick) on a cluster.
func TestClusterDeadlines(t *testing.T) {
	e := &env{t: t, name: "cluster", cluster: sharedCluster(t), reg: games.Registry()}
	now := time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s := e.openRedis(func(cfg *store.Config) { cfg.Partitions = 4; cfg.Now = clock })
	ctx := storetest.Context(t)
	posts := &postBox{}
	svc := commands.New(commands.Config{}, s, e.reg, posts, slog.New(slog.NewTextHandler(io.Discard, nil)), clock)
	const n = 12
	for i := range n {
		r := svc.Handle(ctx, commands.Invocation{Guild: "dl", Channel: storetest.ChName(i), User: commands.User{ID: "1", Name: "ref"}, ManageServer: true,
			Command: "referee", Sub: "start", Options: map[string]string{"game": "sixes", "p1": "1001", "p2": "1002", "time": "1m"}})
		if r.Private {
			t.Fatalf("start: %s", r.Text)
		}
	}
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := s.Load(ctx, storetest.ChName(i)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("channel %s after its deadline: %v, want its game over and archived", storetest.ChName(i), err)
		}
	}
	if _, total, err := s.Archived(ctx, "dl", 0, 1); err != nil || total != n {
		t.Fatalf("%d games archived (%v), want %d", total, err, n)
	}
	if got := posts.count(); got < n {
		t.Fatalf("%d messages posted, want one a timeout at least (%d)", got, n)
	}
}

// postBox is a commands.Notifier that counts what is posted.
type postBox struct{ n atomic.Int64 }

func (p *postBox) Post(context.Context, string, commands.Message) error { p.n.Add(1); return nil }
func (p *postBox) count() int64                                         { return p.n.Load() }

// TestClusterFailover: students play through the command path on a Redis
// Cluster whose saves wait for a replica (WaitReplicas 1); the master of
// one channel's slot is killed mid-game. Its replica takes over, the
// store reconnects by itself, play goes on in every channel, and every
// move that was acknowledged is in its game afterwards.
func TestClusterFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("the failover takes seconds (Redis's node timeout): run without -short")
	}
	c := redistest.StartCluster(t, redistest.ClusterOptions{AppendOnly: true})
	e := &env{t: t, name: "cluster", cluster: c, reg: games.Registry()}
	s := e.openRedis(func(cfg *store.Config) { cfg.Partitions = 4; cfg.WaitReplicas = 1 })
	ctx := storetest.Context(t)
	svc := commands.New(commands.Config{}, s, e.reg, &postBox{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	const channels = 12
	for i := range channels {
		if r := svc.Handle(ctx, commands.Invocation{Guild: "fo", Channel: storetest.ChName(i), User: commands.User{ID: "1", Name: "ref"}, ManageServer: true,
			Command: "referee", Sub: "start", Options: map[string]string{"game": "hique", "p1": "1001", "p2": "1002", "time": "1d"}}); r.Private {
			t.Fatalf("start: %s", r.Text)
		}
	}
	victim, err := c.MasterOf(redisstore.GameKey(storetest.ChName(0)))
	if err != nil {
		t.Fatal(err)
	}

	type ack struct {
		ply  int
		text string
	}
	acked := make([][]ack, channels)
	var afterKill [channels]atomic.Int64
	var killed atomic.Bool
	var lastTrouble atomic.Value // of channel 0, for the failure message
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range channels {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 3))
			var g *store.Game
			var list rules.MoveList
			for {
				select {
				case <-stop:
					return
				default:
				}
				if g == nil {
					fresh, err := s.Load(ctx, storetest.ChName(i))
					if err != nil {
						if i == 0 {
							lastTrouble.Store("load: " + err.Error())
						}
						time.Sleep(50 * time.Millisecond) // its master is down: wait for the failover
						continue
					}
					g = fresh
				}
				if g.Status != store.Active {
					return
				}
				g.State.Moves(&list)
				if list.N == 0 || g.State.Status() != rules.Ongoing {
					return
				}
				m := list.Moves[rng.IntN(list.N)]
				text := g.State.FormatMove(m)
				user := "1001"
				if g.State.ToMove() == rules.P2 {
					user = "1002"
				}
				r := svc.Handle(ctx, commands.Invocation{Guild: "fo", Channel: storetest.ChName(i), User: commands.User{ID: user, Name: user},
					Command: "move", Options: map[string]string{"move": text}})
				if r.Private {
					if i == 0 {
						lastTrouble.Store("move: " + r.Text)
					}
					g = nil // refused or unknown: read the game again
					continue
				}
				acked[i] = append(acked[i], ack{g.State.Ply(), text})
				if killed.Load() {
					afterKill[i].Add(1)
				}
				g.State.Play(m)
				g.Moves = append(g.Moves, store.Move{Text: text})
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	time.Sleep(time.Second)
	if err := c.Kill(victim); err != nil {
		t.Fatal(err)
	}
	killed.Store(true)
	deadline := time.Now().Add(storetest.HangBound)
	for time.Now().Before(deadline) && afterKill[0].Load() < 5 {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	if afterKill[0].Load() == 0 {
		t.Fatalf("no move applied in channel %s after its master %s was killed (last: %v)", storetest.ChName(0), victim, lastTrouble.Load())
	}
	archived, _, err := s.Archived(ctx, "fo", 0, store.MaxList)
	if err != nil {
		t.Fatal(err)
	}
	for i := range channels {
		g, err := s.Load(ctx, storetest.ChName(i))
		if errors.Is(err, store.ErrNotFound) { // the game is over: in the archive
			for _, a := range archived {
				if a.Channel == storetest.ChName(i) {
					g, err = s.LoadArchived(ctx, "fo", a.ID)
				}
			}
		}
		if err != nil {
			t.Fatalf("channel %s after the failover: %v", storetest.ChName(i), err)
		}
		for _, a := range acked[i] {
			if a.ply >= len(g.Moves) || g.Moves[a.ply].Text != a.text {
				t.Errorf("channel %s: acknowledged move %d (%s) is not in the game after the failover (%d moves stored)",
					storetest.ChName(i), a.ply+1, a.text, len(g.Moves))
			}
		}
		storetest.CheckReplays(t, e.reg, g)
	}
	var total int
	for i := range channels {
		total += len(acked[i])
	}
	t.Logf("killed %s; %d moves acknowledged, %d in channel %s after the kill", victim, total, afterKill[0].Load(), storetest.ChName(0))
}
