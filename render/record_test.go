package render

import (
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
)

// sameGame reports whether two games are the same game: name, options and
// moves.
func sameGame(a, b rules.Game) bool {
	return a.Name() == b.Name() && a.Options().String() == b.Options().String() &&
		slices.Equal(a.History(), b.History())
}

// TestRecordRoundTrip writes every played-out game, at its start, middle and
// end, as a record, reads it back through the registry and checks that the
// replay is the same game with the same result, players and tags, and that
// writing it again gives the same text.
func TestRecordRoundTrip(t *testing.T) {
	reg := registry()
	tags := []Tag{{"Event", "CS405 round 2"}, {"Date", "2025-03-14"}}
	for _, tg := range testGames() {
		names, positions := stages(t, reg, tg)
		for i, g := range positions {
			text := Record(g, Options{Players: testNames()}, tags...)
			rec, err := ParseRecord(reg, text)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", tg.name, names[i], err, text)
			}
			if !sameGame(rec.Game, g) {
				t.Errorf("%s %s: the replay is not the same game", tg.name, names[i])
			}
			if rec.Outcome != g.Outcome() || rec.Game.Outcome() != g.Outcome() {
				t.Errorf("%s %s: outcome %+v, replay %+v, want %+v", tg.name, names[i], rec.Outcome, rec.Game.Outcome(), g.Outcome())
			}
			if rec.Players != testNames() || !slices.Equal(rec.Tags, tags) {
				t.Errorf("%s %s: players %q tags %v", tg.name, names[i], rec.Players, rec.Tags)
			}
			if again := rec.String(); again != text {
				t.Errorf("%s %s: written again it differs:\n%s\n---\n%s", tg.name, names[i], again, text)
			}
		}
	}
}

