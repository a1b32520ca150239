package cli

import (
	"bufio"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"
	"arbiter/commands"
	"arbiter/internal/testkit"
	"arbiter/rules/games"
)

// block is a fenced code block of a markdown file: its info string and
// its lines.
type block struct {
	lang  string
	lines []string
}

// codeBlocks reads the fenced code blocks of the markdown file at path, in
// order.
func codeBlocks(t *testing.T, path string) []block {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []block
	var cur *block
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{lang: strings.TrimPrefix(line, "```")}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	if cur != nil {
		t.Fatalf("%s: a code block is not closed", path)
	}
	return out
}

// logMessage is the msg="..." of a log line.
var logMessage = regexp.MustCompile(`msg="([^"]+)"`)

// TestTutorialFirstServer follows docs/tutorials/first-server.md as its
// reader would, against the fake Discord: every code block is a step,
// run as written (the values the reader pastes are the fake's), and a step
// this test does not know fails it, so the tutorial cannot gain a step
// nobody ran. The reader ends with a running bot that played a game.
func TestTutorialFirstServer(t *testing.T) {
	const tutorial = "../docs/tutorials/first-server.md"
	blocks := codeBlocks(t, tutorial)
	example, err := filepath.Abs(envExample)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range readEnvExample(t) { // a fresh machine: only what the tutorial sets
		t.Setenv(s.name, "")
		os.Unsetenv(s.name)
	}
	dir := t.TempDir()
	t.Chdir(dir)

	// A token of Discord's shape (the bot's id in base64, a time, a
	// signature), as the reader copies it, for the fake's application.
	const appID = "1575166017133477888"
	token := base64.RawURLEncoding.EncodeToString([]byte(appID)) + ".GtUtor.ial-bot-token-of-the-fake-discord-0000000"
	srv := discordtest.Start(t, discordtest.Options{Token: token, AppID: appID})
	guild := srv.Guild()
	pasted := map[string]string{
		"PASTE-THE-BOT-TOKEN":      token,
		"PASTE-THE-APPLICATION-ID": srv.AppID(),
		"PASTE-THE-SERVER-ID":      guild.ID,
	}
	specs := append(commands.CommandSet(games.Registry().Names()), commands.CommandSpec{Name: "diagnose"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var botLog testkit.Buffer
	var botExit chan int
	stopBot := func() {}
	defer func() { stopBot() }()
	steps := 0
	for _, b := range blocks {
		switch b.lang {
		case "sh":
			for _, line := range b.lines {
				steps++
				switch {
				case line == "go build -o arbiter .":
					// The test runs the same code in this process (cli.Main).
				case line == "cp .env.example .env":
					raw, err := os.ReadFile(example)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(".env", raw, 0o600); err != nil {
						t.Fatal(err)
					}
				case line == "./arbiter doctor":
					var out testkit.Buffer
					if code := Main(ctx, []string{"doctor"}, &out, &out); code != 0 {
						t.Fatalf("%s: ./arbiter doctor exited %d:\n%s", tutorial, code, out.String())
					}
				case line == "./arbiter bot":
					botCtx, stop := context.WithCancel(ctx)
					botExit = make(chan int, 1)
					go func() {
						botExit <- runBotAt(botCtx, nil, &botLog, discordAt{client: srv.HTTPClient(), dialer: srv.Dialer()})
					}()
					stopBot = func() {
						stop()
						select {
						case <-botExit:
						case <-time.After(hangBound):
							t.Errorf("the bot did not stop within %v", hangBound)
						}
					}
					if _, err := srv.WaitConnected(ctx); err != nil {
						t.Fatalf("the bot did not connect: %v\n%s", err, botLog.String())
					}
					waitLog(ctx, t, &botLog, "commands registered")
				default:
					t.Fatalf("%s: the step %q is not one this test knows how to follow: teach TestTutorialFirstServer", tutorial, line)
				}
			}
		case "ini":
			env, err := os.ReadFile(".env")
			if err != nil {
				t.Fatalf("%s: .env is edited before it was made: %v", tutorial, err)
			}
			for _, line := range b.lines {
				steps++
				name, value, ok := strings.Cut(line, "=")
				if !ok {
					t.Fatalf("%s: %q is not a NAME=value line of .env", tutorial, line)
				}
				if v, ok := pasted[value]; ok {
					value = v
				} else if strings.Contains(value, "PASTE") {
					t.Fatalf("%s: %q: this test does not know what the reader pastes for %s", tutorial, line, value)
				}
				re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `=.*$`)
				if !re.Match(env) {
					t.Fatalf("%s: .env.example has no line %s= for the reader to fill in", tutorial, name)
				}
				env = re.ReplaceAll(env, []byte(name+"="+value))
			}
			if err := os.WriteFile(".env", env, 0o600); err != nil {
				t.Fatal(err)
			}
		case "text":
			for _, line := range b.lines {
				if m := logMessage.FindStringSubmatch(line); m != nil {
					steps++
					waitLog(ctx, t, &botLog, m[1])
				}
			}
		case "discord":
			if botExit == nil {
				t.Fatalf("%s: Discord commands before the bot was started", tutorial)
			}
			for _, line := range b.lines {
				steps++
				typeCommand(ctx, t, srv, guild, specs, line)
			}
		default:
			t.Fatalf("%s: a code block of %q: this test follows sh, ini, text and discord blocks only", tutorial, b.lang)
		}
	}
	if steps < 8 {
		t.Fatalf("%s: only %d steps followed", tutorial, steps)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("the bot broke Discord's rules: %v", v)
	}
	stopBot()
	stopBot = func() {}
	if strings.Contains(botLog.String(), token) {
		t.Error("the bot logged its token")
	}
}

// waitLog waits until the bot's log has a line with msg.
func waitLog(ctx context.Context, t *testing.T, log *testkit.Buffer, msg string) {
	t.Helper()
	for !strings.Contains(log.String(), `msg="`+msg+`"`) {
		select {
		case <-ctx.Done():
			t.Fatalf("the bot never logged %q:\n%s", msg, log.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// typeCommand sends one line of a discord block as the server's owner
// would type it in the general channel, and checks its answer: public
// unless the command answers privately by nature, never a refusal. After
// a /move against the bot it waits for the bot's answer too.
func typeCommand(ctx context.Context, t *testing.T, srv *discordtest.Server, guild discordtest.Guild, specs []commands.CommandSpec, line string) {
	t.Helper()
	inv, err := commands.ParseLine(line, specs)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	spec := specs[slices.IndexFunc(specs, func(c commands.CommandSpec) bool { return c.Name == inv.Command })]
	opts := make([]discordtest.Option, 0, len(inv.Options))
	for _, o := range spec.Options {
		text, ok := inv.Options[o.Name]
		if !ok {
			continue
		}
		var v any = text
		switch o.Type {
		case commands.OptInteger:
			if v, err = strconv.Atoi(text); err != nil {
				t.Fatalf("%q: %s: %v", line, o.Name, err)
			}
		case commands.OptBoolean:
			if v, err = strconv.ParseBool(text); err != nil {
				t.Fatalf("%q: %s: %v", line, o.Name, err)
			}
		case commands.OptUser:
			t.Fatalf("%q: the tutorial names no other member", line)
		}
		opts = append(opts, discordtest.Option{Name: o.Name, Value: v})
	}
	before := len(srv.Messages(guild.DefaultChannelID))
	in, err := srv.SendCommand(guild.OwnerID, guild.DefaultChannelID, inv.Command, opts...)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	if _, err := srv.WaitForResponse(ctx, in.ID); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	answer, err := srv.WaitForMessage(ctx, func(m discordtest.Message) bool {
		return m.InteractionID == in.ID && !m.Loading() && m.Content != "Answered privately." && m.Content != "Answered below."
	})
	if err != nil {
		t.Fatalf("%q: no answer: %v", line, err)
	}
	private := slices.Contains([]string{"help", "rules", "moves", "games", "stats", "diagnose"}, inv.Command)
	if answer.Ephemeral() != private {
		t.Fatalf("%q was answered %s: %q", line, map[bool]string{true: "privately (a refusal?)", false: "publicly"}[answer.Ephemeral()], answer.Content)
	}
	if inv.Command == "diagnose" && !strings.Contains(answer.Content, "View Channel") {
		t.Fatalf("%q did not list the permissions: %q", line, answer.Content)
	}
	if inv.Command != "move" {
		return
	}
	_, err = srv.WaitForMessage(ctx, func(m discordtest.Message) bool {
		return m.ChannelID == guild.DefaultChannelID && m.InteractionID == "" && m.AuthorID == srv.BotUser().ID &&
			len(srv.Messages(guild.DefaultChannelID)) > before+1
	})
	if err != nil {
		t.Fatalf("%q: the bot never answered the move: %v", line, err)
	}
}
