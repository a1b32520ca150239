package redisstore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/storetest"
)

// dieAfterSave is a go-redis hook that stands in for a process killed
// right after its compare-and-set reached Redis: once armed, the first
// script (the save) goes through, and nothing after it reaches Redis.
type dieAfterSave struct {
	armed, dead atomic.Bool
}

var errKilled = errors.New("the process was killed")

func (d *dieAfterSave) DialHook(next redis.DialHook) redis.DialHook { return next }

func (d *dieAfterSave) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if d.dead.Load() {
			cmd.SetErr(errKilled)
			return errKilled
		}
		err := next(ctx, cmd)
		d.after([]redis.Cmder{cmd})
		return err
	}
}

func (d *dieAfterSave) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if d.dead.Load() {
			for _, c := range cmds {
				c.SetErr(errKilled)
			}
			return errKilled
		}
		err := next(ctx, cmds)
		d.after(cmds)
		return err
	}
}

// after kills the process once an armed hook has seen a script run.
func (d *dieAfterSave) after(cmds []redis.Cmder) {
	if !d.armed.Load() {
		return
	}
	for _, c := range cmds {
		if name := strings.ToLower(c.Name()); name == "evalsha" || name == "eval" {
			d.dead.Store(true)
		}
	}
}

// TestClusterDeadlineSurvivesDeathAfterSave: on a cluster the deadline
// entry lives on another slot than the game and is written after the
// compare-and-set. A process killed between the two (its save applied,
// the entry never sent) leaves a note of its intent, from which the
// clock's next look (Due) writes the entry: the game still times out.
// Without the note the old entry is dropped as outdated and the game never
// wakes.
func TestClusterDeadlineSurvivesDeathAfterSave(t *testing.T) {
	e := &env{t: t, name: "cluster", cluster: sharedCluster(t), reg: games.Registry()}
	ctx := storetest.Context(t)
	fast := func(cfg *store.Config) { cfg.Timeout = 300 * time.Millisecond }
	s := e.openRedis(fast)
	g := storetest.NewGame(t, e.reg, "hique", storetest.ChName(1), "1")
	g.Players[1] = store.Player{Kind: store.Human, UserID: "1002", Name: "Bea"}
	g.Deadline = time.Now().Add(time.Hour)
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	hook := &dieAfterSave{}
	s.Raw().AddHook(hook)
	hook.armed.Store(true)
	storetest.PlayRandom(g, rand.New(rand.NewPCG(1, 2)), "1001")
	g.Deadline = time.Now().Add(2 * time.Hour)
	_ = s.Save(ctx, g) // applied; the process dies before the entry
	if !hook.dead.Load() {
		t.Fatal("the save sent no script")
	}

	restarted := e.openRedis(fast)
	if got, err := restarted.Load(ctx, storetest.ChName(1)); err != nil || got.Version != 2 {
		t.Fatalf("after the kill the game is %v (%v), want version 2 saved", got, err)
	}
	time.Sleep(2*300*time.Millisecond + 1200*time.Millisecond) // past any save's reach
	if _, err := restarted.Due(ctx, time.Now(), 100); err != nil {
		t.Fatal(err)
	}
	due, err := restarted.Due(ctx, time.Now().Add(3*time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 || due[0].Channel != storetest.ChName(1) || due[0].Version != 2 {
		t.Fatalf("due after the deadline: %d games (%v), want the game at version 2", len(due), due)
	}
	if n, err := restarted.Raw().ZCard(ctx, "{arbiter}:intents").Result(); err != nil || n != 0 {
		t.Fatalf("%d intents left (%v), want none after the repair", n, err)
	}
}
