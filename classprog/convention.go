package classprog

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"arbiter/rules"
)

// Style is one way a class program talks, as a profile file describes it
// (JSON with these keys). Prompts and the move line are regular
// expressions (Go syntax) matched against a line or an unfinished prompt
// of the program's output; answers are templates.
//
// Templates: {from} and {to} are the squares of the opponent's move in the
// program's coordinates ("c4", "4 2", "E2"), {move} the whole move as the
// game writes it; {human} and {computer} are the opponent's and the
// program's player numbers (1 moves first), {human_first_yn} is "y" when
// the opponent moves first, else "n"; {opt:KEY} is the game's option KEY.
type Style struct {
	Name string `json:"name"`
	// Questions are asked once, before the first move (which player the
	// human is, the turn limit...).
	Questions []Answer `json:"questions"`
	// Move matches the line with the program's own move, with the named
	// groups from and to, or move.
	Move string `json:"move"`
	// Ask are the prompts for the opponent's move, in order, each with its
	// answer; a program blocked reading its terminal with no prompt shown
	// is taken to ask the next of them.
	Ask []Answer `json:"ask"`
	// TurnedAs names the side (in the game's words) at which the program's
	// coordinates are turned half around: a Hi-Ya! program always plays
	// "the computer" at the top, so sitting as South it sees the board
	// turned.
	TurnedAs string `json:"turned_as,omitempty"`

	questions []prompt
	move      *regexp.Regexp
	ask       []prompt
}

// Answer is a prompt and what to answer it.
type Answer struct {
	Prompt string `json:"prompt"`
	Answer string `json:"answer"`
}

type prompt struct {
	re     *regexp.Regexp
	answer string
}