// TestRecordTagKeys leaves out the tags a record cannot hold, so that what
// Record writes always reads back: a key the header uses (in any case, "ſ"
// folding to "s" as ParseRecord folds it), a key given twice, a key that
// would read as a comment or a turn.
func TestRecordTagKeys(t *testing.T) {
	reg := registry()
	g := newTestGame(t, reg, testGames()[3])
	text := Record(g, Options{}, Tag{"Event", "a"}, Tag{"event", "b"}, Tag{"ſcore", "lots"},
		Tag{"RESULT", "p1"}, Tag{"x", "alice"}, Tag{"# note", "c"}, Tag{"1. a1 c1", "d"}, Tag{"Round", "2"})
	rec, err := ParseRecord(reg, text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if want := []Tag{{"Event", "a"}, {"Round", "2"}}; !slices.Equal(rec.Tags, want) {
		t.Errorf("tags %v, want %v\n%s", rec.Tags, want, text)
	}
	if rec.Outcome != g.Outcome() || rec.Players != [2]string{} {
		t.Errorf("outcome %+v players %q\n%s", rec.Outcome, rec.Players, text)
	}
}

// TestRecordOutsideResult records games that ended outside the rules.
func TestRecordOutsideResult(t *testing.T) {
	reg := registry()
	_, positions := stages(t, reg, testGames()[1])
	middle := positions[1]
	for _, res := range []rules.Outcome{
		{Result: rules.P2Wins, Reason: "Player 1 resigned"},
		{Result: rules.P1Wins, Reason: "Player 2 ran out of time"},
		{Result: rules.Draw, Reason: "adjudicated", Scores: [2]int{110, 110}, HasScores: true},
	} {
		text := Record(middle, Options{Result: &res})
		rec, err := ParseRecord(reg, text)
		if err != nil {
			t.Fatalf("%+v: %v\n%s", res, err, text)
		}
		if rec.Outcome != res {
			t.Errorf("outcome %+v, want %+v", rec.Outcome, res)
		}
		if rec.Game.Status() != rules.Ongoing {
			t.Errorf("the replay ended: %v", rec.Game.Outcome())
		}
	}
}

// TestRecordMoveFormat checks the numbering and layout of the moves.
func TestRecordMoveFormat(t *testing.T) {
	g, err := registry().Replay("hique", nil, []string{"4 2 4 8", "4 12 4 10", "3 1 3 3"})
	if err != nil {
		t.Fatal(err)
	}
	want := `# Arbiter game record
Game: hique
Options: turns=300
Black: alice
Result: ongoing
Plies: 3

1. 4 2 4 8 | 4 12 4 10
2. 3 1 3 3
`
	if got := Record(g, Options{Players: [2]string{"alice", ""}}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	h, err := registry().Replay("hiya", nil, []string{"E2B5"})
	if err != nil {
		t.Fatal(err)
	}
	if got := Record(h, Options{}); !strings.Contains(got, "\n1. E2B5 Hi-YA!\n") {
		t.Errorf("no announcement in\n%s", got)
	}
}

// TestParseRecordTolerates reads records written by hand.
func TestParseRecordTolerates(t *testing.T) {
	text := "game: Sixes\r\n# a comment\r\nX: ann\r\n\r\n  1.  a1 c1 |   a5c5\r\n2. b1-b3\r\n"
	rec, err := ParseRecord(registry(), text)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Game.Ply() != 3 || rec.Players[0] != "ann" {
		t.Errorf("ply %d players %q", rec.Game.Ply(), rec.Players)
	}
}

// TestParseRecordErrors checks that bad records are refused with a message
// that says what is wrong and where.
func TestParseRecordErrors(t *testing.T) {
	good := "Game: hique\nResult: ongoing\n\n1. 4 2 4 8 | 4 12 4 10\n"
	cases := []struct {
		name, text, want string
	}{
		{"empty", "", "no Game line"},
		{"unknown game", "Game: chess\n", "unknown game"},
		{"bad option", "Game: hique\nOptions: turns=zero\n", "line 2: turns=zero"},
		{"unknown option", "Game: hique\nOptions: colour=red\n", "has no option colour"},
		{"not a header", "Game: hique\nhello\n", "line 2: \"hello\" is neither"},
		{"twice", "Game: hique\nGame: sixes\n", "line 2: Game is given twice"},
		{"illegal move", "Game: hique\n\n1. 4 2 4 9\n", "line 3, move 1 (4 2 4 9)"},
		{"turn order", "Game: hique\n\n2. 4 2 4 8\n", "line 3: turn 2 where turn 1 should come"},
		{"half turn", "Game: hique\n\n1. 4 2 4 8\n2. 4 12 4 10\n", "turn 1 has only player 1's move"},
		{"empty second", "Game: hique\n\n1. 4 2 4 8 |\n", "write a turn as 1. MOVE | MOVE"},
		{"header after moves", good + "Result: p1\n", "is not a numbered turn"},
		{"plies", "Game: hique\nPlies: 3\n\n1. 4 2 4 8 | 4 12 4 10\n", "Plies says \"3\" but the record has 2 moves"},
		{"bad result", "Game: hique\nResult: maybe\n", "write ongoing, p1, p2 or draw"},
		{"bad score", "Game: hique\nResult: p1\nScore: lots\n", "write it as 14 to 11"},
		{"reason alone", "Game: hique\nReason: resigned\n", "a Reason without a Result line"},
		{"too long", strings.Repeat("#", maxRecordLen+1), "longer than"},
	}
	for _, c := range cases {
		_, err := ParseRecord(registry(), c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// TestParseRecordResultMismatch refuses a record whose result is not the
// one its moves give.
func TestParseRecordResultMismatch(t *testing.T) {
	reg := registry()
	_, positions := stages(t, reg, testGames()[2])
	end := positions[2]
	text := Record(end, Options{})
	out := end.Outcome()
	w, _ := out.Result.Winner()
	wrong := strings.Replace(text, "Result: "+resultWords(end, out.Result),
		"Result: "+resultWords(end, rules.Win(w.Other())), 1)
	if _, err := ParseRecord(reg, wrong); err == nil || !strings.Contains(err.Error(), "but its moves end the game") {
		t.Errorf("wrong winner: error %v", err)
	}
	reason := strings.Replace(text, "Reason: "+out.Reason, "Reason: resigned", 1)
	if _, err := ParseRecord(reg, reason); err == nil || !strings.Contains(err.Error(), "but its moves end the game") {
		t.Errorf("wrong reason: error %v", err)
	}
	// Moves after the end.
	more := strings.TrimRight(text, "\n") + " | A1A2\n"
	if end.Ply()%2 == 0 {
		more = text + "99. A1A2\n"
	}
	if _, err := ParseRecord(reg, more); err == nil {
		t.Error("moves after the end were read")
	}
}

// FuzzParseRecord reads arbitrary text as a record. It must never panic, and
// a record it reads must write out as text that reads back to the same game
// and writes out the same again.
func FuzzParseRecord(f *testing.F) {
	reg := registry()
	for _, tg := range testGames() {
		_, positions := stages(f, reg, tg)
		for _, g := range positions {
			f.Add(Record(g, Options{Players: testNames()}, Tag{"Event", "fuzz"}))
		}
	}
	f.Add("Game: hiya\nOptions: first=north\n\n1. C7F4 Hi-YA! | E2B5\n")
	f.Add("Game: upthrust\nOptions: colours=ry\nResult: p2\nReason: resigned\nScore: 0 to 0\n")
	f.Add("Game: sixes\n\n1. a1 c1 | a5 c5\n2. x\n")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := ParseRecord(reg, text)
		if err != nil {
			return
		}
		out := rec.String()
		again, err := ParseRecord(reg, out)
		if err != nil {
			t.Fatalf("a record read back fails: %v\n%s", err, out)
		}
		if !sameGame(again.Game, rec.Game) || again.Outcome != rec.Outcome || again.Players != rec.Players {
			t.Fatalf("read back differs:\n%s", out)
		}
		if again.String() != out {
			t.Fatalf("not a fixed point:\n%s\n---\n%s", out, again.String())
		}
	})
}
