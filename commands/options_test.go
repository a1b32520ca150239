package commands

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzCheckOptions: any invocation is checked without panicking, and one
// that passes names only the command's options, gives every required one,
// and holds only choice values and whole numbers in bounds.
func FuzzCheckOptions(f *testing.F) {
	specs := CommandSet([]string{"hique", "upthrust", "hiya", "sixes"})
	for _, s := range []string{"play game:sixes level:3", "board style:Emoji", "referee start game:hiya p1:a p2:b", "play level:9", "move", "settings board:ascii", "play thread:TRUE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		inv, err := ParseLine(line, specs)
		if err != nil {
			return
		}
		if err := CheckOptions(specs, &inv); err != nil {
			if len(err.Error()) > 400 {
				t.Fatalf("CheckOptions(%q): a %d-byte error", line, len(err.Error()))
			}
			return
		}
		spec, _ := findSpec(specs, inv.Command)
		if inv.Sub != "" {
			spec, _ = findSpec(spec.Subcommands, inv.Sub)
		}
		for _, o := range spec.Options {
			v, ok := inv.Options[o.Name]
			if o.Required && (!ok || strings.TrimSpace(v) == "") {
				t.Fatalf("CheckOptions(%q) passed without %s", line, o.Name)
			}
			if ok && len(o.Choices) > 0 && o.Name != "game" && !slices.ContainsFunc(o.Choices, func(c Choice) bool { return c.Value == v }) {
				t.Fatalf("CheckOptions(%q) passed %s=%q, not a choice", line, o.Name, v)
			}
			if ok && len(v) > MaxOptionLength {
				t.Fatalf("CheckOptions(%q) passed a %d-byte %s", line, len(v), o.Name)
			}
		}
		for k := range inv.Options {
			if _, ok := findOption(spec.Options, k); !ok {
				t.Fatalf("CheckOptions(%q) passed unknown option %q", line, k)
			}
		}
	})
}

// TestCommandSetWithManyGames: past Discord's 25 choices the game option
// takes typed names instead of choices, so that registration still works.
func TestCommandSetWithManyGames(t *testing.T) {
	gameOption := func(names []string) OptionSpec {
		for _, c := range CommandSet(names) {
			if c.Name == "play" {
				return c.Options[0]
			}
		}
		t.Fatal("no /play")
		return OptionSpec{}
	}
	var names []string
	for i := range 26 {
		names = append(names, fmt.Sprintf("game%d", i))
	}
	if o := gameOption(names[:25]); len(o.Choices) != 25 {
		t.Errorf("25 games: %d choices, want 25", len(o.Choices))
	}
	if o := gameOption(names); o.Name != "game" || len(o.Choices) != 0 {
		t.Errorf("26 games: %d choices, want none", len(o.Choices))
	}
}

// TestCheckOptionsCopies: the options are folded and an empty one dropped
// in a copy; the caller's map stays as it was sent, and a map with nothing
// to change is used as it is.
func TestCheckOptionsCopies(t *testing.T) {
	specs := CommandSet([]string{"hique", "sixes"})
	sent := map[string]string{"style": " Emoji ", "view": ""}
	inv := Invocation{Command: "board", Options: sent}
	if err := CheckOptions(specs, &inv); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(inv.Options); got != "map[style:emoji]" {
		t.Errorf("checked options %s, want map[style:emoji]", got)
	}
	if got := fmt.Sprint(sent); got != "map[style: Emoji  view:]" {
		t.Errorf("the sent map became %s", got)
	}
	plain := map[string]string{"move": "4 2 4 8"}
	inv = Invocation{Command: "move", Options: plain}
	if err := CheckOptions(specs, &inv); err != nil {
		t.Fatal(err)
	}
	plain["move"] = "changed"
	if inv.Options["move"] != "changed" {
		t.Errorf("a map with nothing to fold was copied")
	}
}
