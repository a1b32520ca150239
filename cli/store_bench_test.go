package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/open"
	"arbiter/store/redistest"
)

// BenchmarkMoveArchive measures `/move` through commands (parse, load,
// rules, compare-and-set, reply with the board) on each backend with 0,
// 10,000 and 100,000 archived games in the guild: the median and 99th
// percentile latency per move, and the bytes each archived game takes in
// the database file (embedded) or in Redis's memory (used_memory), plus
// the Go heap per archived game. Two people play sixes in 8 channels; a
// game that ends is replaced. The embedded store commits and fsyncs every
// move; Redis runs with appendfsync always, its durable setting. Between
// moves (untimed) a syncProbe times the bare disk doing what one bbolt
// commit does, so each figure comes with the disk's own at the same time
// (disk-p50-µs, disk-p99-µs).
//
//	go test -run '^$' -bench 'BenchmarkMoveArchive$' -benchtime 3000x -timeout 30m .
func BenchmarkMoveArchive(b *testing.B) {
	for _, archived := range []int{0, 10_000, 100_000} {
		b.Run(fmt.Sprintf("embedded/archived=%d", archived), func(b *testing.B) {
			dir := b.TempDir()
			benchArchive(b, store.Config{DataDir: dir}, archived, func() float64 {
				fi, err := os.Stat(filepath.Join(dir, boltstore.DatabaseFile))
				if err != nil {
					b.Fatal(err)
				}
				return float64(fi.Size())
			})
		})
		b.Run(fmt.Sprintf("redis-aof-always/archived=%d", archived), func(b *testing.B) {
			srv := redistest.Start(b, redistest.Options{TCP: true, AppendOnly: true})
			opts, _ := redis.ParseURL(srv.URL())
			rdb := redis.NewClient(opts)
			defer rdb.Close()
			benchArchive(b, store.Config{RedisURL: srv.URL()}, archived, func() float64 {
				info, err := rdb.InfoMap(context.Background(), "memory").Result()
				if err != nil {
					b.Fatal(err)
				}
				n, err := strconv.ParseInt(info["Memory"]["used_memory"], 10, 64)
				if err != nil {
					b.Fatal(err)
				}
				return float64(n)
			})
		})
	}
}

// benchArchive fills the store of cfg with archived games, then plays
// b.N moves; size measures the backend's bytes.
func benchArchive(b *testing.B, cfg store.Config, archived int, size func() float64) {
	heap0, size0 := heapBytes(), 0.0
	m := newMover(b, cfg, archived, func() { size0 = size() })
	defer m.close()
	disk := newSyncProbe(b)
	perGame := func(now, before float64) float64 { return (now - before) / float64(max(archived, 1)) }
	sizeN, heapN := size(), heapBytes()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		lat = append(lat, m.move())
		disk.commit()
	}
	b.StopTimer()
	reportLatency(b, lat, "")
	reportLatency(b, disk.lat, "disk-")
	if archived > 0 {
		b.ReportMetric(perGame(sizeN, size0), "bytes/archived")
		b.ReportMetric(perGame(heapN, heap0), "heap-bytes/archived")
	}
}

// BenchmarkMoveArchivePaired plays moves alternately on two embedded
// stores, one empty and one with 100,000 archived games, so that both see
// the same machine load: the ratio of their percentiles is how the move's
// cost grows with the archive, whatever else the machine is doing.
//
//	go test -run '^$' -bench BenchmarkMoveArchivePaired -benchtime 3000x -timeout 30m .
func BenchmarkMoveArchivePaired(b *testing.B) {
	empty := newMover(b, store.Config{DataDir: b.TempDir()}, 0, nil)
	defer empty.close()
	full := newMover(b, store.Config{DataDir: b.TempDir()}, 100_000, nil)
	defer full.close()
	disk := newSyncProbe(b)
	lat0 := make([]time.Duration, 0, b.N)
	latN := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		lat0 = append(lat0, empty.move())
		latN = append(latN, full.move())
		disk.commit()
	}
	b.StopTimer()
	reportLatency(b, disk.lat, "disk-")
	p50a, p99a := reportLatency(b, lat0, "empty-")
	p50b, p99b := reportLatency(b, latN, "100k-")
	b.ReportMetric(p50b/p50a, "p50-ratio")
	b.ReportMetric(p99b/p99a, "p99-ratio")
}

