package redistest_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"arbiter/store/redistest"
)

// TestClusterForms: the harness's cluster serves every slot, with three
// masters and three replicas.
func TestClusterForms(t *testing.T) {
	if testing.Short() {
		t.Skip("the store's cluster tests start the same harness under -short")
	}
	c := redistest.StartCluster(t, redistest.ClusterOptions{})
	opts, err := redis.ParseClusterURL(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	client := redis.NewClusterClient(opts)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // reached only by a hang
	defer cancel()
	shards, err := client.ClusterShards(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(shards) != 3 {
		t.Fatalf("%d shards, want 3", len(shards))
	}
	for _, sh := range shards {
		if len(sh.Nodes) != 2 {
			t.Fatalf("a shard of %d nodes, want a master and a replica", len(sh.Nodes))
		}
	}
	for _, k := range []string{"{a}x", "{b}x", "{c}x", "{d}x"} {
		if err := client.Set(ctx, k, "1", 0).Err(); err != nil {
			t.Fatalf("set %s: %v", k, err)
		}
	}
}
