package api_test

import (
	"fmt"
	"testing"

	"arbiter/rules"
)

// BenchmarkProgramMoveRoundTrip: one exchange through the game flow and
// the stream, over a real redis-server: a person's /move, its state
// reaching the program, the program's move sent, done and answered "ok".
// Run: go test ./api -run '^$' -bench ProgramMove -benchtime 200x
func BenchmarkProgramMoveRoundTrip(b *testing.B) {
	e := newEnv(b)
	p := e.connect(e.token(alice))
	channel := 0
	var id string
	start := func() {
		channel++
		ch := fmt.Sprint("b", channel)
		e.do(bob, ch, "play", "", "game", "sixes", "opponent", alice.ID, "program", "true", "options", "turns=10000")
		g := e.load(ch)
		id = g.ID
		p.gameMsg(id, g.Version)
		p.send(`{"type":"accept","channel":"` + ch + `","gameId":"` + id + `"}`)
	}
	start()
	b.ResetTimer()
	for range b.N {
		ch := fmt.Sprint("b", channel)
		g := e.load(ch)
		var list rules.MoveList
		g.State.Moves(&list)
		if r := e.do(bob, ch, "move", "", "move", g.State.FormatMove(list.Moves[0])); r.Private {
			b.Fatal(r.Text)
		}
		st := p.gameMsg(id, g.Version+1)
		if st.Status != "active" {
			b.StopTimer()
			start()
			b.StartTimer()
			continue
		}
		g.State.Play(list.Moves[0])
		g.State.Moves(&list)
		if m := p.send(`{"type":"move","channel":"` + ch + `","gameId":"` + id + `","version":` + fmt.Sprint(st.Version) + `,"move":"` + g.State.FormatMove(list.Moves[0]) + `"}`); m.Type != "ok" {
			b.Fatalf("%+v", m)
		}
	}
}
