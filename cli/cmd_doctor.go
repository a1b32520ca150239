package cli

import (
	"arbiter/sandbox"
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/redisstore"
)

// A check's outcome.
type checkLevel int

const (
	checkOK      checkLevel = iota
	checkNote               // works, but worth knowing
	checkProblem            // will not work as set
)

// check is one thing `arbiter doctor` looked at: what, what it found and,
// unless all is well, what to do.
type check struct {
	level checkLevel
	what  string
	found string
	fix   string
}

func (c check) String() string {
	mark := [...]string{"ok     ", "note   ", "PROBLEM"}[c.level]
	s := fmt.Sprintf("%s %s: %s", mark, c.what, c.found)
	if c.fix != "" {
		s += "\n        to do: " + c.fix
	}
	return s
}

// runDoctor is `arbiter doctor [--http ADDR]`: it checks the configuration
// before a start (the bot's token, application id and public key, the
// store, the addresses, what the features turned on need), prints each
// check with what to do, and exits 1 when something will not work.
func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "check as for arbiter bot --http `ADDR`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "arbiter doctor: unexpected arguments %q\n", fs.Args())
		return 2
	}
	cfg, err := loadConfig()
	cmd := os.Getenv("ARBITER_COMMAND")
	// The Redis client's own log lines (a failed dial) would come before
	// the checks; the REDIS_URL check says it in words.
	redisstore.RouteClientLogs(slog.New(slog.DiscardHandler))
	checks := doctorChecks(ctx, cfg, err, *httpAddr)
	if cmd == "bot" {
		checks = imageChecks(cfg, checks)
	}
	problems := 0
	for _, c := range checks {
		fmt.Fprintln(stdout, c)
		if c.level == checkProblem {
			problems++
		}
	}
	if problems > 0 {
		fmt.Fprintf(stdout, "%s: fix %s before starting Arbiter\n", countOf(problems, "problem", "problems"), map[bool]string{true: "it", false: "them"}[problems == 1])
		return 1
	}
	fmt.Fprintln(stdout, "ready to start")
	return 0
}

// imageChecks adjusts checks for an installation that runs `arbiter bot`
// (ARBITER_COMMAND=bot, as the container image sets it), where the bot's
// token is needed: without it the container stops at its start.
func imageChecks(cfg config, checks []check) []check {
	if cfg.DiscordToken != "" {
		return checks
	}
	for i, c := range checks {
		if c.what == "DISCORD_TOKEN" {
			checks[i] = check{checkProblem, "DISCORD_TOKEN", "not set, and this installation runs `arbiter bot` (ARBITER_COMMAND=bot, as in the container image), which will not start without it",
				"put the bot's token (developer portal, your application, Bot, Reset Token) in DISCORD_TOKEN (podman run --env-file .env); for the console instead, run the image with the command console (podman run -it IMAGE console)"}
		}
	}
	return checks
}

// logChecks logs the checks the bot makes at its start.
func logChecks(ctx context.Context, log *slog.Logger, checks []check) {
	for _, c := range checks {
		level := [...]slog.Level{slog.LevelInfo, slog.LevelWarn, slog.LevelError}[c.level]
		log.Log(ctx, level, "check: "+c.what, "found", c.found, "to_do", c.fix)
	}
}

// doctorChecks checks cfg (read with loadErr) as for a start of the bot
// (with --http httpAddr when not empty).
func doctorChecks(ctx context.Context, cfg config, loadErr error, httpAddr string) []check {
	var out []check
	add := func(level checkLevel, what, found, fix string) { out = append(out, check{level, what, found, fix}) }
	add(checkOK, "build", readBuildInfo().String(), "")
	if loadErr != nil {
		add(checkProblem, "settings", oneLine(loadErr.Error()), "correct these variables in the environment or .env (see .env.example)")
	}
	out = append(out, discordChecks(cfg, httpAddr)...)
	out = append(out, sandboxCheck(ctx))
	out = append(out, storeChecks(ctx, cfg)...)
	if cfg.GamesDir != "" {
		reg, errs := games.WithDir(cfg.GamesDir)
		for _, err := range errs {
			add(checkProblem, "GAMES_DIR", oneLine(err.Error()), "correct the file (arbiter games check FILE says how) or take it out of GAMES_DIR")
		}
		if len(errs) == 0 {
			add(checkOK, "GAMES_DIR", fmt.Sprintf("%d games: %s", len(reg.Names()), strings.Join(reg.Names(), ", ")), "")
		}
	}
	for _, a := range []struct{ name, addr string }{{"API_ADDR", cfg.APIAddr}, {"METRICS_ADDR", cfg.MetricsAddr}, {"--http", httpAddr}} {
		if a.addr == "" {
			continue
		}
		ln, err := net.Listen("tcp", a.addr)
		if err != nil {
			add(checkProblem, a.name, fmt.Sprintf("%s cannot be listened on: %v", a.addr, err), "stop what listens there, or choose another address")
			continue
		}
		_ = ln.Close()
		if allInterfaces(a.addr) {
			add(checkNote, a.name, a.addr+" listens on every network interface: anyone who reaches this machine reaches it, past the proxy",
				"listen on 127.0.0.1 (e.g. 127.0.0.1"+portOf(a.addr)+") behind the HTTPS proxy, or firewall the port; in a container, publish it on 127.0.0.1 only")
			continue
		}
		add(checkOK, a.name, a.addr+" is free", "")
	}
	return out
}