// syncProbe times the bare disk doing what one bbolt commit does: 16 KiB
// of pages written in place and synced, then a 4 KiB meta page written and
// synced. Its percentiles are the floor under a move's at the same moment.
// It runs after every fourth move, so as to add little to the disk's load.
type syncProbe struct {
	b     *testing.B
	f     *os.File
	buf   []byte
	lat   []time.Duration
	calls int
}

func newSyncProbe(b *testing.B) *syncProbe {
	f, err := os.Create(filepath.Join(b.TempDir(), "sync-probe"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = f.Close() })
	p := &syncProbe{b: b, f: f, buf: make([]byte, 256<<10)}
	if _, err := f.WriteAt(p.buf, 0); err != nil { // every block written once: the commits overwrite
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	return p
}

// commit does one commit's writes and syncs (at every fourth call),
// untimed by the benchmark.
func (p *syncProbe) commit() {
	if p.calls++; p.calls%4 != 1 {
		return
	}
	p.b.StopTimer()
	defer p.b.StartTimer()
	n := len(p.lat)
	t0 := time.Now()
	_, err := p.f.WriteAt(p.buf[:16<<10], int64(8192+(n%14)*(16<<10)))
	if err == nil {
		err = p.f.Sync()
	}
	if err == nil {
		_, err = p.f.WriteAt(p.buf[:4096], int64(n%2)*4096)
	}
	if err == nil {
		err = p.f.Sync()
	}
	if err != nil {
		p.b.Fatal(err)
	}
	p.lat = append(p.lat, time.Since(t0))
}

// reportLatency reports the median and 99th percentile of lat, in µs,
// and returns them.
func reportLatency(b *testing.B, lat []time.Duration, prefix string) (p50, p99 float64) {
	slices.Sort(lat)
	p := func(q float64) float64 { return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))]) / 1e3 }
	p50, p99 = p(0.50), p(0.99)
	b.ReportMetric(p50, prefix+"p50-µs")
	b.ReportMetric(p99, prefix+"p99-µs")
	return p50, p99
}

// mover plays /move through commands on one store, two people in 8
// channels of sixes, starting a new game where one ends.
type mover struct {
	b     *testing.B
	ctx   context.Context
	st    store.Store
	svc   *commands.Service
	specs []commands.CommandSpec
	rng   *rand.Rand
	i     int
}

const moverChannels = 8

