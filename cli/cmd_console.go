package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"arbiter/commands"
	"arbiter/term"
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
		return runBot(ctx, args, stdout, stderr)
	}
	return runConsole(ctx, args, stdout, stderr)
}

// maxConsoleLine is the longest line the console reads; a longer one is
// refused whole.
const maxConsoleLine = 64 * 1024

// runConsole is `arbiter console`: the whole game flow in a terminal, read
// from standard input one command a line, as a local user. It goes through
// package commands only, as the Discord bot does.
//
// The console takes interrupts itself: the first Ctrl-C stops waiting for
// the bot (which goes on thinking; its move is shown when it comes), a
// second in a row leaves. SIGTERM leaves at once. Every change is saved as
// it is made, so a game in progress goes on at the next start.
func runConsole(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("user", "", "the local user's name (default $USER, else your login name)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *name == "" {
		*name = defaultUserName()
	}
	cfg, err := loadConfig()
	if err != nil {
		fmt.Fprintf(stderr, "arbiter console: %v\n", err)
		return 2
	}
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	// The parent's context ends on the first interrupt; the console decides
	// itself what an interrupt means, from the signals above.
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	log, _, closeLog := consoleLogger(stderr, cfg.DataDir, max(cfg.LogLevel, slog.LevelWarn))
	defer closeLog()
	st, reg, err := openStore(ctx, cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter console: %v\n", err)
		return 1
	}
	defer closeStore(ctx, st, stderr, "arbiter console")
	defer serveAdmin(ctx, st, cfg.DataDir, log)()
	apiLn, cfg, err := listenAPI(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "arbiter console: %v\n", err)
		return 1
	}
	if apiLn != nil {
		defer apiLn.Close()
		if cfg.PublicURL == "" {
			cfg.PublicURL = publicURL(cfg)
		}
	}
	con := &console{out: stdout, users: map[string]string{}, filesDir: filepath.Join(cfg.DataDir, "files"),
		mention: regexp.MustCompile(`<[@#]([^>]+)>`), interactive: isTerminal(os.Stdin),
		width: terminalWidth(os.Stdout), command: commandLine(os.Args, executableOnPath)}
	svc := commands.New(commands.Config{
		RefereeRole: "referee",
		TurnTime:    cfg.TurnTime,
		BotMoveTime: cfg.BotMoveTime,
		Workers:     workers(cfg),
		WorkerName:  "console",
		Colour:      isTerminal(os.Stdout),
		// The console takes commands: its clock beats the heartbeat.
		TakesCommands: true,
		CachedGames:   cfg.CachedGames,
		Limits:        cfg.Limits,
		PublicURL:     cfg.PublicURL,
		Terms:         &term.Closer{Store: st, Dir: filepath.Join(cfg.DataDir, term.Dir), Log: log},
	}, st, reg, con, log, nil)
	con.svc, con.specs = svc, commands.CommandSet(reg.Names())
	if apiLn != nil {
		con.apiURL = cfg.PublicURL
	}
	defer serveAPI(ctx, apiLn, cfg, svc, log)()
	defer runLoops(ctx, svc, true)()
	defer runRetention(ctx, cfg, st, log)()
	defer cancel()

	con.as(*name)
	if con.interactive {
		con.printf("Arbiter console: you are %s. Try /play game:sixes level:2, then /move a1 c1 (or just a1 c1).\n"+
			"/help lists the commands, /as NAME switches player, /quit or Ctrl-C twice leaves; games are saved as you play.\n", *name)
	}
	if con.apiURL != "" {
		con.printf("Serving the play page, the programs' API and the live wall at %s: /board link:true opens your board in a browser, /token new gives a token for arbiter bridge, /wall on shows the wall.\n", con.apiURL)
	}
	lines := readLines(os.Stdin, stderr)
	first := func(ctx context.Context) {
		if st, err := svc.Status(ctx, con.channel); err == nil && st.Game && con.interactive {
			con.printf("Your game goes on where you left it:\n")
			con.run(ctx, "/board")
		}
	}
	if !con.step(ctx, signals, first) {
		return con.leave(ctx)
	}
	for !con.leaving() {
		con.prompt()
		var line string
		ok, typedAhead := false, false
		select {
		case line, ok = <-lines:
			// Read already: typed ahead while the last command ran. The
			// terminal showed it then; it is shown again at its prompt.
			typedAhead = true
		default:
			select {
			case line, ok = <-lines:
			case sig := <-signals:
				if sig != os.Interrupt || con.interrupted {
					return con.leave(ctx)
				}
				con.interrupted = true
				con.printf("\n(Ctrl-C again leaves; your game is saved.)\n")
				continue
			}
		}
		if !ok {
			return con.leave(ctx)
		}
		con.interrupted = false
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch {
		case !con.interactive:
			con.printf("%s> %s\n", con.user.Name, line)
		case typedAhead:
			con.printf("%s\n", line)
		}
		if !con.step(ctx, signals, func(ctx context.Context) { con.run(ctx, line) }) {
			return con.leave(ctx)
		}
	}
	return con.leave(ctx)
}

