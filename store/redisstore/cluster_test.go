package redisstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// shared is the package's one Redis Cluster, started by the first test
// that needs it and stopped by TestMain: starting a cluster takes seconds.
var shared struct {
	once    sync.Once
	cluster *redistest.Cluster
	err     error
}

// sharedCluster returns the package's cluster with every master flushed
// (no two tests use it at once: tests on it are not parallel).
func sharedCluster(t *testing.T) *redistest.Cluster {
	t.Helper()
	redistest.SkipWithoutCluster(t)
	shared.once.Do(func() { shared.cluster, shared.err = redistest.NewCluster(redistest.ClusterOptions{}) })
	if shared.err != nil {
		t.Fatalf("start the shared Redis Cluster: %v", shared.err)
	}
	if err := shared.cluster.FlushAll(context.Background()); err != nil {
		t.Fatalf("flush the shared Redis Cluster: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the shared cluster's logs:\n%s", shared.cluster.Logs())
		}
	})
	return shared.cluster
}

// closeShared stops the shared cluster, if it was started.
func closeShared() {
	if shared.cluster != nil {
		shared.cluster.Close()
	}
}

// slotWatch is a go-redis hook that records every command the store
// sends, so that a test can ask the cluster which slots each touches.
type slotWatch struct {
	mu   sync.Mutex
	cmds [][]any
}

func (w *slotWatch) DialHook(next redis.DialHook) redis.DialHook { return next }

func (w *slotWatch) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		w.record(cmd)
		return next(ctx, cmd)
	}
}

func (w *slotWatch) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			w.record(c)
		}
		return next(ctx, cmds)
	}
}

func (w *slotWatch) record(cmd redis.Cmder) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cmds = append(w.cmds, slices.Clone(cmd.Args()))
}

// TestClusterOneSlotPerCommand: every command and script the store sends
// (games played to the end and archived, the queue, the clock's index,
// ratings, settings, locks, quarantine, listings) touches one hash slot,
// as the cluster itself (COMMAND GETKEYS, CLUSTER KEYSLOT) says. A
// command that named keys of two slots would fail on a cluster with
// CROSSSLOT; this test names it.
func TestClusterOneSlotPerCommand(t *testing.T) {
	c := sharedCluster(t)
	e := &env{t: t, name: "cluster", cluster: c, reg: games.Registry()}
	s := e.openRedis(func(cfg *store.Config) { cfg.Partitions = 4 })
	watch := &slotWatch{}
	s.Raw().AddHook(watch)
	ctx := storetest.Context(t)
	rng := rand.New(rand.NewPCG(11, 12))

	// Games played to their end: create, load, save, archive.
	for i, name := range storetest.GameNames {
		g := storetest.NewGame(t, e.reg, name, storetest.ChName(i), "7")
		g.Deadline = time.Now().Add(time.Hour)
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		id, err := s.EnqueueBotTurn(ctx, g)
		if err != nil || id == "" {
			t.Fatal(err)
		}
		job, err := s.ClaimBotTurn(ctx, "w", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ExtendBotTurn(ctx, "w", job); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LoadForJob(ctx, job); err != nil {
			t.Fatal(err)
		}
		if err := s.AckBotTurn(ctx, job); err != nil {
			t.Fatal(err)
		}
		for n := 0; g.Status == store.Active && n < 400; n++ {
			if !storetest.PlayRandom(g, rng, "1001") {
				break
			}
			g.Deadline = time.Now().Add(time.Hour)
			if err := s.Save(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.Due(ctx, time.Now().Add(2*time.Hour), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Running(ctx, "7"); err != nil {
		t.Fatal(err)
	}
	list, _, err := s.Archived(ctx, "7", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list {
		if _, err := s.LoadArchived(ctx, "7", a.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.UpdateRatings(ctx, "7", "hique", "r1", []string{"1001", "1002"}, func(cur []store.Rating) ([]store.Rating, error) {
		for i := range cur {
			cur[i].Games++
		}
		return cur, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Leaderboard(ctx, "7", "hique", 0, 10); err != nil {
		t.Fatal(err)
	}
	if err := s.SetChannelSetting(ctx, "9", "board", "emoji"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelSetting(ctx, "9", "board"); err != nil {
		t.Fatal(err)
	}
	lock, err := s.TryLock(ctx, "clock", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := lock.Renew(ctx); err != nil {
		t.Fatal(err)
	}
	if err := lock.Release(ctx); err != nil {
		t.Fatal(err)
	}
	q := storetest.NewGame(t, e.reg, "hiya", "99", "7")
	if err := s.Create(ctx, q); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Quarantine(ctx, "99"); err != nil {
		t.Fatal(err)
	}

	// Ask the cluster about every command sent.
	node := redis.NewClient(&redis.Options{Addr: c.Addrs()[0]})
	defer node.Close()
	watch.mu.Lock()
	cmds := slices.Clone(watch.cmds)
	watch.mu.Unlock()
	seen := map[string]bool{}
	checked := 0
	for _, args := range cmds {
		name := strings.ToLower(fmt.Sprint(args[0]))
		keys, err := node.CommandGetKeys(ctx, args...).Result()
		if err != nil || len(keys) < 2 {
			continue // no keys, or one: one slot
		}
		slots := map[int64]bool{}
		for _, k := range keys {
			slot, err := node.ClusterKeySlot(ctx, k).Result()
			if err != nil {
				t.Fatal(err)
			}
			slots[slot] = true
		}
		checked++
		seen[name] = true
		if len(slots) != 1 {
			t.Errorf("%s touches %d slots: keys %v", name, len(slots), keys)
		}
	}
	if !seen["evalsha"] && !seen["eval"] {
		t.Fatalf("no multi-key script was checked (%d multi-key commands seen: %v)", checked, seen)
	}
	t.Logf("%d commands sent, %d multi-key commands checked: %v", len(cmds), checked, seen)
}

// forEachRedis runs test against a real redis-server and the shared Redis
// Cluster: for what is Redis's own (its keys, its scripts).
func forEachRedis(t *testing.T, test func(t *testing.T, e *env)) {
	t.Helper()
	t.Run("redis", func(t *testing.T) {
		test(t, &env{t: t, name: "redis", srv: redistest.Start(t, redistest.Options{}), reg: games.Registry()})
	})
	t.Run("cluster", func(t *testing.T) {
		test(t, &env{t: t, name: "cluster", cluster: sharedCluster(t), reg: games.Registry()})
	})
}

// TestClusterClientBudgets: a cluster's client gets the dial and retry
// budgets one Redis's client gets where the URL sets none, so that a node
// that is down fails an operation after one dial on either.
func TestClusterClientBudgets(t *testing.T) {
	reg := games.Registry()
	single := (&env{t: t, srv: redistest.Start(t, redistest.Options{}), reg: reg}).openRedis()
	cluster := (&env{t: t, cluster: sharedCluster(t), reg: reg}).openRedis()
	o := single.Raw().(*redis.Client).Options()
	co := cluster.Raw().(*redis.ClusterClient).Options()
	got := []time.Duration{co.DialTimeout, time.Duration(co.DialerRetries), time.Duration(co.MaxRetries), co.ReadTimeout}
	want := []time.Duration{o.DialTimeout, time.Duration(o.DialerRetries), time.Duration(o.MaxRetries), o.ReadTimeout}
	if !slices.Equal(got, want) || o.DialerRetries != 1 {
		t.Errorf("cluster client: dial timeout, dialer retries, retries, read timeout %v; one Redis's %v, with 1 dialer retry", got, want)
	}
}