// newMover opens the store of cfg, files archived games in it (calling
// before first, when set) and starts the games.
func newMover(b *testing.B, cfg store.Config, archived int, before func()) *mover {
	ctx := context.Background()
	reg := games.Registry()
	cfg.Registry, cfg.Logger = reg, slog.New(slog.DiscardHandler)
	st, err := open.Store(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if before != nil {
		before()
	}
	if archived > 0 {
		fillArchive(b, st, reg, archived)
	}
	m := &mover{b: b, ctx: ctx, st: st, svc: commands.New(commands.Config{}, st, reg, discard{}, cfg.Logger, nil),
		specs: commands.CommandSet(reg.Names()), rng: rand.New(rand.NewPCG(1, 2))}
	for c := range moverChannels {
		m.start("ch" + strconv.Itoa(c))
	}
	return m
}

func (m *mover) close() { _ = m.st.Close(m.ctx) }

// handle answers one command line of user in channel.
func (m *mover) handle(channel, user, line string) commands.Reply {
	inv, err := commands.ParseLine(line, m.specs)
	if err != nil {
		m.b.Fatalf("%s: %v", line, err)
	}
	inv.Guild, inv.Channel, inv.User = "bench", channel, commands.User{ID: user, Name: user}
	inv.Users = map[string]commands.User{}
	if v, ok := inv.Options["opponent"]; ok {
		inv.Users["opponent"] = commands.User{ID: v, Name: v}
	}
	return m.svc.Handle(m.ctx, inv)
}

// start starts a game between alice and bob in ch.
func (m *mover) start(ch string) {
	if r := m.handle(ch, "alice", "/play game:sixes opponent:bob"); r.Private {
		m.b.Fatalf("play: %s", r.Text)
	}
	if r := m.handle(ch, "bob", "/accept"); r.Private {
		m.b.Fatalf("accept: %s", r.Text)
	}
}

// move plays a random legal move in the next channel and returns how long
// the /move took; choosing the move and replacing a finished game are
// not timed.
func (m *mover) move() time.Duration {
	b := m.b
	ch := "ch" + strconv.Itoa(m.i%moverChannels)
	m.i++
	b.StopTimer()
	g, err := m.st.Load(m.ctx, ch)
	if err != nil {
		b.Fatal(err)
	}
	var list rules.MoveList
	g.State.Moves(&list)
	text := g.State.FormatMove(list.Moves[m.rng.IntN(list.N)])
	user := g.Players[g.State.ToMove()].UserID
	b.StartTimer()
	t0 := time.Now()
	r := m.handle(ch, user, "/move "+text)
	d := time.Since(t0)
	b.StopTimer()
	if r.Private {
		b.Fatalf("move %s by %s: %s", text, user, r.Text)
	}
	if _, err := m.st.Load(m.ctx, ch); err != nil { // the game ended: a new one
		m.start(ch)
	}
	b.StartTimer()
	return d
}

// fillArchive files n finished games in guild "bench" through the store's
// import path (many per transaction), copies of one real finished game.
func fillArchive(b *testing.B, st store.Store, reg *rules.Registry, n int) {
	ctx := context.Background()
	rec := recordOf(b, finishedGame(b, reg))
	p := st.(store.Porter)
	batch := make([]store.Item, 0, 512)
	for i := 1; i <= n; i++ {
		id := strconv.Itoa(i)
		rec["id"] = id
		rec["finished"] = time.Unix(1_700_000_000+int64(i), 0).UTC()
		data, err := json.Marshal(rec)
		if err != nil {
			b.Fatal(err)
		}
		batch = append(batch, store.Item{Type: "archived", Guild: "bench", ID: id, Record: data})
		if len(batch) == cap(batch) || i == n {
			if err := p.Put(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := p.Put(ctx, []store.Item{{Type: "sequence", Guild: "bench", Next: uint64(n)}}); err != nil {
		b.Fatal(err)
	}
}

// finishedGame plays a random game of sixes to its end (or 60 moves),
// as the archive holds them.
func finishedGame(b *testing.B, reg *rules.Registry) *store.Game {
	state, err := reg.New("sixes", nil)
	if err != nil {
		b.Fatal(err)
	}
	g := &store.Game{Channel: "ch0", Guild: "bench", Name: "sixes", Options: state.Options(), State: state, Status: store.Finished,
		Players: [2]store.Player{{Kind: store.Human, UserID: "alice", Name: "alice"}, {Kind: store.Human, UserID: "bob", Name: "bob"}},
		Version: 1, Created: time.Unix(1_700_000_000, 0).UTC(), Updated: time.Unix(1_700_000_000, 0).UTC(), Result: rules.Draw, Reason: "agreed"}
	rng := rand.New(rand.NewPCG(3, 4))
	for len(g.Moves) < 60 && state.Status() == rules.Ongoing {
		var list rules.MoveList
		state.Moves(&list)
		m := list.Moves[rng.IntN(list.N)]
		g.Moves = append(g.Moves, store.Move{Text: state.FormatMove(m), Seat: state.ToMove(), By: "alice", At: g.Created})
		state.Play(m)
		g.Version++
	}
	return g
}

// recordOf returns g's archive record as the store writes it: archived
// in a scratch embedded store and exported from there.
func recordOf(b *testing.B, g *store.Game) map[string]any {
	ctx := context.Background()
	st, err := open.Store(ctx, store.Config{DataDir: b.TempDir(), Registry: games.Registry(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close(ctx)
	g.ID = "1"
	if err := st.Archive(ctx, g); err != nil {
		b.Fatal(err)
	}
	var rec map[string]any
	err = st.(store.Porter).Walk(ctx, func(it store.Item) error {
		if it.Type == "archived" {
			return json.Unmarshal(it.Record, &rec)
		}
		return nil
	})
	if err != nil || rec == nil {
		b.Fatalf("the scratch archive: %v", err)
	}
	return rec
}

func heapBytes() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}

// discard is a Notifier that drops what it is given.
type discard struct{}

func (discard) Post(context.Context, string, commands.Message) error { return nil }
