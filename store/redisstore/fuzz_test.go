package redisstore

import (
	"errors"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/storetest"
)

// FuzzDecodeRecord: any bytes in a game's record field give a game or a
// *store.DamagedError naming the channel, never a panic; a game that decodes
// encodes back to a record that decodes to the same game.
func FuzzDecodeRecord(f *testing.F) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		data, err := store.EncodeRecord(storetest.SeedGame(f, reg, name))
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
