package cli

import (
	"context"
	"strings"
	"testing"
)

// TestEverySubcommandAnswersHelp: `arbiter NAME --help`, `-h` and `-help`
// print the subcommand's usage on standard output and exit 0, for every
// subcommand, and so do they after a subcommand's own command
// (`games list --help`, `store backup -h`).
func TestEverySubcommandAnswersHelp(t *testing.T) {
	for name := range subcommands() {
		if name == "default" {
			continue
		}
		for _, flag := range []string{"--help", "-h", "-help"} {
			code, out, errOut := runArgs(t, name, flag)
			if code != 0 || errOut != "" || !strings.Contains(out, "usage: arbiter "+name) {
				t.Errorf("arbiter %s %s: exit %d, stdout %q, stderr %q", name, flag, code, out, errOut)
			}
		}
	}
	for _, args := range [][]string{{"games", "list", "--help"}, {"games", "check", "-h"}, {"store", "backup", "--help"}, {"export", "grades", "--help"}} {
		code, out, errOut := runArgs(t, args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "usage: arbiter "+args[0]) {
			t.Errorf("arbiter %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// TestPerftStopsWhenCancelled: a perft far too deep to finish stops when
// its context ends (what Ctrl-C and SIGTERM do), with status 1, a line
// saying so, and no count.
func TestPerftStopsWhenCancelled(t *testing.T) {
	for _, args := range [][]string{{"perft", "hiya", "40"}, {"perft", "sixes", "40", "--divide"}} {
		ctx, cancel := context.WithCancel(context.Background())
		type result struct {
			code        int
			out, errOut string
		}
		done := make(chan result, 1)
		go func() {
			var out, errOut strings.Builder
			code := Main(ctx, args, &out, &errOut)
			done <- result{code, out.String(), errOut.String()}
		}()
		cancel()
		r := <-done
		if r.code != 1 || r.out != "" || !strings.Contains(r.errOut, "arbiter perft: stopped: context canceled") {
			t.Errorf("%v cancelled: exit %d, stdout %q, stderr %q", args, r.code, r.out, r.errOut)
		}
	}
}
