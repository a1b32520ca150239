package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestPerftBadArguments: a negative depth or an unknown flag gets one
// clear line and the usage, not the flag package's raw error and list.
func TestPerftBadArguments(t *testing.T) {
	for args, want := range map[string]string{
		"perft sixes -1":          "arbiter perft: depth \"-1\": give a whole number from 0 to 64\n",
		"perft sixes --divide -3": "arbiter perft: depth \"-3\": give a whole number from 0 to 64\n",
		"perft sixes 2 -x":        "arbiter perft: flag provided but not defined: -x\nusage: arbiter perft GAME DEPTH",
	} {
		var out, errs bytes.Buffer
		if code := Main(context.Background(), strings.Fields(args), &out, &errs); code != 2 {
			t.Errorf("%s: exit %d, want 2", args, code)
		}
		if !strings.HasPrefix(errs.String(), want) || strings.Contains(errs.String(), "Usage of") {
			t.Errorf("%s: stderr %q, want it to start %q", args, errs.String(), want)
		}
	}
	var out, errs bytes.Buffer
	if code := Main(context.Background(), []string{"perft", "sixes", "2"}, &out, &errs); code != 0 || out.String() != "256\n" {
		t.Errorf("perft sixes 2: %d %q %q", code, out.String(), errs.String())
	}
}
