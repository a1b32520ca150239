package commands

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	specs := CommandSet([]string{"hique", "upthrust", "hiya", "sixes"})
	tests := []struct {
		line string
		cmd  string
		sub  string
		opts map[string]string
	}{
		{"/play game:hique level:3", "play", "", map[string]string{"game": "hique", "level": "3"}},
		{"/move 4 2 4 10", "move", "", map[string]string{"move": "4 2 4 10"}},
		{"move move:4,2 4,10", "move", "", map[string]string{"move": "4,2 4,10"}},
		{"/move (4,2)->(4,10)", "move", "", map[string]string{"move": "(4,2)->(4,10)"}},
		{`/play sixes opponent:@bob options:"turns=60 edges=on"`, "play", "", map[string]string{"game": "sixes", "opponent": "@bob", "options": "turns=60 edges=on"}},
		{"/referee start game:sixes p1:@ann p2:@bob", "referee", "start", map[string]string{"game": "sixes", "p1": "@ann", "p2": "@bob"}},
		{"/referee adjudicate result:p1 reason:White left: no show", "referee", "adjudicate", map[string]string{"result": "p1", "reason": "White left: no show"}},
		{"/RESIGN", "resign", "", map[string]string{}},
		{"/board style:emoji view:mine", "board", "", map[string]string{"style": "emoji", "view": "mine"}},
	}
	for _, tt := range tests {
		inv, err := ParseLine(tt.line, specs)
		if err != nil {
			t.Errorf("ParseLine(%q): %v", tt.line, err)
			continue
		}
		if inv.Command != tt.cmd || inv.Sub != tt.sub || len(inv.Options) != len(tt.opts) {
			t.Errorf("ParseLine(%q) = %s %s %v", tt.line, inv.Command, inv.Sub, inv.Options)
			continue
		}
		for k, v := range tt.opts {
			if inv.Options[k] != v {
				t.Errorf("ParseLine(%q): %s = %q, want %q", tt.line, k, inv.Options[k], v)
			}
		}
	}
	bad := map[string]string{
		"/dance":                      "there is no command /dance",
		"/referee jump":               "/referee takes start, abort",
		"/resign now":                 "/resign takes no options",
		"/play game:hique game:sixes": "option game is given twice",
		"/board colour:red":           "/board has no option colour; it takes style, view",
	}
	for line, want := range bad {
		if _, err := ParseLine(line, specs); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLine(%q) error = %v, want one containing %q", line, err, want)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	specs := CommandSet([]string{"hique", "upthrust", "hiya", "sixes"})
	for _, s := range []string{"/play game:hique level:3", "/move 4 2 4 10", `/play sixes options:"a=b"`, "/referee start p1:x", "/", "", "move:", "/board style:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		inv, err := ParseLine(line, specs)
		if err != nil {
			return
		}
		spec, ok := findSpec(specs, inv.Command)
		if !ok {
			t.Fatalf("ParseLine(%q) accepted unknown command %q", line, inv.Command)
		}
		if inv.Sub != "" {
			spec, _ = findSpec(spec.Subcommands, inv.Sub)
		}
		for k := range inv.Options {
			found := false
			for _, o := range spec.Options {
				found = found || o.Name == k
			}
			if !found {
				t.Fatalf("ParseLine(%q) accepted unknown option %q", line, k)
			}
		}
	})
}

// FuzzParseButton: any custom id is read without panicking, and what is
// accepted reads the same again once written in canonical form.
func FuzzParseButton(f *testing.F) {
	for _, s := range []string{"resign:1:2", "accept:12:31", "board:1:0", "x", "draw:a:9999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		cmd, game, version, err := ParseButton(id)
		if err != nil {
			return
		}
		back := fmt.Sprintf("%s:%s:%d", cmd, game, version)
		cmd2, game2, version2, err := ParseButton(back)
		if err != nil || cmd2 != cmd || game2 != game || version2 != version {
			t.Fatalf("ParseButton(%q) = %s %s %d, but %q reads %s %s %d %v", id, cmd, game, version, back, cmd2, game2, version2, err)
		}
	})
}