// allInterfaces reports whether a listen address takes every network
// interface: no host (":8080"), 0.0.0.0 or [::].
func allInterfaces(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return host == "" || (err == nil && ip.IsUnspecified())
}

// portOf is addr's ":PORT", or "" when it has none.
func portOf(addr string) string {
	if _, port, err := net.SplitHostPort(addr); err == nil {
		return ":" + port
	}
	return ""
}

// discordChecks checks the bot's token, application id and public key.
func discordChecks(cfg config, httpAddr string) []check {
	var out []check
	add := func(level checkLevel, what, found, fix string) { out = append(out, check{level, what, found, fix}) }
	botID := ""
	switch token := strings.TrimSpace(strings.TrimPrefix(cfg.DiscordToken, "Bot ")); {
	case token == "":
		add(checkNote, "DISCORD_TOKEN", "not set: `arbiter` runs the console, and `arbiter bot` will not start",
			"for Discord, put the bot's token (developer portal, your application, Bot, Reset Token) in DISCORD_TOKEN")
	default:
		id, ok := tokenBotID(token)
		if !ok {
			add(checkProblem, "DISCORD_TOKEN", "does not look like a bot token (three parts joined by dots, the first the bot's id in base64)",
				"copy the token again from the developer portal (Bot, Reset Token); not the client secret or the public key")
			break
		}
		botID = id
		add(checkOK, "DISCORD_TOKEN", "looks like a bot token, of the bot "+id, "")
	}
	switch id := cfg.DiscordAppID; {
	case id == "":
		add(checkNote, "DISCORD_APP_ID", "not set: the invite link is not logged at start",
			"put the application id (developer portal, General Information) in DISCORD_APP_ID")
	case !snowflake(id):
		// Not repeated: it may be a secret pasted in the wrong place.
		add(checkProblem, "DISCORD_APP_ID", "is not an id (17 to 20 digits)", "copy the application id from the developer portal's General Information tab")
	case botID != "" && botID != id:
		add(checkProblem, "DISCORD_APP_ID", fmt.Sprintf("%s is not the token's application (%s)", id, botID),
			"use the id and the token of the same application")
	default:
		add(checkOK, "DISCORD_APP_ID", id, "")
	}
	switch {
	case cfg.DiscordPublicKey != "":
		if _, err := publicKey(cfg.DiscordPublicKey); err != nil {
			add(checkProblem, "DISCORD_PUBLIC_KEY", err.Error(), "copy the public key from the developer portal's General Information tab")
		} else {
			add(checkOK, "DISCORD_PUBLIC_KEY", "64 hex digits", "")
		}
	case httpAddr != "":
		add(checkProblem, "DISCORD_PUBLIC_KEY", "not set, and --http needs it to check Discord's signatures",
			"copy the public key from the developer portal's General Information tab")
	}
	return out
}

// tokenBotID returns the bot's id from the first part of a bot token.
func tokenBotID(token string) (string, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
		return "", false
	}
	id, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
	if err != nil || !snowflake(string(id)) {
		return "", false
	}
	return string(id), true
}