// readLines reads in's lines into a channel, closed at the end of input.
// A line longer than maxConsoleLine is replaced by a note of its length.
func readLines(in io.Reader, stderr io.Writer) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(in, 4096)
		for {
			line, err := r.ReadString('\n')
			if len(line) > maxConsoleLine {
				line = fmt.Sprintf("# a line of %d characters was left out: the console reads at most %d", len(line), maxConsoleLine)
				fmt.Fprintln(stderr, line[2:])
			}
			if line != "" {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	return lines
}

// console is the terminal's side of the game flow: it is the Notifier
// that prints later messages, and it keeps the local users.
type console struct {
	svc         *commands.Service
	specs       []commands.CommandSpec
	interactive bool           // standard input is a terminal: prompts, no echo
	mention     *regexp.Regexp // the mentions commands write: <@USER> and <#CHANNEL>
	filesDir    string

	mu      sync.Mutex
	out     io.Writer
	user    commands.User
	users   map[string]string // user id to name, for mentions
	channel string
	quit    bool
	// interrupted says the last thing the user did was Ctrl-C; only the
	// main loop touches it.
	interrupted bool
	busy        bool               // a command is being answered: posts wait
	held        []commands.Message // posts that came while busy, shown after the answer
	prompting   bool               // the prompt is on screen, waiting for a line
	// apiURL is where the console serves the programs' API (API_ADDR),
	// empty when it does not.
	apiURL string
	// programNoted is the channel and move count of the last turn the
	// console said no program was connected for.
	programNoted string
	// width is the terminal's width, to wrap long lines at; 0 wraps none.
	width int
	// command is how the console was started, for the goodbye.
	command string
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
		c.mu.Lock()
		if ch := strings.TrimSpace(rest); ch != "" {
			c.channel = ch
		}
		ch := c.channel
		c.mu.Unlock()
		c.printf("Channel: %s\n", ch)
	case "quit", "exit":
		c.mu.Lock()
		c.quit = true
		c.mu.Unlock()
	default:
		return false
	}
	return true
}

// leaving reports whether /quit was given.
func (c *console) leaving() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.quit
}

// step runs do (a command) and then waits until the bot has answered,
// while it watches for signals: an interrupt stops the wait (never the
// command, which finishes and is saved), a second one or SIGTERM makes step
// return false: the console leaves.
func (c *console) step(ctx context.Context, signals <-chan os.Signal, do func(context.Context)) bool {
	wait, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.hold(true)
		do(ctx)
		c.hold(false)
		c.waitForBot(wait)
		c.noteProgram(ctx)
	}()
	for {
		select {
		case <-done:
			return !c.leaving()
		case sig := <-signals:
			if sig != os.Interrupt || c.interrupted {
				stop()
				<-done
				return false
			}
			c.interrupted = true
			stop()
			c.printf("\n(Stopped waiting: the bot goes on thinking and its move shows here when it comes. Ctrl-C again leaves; your game is saved.)\n")
		}
	}
}

// leave says goodbye, naming the game that waits, and returns the exit
// status.
func (c *console) leave(ctx context.Context) int {
	if st, err := c.svc.Status(ctx, c.channel); err == nil && st.Game && c.interactive {
		c.printf("\nYour game is saved; run %s again to go on with it.\n", c.command)
	}
	return 0
}

// run answers one command line: the console's own, a command, or a bare
// move when a game is going on.
func (c *console) run(ctx context.Context, line string) {
	if c.local(line) {
		return
	}
	line, ok := c.bareMove(ctx, line)
	if !ok {
		c.printf("%s is not a command, and there is no game here to play it in; /play starts one, /help lists the commands\n", clipText(line, 30))
		return
	}
	inv, err := commands.ParseLine(line, c.specs)
	if err != nil {
		c.printf("%s\n", err)
		return
	}
	inv.Guild, inv.Channel, inv.User = "console", c.channel, c.user
	inv.Roles = []string{"referee"} // at one keyboard everyone referees
	inv.Typed = true
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
	reply := c.svc.Handle(ctx, inv)
	c.show(reply.Message, reply.Private)
}

