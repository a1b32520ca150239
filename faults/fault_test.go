package faults_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// TestKilledMidThink: the process thinking about a bot turn (a worker, or
// the bot process with its own workers) is SIGKILLed mid-think; another
// process (under another name) takes the turn over, and the bot's move is
// played and announced exactly once.
func TestKilledMidThink(t *testing.T) {
	for _, role := range []string{"worker", "bot"} {
		t.Run(role, func(t *testing.T) {
			w := newWorld(t)
			front := w.start("front", "bot", 0)
			thinker := w.start("thinker", role, 1, "BOT_MOVE_TIME=3s")
			front.ok("k", "ann", "/play game:sixes level:5 side:second")
			waitFor(t, "the bot turn to be taken up", 10*time.Second, func() bool {
				n, _ := w.rdb.HLen(context.Background(), "{arbiter}:attempts").Result()
				return n > 0
			})
			time.Sleep(300 * time.Millisecond) // mid-think
			thinker.kill()
			w.start("other", role, 1, "BOT_MOVE_TIME=300ms")
			waitFor(t, "the bot's move", 20*time.Second, func() bool {
				g := w.game("k")
				return g != nil && len(g.Moves) == 1
			})
			time.Sleep(time.Second) // room for a second (wrong) move or post
			if g := w.game("k"); len(g.Moves) != 1 {
				t.Fatalf("%d moves after one bot turn", len(g.Moves))
			}
			if n := w.sink.count("k", "plays"); n != 1 {
				t.Fatalf("the bot's move was announced %d times, want 1", n)
			}
		})
	}
}

// TestKilledBetweenGameOverAndAnnouncement: every process is SIGKILLed
// while the loss on time is being announced (the game is saved over);
// after a restart the game is archived, rated and announced exactly once.
func TestKilledBetweenGameOverAndAnnouncement(t *testing.T) {
	w := newWorld(t)
	w.sink.holdPosts("did not move in time")
	bot := w.start("bot", "bot", 0, "TURN_TIME=1s")
	bot.ok("o", "ann", "/play game:hique opponent:bob")
	bot.ok("o", "bob", "/accept")
	select {
	case <-w.sink.held:
	case <-time.After(20 * time.Second):
		t.Fatal("the loss on time was never announced")
	}
	bot.kill() // between the game over (saved) and its announcement
	w.sink.holdPosts("")
	if g := w.game("o"); g != nil && g.Status == store.Active {
		t.Fatal("the game is not over before the announcement")
	}
	w.start("bot2", "bot", 0, "TURN_TIME=1s")
	waitFor(t, "the announcement after the restart", 20*time.Second, func() bool { return w.sink.count("o", "did not move in time") > 0 })
	time.Sleep(1500 * time.Millisecond) // a sweep or two more
	if n := w.sink.count("o", "did not move in time"); n != 1 {
		t.Fatalf("announced %d times, want 1", n)
	}
	ctx := context.Background()
	r, err := w.st.Ratings(ctx, "guild1", "hique", "ann", "bob")
	if err != nil || r[0].Games != 1 || r[1].Games != 1 {
		t.Fatalf("ratings: %+v, %v; want one rated game each", r, err)
	}
	list, total, err := w.st.Archived(ctx, "guild1", 0, 10)
	if err != nil || total != 1 || len(list) != 1 {
		t.Fatalf("archive: %d entries (%d), %v; want 1", len(list), total, err)
	}
}

// TestOutageWithDeadlines: the process taking commands is down (SIGKILL)
// for longer than a player's whole turn while a worker's clock keeps
// ticking; nobody loses on time, and when a bot process is back the turn's
// clock is given the outage's time and the channel told once. The full run
// has a 60 s outage; -short a 5 s one.
func TestOutageWithDeadlines(t *testing.T) {
	outage, turn := 60*time.Second, 20*time.Second
	if testing.Short() {
		outage, turn = 5*time.Second, 3*time.Second
	}
	w := newWorld(t)
	tt := "TURN_TIME=" + turn.String()
	bot := w.start("bot", "bot", 0, tt)
	w.start("w1", "worker", 1, tt)
	bot.ok("d", "ann", "/play game:hique opponent:bob")
	bot.ok("d", "bob", "/accept")
	due := w.game("d").Deadline
	bot.kill()
	time.Sleep(outage)
	if g := w.game("d"); g == nil || g.Status != store.Active {
		t.Fatal("a player lost on time while Arbiter was down")
	}
	bot = w.start("bot2", "bot", 0, tt)
	waitFor(t, "the channel told of the outage", 10*time.Second, func() bool { return w.sink.count("d", "was offline for") > 0 })
	g := w.game("d")
	if g == nil || g.Status != store.Active {
		t.Fatal("a player lost on time right after the outage")
	}
	if gave := g.Deadline.Sub(due); gave < outage-2*time.Second || gave > outage+5*time.Second {
		t.Fatalf("the deadline moved by %v for an outage of %v", gave, outage)
	}
	bot.ok("d", "ann", "/board") // the bot answers again
	time.Sleep(time.Second)
	if n := w.sink.count("d", "was offline for"); n != 1 {
		t.Fatalf("told %d times, want 1", n)
	}
}