// compile checks the style's expressions.
func (s *Style) compile() error {
	var err error
	if s.move, err = regexp.Compile(s.Move); err != nil || s.Move == "" {
		return fmt.Errorf("style %q: the move expression %q: %v", s.Name, s.Move, err)
	}
	names := s.move.SubexpNames()
	if !(contains(names, "move") || contains(names, "from") && contains(names, "to")) {
		return fmt.Errorf("style %q: the move expression needs the groups (?P<from>...) and (?P<to>...), or (?P<move>...)", s.Name)
	}
	if len(s.Ask) == 0 {
		return fmt.Errorf("style %q: no prompt for the opponent's move (ask)", s.Name)
	}
	for _, list := range []struct {
		in  []Answer
		out *[]prompt
	}{{s.Questions, &s.questions}, {s.Ask, &s.ask}} {
		*list.out = nil
		for _, a := range list.in {
			re, err := regexp.Compile(a.Prompt)
			if err != nil || a.Prompt == "" {
				return fmt.Errorf("style %q: the prompt %q: %v", s.Name, a.Prompt, err)
			}
			*list.out = append(*list.out, prompt{re: re, answer: a.Answer})
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// LoadProfile reads a profile file: one Style in JSON.
func LoadProfile(path string) (*Style, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	var s Style
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("profile %s: %w", path, err)
	}
	if s.Name == "" {
		s.Name = path
	}
	if err := s.compile(); err != nil {
		return nil, fmt.Errorf("profile %s: %w", path, err)
	}
	return &s, nil
}

// askPrompt is a prompt for the user's move: "Enter your move:", "Your
// move?", "Human's move (X1 Y1 X2 Y2): " — words asking for a move and
// ending the line with ":", "?" or ">", so that a list such as "Your legal
// moves: E2B5 F2C5" is not taken for one.
const askPrompt = `(?i)\b(enter|your|human'?s?|opponent'?s?|type)\b[^:?>]*\bmoves?\b[^:?>]*[:?>]\s*$`

// Conventions returns the class conventions Arbiter knows, by game: the
// styles a class:COMMAND program of that game may speak, recognised by
// their prompts. Upthrust has none: its programs speak the engine protocol
// (the 1998 game manager's own I/O specification is lost).
func Conventions() map[string][]Style {
	out := map[string][]Style{
		// Sixes, CSE 462 assignment 3: "your program will ask if the user
		// will be Player1 or 2", "the maximum number of turns will be given
		// by the user", "Computer moves the piece at f4 to f5", "Choose
		// piece to move: c4" / "Choose the new position for c4: d4".
		"sixes": {{
			Name: "cse462",
			Questions: []Answer{
				{Prompt: `(?i)player\s*1 or\s*(player\s*)?2|\b1 or 2\b`, Answer: "{human}"},
				{Prompt: `(?i)(max|maximum|number of|limit).*turns?|turn limit`, Answer: "{opt:turns}"},
			},
			Move: `(?i)computer moves the piece at (?P<from>[a-f][1-6]) to (?P<to>[a-f][1-6])`,
			Ask: []Answer{
				{Prompt: `(?i)choose (the )?piece to move`, Answer: "{from}"},
				{Prompt: `(?i)choose the new position`, Answer: "{to}"},
			},
		}},
		// HiQUE, CS 405: "Moves will be referenced by four numbers: X1 Y1
		// X2 Y2" in the handout's 13x13 coordinates; the program asks
		// which player the human is (1 = Black, who moves first).
		"hique": {{
			Name: "cs405",
			Questions: []Answer{
				{Prompt: `(?i)player\s*1 or\s*(player\s*)?2|\b1 or 2\b|black or white`, Answer: "{human}"},
				{Prompt: `(?i)(go|move|play) first.*(y/n|\?)`, Answer: "{human_first_yn}"},
			},
			Move: `^\s*(?:[A-Za-z' ]{0,30}:\s*)?(?P<move>\d{1,2}\s+\d{1,2}\s+\d{1,2}\s+\d{1,2})\s*$`,
			Ask:  []Answer{{Prompt: askPrompt, Answer: "{move}"}},
		}},
		// Hi-Ya!, CSC 180: the program is "the computer" at the top (North)
		// against a "human" at the bottom (South). Two styles seen in the
		// class's programs.
		"hiya": {
			{
				Name:      "csc180-yn",
				Questions: []Answer{{Prompt: `(?i)(go|move|play) first.*y\s*/\s*n`, Answer: "{human_first_yn}"}},
				Move:      `(?i)my move is:?\s*(?P<from>[A-G][1-8])\s*-?\s*(?P<to>[A-G][1-8])`,
				Ask:       []Answer{{Prompt: askPrompt, Answer: "{from}{to}"}},
				TurnedAs:  "South",
			},
			{
				Name:      "csc180-12",
				Questions: []Answer{{Prompt: `(?i)1\s*=\s*human.*2\s*=\s*computer|1\s*=\s*computer.*2\s*=\s*human`, Answer: "{first12}"}},
				Move:      `(?i)\b\w+ moves:\s*(?P<from>[A-G][1-8])\s*-+>\s*(?P<to>[A-G][1-8])`,
				Ask:       []Answer{{Prompt: askPrompt, Answer: "{from} {to}"}},
				TurnedAs:  "South",
			},
		},
	}
	for game, styles := range out {
		for i := range styles {
			if err := styles[i].compile(); err != nil {
				panic(fmt.Sprintf("classprog: %s: %v", game, err)) // a programming error in the table above
			}
		}
	}
	return out
}

// splitMove writes move text as the program's from and to squares: two
// words ("c4 d4"), four numbers ("4 2 4 10": "4 2" and "4 10") or four
// characters ("E2B5").
func splitMove(text string) (from, to string) {
	f := strings.Fields(text)
	switch {
	case len(f) == 2:
		return f[0], f[1]
	case len(f) == 4:
		return f[0] + " " + f[1], f[2] + " " + f[3]
	case len(f) == 1 && len(f[0]) == 4:
		return f[0][:2], f[0][2:]
	}
	return text, ""
}

// turn turns a Hi-Ya!-style square (column letter, row digit) half around
// on a board of columns A..G and rows 1..8.
func turn(sq string) string {
	if len(sq) != 2 {
		return sq
	}
	c, r := sq[0]|0x20, sq[1]
	if c < 'a' || c > 'g' || r < '1' || r > '8' {
		return sq
	}
	return string([]byte{'A' + 'g' - c, '1' + '8' - r})
}

// fill writes a template for the opponent's move m (NoMove in the setup)
// in g, where the program sits at side.
func fill(tmpl string, g rules.Game, side rules.Player, m rules.Move, turned bool) string {
	var from, to, move string
	if m != rules.NoMove {
		move = g.FormatMove(m)
		from, to = splitMove(move)
		if turned {
			from, to = turn(from), turn(to)
			move = from + to
		}
	}
	human := side.Other()
	yn := func(b bool) string {
		if b {
			return "y"
		}
		return "n"
	}
	r := strings.NewReplacer("{from}", from, "{to}", to, "{move}", move,
		"{human}", fmt.Sprint(int(human)+1), "{computer}", fmt.Sprint(int(side)+1),
		"{first12}", fmt.Sprint(int(human)+1), "{human_first_yn}", yn(human == rules.P1))
	out := r.Replace(tmpl)
	for k, v := range g.Options() {
		out = strings.ReplaceAll(out, "{opt:"+k+"}", v)
	}
	return out
}
