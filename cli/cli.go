// Package cli is arbiter's command line: one file per subcommand
// (cmd_<name>.go, each with its flag set and doc), the configuration read
// from the environment and `.env` (config.go) and the wiring of the services
// the subcommands share (services.go). Main dispatches to a subcommand.
//
// Invariants a change must keep: the subcommands, their flags and their
// output lines (perft, status, match --json, bench --json, tournament and its
// files, loadtest's summary line, the console's command syntax) are
// contracts that scripts and course handouts rely on; exit status 2 means bad
// input, with a message on stderr; only the command (the root main.go)
// imports this package.
package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
)

// subcommand is one of arbiter's subcommands: it reads its own flags from
// args, writes to stdout and stderr, and returns the process exit status.
type subcommand struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// subcommands lists every subcommand by name. Each lives in its own
// cmd_<name>.go file.
func subcommands() map[string]subcommand {
	return map[string]subcommand{
		"default":    {"the console without DISCORD_TOKEN, else the bot", runDefault},
		"console":    {"play in a terminal, the slash commands from standard input, one a line (/play game:sixes, /move a1 c1, /as NAME): console [--user NAME]", runConsole},
		"perft":      {"count move sequences from a position: perft GAME DEPTH [--moves \"M1;M2\"] [--set k=v]... [--divide] [--bench]", runPerft},
		"status":     {"play moves and print the board and result: status GAME [--moves \"M1;M2\"] [--set k=v]...", runStatus},
		"match":      {"play a match between two players: match GAME --p1 SPEC --p2 SPEC [--games N] [--movetime D] [--grace D] [--set k=v]... [--seed S] [--openings random:PLIES] [--records DIR] [--sprt \"elo0=0 elo1=20 alpha=0.05 beta=0.05\"] [--json] [--sandbox on|off] [--limits [p1:|p2:]NAME=VALUE,...]... [--env p1|p2:NAME=VALUE]...", runMatch},
		"analyse":    {"the engine's review of a game: analyse GAME --moves M1;M2 [--set k=v] | analyse FILE, [--movetime D] [--depth N] [--json] [--plot FILE.png] [--html OUT.html]", runAnalyse},
		"tournament": {"a tournament between players of a game: tournament GAME --player NAME=SPEC... [--format roundrobin|gauntlet|swiss|knockout] [--rounds N] [--games N] [--movetime D] [--set k=v]... [--openings random:PLIES|FILE] [--concurrency N] [--seed S] [--out DIR] [--resume] [--no-gif] [--web ADDR] [--analyse [--analyse-movetime D]] [--sandbox on|off] [--limits [PLAYER:]NAME=VALUE,...]... [--env PLAYER:NAME=VALUE]...", runTournament},
		"export":     {"a course period's grades as CSV from the archived games: export grades --guild G [--from D] [--to D] [--out DIR]", runExport},
		"engine":     {"serve Arbiter's engine over the engine protocol on stdin/stdout: engine [GAME] [--level L] [--hash MB] [--seed S]", runEngine},
		"bench":      {"measure perft and search speed, depth in 1 s and move-time overruns: bench [--json]", runBench},
		"bot":        {"run Arbiter on Discord (needs DISCORD_TOKEN): bot [--http ADDR] [--workers N]", runBot},
		"bridge":     {"play your own program from this machine through the class's server: bridge --server URL [--token T] [--max-games N] -- COMMAND [ARGS]", runBridge},
		"loadtest":   {"drive the command path with many channels and measure it: loadtest [--channels N] [--bots B] [--clients C] [--duration D] [--bot-time D] [--workers N] [--store embedded|redis|cluster] [--plot FILE.png] [--cpuprofile FILE]", runLoadtest},
		"worker":     {"think about bot turns for the bot, against its REDIS_URL: worker [--name NAME] [--workers N]", runWorker},
		"doctor":     {"check the configuration before a start, saying what to do: doctor [--http ADDR]", runDoctor},
		"version":    {"which Arbiter this is, by module version, revision, Go version and store layout: version", runVersion},
		"games":      {"the games Arbiter knows, and a check of a game description file: games list | games check FILE [--set k=v] [--seed S]", runGames},
		"store":      {"move everything between stores, back up and restore, forget a person: store export FILE | store import FILE (into an empty store) | store backup [FILE] | store restore FILE | store forget USER", runStore},
		"term":       {"archive a class's term (grades, games, ratings) to a file, then reset its ratings and vacation days: term close NAME --guild G [--dir DIR]", runTerm},
	}
}

// Main runs arbiter with args (without the program name): it dispatches to
// a subcommand, which writes to stdout and stderr, and returns the process
// exit status (0 done, 2 bad input, 1 failure). With no args it runs the
// default subcommand.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := subcommands()
	if len(args) == 0 {
		if def, ok := cmds["default"]; ok {
			return def.run(ctx, args, stdout, stderr)
		}
		usage(stderr, cmds)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout, cmds)
		return 0
	}
	cmd, ok := cmds[name]
	if !ok || name == "default" {
		fmt.Fprintf(stderr, "arbiter: unknown subcommand %q\n\n", name)
		usage(stderr, cmds)
		return 2
	}
	if wantsHelp(args[1:]) {
		return help(ctx, name, cmd, stdout)
	}
	return cmd.run(ctx, args[1:], stdout, stderr)
}

// wantsHelp reports whether args ask for help: -h, -help or --help before
// any "--" (after which arguments belong to another program, as bridge's).
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// help prints a subcommand's usage on w: its synopsis, what it does and
// its flags, each with its meaning and default.
func help(ctx context.Context, name string, cmd subcommand, w io.Writer) int {
	what, synopsis, ok := strings.Cut(cmd.summary, ": ")
	if !ok {
		synopsis = name
	}
	fmt.Fprintf(w, "usage: arbiter %s\n\n%s.\n", synopsis, strings.ToUpper(what[:1])+what[1:])
	if flags := flagDefaults(ctx, cmd); flags != "" {
		fmt.Fprintf(w, "\n%s", flags)
	}
	return 0
}

// flagDefaults returns the flags of cmd as its flag set prints them (each
// flag's line and the indented lines of its meaning): a subcommand reads
// its flags before anything else and, asked -h, prints them and stops.
func flagDefaults(ctx context.Context, cmd subcommand) string {
	var out bytes.Buffer
	cmd.run(ctx, []string{"-h"}, &out, &out)
	var flags strings.Builder
	inFlag := false
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		switch {
		case strings.HasPrefix(line, "  -"):
			inFlag = true
		case inFlag && strings.HasPrefix(line, "    "):
		default:
			inFlag = false
			continue
		}
		flags.WriteString(line)
	}
	return flags.String()
}

func usage(w io.Writer, cmds map[string]subcommand) {
	fmt.Fprintln(w, "usage: arbiter <subcommand> [arguments]")
	fmt.Fprintln(w)
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		if n != "default" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
}
