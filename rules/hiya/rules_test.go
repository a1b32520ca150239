package hiya

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
)

// diagramOf builds a Setup diagram from pieces written as cell and square,
// e.g. "NJ E6".
func diagramOf(t testing.TB, pieces ...string) string {
	t.Helper()
	var grid [rows][cols]string
	for r := range grid {
		for c := range grid[r] {
			grid[r][c] = "."
		}
	}
	for _, p := range pieces {
		f := strings.Fields(p)
		if len(f) != 2 || len(f[1]) != 2 {
			t.Fatalf("piece %q: write a cell and a square, like NJ E6", p)
		}
		c, r := int(f[1][0]-'A'), int(f[1][1]-'1')
		grid[rows-1-r][c] = f[0]
	}
	var b strings.Builder
	for _, line := range grid {
		b.WriteString(strings.Join(line[:], " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// setup builds a position (default options: South is player 1) with side
// toMove to move.
func setup(t testing.TB, toMove Side, pieces ...string) *Game {
	t.Helper()
	g, err := Setup(nil, diagramOf(t, pieces...), rules.Player(toMove))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// destinations returns the legal destinations of the piece on from, sorted
// and space-separated.
func destinations(g *Game, from string) string {
	var out []string
	for _, m := range moveTexts(g) {
		if m[:2] == from {
			out = append(out, m[2:])
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// cellAt writes the piece on a square as Setup's cell ("NJ") or ".".
func cellAt(g *Game, sq string) string {
	k, s, ok := g.PieceAt(int(sq[0]-'A')+1, int(sq[1]-'0'))
	if !ok {
		return "."
	}
	return string([]byte{"SN"[s], k.Letter()})
}

// ruleCase is a position, what it allows and what a move there does, for
// one sentence of the rules file that states a rule.
type ruleCase struct {
	rule    string   // the sentence, in short
	first   string   // option first; "" for the default
	pieces  []string // the position for Setup; nil for the start
	toMove  Side     // with pieces
	before  []string // moves played first
	dests   map[string]string
	move    string
	errKind error // expected error kind of the move, nil when legal
	errText string
	attack  bool
	after   map[string]string // square to cell after the move
	result  rules.Result
	reason  string
}

var kings = []string{"SK A1", "NK G8"}

func with(extra ...string) []string { return append(slices.Clone(kings), extra...) }

func ruleCases() []ruleCase {
	return []ruleCase{
		{
			rule:   "pieces move only onto empty squares",
			pieces: with("SS D2", "Sj D3"), toMove: South,
			dests: map[string]string{"D2": ""},
			move:  "D2D3", errKind: rules.ErrIllegal, errText: "D2D3 is not a legal move: the landing square D3 is taken by South's mini-Ninja; pieces move only onto empty squares",
		},
		{
			rule:   "never jump: a sliding piece stops before the first piece in its way",
			pieces: with("SJ A2", "NS C4"), toMove: South,
			dests: map[string]string{"A2": "B3"},
			move:  "A2D5", errKind: rules.ErrIllegal, errText: "A2D5 is not a legal move: it would pass North's Samurai on C4; pieces never jump",
		},
		{
			rule:   "never jump: a sideways slide stops before the first piece too",
			pieces: with("SS A4", "NS C5", "Nj F5", "Ss E4"), toMove: South,
			dests: map[string]string{"A4": "A5 A6 A7 A8 C4"},
			move:  "A4F4", errKind: rules.ErrIllegal, errText: "it would pass South's mini-Samurai on E4",
		},
		{
			rule:   "forward is up for South",
			pieces: []string{"SK A1", "NK G8", "SS D2"}, toMove: South,
			dests: map[string]string{"D2": "D3 D4 D5 D6 D7 D8"},
			move:  "D2D1", errKind: rules.ErrIllegal, errText: "D2D1 is not a legal move: a Samurai never moves backward",
		},
		{
			rule:   "forward is down for North",
			pieces: []string{"SK A1", "NK G8", "NS D7"}, toMove: North,
			dests: map[string]string{"D7": "D1 D2 D3 D4 D5 D6"},
			move:  "D7D8", errKind: rules.ErrIllegal, errText: "a Samurai never moves backward",
		},
		{
			rule:   "a move attacks when it ends directly in front of an opposing piece",
			pieces: with("SS D2", "Nj D6", "Nj A7"), toMove: South,
			move: "D2D5", attack: true,
			after: map[string]string{"D5": "SS", "D6": ".", "D2": "."},
		},
		{
			rule:   "exactly that one square is looked at",
			pieces: with("SJ A2", "NS B5", "Nj D5", "Ns C6"), toMove: South,
			move: "A2C4", attack: false,
			after: map[string]string{"C4": "SJ", "B5": "NS", "D5": "Nj", "C6": "Ns"},
		},
		{
			rule:   "landing in front of your own piece is no attack",
			pieces: with("SJ A2", "SS C5", "Nj A7"), toMove: South,
			move: "A2C4", attack: false,
			after: map[string]string{"C4": "SJ", "C5": "SS"},
		},
		{
			rule:   "landing in front of your own piece is no attack, so a backward move may not stop there",
			pieces: with("SJ E5", "Ss D5"), toMove: South,
			move: "E5D4", errKind: rules.ErrIllegal,
			errText: "E5D4 is not a legal move: a Ninja moves backward only to attack, and D4 is not directly in front of an opposing piece",
		},
		{
			rule:   "a piece that stands in front of another without having just moved there does not attack it",
			pieces: with("Ss D4", "NJ D5", "SS F2", "NS A7"), toMove: South,
			before: []string{"F2F3", "A7A6"},
			move:   "F3F4", attack: false,
			after: map[string]string{"D4": "Ss", "D5": "NJ", "A6": "NS", "F4": "SS"},
		},
		{
			rule: "any move can attack, a forward one included (the handout's example)",
			move: "E2B5 Hi-YA!", attack: true,
			after: map[string]string{"B5": "SJ", "B6": ".", "E2": "."},
		},
		{
			rule:   "a backward Ninja slide may stop on any square along its line where it attacks, and only there",
			pieces: with("SJ E6", "NS C5", "Nj A3"), toMove: South,
			dests: map[string]string{"E6": "A2 C4 C8 D7 F7"},
			move:  "E6C4", attack: true,
			after: map[string]string{"C4": "SJ", "C5": "Ns"},
		},
		{
			rule:   "a backward Ninja slide to the last square of its line where that attacks",
			pieces: with("SJ E6", "NS C5", "Nj A3"), toMove: South,
			move: "E6A2", attack: true,
			after: map[string]string{"A2": "SJ", "A3": "."},
		},
		{
			rule:   "a backward Ninja slide may not stop where it does not attack",
			pieces: with("SJ E6", "NS C5", "Nj A3"), toMove: South,
			move: "E6B3", errKind: rules.ErrIllegal, errText: "a Ninja moves backward only to attack, and B3 is not directly in front of an opposing piece",
		},
		{
			rule:   "a sideways Samurai slide may stop on any square along its line where it attacks, and only there",
			pieces: with("SS A4", "NS C5", "Nj F5"), toMove: South,
			dests: map[string]string{"A4": "A5 A6 A7 A8 C4 F4"},
			move:  "A4F4", attack: true,
			after: map[string]string{"F4": "SS", "F5": "."},
		},
		{
			rule:   "a sideways Samurai slide may not stop where it does not attack",
			pieces: with("SS A4", "NS C5", "Nj F5"), toMove: South,
			move: "A4D4", errKind: rules.ErrIllegal, errText: "a Samurai moves sideways only to attack, and D4 is not directly in front of an opposing piece",
		},
		{
			rule:   "an attacked Ninja becomes a mini-Ninja",
			pieces: with("SS D2", "NJ D6"), toMove: South,
			move: "D2D5", attack: true,
			after: map[string]string{"D6": "Nj"},
		},
		{
			rule:   "an attacked Samurai becomes a mini-Samurai",
			pieces: with("NS D7", "SS D2", "Sj G2"), toMove: North,
			move: "D7D3", attack: true,
			after: map[string]string{"D3": "NS", "D2": "Ss"},
		},
		{
			rule:   "an attacked mini-Ninja is removed",
			pieces: with("NJ F7", "Sj D4", "Sj G2"), toMove: North,
			move: "F7D5", attack: true,
			after: map[string]string{"D5": "NJ", "D4": "."},
		},
		{
			rule: "an attacked mini-Samurai is removed",
			move: "E2B5", attack: true,
			after: map[string]string{"B6": "."},
		},
		{
			rule:   "an attacked King is removed, which wins the game",
			pieces: with("SS G2", "NJ A7"), toMove: South,
			move: "G2G7", attack: true,
			after:  map[string]string{"G8": ".", "G7": "SS", "A7": "NJ"},
			result: rules.P1Wins, reason: "king attacked",
		},
		{
			rule:   "the King never moves",
			pieces: []string{"SK D1", "NK G8", "SS A2"}, toMove: South,
			dests: map[string]string{"D1": ""},
			move:  "D1D2", errKind: rules.ErrIllegal, errText: "D1D2 is not a legal move: the King never moves",
		},
		{
			rule:   "a Ninja slides diagonally forward any number of empty squares",
			pieces: []string{"SK D1", "NK A8", "SJ A2"}, toMove: South,
			dests: map[string]string{"A2": "B3 C4 D5 E6 F7 G8"},
			move:  "A2A5", errKind: rules.ErrIllegal, errText: "A2A5 is not a legal move: a Ninja moves diagonally",
		},
		{
			rule:   "a Ninja slides diagonally backward only to attack",
			pieces: []string{"SK D1", "NK A8", "SJ D5"}, toMove: South,
			dests: map[string]string{"D5": "B7 C6 E6 F7 G8"},
			move:  "D5C4", errKind: rules.ErrIllegal, errText: "a Ninja moves backward only to attack",
		},
		{
			rule:   "a Samurai slides straight forward any number of empty squares, never diagonally",
			pieces: with("SS B2"), toMove: South,
			dests: map[string]string{"B2": "B3 B4 B5 B6 B7 B8"},
			move:  "B2C3", errKind: rules.ErrIllegal, errText: "B2C3 is not a legal move: a Samurai moves straight forward or sideways",
		},
		{
			rule:   "a mini-Ninja moves one square diagonally forward",
			pieces: with("Sj D4"), toMove: South,
			dests: map[string]string{"D4": "C5 E5"},
			move:  "D4B6", errKind: rules.ErrIllegal, errText: "D4B6 is not a legal move: a mini-Ninja moves only one square",
		},
		{
			rule:   "a mini-Ninja moves one square diagonally backward only to attack",
			pieces: with("Sj D4", "NS C4", "Nj A7"), toMove: South,
			dests: map[string]string{"D4": "C3 C5 E5"},
			move:  "D4C3", attack: true,
			after: map[string]string{"C3": "Sj", "C4": "Ns"},
		},
		{
			rule:   "a mini-Ninja may not step diagonally backward where it does not attack",
			pieces: with("Sj D4", "NS C4"), toMove: South,
			move: "D4E3", errKind: rules.ErrIllegal, errText: "a mini-Ninja moves backward only to attack",
		},
		{
			rule:   "a mini-Ninja does not slide backward",
			pieces: with("Sj D4", "NS B3"), toMove: South,
			move: "D4B2", errKind: rules.ErrIllegal, errText: "a mini-Ninja moves only one square",
		},
		{
			rule:   "a mini-Samurai moves one square straight forward",
			pieces: with("Ss D4"), toMove: South,
			dests: map[string]string{"D4": "D5"},
			move:  "D4D6", errKind: rules.ErrIllegal, errText: "D4D6 is not a legal move: a mini-Samurai moves only one square",
		},
		{
			rule:   "a mini-Samurai moves one square sideways only to attack",
			pieces: with("Ss D4", "NS C5", "NJ F5"), toMove: South,
			dests: map[string]string{"D4": "C4 D5"},
			move:  "D4C4", attack: true,
			after: map[string]string{"C4": "Ss", "C5": "Ns"},
		},
		{
			rule:   "a mini-Samurai may not step sideways where it does not attack",
			pieces: with("Ss D4", "NS C5"), toMove: South,
			move: "D4E4", errKind: rules.ErrIllegal, errText: "a mini-Samurai moves sideways only to attack",
		},
		{
			rule:   "a mini-Samurai never moves backward",
			pieces: with("Ss D4"), toMove: South,
			move: "D4D3", errKind: rules.ErrIllegal, errText: "a mini-Samurai never moves backward",
		},
		{
			rule:   "a mini-Samurai never moves diagonally",
			pieces: with("Ss D4"), toMove: South,
			move: "D4E5", errKind: rules.ErrIllegal, errText: "a mini-Samurai moves straight forward or sideways",
		},
		{
			rule: "moving is compulsory: there is no pass",
			move: "pass", errKind: rules.ErrUnreadable,
		},
		{
			rule:   "a player loses when they have no legal move on their turn (after a move)",
			pieces: []string{"SK D1", "SS E2", "NK G8", "Ns A1"}, toMove: South,
			move: "E2E3", attack: false,
			result: rules.P1Wins, reason: "no legal move",
		},
		{
			rule:   "a player loses when they have no legal move: hurting the last piece that could move",
			pieces: []string{"SK D1", "SS B2", "NK G8", "Nj B5"}, toMove: South,
			move: "B2B4", attack: true,
			after:  map[string]string{"B5": "."},
			result: rules.P1Wins, reason: "no legal move",
		},
		{
			rule:   "a player with no legal move on their turn has lost (set up so)",
			pieces: []string{"SK A1", "Ss A8", "SS G8", "NK G1"}, toMove: South,
			result: rules.P2Wins, reason: "no legal move",
		},
		{
			rule:   "attacking the King wins even when the opponent is also left without a move",
			pieces: []string{"SK A1", "SS D2", "NK D8"}, toMove: South,
			move: "D2D7", attack: true,
			result: rules.P1Wins, reason: "king attacked",
		},
		{
			rule:  "Variant first=north: North moves first and is player 1",
			first: "north",
			dests: map[string]string{"C7": "D6 E5 F4"},
			move:  "C7F4 Hi-YA!", attack: true,
			after: map[string]string{"F4": "NJ", "F3": "."},
		},
		{
			rule:   "Variant first=north: North's win is player 1's",
			first:  "north",
			pieces: with("NS A7", "Ss A3"), toMove: North,
			move: "A7A4", attack: true,
			after:  map[string]string{"A3": "."},
			result: rules.P1Wins, reason: "no legal move",
		},
		{
			rule: "an announcement on a move that attacks nothing is refused",
			move: "E3E4 Hi-YA!", errKind: rules.ErrIllegal, errText: "E3E4 attacks nothing, so it is not announced with Hi-YA!",
		},
	}
}

func TestRules(t *testing.T) {
	for _, tc := range ruleCases() {
		t.Run(tc.rule, func(t *testing.T) {
			opts := rules.Options{}
			if tc.first != "" {
				opts["first"] = tc.first
			}
			var g *Game
			if tc.pieces == nil {
				g = newGame(t, opts)
			} else {
				var err error
				g, err = Setup(opts, diagramOf(t, tc.pieces...), playerFor(opts, tc.toMove))
				if err != nil {
					t.Fatal(err)
				}
			}
			play(t, g, tc.before...)
			if got, want := moveTexts(g), refMoveTexts(refFromGame(g)); !slices.Equal(got, want) {
				t.Fatalf("moves %v, reference %v", got, want)
			}
			for from, want := range tc.dests {
				if got := destinations(g, from); got != want {
					t.Errorf("%s goes to %q, want %q", from, got, want)
				}
			}
			if tc.move != "" {
				m, err := g.ParseMove(tc.move)
				if tc.errKind != nil {
					if !errors.Is(err, tc.errKind) || !strings.Contains(err.Error(), tc.errText) {
						t.Fatalf("%s: error %v, want %v containing %q", tc.move, err, tc.errKind, tc.errText)
					}
					return
				}
				if err != nil {
					t.Fatalf("%s: %v", tc.move, err)
				}
				if g.IsAttack(m) != tc.attack || (g.Announce(m) == "Hi-YA!") != tc.attack {
					t.Errorf("%s: attack %v, announce %q; want attack %v", tc.move, g.IsAttack(m), g.Announce(m), tc.attack)
				}
				g.Play(m)
			}
			for sq, want := range tc.after {
				if got := cellAt(g, sq); got != want {
					t.Errorf("after %s: %s holds %s, want %s\n%s", tc.move, sq, got, want, g.Diagram())
				}
			}
			o := g.Outcome()
			if o.Result != tc.result || o.Reason != tc.reason || o.HasScores || g.Status() != tc.result {
				t.Errorf("outcome %+v, want %v %q", o, tc.result, tc.reason)
			}
			if tc.result != rules.Ongoing {
				var list rules.MoveList
				g.Moves(&list)
				if list.N != 0 {
					t.Errorf("a finished game has %d moves", list.N)
				}
				if _, err := g.ParseMove("A1A2"); !errors.Is(err, rules.ErrGameOver) {
					t.Errorf("a move in a finished game: %v", err)
				}
			}
		})
	}
}

// playerFor returns the player who plays side s under opts.
func playerFor(opts rules.Options, s Side) rules.Player {
	if (opts["first"] == "north") == (s == North) {
		return rules.P1
	}
	return rules.P2
}
