package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"arbiter/sandbox"
)

// sandboxFlags are the flags of the commands that start players' programs
// (match, tournament): the mode, the limits and the variables, each for
// every player or for one.
type sandboxFlags struct {
	mode   string
	limits []string // [PLAYER:]NAME=VALUE,...
	env    []string // PLAYER:NAME=VALUE
}

// addSandboxFlags defines --sandbox, --limits and --env on fs, the mode's
// default from the SANDBOX setting.
func addSandboxFlags(fs *flag.FlagSet, players string) *sandboxFlags {
	f := &sandboxFlags{}
	fs.StringVar(&f.mode, "sandbox", "", "on (default; setting SANDBOX) runs every exec: and class: program in a box; off runs them unconfined, with a warning at every start")
	fs.Func("limits", "limits of the programs in their box, as [PLAYER:]NAME=VALUE,... (repeatable): memory (1GiB), processes (64), filesize (64MiB), cputime (10m), openfiles (256), scratch (128MiB); PLAYER is "+players+" (default: every player; setting SANDBOX_LIMITS)", func(s string) error {
		f.limits = append(f.limits, s)
		return nil
	})
	fs.Func("env", "a variable a program gets in its box, as PLAYER:NAME=VALUE (repeatable); PLAYER is "+players, func(s string) error {
		f.env = append(f.env, s)
		return nil
	})
	return f
}

// sandboxSetting reads SANDBOX and SANDBOX_LIMITS.
func sandboxSetting() (sandbox.Mode, sandbox.Limits, error) {
	mode, err := sandbox.ParseMode(os.Getenv("SANDBOX"))
	if err != nil {
		return "", sandbox.Limits{}, fmt.Errorf("SANDBOX=%q: give on or off", os.Getenv("SANDBOX"))
	}
	var l sandbox.Limits
	if v := os.Getenv("SANDBOX_LIMITS"); v != "" {
		if err := l.Set(v); err != nil {
			return "", sandbox.Limits{}, fmt.Errorf("SANDBOX_LIMITS: %w", err)
		}
	}
	return mode, l, nil
}

// secretPaths are the host paths no program may see even inside its own
// folder: the data folder (the store, the admin socket), the .env file,
// and any more the command names (a tournament's output folder).
func secretPaths(more ...string) []string {
	data := os.Getenv("DATA_DIR")
	if data == "" {
		data = "./data"
	}
	var out []string
	for _, p := range append([]string{data, ".env"}, more...) {
		if a, err := filepath.Abs(p); p != "" && err == nil {
			out = append(out, a)
		}
	}
	return out
}

// build returns the box of every player and the boxes of the named players
// with their own limits or variables. names are the players' names.
func (f *sandboxFlags) build(names []string, hide []string, stderr io.Writer) (*sandbox.Sandbox, map[string]*sandbox.Sandbox, error) {
	mode, limits, err := sandboxSetting()
	if err != nil {
		return nil, nil, err
	}
	if f.mode != "" {
		if mode, err = sandbox.ParseMode(f.mode); err != nil {
			return nil, nil, fmt.Errorf("--sandbox: %w", err)
		}
	}
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	own := map[string]*sandbox.Limits{}
	env := map[string][]string{}
	split := func(flagName, s string, needPlayer bool) (string, string, error) {
		if who, rest, ok := strings.Cut(s, ":"); ok && known[who] {
			return who, rest, nil
		}
		if needPlayer {
			return "", "", fmt.Errorf("--%s %q: write PLAYER:NAME=VALUE, PLAYER one of %s", flagName, s, strings.Join(names, ", "))
		}
		return "", s, nil
	}
	for _, s := range f.limits {
		who, rest, err := split("limits", s, false)
		if err != nil {
			return nil, nil, err
		}
		if who == "" {
			if err := limits.Set(rest); err != nil {
				return nil, nil, fmt.Errorf("--limits: %w", err)
			}
			continue
		}
		if own[who] == nil {
			own[who] = &sandbox.Limits{}
		}
		if err := own[who].Set(rest); err != nil {
			return nil, nil, fmt.Errorf("--limits %s: %w", who, err)
		}
	}
	for _, s := range f.env {
		who, rest, err := split("env", s, true)
		if err != nil {
			return nil, nil, err
		}
		name, _, ok := strings.Cut(rest, "=")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, nil, fmt.Errorf("--env %q: write PLAYER:NAME=VALUE", s)
		}
		env[who] = append(env[who], rest)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	def := sandbox.New(sandbox.Policy{Mode: mode, Limits: limits, Hide: hide, Log: log})
	per := map[string]*sandbox.Sandbox{}
	for _, n := range names {
		if own[n] == nil && env[n] == nil {
			continue
		}
		l := def.Policy().Limits
		if own[n] != nil {
			l = merge(l, *own[n])
		}
		per[n] = def.With(l, env[n])
	}
	return def, per, nil
}

// merge returns base with the fields set in over.
func merge(base, over sandbox.Limits) sandbox.Limits {
	if over.Memory > 0 {
		base.Memory = over.Memory
	}
	if over.Processes > 0 {
		base.Processes = over.Processes
	}
	if over.FileSize > 0 {
		base.FileSize = over.FileSize
	}
	if over.CPUTime > 0 {
		base.CPUTime = over.CPUTime
	}
	if over.OpenFiles > 0 {
		base.OpenFiles = over.OpenFiles
	}
	if over.Scratch > 0 {
		base.Scratch = over.Scratch
	}
	return base
}

// runsProgram reports whether a player spec starts a program.
func runsProgram(spec string) bool {
	kind, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return strings.EqualFold(kind, "exec") || strings.EqualFold(kind, "class")
}

// refuseUnboxed returns the reason programs cannot start here, when specs
// name one and no box can be made (nil otherwise).
func refuseUnboxed(sb *sandbox.Sandbox, specs []string) error {
	for _, s := range specs {
		if runsProgram(s) {
			if err := sb.Check(); err != nil {
				return fmt.Errorf("player %q: %w", s, err)
			}
			return nil
		}
	}
	return nil
}
