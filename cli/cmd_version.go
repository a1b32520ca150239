package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strconv"

	"arbiter/store"
)

// The release build (go run ./release) writes these at link time with
// -ldflags "-X arbiter/cli.releaseVersion=v1.2.0 -X ...": the version, the
// revision, its commit time and whether the checkout had changes. Nothing
// else sets them; empty in any other build.
var releaseVersion, releaseRevision, releaseTime, releaseModified string

// buildInfo says which Arbiter this is: from the module information the Go
// toolchain writes into the binary (debug.ReadBuildInfo).
type buildInfo struct {
	Module   string // the main module's path
	Version  string // its version, "(devel)" for a build from a checkout
	Revision string // the VCS revision it was built from, "" when unknown
	Time     string // that revision's commit time (RFC 3339), "" when unknown
	Modified bool   // the checkout had changes not committed
	Go       string // the Go toolchain that built it
	Layout   int    // the store layout this build writes (store.Layout)
}

// readBuildInfo returns this binary's buildInfo: the release stamp when
// the release build wrote one, else what the Go toolchain recorded.
func readBuildInfo() buildInfo {
	b := buildInfo{Module: "arbiter", Version: "(unknown)", Go: "unknown", Layout: store.Layout}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		b = fromDebugBuildInfo(b, bi)
	}
	return withReleaseStamp(b, releaseVersion, releaseRevision, releaseTime, releaseModified)
}

// withReleaseStamp returns b with the release build's stamp over it: when
// version is set, the stamp's version, revision, time and modified replace
// what the toolchain recorded.
func withReleaseStamp(b buildInfo, version, revision, time, modified string) buildInfo {
	if version == "" {
		return b
	}
	b.Version, b.Revision, b.Time = version, revision, time
	b.Modified, _ = strconv.ParseBool(modified)
	return b
}

// fromDebugBuildInfo fills b from the module information the toolchain
// wrote into the binary.
func fromDebugBuildInfo(b buildInfo, bi *debug.BuildInfo) buildInfo {
	b.Module, b.Go = bi.Main.Path, bi.GoVersion
	if bi.Main.Version != "" {
		b.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified, _ = strconv.ParseBool(s.Value)
		}
	}
	return b
}

// String is the one line `arbiter version` prints, e.g.
// "arbiter (devel) revision 1a2b3c4d5e6f (2026-11-25T13:00:00Z, modified) go1.26.0 store layout 2".
func (b buildInfo) String() string {
	rev := "revision unknown"
	if b.Revision != "" {
		rev = "revision " + b.Revision[:min(12, len(b.Revision))]
		switch {
		case b.Time != "" && b.Modified:
			rev += " (" + b.Time + ", modified)"
		case b.Time != "":
			rev += " (" + b.Time + ")"
		case b.Modified:
			rev += " (modified)"
		}
	}
	return fmt.Sprintf("%s %s %s %s store layout %d", b.Module, b.Version, rev, b.Go, b.Layout)
}

// LogValue shows the build in logs.
func (b buildInfo) LogValue() slog.Value {
	return slog.GroupValue(slog.String("version", b.Version), slog.String("revision", b.Revision),
		slog.String("time", b.Time), slog.Bool("modified", b.Modified), slog.String("go", b.Go), slog.Int("store_layout", b.Layout))
}

// runVersion is `arbiter version`: which Arbiter this is, on one line.
func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "arbiter version: unexpected arguments %q\n", fs.Args())
		return 2
	}
	fmt.Fprintln(stdout, readBuildInfo())
	return 0
}
