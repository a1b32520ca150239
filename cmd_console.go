package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"arbiter/commands"
	"arbiter/store"
)

// runDefault runs what plain `arbiter` (or `go run .`) should: the console
// when there is no Discord token, else the bot.
func runDefault(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter: %v\n", err)
		return 2
	}
	if cfg.DiscordToken != "" {
		if bot, ok := subcommands()["bot"]; ok {
			return bot.run(ctx, args, stdout, stderr)
		}
		fmt.Fprintln(stderr, "arbiter: DISCORD_TOKEN is set, but this build has no Discord bot yet; starting the console")
	}
	return runConsole(ctx, args, stdout, stderr)
}

// runConsole is `arbiter console`: the whole game flow in a terminal, read
// from standard input one command a line, as a local user.
func runConsole(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("user", defaultUserName(), "the local user's name")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter console: %v\n", err)
		return 2
	}
	log := newLogger(stderr, max(cfg.LogLevel, slog.LevelWarn))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, reg, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter console: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter console")
	interactive := isTerminal(os.Stdin)
	con := &console{out: stdout, users: map[string]string{}, filesDir: filepath.Join(cfg.DataDir, "files"), mention: regexp.MustCompile(`<[@#]([^>]+)>`)}
	svc := commands.New(commands.Config{
		RefereeRole: "referee",
		TurnTime:    cfg.TurnTime,
		BotMoveTime: cfg.BotMoveTime,
		Workers:     workers(cfg),
		WorkerName:  "console",
		Colour:      isTerminal(os.Stdout),
		// The console takes commands: its clock beats the heartbeat.
		TakesCommands: true,
	}, st, reg, con, log, nil)
	defer runLoops(ctx, svc, true)()
	defer cancel()

	con.as(*name)
	if interactive {
		con.printf("Arbiter console: you are %s. Try /play game:sixes level:2, then /move a1 c1.\n/help lists the commands, /as NAME switches player, /quit leaves.\n", *name)
	}
	specs := commands.CommandSet(reg.Names())
	if _, err := st.Load(ctx, con.channel); interactive && err == nil {
		con.printf("Your game goes on where you left it:\n")
		con.run(ctx, svc, specs, "/board")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 64*1024)
	for {
		if interactive {
			con.printf("%s> ", con.user.Name)
		}
		if !in.Scan() {
			break
		}
		line := strings.TrimSpace(in.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !interactive {
			con.printf("%s> %s\n", con.user.Name, line)
		}
		if !con.local(line) {
			con.run(ctx, svc, specs, line)
		}
		if con.quit || ctx.Err() != nil {
			break
		}
		con.waitForBot(ctx, svc, st)
	}
	return 0
}

// console is the terminal's side of the game flow: it is the Notifier
// that prints later messages, and it keeps the local users.
type console struct {
	mu       sync.Mutex
	out      io.Writer
	user     commands.User
	users    map[string]string // user id to name, for mentions
	channel  string
	filesDir string
	quit     bool
	mention  *regexp.Regexp // the mentions commands write: <@USER> and <#CHANNEL>
}

// as switches the local user.
func (c *console) as(name string) {
	name = strings.TrimPrefix(strings.TrimSpace(name), "@")
	c.mu.Lock()
	defer c.mu.Unlock()
	c.user = commands.User{ID: "local:" + name, Name: name}
	c.users[c.user.ID] = name
	if c.channel == "" {
		c.channel = "console"
	}
}

// local handles the console's own commands: /as, /channel, /quit.
func (c *console) local(line string) bool {
	word, rest, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	switch strings.ToLower(word) {
	case "as":
		if strings.TrimSpace(rest) == "" {
			c.printf("usage: /as NAME\n")
		} else {
			c.as(rest)
			c.printf("You are now %s.\n", c.user.Name)
		}
	case "channel":
		if ch := strings.TrimSpace(rest); ch != "" {
			c.mu.Lock()
			c.channel = ch
			c.mu.Unlock()
		}
		c.printf("Channel: %s\n", c.channel)
	case "quit", "exit":
		c.quit = true
	default:
		return false
	}
	return true
}

// run parses and answers one command line.
func (c *console) run(ctx context.Context, svc *commands.Service, specs []commands.CommandSpec, line string) {
	inv, err := commands.ParseLine(line, specs)
	if err != nil {
		c.printf("%s\n", err)
		return
	}
	inv.Guild, inv.Channel, inv.User = "console", c.channel, c.user
	inv.Roles = []string{"referee"} // at one keyboard everyone referees
	inv.Users = map[string]commands.User{}
	for _, key := range []string{"opponent", "p1", "p2", "user"} {
		if v, ok := inv.Options[key]; ok {
			name := strings.TrimPrefix(strings.TrimSpace(v), "@")
			u := commands.User{ID: "local:" + name, Name: name}
			inv.Options[key] = u.ID
			inv.Users[key] = u
			c.mu.Lock()
			c.users[u.ID] = name
			c.mu.Unlock()
		}
	}
	reply := svc.Handle(ctx, inv)
	c.show(reply.Message, reply.Private)
}

// Post prints a message that comes later (the bot's move, a reminder).
func (c *console) Post(_ context.Context, channel string, msg commands.Message) error {
	c.mu.Lock()
	here := channel == c.channel
	c.mu.Unlock()
	if !here {
		msg.Text = "[in " + channel + "] " + msg.Text
	}
	c.show(msg, false)
	return nil
}

// show prints a message, with mentions as @name and attachments saved.
func (c *console) show(msg commands.Message, private bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	text := c.mention.ReplaceAllStringFunc(msg.Text, func(m string) string {
		id := m[2 : len(m)-1]
		if m[1] == '#' { // a channel
			return "#" + id
		}
		if name, ok := c.users[id]; ok {
			return "@" + name
		}
		return "@" + strings.TrimPrefix(id, "local:")
	})
	text = strings.ReplaceAll(text, "**", "")
	text = strings.ReplaceAll(text, "```ansi\n", "")
	text = strings.ReplaceAll(text, "```\n", "")
	text = strings.ReplaceAll(text, "```", "")
	if private {
		text = "(only you) " + text
	}
	fmt.Fprintln(c.out, strings.TrimRight(text, "\n"))
	for _, f := range msg.Files {
		path := filepath.Join(c.filesDir, f.Name)
		if err := os.MkdirAll(c.filesDir, 0o755); err == nil {
			err = os.WriteFile(path, f.Data, 0o644)
			if err == nil {
				fmt.Fprintf(c.out, "(attached %s, %d bytes: saved to %s)\n", f.Name, len(f.Data), path)
				continue
			}
		}
		fmt.Fprintf(c.out, "(attached %s, %d bytes: could not be saved)\n", f.Name, len(f.Data))
	}
}

func (c *console) printf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.out, format, args...)
}

// waitForBot waits until no bot is to move in the console's channel and
// no bot turn is being posted, so that the bot's move comes before the
// next prompt and a piped script reads like a game.
func (c *console) waitForBot(ctx context.Context, svc *commands.Service, st store.Store) {
	deadline := time.Now().Add(2 * time.Minute)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		g, err := st.Load(ctx, c.channel)
		botToMove := err == nil && g.Status == store.Active && !g.Flow.Challenge && !g.Flow.Paused &&
			g.Players[g.State.ToMove()].Kind != store.Human
		if !botToMove && svc.BotTurnsInFlight() == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// defaultUserName is the console's user: $USER, or "you".
func defaultUserName() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "you"
}
