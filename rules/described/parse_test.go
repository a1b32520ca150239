package described_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// tictactoe is a small valid description the error cases change.
const tictactoe = `name: tictactoe
title: Tic-tac-toe
players:
  - {name: X}
  - {name: O}
rules: Three in a row wins.
options:
  - {key: side, default: 3, min: 3, max: 5}
board:
  columns: side
  rows: side
pieces:
  - {name: mark}
start: []
moves:
  - {kind: place}
end:
  - {when: in-a-row, length: 3, result: win}
  - {when: board-full, result: draw}
`

func TestParseAcceptsTicTacToe(t *testing.T) {
	s, err := described.Load("ttt.yaml", []byte(tictactoe))
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.New(rules.Options{"side": "3"})
	if err != nil {
		t.Fatal(err)
	}
	// X a1, O b1, X a2, O b2, X a3: three in a column.
	for _, text := range []string{"a1", "b1", "a2", "b2", "a3"} {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		g.Play(m)
	}
	if o := g.Outcome(); o.Result != rules.P1Wins || o.Reason != "X made 3 in a row" {
		t.Fatalf("outcome %+v", o)
	}
	if got := rules.Perft(mustNew(t, s), 3); got != 9*8*7 {
		t.Fatalf("perft(3) = %d, want %d", got, 9*8*7)
	}
}

