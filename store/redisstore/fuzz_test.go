package redisstore

import (
	"errors"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
)

// seedGame returns a game of name with a few moves played.
func seedGame(t testing.TB, reg *rules.Registry, name string) *store.Game {
	t.Helper()
	state, err := reg.New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &store.Game{Channel: "1", Guild: "2", ID: "1", Name: name, Options: state.Options(), State: state,
		Status: store.Active, Version: 1, Created: time.Unix(1700000000, 0).UTC(), Updated: time.Unix(1700000000, 0).UTC(),
		Players: [2]store.Player{{Kind: store.Human, UserID: "7", Name: "Ada"}, {Kind: store.Bot, Name: "Arbiter", Level: 2}}}
	var list rules.MoveList
	for range 6 {
		state.Moves(&list)
		if list.N == 0 || state.Status() != rules.Ongoing {
			break
		}
		m := list.Moves[list.N/2]
		g.Moves = append(g.Moves, store.Move{Text: state.FormatMove(m), Seat: state.ToMove(), At: g.Created})
		state.Play(m)
	}
	return g
}

// FuzzDecodeRecord: any bytes in a game's record field give a game or a
// *store.DamagedError naming the channel, never a panic; a game that decodes
// encodes back to a record that decodes to the same game.
func FuzzDecodeRecord(f *testing.F) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		data, err := store.EncodeRecord(seedGame(f, reg, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add([]byte(strings.Replace(string(data), `"schema":1`, `"schema":2`, 1)))
		f.Add(data[:len(data)/2])
	}
	for _, s := range []string{"", "{}", "null", `{"schema":1}`, `{"schema":-1}`, `{"schema":1,"version":1,"id":"1","channel":"1","status":"active","state":"QQE="}`,
		`{"schema":1,"version":1,"id":"1","channel":"1","status":"finished","result":"p3"}`, `{"schema":1,"moves":[{"seat":9}]}`} {
		f.Add([]byte(s))
	}
	s := &Redis{reg: reg}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := s.decodeGame("1", "1", "1", data)
		if err != nil {
			var dmg *store.DamagedError
			if !errors.As(err, &dmg) || dmg.Channel != "1" || !strings.Contains(err.Error(), "channel 1") {
				t.Fatalf("decode error %v is not a store.DamagedError naming the channel", err)
			}
			return
		}
		again, err := store.EncodeRecord(g)
		if err != nil {
			return // decodes, but holds something Save would refuse (e.g. a bad guild id)
		}
		g2, err := s.decodeGame("1", "1", "1", again)
		if err != nil {
			t.Fatalf("a decoded game does not decode after encoding again: %v", err)
		}
		if g2.Version != g.Version || len(g2.Moves) != len(g.Moves) || string(rules.Encode(g2.State)) != string(rules.Encode(g.State)) {
			t.Fatalf("round trip changed the game")
		}
	})
}
