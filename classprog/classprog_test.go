package classprog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arbiter/engine"
	"arbiter/internal/testkit"
	"arbiter/rules"
	"arbiter/rules/games"
)

// fake is the path of the fake class program (testdata/fakeclass), built
// once for the package's tests.
var fake string

func TestMain(m *testing.M) {
	if os.Getenv("CLASSPROG_SERVE") != "" {
		// An Upthrust program over the engine protocol: Arbiter's random player.
		p, _ := engine.NewPlayer("random", engine.PlayerOptions{Seed: 5})
		if err := engine.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr, games.Registry(), "", p); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "classprog")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fake = filepath.Join(dir, "fakeclass")
	if err := testkit.GoBuild(fake, "./testdata/fakeclass"); err != nil {
		fmt.Fprintf(os.Stderr, "build the fake class program: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// play plays one game of game between the fake (with args) at side and
// the random player, and returns the record and the fake's transcript.
func play(t *testing.T, game string, opts rules.Options, args string, side rules.Player, moveTime time.Duration) (engine.GameRecord, string) {
	t.Helper()
	reg := games.Registry()
	g, err := reg.New(game, opts)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := NewPlayer(fake+" -game "+game+" "+args, engine.PlayerOptions{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	rnd, err := engine.NewPlayer("random", engine.PlayerOptions{Registry: reg, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	seats := [2]engine.Player{prog, rnd}
	if side == rules.P2 {
		seats = [2]engine.Player{rnd, prog}
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	rec, _, err := engine.PlayGame(ctx, g, nil, seats, moveTime)
	if err != nil {
		t.Fatal(err)
	}
	return rec, prog.Transcript()
}

// roomyMoveTime is a move time that only a hung program reaches, however
// slowly a loaded machine runs the program and its reader: the games that
// test anything but the time limit get it, so that only what they test
// can end them (a flood, say, ends the game once it passes the limit,
// whenever that is).
const roomyMoveTime = 2 * time.Minute

// hangBound bounds a whole test game: far beyond any game's moves at
// roomyMoveTime, it is reached only by a hang.
const hangBound = 15 * time.Minute

// tightMoveTime is the limit of the games that end by the limit itself:
// the programs that hang or answer late (the fake's slow mode answers
// long after it, so that the order of the limit and the answer does not
// hang on the machine's speed).
const tightMoveTime = time.Second

// conventions are the class conventions with the fake's arguments and the
// options that keep games short.
var conventions = []struct {
	name, game, args string
	opts             rules.Options
}{
	{"sixes", "sixes", "", rules.Options{"turns": "16"}},
	{"hique", "hique", "", rules.Options{"turns": "30"}},
	{"hiya-yn", "hiya", "-style yn", nil},
	{"hiya-12", "hiya", "-style 12", nil},
}

// TestWellBehavedProgramsPlayToTheEnd: a program in each convention, on
// either side, plays a whole game that the rules end.
func TestWellBehavedProgramsPlayToTheEnd(t *testing.T) {
	for _, c := range conventions {
		for _, side := range []rules.Player{rules.P1, rules.P2} {
			for _, mode := range []string{"ok", "reask", "noflush", "chatty"} {
				if testing.Short() && mode != "ok" && (side == rules.P1 || c.name == "hique" || c.name == "hiya-12" && mode == "reask") {
					continue // the full run has them all
				}
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, side, mode), func(t *testing.T) {
					t.Parallel()
					rec, tr := play(t, c.game, c.opts, c.args+" -mode "+mode, side, roomyMoveTime)
					if strings.Contains(rec.Reason, "class:") {
						t.Fatalf("the program failed: %s\n%s", rec.Reason, tail(tr))
					}
					if rec.Result == rules.Ongoing || rec.Plies < 4 {
						t.Errorf("result %v after %d plies: %s", rec.Result, rec.Plies, rec.Reason)
					}
					if !strings.Contains(tr, "< ") || !strings.Contains(tr, "> ") {
						t.Errorf("transcript without both directions:\n%s", tail(tr))
					}
				})
			}
		}
	}
}

// TestRelayedProgramsPlayToTheEnd: a program that relays the game to
// another process (the fake's relay modes) plays a whole game, on either
// side, although its child waits for input while the prompt is still on
// its way through the relay: in a pipe the relay polls, or in a relay
// that the machine has not run yet.
func TestRelayedProgramsPlayToTheEnd(t *testing.T) {
	for _, how := range []string{"pipe", "spin"} {
		for _, side := range []rules.Player{rules.P1, rules.P2} {
			t.Run(fmt.Sprintf("%s/%s", how, side), func(t *testing.T) {
				t.Parallel()
				rec, tr := play(t, "sixes", rules.Options{"turns": "16"}, "-relay "+how, side, roomyMoveTime)
				if strings.Contains(rec.Reason, "class:") {
					t.Fatalf("the program failed: %s\n%s", rec.Reason, tail(tr))
				}
				if rec.Result == rules.Ongoing || rec.Plies < 4 {
					t.Errorf("result %v after %d plies: %s", rec.Result, rec.Plies, rec.Reason)
				}
			})
		}
	}
}

// TestFailingProgramsLoseWithTheReason: each way a program can fail loses
// it the game, with the reason: the misbehaviour itself, seen before a
// limit only a hang reaches, or the move time and grace for the programs
// that answer late or never.
func TestFailingProgramsLoseWithTheReason(t *testing.T) {
	modes := []struct{ mode, want string }{
		{"crash", "crashed"},
		{"hang", "timed out"},
		{"slow", "timed out"},
		{"garbage", "garbage"},
		{"illegal", "illegal move"},
		{"quit", "exited before its move"},
		{"flood", "flooded"},
		{"refuse", "refused the legal move"},
	}
	for ci, c := range conventions {
		for mi, m := range modes {
			if testing.Short() && mi%len(conventions) != ci {
				continue // each mode under one convention; the full run has them all
			}
			t.Run(c.name+"/"+m.mode, func(t *testing.T) {
				t.Parallel()
				side := rules.P2
				moveTime := roomyMoveTime // a flood ends the game as soon as it passes the limit
				if m.mode == "hang" || m.mode == "slow" {
					moveTime = tightMoveTime // these end by the limit itself
				}
				rec, tr := play(t, c.game, c.opts, c.args+" -mode "+m.mode, side, moveTime)
				if w, ok := rec.Result.Winner(); !ok || w == side {
					t.Fatalf("the failing program did not lose: %v, %s\n%s", rec.Result, rec.Reason, tail(tr))
				}
				if !strings.Contains(rec.Reason, "class:") || !strings.Contains(rec.Reason, m.want) {
					t.Errorf("reason %q, want it to name the program and say %q\n%s", rec.Reason, m.want, tail(tr))
				}
			})
		}
	}
}

// TestCrashQuotesTheProgramsErrorOutput: a program that dies with an
// error on its standard error loses with that error in its reason, as a
// student reads it in the results (the command itself does not hold the
// error's text, since the reason also names the command).
func TestCrashQuotesTheProgramsErrorOutput(t *testing.T) {
	reg := games.Registry()
	g, err := reg.New("sixes", nil)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := NewPlayer(`printf '%sError: %s\n' Index "list index out of range" >&2; exit 1`, engine.PlayerOptions{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	rnd, err := engine.NewPlayer("random", engine.PlayerOptions{Registry: reg, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	rec, _, err := engine.PlayGame(ctx, g, nil, [2]engine.Player{prog, rnd}, roomyMoveTime)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Reason, "crashed") || !strings.Contains(rec.Reason, "IndexError: list index out of range") {
		t.Errorf("reason %q, want the crash with its error output", rec.Reason)
	}
}

// TestQuotesTheProgramsWords: a disagreement quotes what the program said.
func TestQuotesTheProgramsWords(t *testing.T) {
	rec, _ := play(t, "hiya", nil, "-style 12 -mode illegal", rules.P1, roomyMoveTime)
	if !strings.Contains(rec.Reason, "Alice moves: D8 -> D1") {
		t.Errorf("reason %q does not quote the program", rec.Reason)
	}
	rec, _ = play(t, "sixes", rules.Options{"turns": "16"}, "-mode quit", rules.P1, roomyMoveTime)
	if !strings.Contains(rec.Reason, "the computer wins") {
		t.Errorf("reason %q does not quote the program", rec.Reason)
	}
}

func TestSplitAndTurn(t *testing.T) {
	for in, want := range map[string][2]string{"c4 d4": {"c4", "d4"}, "4 2 4 10": {"4 2", "4 10"}, "E2B5": {"E2", "B5"}} {
		if f, to := splitMove(in); f != want[0] || to != want[1] {
			t.Errorf("splitMove(%q) = %q, %q", in, f, to)
		}
	}
	if turn("D7") != "D2" || turn("A1") != "G8" || turn("g8") != "A1" {
		t.Errorf("turn: D7 %s, A1 %s, g8 %s", turn("D7"), turn("A1"), turn("g8"))
	}
}

func tail(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}

// TestUpthrustSpeaksTheEngineProtocol: Upthrust's class programs speak the
// engine protocol (the game manager's own convention is lost).
func TestUpthrustSpeaksTheEngineProtocol(t *testing.T) {
	reg := games.Registry()
	g, err := reg.New("upthrust", rules.Options{"colours": "gb"})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := NewPlayer("CLASSPROG_SERVE=1 "+os.Args[0]+" -test.run=^$", engine.PlayerOptions{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	if !FromStart("./prog", "sixes") || FromStart("./prog", "upthrust") {
		t.Error("FromStart: class conventions start from the start, the engine protocol does not")
	}
	rnd, _ := engine.NewPlayer("greedy", engine.PlayerOptions{Registry: reg, Seed: 1})
	rec, _, err := engine.PlayGame(context.Background(), g, nil, [2]engine.Player{prog, rnd}, roomyMoveTime)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result == rules.Ongoing || strings.Contains(rec.Reason, "class:") {
		t.Errorf("result %v: %s", rec.Result, rec.Reason)
	}
}

// TestProfileFile: a profile describes a program whose prompts differ.
func TestProfileFile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "alice.json")
	err := os.WriteFile(prof, []byte(`{"name": "alice",
		"questions": [{"prompt": "1 = Human, 2 = Computer", "answer": "{first12}"}],
		"move": "(?i)alice moves:\\s*(?P<from>[A-G][1-8])\\s*->\\s*(?P<to>[A-G][1-8])",
		"ask": [{"prompt": "(?i)enter your move", "answer": "{from} {to}"}],
		"turned_as": "South"}`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(prof+":"+fake+" -game hiya -style 12", engine.PlayerOptions{})
	if err != nil || p.profile == nil || p.profile.Name != "alice" {
		t.Fatalf("profile not read: %v", err)
	}
	reg := games.Registry()
	g, _ := reg.New("hiya", nil)
	rnd, _ := engine.NewPlayer("random", engine.PlayerOptions{Registry: reg, Seed: 2})
	rec, _, err := engine.PlayGame(context.Background(), g, nil, [2]engine.Player{rnd, p}, roomyMoveTime)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Result == rules.Ongoing || strings.Contains(rec.Reason, "class:") {
		t.Errorf("result %v: %s\n%s", rec.Result, rec.Reason, tail(p.Transcript()))
	}
	if err := os.WriteFile(prof, []byte(`{"move": "(", "ask": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlayer(prof+":./x", engine.PlayerOptions{}); err == nil {
		t.Error("a bad profile was accepted")
	}
	_, err = NewPlayer("csc180-yn:"+fake, engine.PlayerOptions{})
	if want := "no profile file csc180-yn"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a profile that is not a file: error %v, want one saying %q", err, want)
	}
}

// TestSplitMoveLine: a program whose move line arrives in two parts, its
// text and, a while later, its end, is read as one move: the unfinished
// text, quiet long enough to pass for a prompt, is not taken for a second
// move when the line ends.
func TestSplitMoveLine(t *testing.T) {
	for _, side := range []rules.Player{rules.P1, rules.P2} {
		rec, tr := play(t, "sixes", rules.Options{"turns": "8"}, "-mode split", side, roomyMoveTime)
		if strings.Contains(rec.Reason, "class:") || rec.Result == rules.Ongoing {
			t.Fatalf("%s: %v, %s\n%s", side, rec.Result, rec.Reason, tail(tr))
		}
	}
}
