package store_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/storetest"
)

// TestHeadEncodingIsJSON: the record a save writes (its head, without
// moves) is, byte for byte, what json.Marshal writes, for games of every
// kind and for values that json.Marshal escapes; the fast writer is used
// for a game as the flow saves it.
func TestHeadEncodingIsJSON(t *testing.T) {
	reg := games.Registry()
	type variant struct {
		name   string
		change func(g *store.Game)
		fast   bool // the reflection-free writer must be the one used
	}
	at := time.Date(2026, 11, 23, 21, 50, 8, 797176769, time.FixedZone("x", 3600))
	variants := []variant{
		{"plain", func(g *store.Game) {}, true},
		{"deadlines", func(g *store.Game) { g.Deadline, g.RemindAt = at, at.Add(time.Hour) }, true},
		{"finished", func(g *store.Game) {
			g.Status, g.Result, g.Reason, g.Finished = store.Finished, rules.P2Wins, "White resigned", at
		}, true},
		{"draw", func(g *store.Game) { g.Status, g.Result, g.Finished = store.Finished, rules.Draw, at }, true},
		{"flow", func(g *store.Game) { g.Flow = store.RawFlow(`{"v":1,"rated":true,"turn_from":"2026-11-23T21:50:08Z"}`) }, true},
		{"flow with spaces", func(g *store.Game) { g.Flow = store.RawFlow("{ \"v\" : 1,\n \"style\": \"emoji\" }") }, true},
		{"empty flow", func(g *store.Game) { g.Flow = store.RawFlow(nil) }, true},
		{"program", func(g *store.Game) {
			g.Players[1] = store.Player{Kind: store.Program, UserID: "9", Name: "x", Program: "x (program)"}
		}, true},
		{"flow with html", func(g *store.Game) { g.Flow = store.RawFlow(`{"why":"a <b> & c \u2028"}`) }, false},
		{"flow with line separators", func(g *store.Game) { g.Flow = store.RawFlow("{\"why\":\"a\u2028b\u2029\"}") }, false},
		{"flow with paragraph separator", func(g *store.Game) { g.Flow = store.RawFlow("{\"why\":\"a\u2029\"}") }, false},
		{"flow with other three-byte characters", func(g *store.Game) { g.Flow = store.RawFlow("{\"why\":\"5\u20ac\u2027\u202a\"}") }, true},
		{"unicode name", func(g *store.Game) { g.Players[0].Name = "José 山田" }, false},
		{"quotes", func(g *store.Game) { g.Reason = `he said "no" \ left` }, false},
		{"html", func(g *store.Game) { g.Players[0].Name = "<script>&" }, false},
		{"control", func(g *store.Game) { g.Reason = "tab\there\x00" }, false},
		{"bad utf-8", func(g *store.Game) { g.Players[1].Name = "\xff\xfe" }, false},
		{"line separator", func(g *store.Game) { g.Reason = "a\u2028b" }, false},
		{"far year", func(g *store.Game) { g.Deadline = time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC) }, false},
		{"zero times", func(g *store.Game) { g.Created, g.Updated = time.Time{}, time.Time{} }, true},
	}
	for _, name := range reg.Names() {
		for _, v := range variants {
			g := storetest.SeedGame(t, reg, name)
			v.change(g)
			got, err := store.EncodeHead(g)
			if err != nil {
				if v.name == "far year" {
					continue // json.Marshal refuses it too
				}
				t.Fatalf("%s, %s: %v", name, v.name, err)
			}
			r := recordOf(t, g)
			want, err := json.Marshal(r)
			if err != nil {
				t.Fatalf("%s, %s: json.Marshal: %v", name, v.name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %s: the head is\n%s\njson.Marshal writes\n%s", name, v.name, got, want)
			}
			if _, ok := store.AppendHead(nil, r); ok != v.fast {
				t.Errorf("%s, %s: the reflection-free writer used: %v, want %v", name, v.name, ok, v.fast)
			}
		}
	}
}

