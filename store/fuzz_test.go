package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/rules"
	"arbiter/rules/games"
)

// seedGame returns a game of name with a few moves played.
func seedGame(t testing.TB, reg *rules.Registry, name string) *Game {
	t.Helper()
	state, err := reg.New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{Channel: "1", Guild: "2", ID: "1", Name: name, Options: state.Options(), State: state,
		Status: Active, Version: 1, Created: time.Unix(1700000000, 0).UTC(), Updated: time.Unix(1700000000, 0).UTC(),
		Players: [2]Player{{Kind: Human, UserID: "7", Name: "Ada"}, {Kind: Bot, Name: "Arbiter", Level: 2}}}
	var list rules.MoveList
	for range 6 {
		state.Moves(&list)
		if list.N == 0 || state.Status() != rules.Ongoing {
			break
		}
		m := list.Moves[list.N/2]
		g.Moves = append(g.Moves, Move{Text: state.FormatMove(m), Seat: state.ToMove(), At: g.Created})
		state.Play(m)
	}
	return g
}

// FuzzDecodeRecord: any bytes in a game's record field give a game or a
// *DamagedError naming the channel, never a panic; a game that decodes
// encodes back to a record that decodes to the same game.
func FuzzDecodeRecord(f *testing.F) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		data, err := encodeGame(seedGame(f, reg, name))
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
			var dmg *DamagedError
			if !errors.As(err, &dmg) || dmg.Channel != "1" || !strings.Contains(err.Error(), "channel 1") {
				t.Fatalf("decode error %v is not a DamagedError naming the channel", err)
			}
			return
		}
		again, err := encodeGame(g)
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

// FuzzImportLegacy: any bytes as the earlier embedded store's data file
// give an error or a snapshot that imports without panicking.
func FuzzImportLegacy(f *testing.F) {
	seed, err := os.ReadFile("testdata/legacy-store.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, s := range []string{"", "{}", `{"format":1}`, `{"format":2,"keys":[]}`, `{"format":1,"keys":[{"key":"a","type":"string"}]}`,
		`{"format":1,"keys":[{"key":{"base64":"/w=="},"type":"string","string":{"base64":"AP8="}}]}`,
		`{"format":1,"keys":[{"key":"{arbiter}:botq","type":"stream","stream":{"entries":[{"id":"1-1","values":["a","b"]}],"groups":[{"name":"g","last_id":"0","pending":[{"id":"1-1","consumer":"c","deliveries":1}]}]}}]}`,
		`{"format":1,"keys":[{"key":"{g:1}:archived","type":"zset","zset":["inf","m","-1.5","n"]}]}`,
		`{"format":1,"keys":[{"key":"{g:1}:seq","type":"string","string":"x"}]}`,
		`{"format":1,"keys":[{"key":"{ch:1}:game","type":"hash","hash":["f"]}]}`} {
		f.Add([]byte(s))
	}
	db, err := bolt.Open(filepath.Join(f.TempDir(), "fuzz.db"), 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = db.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		snap, err := parseSnapshot(data)
		if err != nil {
			return
		}
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		for _, name := range topBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				t.Fatal(err)
			}
		}
		_, _ = importSnapshot(tx, snap, time.Now())
	})
}
