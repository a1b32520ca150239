package commands_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules"
)

// BenchmarkMove measures one /move through commands and the store on a
// loopback redis-server: parse, load, check, play, save, render. It
// reports the median and 99th percentile of the per-move latency.
func BenchmarkMove(b *testing.B) {
	e := newEnv(b, false)
	rng := rand.New(rand.NewPCG(1, 1))
	ctx := context.Background()
	game := 0
	ch := ""
	newGame := func() {
		game++
		ch = fmt.Sprintf("bench-%d", game)
		e.svc.Handle(ctx, commands.Invocation{Guild: "g", Channel: ch, User: ann, Command: "referee", Sub: "start", ManageServer: true,
			Options: map[string]string{"game": "hique", "p1": ann.ID, "p2": bob.ID}, Users: map[string]commands.User{"p1": ann, "p2": bob}})
	}
	newGame()
	lat := make([]time.Duration, 0, b.N)
	var list rules.MoveList
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		g, err := e.st.Load(ctx, ch)
		if err != nil {
			newGame()
			g, _ = e.st.Load(ctx, ch)
		}
		g.State.Moves(&list)
		user := ann
		if g.State.ToMove() == rules.P2 {
			user = bob
		}
		inv := commands.Invocation{Guild: "g", Channel: ch, User: user, Command: "move",
			Options: map[string]string{"move": g.State.FormatMove(list.Moves[rng.IntN(list.N)])}}
		b.StartTimer()
		start := time.Now()
		r := e.svc.Handle(ctx, inv)
		lat = append(lat, time.Since(start))
		if r.Private {
			b.Fatalf("move refused: %s", r.Text)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