// TestRedisPaused: Redis stops answering (SIGSTOP) for 5 s, longer than a
// player's turn; nobody loses on time and the turn gets the time back.
func TestRedisPaused(t *testing.T) {
	w := newWorld(t)
	bot := w.start("bot", "bot", 0, "TURN_TIME=3s")
	w.start("w1", "worker", 1, "TURN_TIME=3s")
	bot.ok("p", "ann", "/play game:hique opponent:bob")
	bot.ok("p", "bob", "/accept")
	w.redis.Pause()
	time.Sleep(5 * time.Second)
	w.redis.Resume()
	waitFor(t, "the channel told of the outage", 10*time.Second, func() bool { return w.sink.count("p", "was offline for") > 0 })
	if g := w.game("p"); g == nil || g.Status != store.Active {
		t.Fatal("a player lost on time while Redis was paused")
	}
	time.Sleep(time.Second)
	if n := w.sink.count("p", "was offline for"); n != 1 {
		t.Fatalf("told %d times, want 1", n)
	}
}

// TestRedisKilledMidStream: players keep sending moves, through two
// processes, while redis-server (append-only file, fsync always) is
// SIGKILLed and restarted; every move that was acknowledged is in its game
// afterwards, in its place, and no reply said "nothing was changed" of a
// move that was kept.
func TestRedisKilledMidStream(t *testing.T) {
	w := newWorld(t)
	const channels = 3
	procs := make([]*proc, channels)
	for c := range channels {
		procs[c] = w.start(fmt.Sprintf("b%d", c), "bot", 0)
		ch := fmt.Sprintf("m%d", c)
		procs[c].ok(ch, "ann", "/play game:hique opponent:bob options:rated=off")
		procs[c].ok(ch, "bob", "/accept")
	}
	moves := 300
	if testing.Short() {
		moves = 120
	}
	var sent atomic.Int64
	type result struct {
		acked            map[int]string // ply -> the acknowledged move
		unknown, refused int
		said             map[int]string // ply -> a move refused with "nothing was changed"
	}
	results := make([]result, channels)
	var wg sync.WaitGroup
	for c := range channels {
		wg.Go(func() {
			ch := fmt.Sprintf("m%d", c)
			rng := rand.New(rand.NewPCG(uint64(c), 11))
			r := result{acked: map[int]string{}, said: map[int]string{}}
			defer func() { results[c] = r }()
			for range moves {
				g := w.loadRetrying(ch)
				if g == nil || g.Status != store.Active {
					return
				}
				var list rules.MoveList
				g.State.Moves(&list)
				move := g.State.FormatMove(list.Moves[rng.IntN(list.N)])
				user := "ann"
				if g.State.ToMove() == rules.P2 {
					user = "bob"
				}
				a := procs[c].do(ch, user, "/move "+move)
				sent.Add(1)
				switch {
				case !a.Private:
					r.acked[len(g.Moves)] = move
				case strings.Contains(a.Text, "unknown"):
					r.unknown++
				default:
					r.refused++
					if strings.Contains(a.Text, "nothing was changed") && !strings.Contains(a.Text, "moved on") {
						r.said[len(g.Moves)] = move
					}
				}
			}
		})
	}
	waitFor(t, "the stream of moves", 20*time.Second, func() bool { return sent.Load() >= int64(moves*channels/4) })
	w.redis.Kill() // mid-stream
	time.Sleep(500 * time.Millisecond)
	w.redis.Restart()
	wg.Wait()
	same := func(a, b string) bool {
		return strings.EqualFold(strings.ReplaceAll(a, " ", ""), strings.ReplaceAll(b, " ", ""))
	}
	acked, unknown, refused := 0, 0, 0
	for c, r := range results {
		g := w.loadRetrying(fmt.Sprintf("m%d", c))
		if g == nil {
			continue
		}
		for ply, m := range r.acked {
			if ply >= len(g.Moves) || !same(g.Moves[ply].Text, m) {
				t.Errorf("game %d: the acknowledged move %d (%s) is not in the game (%d moves)", c, ply+1, m, len(g.Moves))
			}
		}
		for ply, m := range r.said {
			if _, later := r.acked[ply]; !later && ply < len(g.Moves) && same(g.Moves[ply].Text, m) {
				t.Errorf("game %d: move %d (%s) was kept though the player was told nothing changed", c, ply+1, m)
			}
		}
		acked, unknown, refused = acked+len(r.acked), unknown+r.unknown, refused+r.refused
	}
	t.Logf("%d moves acknowledged, %d with an unknown outcome, %d refused", acked, unknown, refused)
}