// recordOf is the record EncodeHead writes for g, as a value to marshal.
func recordOf(t *testing.T, g *store.Game) *store.Record {
	t.Helper()
	var flow json.RawMessage
	if g.Flow != nil {
		b, err := g.Flow.FlowBytes()
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 0 {
			var c bytes.Buffer
			if err := json.Compact(&c, b); err != nil {
				t.Fatal(err)
			}
			flow = c.Bytes()
		}
	}
	r := &store.Record{Schema: store.SchemaVersion, Channel: g.Channel, Guild: g.Guild, ID: g.ID, Name: g.Name, Options: g.Options.String(),
		Players: g.Players, State: rules.Encode(g.State), Version: g.Version, Status: g.Status, Reason: g.Reason,
		Deadline: store.TimePtr(g.Deadline), RemindAt: store.TimePtr(g.RemindAt), Created: g.Created, Updated: g.Updated,
		Finished: store.TimePtr(g.Finished), Flow: flow}
	if g.Result != rules.Ongoing {
		r.Result = g.Result.String()
	}
	return r
}

// BenchmarkEncodeHead measures the record a save writes, for a HiQUE
// game with its deadlines and the flow's state, 6 and 150 moves in.
func BenchmarkEncodeHead(b *testing.B) {
	for _, plies := range []int{6, 150} {
		b.Run(fmt.Sprintf("plies=%d", plies), func(b *testing.B) {
			g := gameOfLength(b, plies)
			at := time.Date(2026, 11, 23, 21, 50, 8, 797176769, time.UTC)
			g.Deadline, g.RemindAt = at, at
			g.Flow = store.RawFlow(`{"v":1,"rated":true,"turn_time":86400000000000,"turn_from":"2026-11-23T21:50:08.797176769Z"}`)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := store.EncodeHead(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCommonPrefix measures what a save compares to find the moves
// it adds: a 150-move list against its stored copy one move shorter.
func BenchmarkCommonPrefix(b *testing.B) {
	g := gameOfLength(b, 150)
	stored := slices.Clone(g.Moves[:149])
	for b.Loop() {
		if n := store.CommonPrefix(stored, g.Moves); n != 149 {
			b.Fatalf("common prefix %d, want 149", n)
		}
	}
}

// gameOfLength returns a running HiQUE game of random moves that has
// plies moves.
func gameOfLength(b *testing.B, plies int) *store.Game {
	g, ok := storetest.GameOfLength(b, games.Registry(), "hique", "1", "2", plies)
	if !ok {
		b.Fatalf("no random HiQUE game of 500 seeds lasts %d moves", plies)
	}
	return g
}

// TestMoveEncodingIsJSON: a move of a move list is, byte for byte, what
// json.Marshal writes, for the moves the flow saves (written without
// reflection) and for values json.Marshal escapes.
func TestMoveEncodingIsJSON(t *testing.T) {
	at := time.Date(2026, 11, 23, 21, 50, 8, 797176769, time.FixedZone("x", 3600))
	for _, tt := range []struct {
		m    store.Move
		fast bool // the reflection-free writer must be the one used
	}{
		{store.Move{Text: "4 2 4 8", Seat: rules.P1, By: "1001", At: at}, true},
		{store.Move{Text: "E2B5", Seat: rules.P2, At: at.UTC()}, true},
		{store.Move{Text: "pass", Seat: rules.P2, By: "123456789012345678"}, true},
		{store.Move{Text: "c4 d4", Seat: 7, At: at.Round(time.Second)}, true},
		{store.Move{Text: `a "quoted" <move> & \ more`, Seat: rules.P1, At: at}, false},
		{store.Move{Text: "G1", By: "José", At: at}, false},
		{store.Move{Text: "tab\there", At: at}, false},
		{store.Move{Text: "G1", At: time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC)}, false},
	} {
		want, werr := json.Marshal(tt.m)
		got, err := store.EncodeMove(tt.m)
		if (err != nil) != (werr != nil) {
			t.Fatalf("%+v: EncodeMove error %v, json.Marshal error %v", tt.m, err, werr)
		}
		if err == nil && got != string(want) {
			t.Errorf("EncodeMove writes\n%s\njson.Marshal writes\n%s", got, want)
		}
		if _, ok := store.AppendMove(nil, tt.m); ok != tt.fast {
			t.Errorf("%+v: the reflection-free writer used: %v, want %v", tt.m, ok, tt.fast)
		}
	}
}