// bareMove turns a line without a slash that names no command into /move
// when a game is going on here ("a1 c1" plays a1 c1); false when there is
// no game to play it in.
func (c *console) bareMove(ctx context.Context, line string) (string, bool) {
	if strings.HasPrefix(line, "/") {
		return line, true
	}
	word, _, _ := strings.Cut(line, " ")
	for _, spec := range c.specs {
		if strings.EqualFold(spec.Name, word) {
			return line, true
		}
	}
	st, err := c.svc.Status(ctx, c.channel)
	if err != nil || st.Game {
		return "/move " + line, true // a store error is told by /move
	}
	return line, false
}

// clipText shortens s to about n bytes for an error message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// hold makes posts wait while a command is answered (on), so that a reply
// comes before the bot's answer to it; off shows what waited.
func (c *console) hold(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy, c.prompting = on, false
	if !on {
		for _, msg := range c.held {
			c.showLocked(msg, false)
		}
		c.held = nil
	}
}

// prompt shows the prompt, at a terminal.
func (c *console) prompt() {
	if !c.interactive {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.out, "%s> ", c.user.Name)
	c.prompting = true
}

// Post prints a message that comes later (the bot's move, a reminder):
// after the answer to the command being run, or at once with the prompt
// shown again under it.
func (c *console) Post(_ context.Context, channel string, msg commands.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if channel != c.channel {
		msg.Text = "[in " + channel + "] " + msg.Text
	}
	if c.busy {
		c.held = append(c.held, msg)
		return nil
	}
	if c.prompting {
		fmt.Fprintln(c.out)
	}
	c.showLocked(msg, false)
	if c.prompting {
		fmt.Fprintf(c.out, "%s> ", c.user.Name)
	}
	return nil
}

// show prints a message, with mentions as @name and attachments saved.
func (c *console) show(msg commands.Message, private bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.showLocked(msg, private)
}

// showLocked is show with c.mu held.
func (c *console) showLocked(msg commands.Message, private bool) {
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
	// A private reply is the typist's like any other at one keyboard.
	_ = private
	fmt.Fprintln(c.out, wrapText(strings.TrimRight(text, "\n"), c.width))
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

// waitForBot waits until the game here no longer waits for the bot, so
// that the bot's move comes before the next prompt and a piped script
// reads like a game; an interrupt (ctx) or two minutes end the wait.
func (c *console) waitForBot(ctx context.Context) {
	deadline := time.Now().Add(2 * time.Minute)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		c.mu.Lock()
		ch := c.channel
		c.mu.Unlock()
		st, err := c.svc.Status(ctx, ch)
		if err != nil || !st.BotToMove {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// noteProgram says, once a turn, that the game here waits for a program
// whose bridge is not connected, how to connect one and how to end the
// game; the prompt stays the typist's meanwhile.
func (c *console) noteProgram(ctx context.Context) {
	c.mu.Lock()
	ch := c.channel
	c.mu.Unlock()
	st, err := c.svc.Status(ctx, ch)
	if err != nil || st.ProgramToMove == "" || st.ProgramOnline {
		return
	}
	key := fmt.Sprintf("%s/%d", ch, st.Moves)
	c.mu.Lock()
	noted := c.programNoted == key
	c.programNoted = key
	api := c.apiURL
	c.mu.Unlock()
	if noted {
		return
	}
	connect := "To connect one, start the console with API_ADDR=localhost:8080, give /token new here, and run in another terminal:\n" +
		"  ARBITER_TOKEN=TOKEN arbiter bridge --server http://localhost:8080 -- ./yourprogram"
	if api != "" {
		connect = "To connect one, give /token new here and run in another terminal:\n" +
			"  ARBITER_TOKEN=TOKEN arbiter bridge --server " + api + " -- ./yourprogram"
	}
	c.printf("No program is connected to play %s: the game waits for its move, and the prompt stays yours meanwhile.\n%s\n"+
		"(docs/tutorials/first-program.md shows the whole way.) /resign gives the game up; /referee abort ends it unrated.\n", st.ProgramToMove, connect)
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// defaultUserName is the console's user: $USER, else the login name the
// system knows, else "player".
func defaultUserName() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "player"
}