// archived returns the game last archived from channel, or nil.
func (w *world) archived(channel string) *store.Game {
	list, _, err := w.st.Archived(context.Background(), "guild1", 0, store.MaxList)
	if err != nil {
		return nil
	}
	for _, sum := range list {
		if sum.Channel == channel {
			g, err := w.st.LoadArchived(context.Background(), "guild1", sum.ID)
			if err == nil {
				return g
			}
		}
	}
	return nil
}

// loadRetrying loads the game in channel (or, once over, its archived
// record), waiting for Redis to be back.
func (w *world) loadRetrying(channel string) *store.Game {
	var err error
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		var g *store.Game
		g, err = w.st.Load(context.Background(), channel)
		if err == nil {
			return g
		}
		if errors.Is(err, store.ErrNotFound) {
			return w.archived(channel)
		}
	}
	w.t.Errorf("channel %s: the store did not come back: %v", channel, err)
	return nil
}

// TestTwoBotsTwoWorkers: two processes taking commands and two worker
// processes on one Redis; people play against the bot through either; every
// bot turn is played and announced exactly once.
func TestTwoBotsTwoWorkers(t *testing.T) {
	w := newWorld(t)
	bots := []*proc{w.start("b1", "bot", 1), w.start("b2", "bot", 1)}
	w.start("w1", "worker", 1)
	w.start("w2", "worker", 1)
	games, plies := 6, 8
	if testing.Short() {
		games, plies = 4, 6
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range games {
		bots[i%2].ok(fmt.Sprintf("t%d", i), "ann", "/play game:sixes level:1 options:rated=off")
	}
	for round := 0; round < plies; round++ {
		for i := range games {
			ch := fmt.Sprintf("t%d", i)
			var g *store.Game
			waitFor(t, "the bot's move in "+ch, 20*time.Second, func() bool {
				g = w.game(ch)
				return g == nil || g.Status != store.Active || g.Players[g.State.ToMove()].Kind == store.Human
			})
			if g == nil || g.Status != store.Active {
				continue
			}
			var list rules.MoveList
			g.State.Moves(&list)
			bots[rng.IntN(2)].ok(ch, "ann", "/move "+g.State.FormatMove(list.Moves[rng.IntN(list.N)]))
		}
	}
	time.Sleep(time.Second)
	total := 0
	for i := range games {
		ch := fmt.Sprintf("t%d", i)
		g := w.game(ch)
		if g == nil {
			continue // finished: archived
		}
		total += len(g.Moves)
		botMoves := 0
		for _, m := range g.Moves {
			if g.Players[m.Seat].Kind == store.Bot {
				botMoves++
			}
		}
		if n := w.sink.count(ch, "plays **"); n != botMoves {
			t.Errorf("channel %s: %d bot moves but %d announced", ch, botMoves, n)
		}
		if g.Version < int64(len(g.Moves))+1 {
			t.Errorf("channel %s: version %d after %d moves", ch, g.Version, len(g.Moves))
		}
	}
	if total < games*plies {
		t.Fatalf("%d moves in %d games, want at least %d", total, games, games*plies)
	}
	t.Logf("%d moves in %d games, through 2 bot and 2 worker processes", total, games)
}