func mustNew(t *testing.T, s *described.Spec) *described.Game {
	t.Helper()
	g, err := s.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestParseErrorsHaveLineAndColumn changes one line of a valid
// description and checks where the error points and what it says.
func TestParseErrorsHaveLineAndColumn(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		want     string // the whole "file:line:column: " and a part of the message
	}{
		{"name: tictactoe", "name: Tic Tac", "t.yaml:1:7: name \"Tic Tac\""},
		{"title: Tic-tac-toe", "titel: Tic-tac-toe", "t.yaml:2:1: the description has no key \"titel\""},
		{"  rows: side", "  rows: side\n  colour: [\"#F0D9B5\", \"#B58863\", \"#000000\"]", "t.yaml:12:11: colour: write one colour, or two for a checkered board"},
		{"  rows: side", "  rows: side\n  colour: [\"#F0D9B5\", dark]", "t.yaml:12:23: colour \"dark\": write #rrggbb"},
		{"  rows: side", "  rows: side\n  cells: hexagons\n  colour: [\"#F0D9B5\", \"#B58863\"]", "t.yaml:13:11: colour: two colours checker a board of squares; this board takes one"},
		{"  - {name: O}", "  - {name: X}", "t.yaml:4:3: the players need different names"},
		{"  - {key: side, default: 3, min: 3, max: 5}", "  - {key: side, default: 9, min: 3, max: 5}", "t.yaml:8:5: option side: want min <= default <= max"},
		{"  columns: side", "  columns: sides + 1", "t.yaml:10:12: columns: sides is not an option or a let (the names are side)"},
		{"  rows: side", "  rows: side +", "t.yaml:11:15: rows: expression \"side +\" ends"},
		{"  - {kind: place}", "  - {kind: hop}", "t.yaml:16:12: kind \"hop\": write one of place, drop, step, slide, jump"},
		{"  - {kind: place}", "  - {kind: step, directions: [up]}", "t.yaml:16:31: direction \"up\""},
		{"  - {kind: place}", "  - {kind: place, directions: all}", "t.yaml:16:19: a place move has no directions"},
		{"  - {kind: place}", "  - {kind: place, on: corners}", "t.yaml:16:19: on belongs to remove moves, not place moves"},
		{"  - {kind: place}", "  - {kind: remove, on: middle}", "t.yaml:16:24: on \"middle\": write one of corners, centre, edges"},
		{"  - {kind: place}", "  - {kind: remove, directions: all}", "t.yaml:16:20: a remove move's directions say where next-to looks"},
		{"  - {kind: place}", "  - {kind: remove, next-to: full}", "t.yaml:16:29: next-to \"full\": write one of empty"},
		{"  - {kind: place}", "  - {kind: remove, chain: true}", "t.yaml:16:20: a remove move has no chain"},
		{"  - {kind: place}", "  - {kind: step, directions: all, rotate: {block: 3}}", "t.yaml:16:35: rotate belongs to place moves, not step moves"},
		{"  - {kind: place}", "  - {kind: place, rotate: {size: 3}}", "t.yaml:16:28: rotate has no key \"size\""},
		{"  - {when: board-full, result: draw}", "  - {when: board-full, result: draw, anywhere: true}", "t.yaml:19:38: anywhere belongs to when: in-a-row"},
		{"  - {kind: place}", "  - {kind: place, player: 3}", "t.yaml:16:27: player must be 1 or 2"},
		{"  - {kind: place}", "  - {kind: place, turn: side +}", "t.yaml:16:31: turn: expression \"side +\" ends"},
		{"  - {when: board-full, result: draw}", "  - {when: board-full, result: pass}", "t.yaml:19:32: when board-full, result must be win, loss, draw, score"},
		{"  - {when: board-full, result: draw}", "  - {when: board-full, result: score}", "t.yaml:19:5: result: score needs score: pieces"},
		{"  - {when: in-a-row, length: 3, result: win}", "  - {when: in-a-row, result: win}", "t.yaml:18:5: when: in-a-row needs the key \"length\""},
		{"pieces:\n  - {name: mark}", "pieces:\n  - {name: mark}\n  - {name: mark}", "t.yaml:14:12: piece mark is defined twice"},
		{"start: []", "start: [{player: 3, rows: [1]}]", "t.yaml:14:18: player must be 1 or 2"},
		{"start: []", "start: [{player: 1, rows: [side + 1]}]", "t.yaml:14:28: tictactoe with side=3: start entry 1: row 4 is off the board (rows 1 to 3)"},
		{"start: []", "start: [{player: 1, at: [[1, 1], [side, side + 1]]}]", "t.yaml:14:34: tictactoe with side=3: start entry 1: square [3, 4] is off the board"},
		{"  rows: side", "    rows: side", "t.yaml:11:5: rows: is indented more than columns: above it, which already has its value (\"side\")"},
		{"  rows: side", " rows: side", "t.yaml:11:2: rows: is indented 1 space, which lines it up with no block above it"},
		{"  - {kind: place}", "    - {kind: place}\n  - {kind: step}", "not valid YAML"},
		{"rules: Three in a row wins.", "rules: [a", "t.yaml:6:1: not valid YAML: did not find expected ',' or ']'"},
		{"  rows: side", "\trows: side", "t.yaml:11:2: not valid YAML: found a tab character"},
		{"  rows: side", "  rows: side: 2", "t.yaml:11:3: not valid YAML: mapping values are not allowed"},
	} {
		text := strings.Replace(tictactoe, tc.old, tc.new, 1)
		if text == tictactoe {
			t.Fatalf("case %q does not change the description", tc.old)
		}
		_, err := described.Load("t.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s:\n got %v\nwant %s", tc.old, tc.new, err, tc.want)
		}
	}
}

// TestLoadFSKeepsTheGoodFiles checks that a bad file in a directory is
// refused with its position and the others still load.
func TestLoadFSKeepsTheGoodFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ttt.yaml", tictactoe)
	write("bad.yaml", strings.Replace(tictactoe, "name: tictactoe", "name: bad\nboard: 3", 1))
	write("notes.txt", "not a game")
	specs, errs := described.LoadFS(os.DirFS(dir))
	if len(specs) != 1 || specs[0].Name != "tictactoe" {
		t.Fatalf("loaded %d games, want tictactoe alone", len(specs))
	}
	var de *described.Error
	if len(errs) != 1 || !errors.As(errs[0], &de) || de.File != "bad.yaml" || de.Line != 10 || de.Column != 1 {
		t.Fatalf("errors %v, want one at bad.yaml:10:1 (board given twice)", errs)
	}
}
