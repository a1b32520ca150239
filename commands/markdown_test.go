package commands_test

import (
	"flag"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"arbiter/commands"
	"arbiter/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// hostileNames are display names and texts that try to be more than text
// in a Discord message.
var hostileNames = []string{
	"alice",
	"@everyone [exam](https://e.vil)",
	"# Exam cancelled",
	"> quoted\nsecond line",
	"**bold** __under__ ~~strike~~ ||spoiler||",
	"<@123456789012345678> <#42> <@&7> <:emoji:1>",
	"`code` ```block```",
	"-# subtext",
	"jean-luc_picard",
	"https://e.vil/login",
	"back\\slash",
}

// TestEscapeMarkdownGolden: each hostile name as the bot writes it
// (testdata/markdown.golden; go test ./commands -run EscapeMarkdownGolden -update
// rewrites it). What the golden file shows is checked too: no unescaped
// link, heading, mention or formatting character is left.
func TestEscapeMarkdownGolden(t *testing.T) {
	var b strings.Builder
	for _, n := range hostileNames {
		got := commands.EscapeMarkdown(n)
		fmt.Fprintf(&b, "%q\n\t%q\n", n, got)
		for i, r := range got {
			if strings.ContainsRune("*_~`|>#[]<", r) && (i == 0 || got[i-1] != '\\') {
				t.Errorf("%q: %q leaves %q unescaped", n, got, r)
			}
		}
		if strings.Contains(got, "@everyone") || strings.Contains(got, "://") || strings.ContainsAny(got, "\n\r") {
			t.Errorf("%q: %q still pings, links or breaks the line", n, got)
		}
	}
	testkit.Golden(t, "testdata/markdown.golden", b.String(), *update)
}

var codeBlock = regexp.MustCompile("(?s)```.*?```")

// TestNamesInertInMessages: a player whose display name is a masked link
// and @everyone is written inert in the challenge and the board message.
func TestNamesInertInMessages(t *testing.T) {
	e := newEnv(t, false)
	evil := commands.User{ID: "666", Name: "@everyone [exam](https://e.vil) ```"}
	inv, err := commands.ParseLine("/play game:sixes opponent:@ann", commands.CommandSet(e.reg.Names()))
	if err != nil {
		t.Fatal(err)
	}
	inv.Guild, inv.Channel, inv.User = "guild1", "c1", evil
	inv.Options["opponent"] = ann.ID
	inv.Users = map[string]commands.User{"opponent": ann}
	r := e.svc.Handle(t.Context(), inv)
	if r.Private {
		t.Fatal(r.Text)
	}
	accepted := e.ok(ann, "c1", "/accept")
	for _, text := range []string{r.Text, accepted.Text} {
		// A code block (the text board) shows text as written; outside it
		// nothing may be live, and the name cannot close the block.
		if strings.Count(text, "```") != 2 {
			t.Errorf("the name breaks out of the board's code block:\n%s", text)
		}
		text = codeBlock.ReplaceAllString(text, "")
		if strings.Contains(text, "[exam](") || strings.Contains(text, "@everyone") || strings.Contains(text, "https://") {
			t.Errorf("the name is live in:\n%s", text)
		}
	}
	if !strings.Contains(accepted.Text, `\[exam\](https:`) {
		t.Errorf("the escaped name is not shown in:\n%s", accepted.Text)
	}
}
