// Command release makes an Arbiter release from the checkout it runs in:
// the binary for each system students and instructors use, built
// reproducibly and stamped with the version; an archive of each with
// README.md, LICENSE (when the repository has one) and CHANGELOG.md; a
// CycloneDX SBOM of each binary's Go modules; SHA256SUMS over all of them;
// and the container image of deploy/ as an OCI archive.
//
//	go run ./release -version v1.2.0 [-out dist] [-target linux/amd64]... [-image=false] [-allow-modified]
//
// Two runs from the same commit with the same Go toolchain write the same
// bytes for every binary, archive and SBOM.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// targetList is the -target flag: repeatable GOOS/GOARCH pairs.
type targetList []target

func (l *targetList) String() string {
	s := make([]string, len(*l))
	for i, t := range *l {
		s[i] = t.String()
	}
	return strings.Join(s, ",")
}

func (l *targetList) Set(v string) error {
	t, err := parseTarget(v)
	if err != nil {
		return err
	}
	*l = append(*l, t)
	return nil
}

// run is the command: it reads its flags from args and returns the exit
// status (0 done, 2 bad input, 1 failure).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the release's version, e.g. v1.2.0 (required)")
	out := fs.String("out", "dist", "the directory to write the release into (made empty first)")
	image := fs.Bool("image", true, "also build the container image of deploy/ with podman and save it as an OCI archive")
	allowModified := fs.Bool("allow-modified", false, "release a checkout with uncommitted changes (stamped as modified)")
	var targets targetList
	fs.Var(&targets, "target", "a GOOS/GOARCH to build, repeatable (default: all six)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./release -version VERSION [-out DIR] [-target GOOS/GOARCH]... [-image=false] [-allow-modified]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "release: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if err := checkVersion(*version); err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 2
	}
	if len(targets) == 0 {
		targets = allTargets()
	}
	src, err := readSource(ctx, ".")
	if err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	if src.modified && !*allowModified {
		fmt.Fprintln(stderr, "release: the checkout has uncommitted changes; commit them, or pass -allow-modified to stamp the build as modified")
		return 2
	}
	r := release{version: *version, source: src, targets: targets, out: *out, image: *image, log: stdout}
	if err := r.make(ctx); err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	return 0
}