// snowflake reports whether s is a Discord id.
func snowflake(s string) bool {
	if len(s) < 17 || len(s) > 20 {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// storeChecks checks the store: Redis reachable and persistent, or the
// data directory writable and free; and the data's layout.
func storeChecks(ctx context.Context, cfg config) []check {
	var out []check
	add := func(level checkLevel, what, found, fix string) { out = append(out, check{level, what, found, fix}) }
	layout := func(what string, n int) {
		switch {
		case n > store.Layout:
			add(checkProblem, what, fmt.Sprintf("the data has layout %d, written by a newer Arbiter; this build reads layout %d and earlier", n, store.Layout),
				"run the newer build, or restore the backup taken before the upgrade (docs/how-to/upgrade.md)")
		case n == 0:
			add(checkOK, what, fmt.Sprintf("no data yet; this build writes layout %d", store.Layout), "")
		default:
			add(checkOK, what, fmt.Sprintf("layout %d; this build writes layout %d", n, store.Layout), "")
		}
	}
	if cfg.RedisURL != "" {
		p, err := redisstore.ProbeURL(ctx, cfg.RedisURL, cfg.RedisCluster)
		if err != nil {
			fix := "start Redis, or correct REDIS_URL (unset it for the embedded store)"
			if errors.Is(err, redisstore.ErrBadURL) {
				fix = "correct REDIS_URL, e.g. redis://localhost:6379/0 (unset it for the embedded store)"
			}
			add(checkProblem, "REDIS_URL", oneLine(err.Error()), fix)
			return out
		}
		add(checkOK, "REDIS_URL", "Redis answers", "")
		switch {
		case !p.Config:
			add(checkNote, "Redis persistence", "unknown (CONFIG is not allowed here)", "make sure the Redis keeps an append-only file (appendonly yes)")
		case !p.AppendOnly && strings.TrimSpace(p.Save) == "":
			add(checkProblem, "Redis persistence", "none: appendonly is no and save is empty, so a restart of Redis loses every game",
				"set appendonly yes (and appendfsync always for an exam) in redis.conf")
		case !p.AppendOnly:
			add(checkNote, "Redis persistence", "snapshots only (save "+p.Save+"): a crash loses the moves since the last one",
				"set appendonly yes (appendfsync always for an exam)")
		case p.AppendFsync != "always":
			add(checkOK, "Redis persistence", "append-only, fsync "+p.AppendFsync+" (a crash may lose about a second of moves)", "")
		default:
			add(checkOK, "Redis persistence", "append-only, fsync always", "")
		}
		layout("Redis data", p.Layout)
		if cfg.StoreBackupEvery > 0 {
			add(checkNote, "STORE_BACKUP_EVERY", "applies to the embedded store only; Redis keeps its own files", "see docs/how-to/backup-restore.md for Redis")
		}
		return out
	}
	if cfg.RedisCluster {
		add(checkProblem, "REDIS_CLUSTER", "set without REDIS_URL", "set REDIS_URL to a node of the cluster, or unset REDIS_CLUSTER")
	}
	if cfg.ShardCount > 1 {
		add(checkProblem, "SHARD_COUNT", "several shards need one store for them all, and the embedded store serves one process", "set REDIS_URL")
	}
	dir := cfg.DataDir
	st, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		parent := filepath.Dir(filepath.Clean(dir))
		for _, err := os.Stat(parent); os.IsNotExist(err) && parent != filepath.Dir(parent); _, err = os.Stat(parent) {
			parent = filepath.Dir(parent) // the nearest folder that exists: it is created under that
		}
		if werr := writable(parent); werr != nil {
			add(checkProblem, "DATA_DIR", fmt.Sprintf("%s does not exist and cannot be created: %v", dir, werr), "create it, owned by the user Arbiter runs as")
		} else {
			add(checkOK, "DATA_DIR", dir+" will be created at the first start", "")
		}
		return out
	case err != nil:
		add(checkProblem, "DATA_DIR", err.Error(), "make DATA_DIR a directory the user Arbiter runs as owns")
		return out
	case !st.IsDir():
		add(checkProblem, "DATA_DIR", dir+" is not a directory", "point DATA_DIR at a directory")
		return out
	}
	if err := writable(dir); err != nil {
		add(checkProblem, "DATA_DIR", fmt.Sprintf("%s is not writable: %v", dir, err), "give the user Arbiter runs as the directory (chown), or choose another")
		return out
	}
	if locked, pid := boltstore.Locked(dir); locked {
		add(checkProblem, "DATA_DIR", (&boltstore.LockedError{Dir: dir, PID: pid}).Error(), "stop that process before starting another on this directory")
		return out
	}
	add(checkOK, "DATA_DIR", dir+" is writable and not in use", "")
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		add(checkNote, "DATA_DIR", fmt.Sprintf("%s has mode %#o: other users may enter it; Arbiter makes it %#o when it starts, so that its admin socket (backups) is its owner's alone", dir, perm, perm&0o700),
			fmt.Sprintf("chmod %o %s", perm&0o700, dir))
	}
	f, err := boltstore.FileLayout(filepath.Join(dir, boltstore.DatabaseFile))
	if err != nil {
		add(checkProblem, "embedded database", oneLine(err.Error()), "restore a backup (arbiter store restore), or start with STORE_START_EMPTY=1 to set it aside")
		return out
	}
	n, _ := strconv.Atoi(f)
	layout("embedded database", n)
	return out
}

// writable reports whether files can be created in dir.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".arbiter-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}

// oneLine joins s's lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// sandboxCheck says which sandbox players' programs run in, and why.
func sandboxCheck(ctx context.Context) check {
	mode, limits, err := sandboxSetting()
	if err != nil {
		return check{checkProblem, "sandbox", oneLine(err.Error()), "correct the setting (see .env.example)"}
	}
	sb := sandbox.New(sandbox.Policy{Mode: mode, Limits: limits})
	if mode == sandbox.Off {
		return check{checkNote, "sandbox", sb.Status(), "set SANDBOX=on unless every program run here is trusted"}
	}
	if err := sb.Probe(ctx); err != nil {
		return check{checkProblem, "sandbox", oneLine(err.Error()), "exec: and class: players are refused until a box can be made: install bubblewrap (apt install bubblewrap) on Linux with user namespaces, or set SANDBOX=off to run them unconfined"}
	}
	return check{checkOK, "sandbox", sb.Status(), ""}
}
