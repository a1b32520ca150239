package redisstore_test

import (
	"math/rand/v2"
	"testing"

	"github.com/redis/go-redis/v9"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// TestRunsScriptsRedisForgot: the store runs its Lua scripts by their
// hash; a Redis whose script cache is empty (after SCRIPT FLUSH or a
// restart) answers NOSCRIPT, and every operation that runs a script sends
// it again and goes through: load, save, extending a bot turn, and the
// save that finishes and archives a game.
func TestRunsScriptsRedisForgot(t *testing.T) {
	reg := games.Registry()
	s := (&env{t: t, srv: redistest.Start(t, redistest.Options{}), reg: reg}).openRedis()
	ctx := storetest.Context(t)
	client := s.Raw().(*redis.Client)
	flush := func() {
		t.Helper()
		if err := client.ScriptFlush(ctx).Err(); err != nil {
			t.Fatalf("SCRIPT FLUSH: %v", err)
		}
	}

	g := storetest.NewGame(t, reg, "hique", "1", "1")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	var err error
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; g.Status != store.Finished; i++ {
		flush()
		if g, err = s.Load(ctx, "1"); err != nil {
			t.Fatalf("move %d: load after SCRIPT FLUSH: %v", i, err)
		}
		if !storetest.PlayRandom(g, rng, "u") {
			t.Fatalf("move %d: the game has no legal move but is not over", i)
		}
		flush()
		if err := s.Save(ctx, g); err != nil {
			t.Fatalf("move %d: save after SCRIPT FLUSH: %v", i, err)
		}
	}
	if _, err := s.Load(ctx, "1"); err == nil {
		t.Fatal("the channel still holds the finished game: archiving it did not free it")
	}

	bot := storetest.NewGame(t, reg, "sixes", "2", "1")
	if err := s.Create(ctx, bot); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnqueueBotTurn(ctx, bot); err != nil {
		t.Fatal(err)
	}
	job, err := s.ClaimBotTurn(ctx, "w", 0)
	if err != nil {
		t.Fatal(err)
	}
	flush()
	if err := s.ExtendBotTurn(ctx, "w", job); err != nil {
		t.Fatalf("extend a bot turn after SCRIPT FLUSH: %v", err)
	}
}
