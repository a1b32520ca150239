package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// target is one system a release has a binary for.
type target struct {
	OS, Arch string
}

func (t target) String() string { return t.OS + "/" + t.Arch }

// exe is the binary's file name on t.
func (t target) exe() string {
	if t.OS == "windows" {
		return "arbiter.exe"
	}
	return "arbiter"
}

// allTargets lists the systems students and instructors use.
func allTargets() []target {
	var ts []target
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, arch := range []string{"amd64", "arm64"} {
			ts = append(ts, target{goos, arch})
		}
	}
	return ts
}

// parseTarget reads "GOOS/GOARCH", one of allTargets.
func parseTarget(s string) (target, error) {
	for _, t := range allTargets() {
		if t.String() == s {
			return t, nil
		}
	}
	names := make([]string, 0, 6)
	for _, t := range allTargets() {
		names = append(names, t.String())
	}
	return target{}, fmt.Errorf("unknown target %q: one of %s", s, strings.Join(names, ", "))
}

// versionPattern is what a release version looks like: v, three numbers,
// and an optional pre-release, e.g. v1.2.0 or v1.3.0-rc.1.
var versionPattern = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$`)

// checkVersion refuses a version that is not vMAJOR.MINOR.PATCH[-PRE].
func checkVersion(v string) error {
	if v == "" {
		return errors.New("-version is required, e.g. -version v1.2.0")
	}
	if !versionPattern.MatchString(v) {
		return fmt.Errorf("version %q: want vMAJOR.MINOR.PATCH with an optional -PRERELEASE, e.g. v1.2.0 or v1.3.0-rc.1", v)
	}
	return nil
}

// source is the checkout a release is made from.
type source struct {
	root     string    // the repository's top directory
	revision string    // the commit, 40 hex digits
	time     time.Time // the commit's time: every file's time in the archives
	modified bool      // tracked files differ from the commit
}

// readSource asks git about the checkout containing dir.
func readSource(ctx context.Context, dir string) (source, error) {
	git := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return strings.TrimSpace(string(out)), nil
	}
	var s source
	var err error
	if s.root, err = git("rev-parse", "--show-toplevel"); err != nil {
		return s, err
	}
	if s.revision, err = git("rev-parse", "HEAD"); err != nil {
		return s, err
	}
	ct, err := git("log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return s, err
	}
	sec, err := strconv.ParseInt(ct, 10, 64)
	if err != nil {
		return s, fmt.Errorf("the commit time %q: %w", ct, err)
	}
	s.time = time.Unix(sec, 0).UTC()
	status, err := git("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return s, err
	}
	s.modified = status != ""
	return s, nil
}

// release is one run of the release command.
type release struct {
	version string
	source  source
	targets []target
	out     string    // the directory written, emptied first
	image   bool      // also build and save the container image
	log     io.Writer // progress, one line a step
}

// docFiles are the files each archive carries beside the binary, from the
// repository's top directory; LICENSE only when the repository has one.
var docFiles = []string{"README.md", "LICENSE", "CHANGELOG.md"}

// make writes the release into r.out.
func (r release) make(ctx context.Context) error {
	if err := os.RemoveAll(r.out); err != nil {
		return fmt.Errorf("empty %s: %w", r.out, err)
	}
	if err := os.MkdirAll(r.out, 0o755); err != nil {
		return err
	}
	docs, err := r.readDocs()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "arbiter-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	var written []string
	binaries := map[target]string{}
	for _, t := range r.targets {
		name := fmt.Sprintf("arbiter_%s_%s_%s", r.version, t.OS, t.Arch)
		bin := filepath.Join(work, name, t.exe())
		fmt.Fprintf(r.log, "build %s\n", t)
		if err := r.build(ctx, t, bin); err != nil {
			return err
		}
		binaries[t] = bin
		files := append([]archiveFile{{name: t.exe(), path: bin, mode: 0o755}}, docs...)
		archive := name + ".tar.gz"
		write := writeTarGz
		if t.OS == "windows" {
			archive, write = name+".zip", writeZip
		}
		if err := write(filepath.Join(r.out, archive), name, files, r.source.time); err != nil {
			return fmt.Errorf("archive %s: %w", t, err)
		}
		sbom := name + ".sbom.cdx.json"
		if err := writeSBOM(filepath.Join(r.out, sbom), bin, r.version, t, r.source); err != nil {
			return fmt.Errorf("SBOM of %s: %w", t, err)
		}
		written = append(written, archive, sbom)
	}
	if host := (target{runtime.GOOS, runtime.GOARCH}); binaries[host] != "" {
		if err := r.checkVersion(ctx, binaries[host]); err != nil {
			return err
		}
	}
	if r.image {
		images, err := r.images(ctx, work, binaries)
		if err != nil {
			return err
		}
		written = append(written, images...)
	}
	if err := writeSums(r.out, written); err != nil {
		return err
	}
	fmt.Fprintf(r.log, "release %s written to %s\n", r.version, r.out)
	return nil
}

// readDocs returns the files each archive carries beside the binary,
// saying so when the repository has no LICENSE.
func (r release) readDocs() ([]archiveFile, error) {
	var files []archiveFile
	for _, name := range docFiles {
		path := filepath.Join(r.source.root, name)
		if _, err := os.Stat(path); err != nil {
			if errors.Is(err, os.ErrNotExist) && name == "LICENSE" {
				fmt.Fprintln(r.log, "note: the repository has no LICENSE file; the archives go without one")
				continue
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files = append(files, archiveFile{name: name, path: path, mode: 0o644})
	}
	return files, nil
}

// ldflags stamps the version, the revision, its time and whether the
// checkout had changes into the binary (read by `arbiter version`).
func (r release) ldflags() string {
	stamp := func(name, value string) string { return "-X arbiter/cli." + name + "=" + value }
	return strings.Join([]string{
		stamp("releaseVersion", r.version),
		stamp("releaseRevision", r.source.revision),
		stamp("releaseTime", r.source.time.Format(time.RFC3339)),
		stamp("releaseModified", strconv.FormatBool(r.source.modified)),
	}, " ")
}

// buildEnv is the environment of a build for t: this process's, without
// any Go setting that would change the bytes written, and with those that
// make the build reproducible: no cgo, no paths of this machine, the
// baseline instruction sets.
func buildEnv(t target) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains([]string{"GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOAMD64", "GOARM64", "GOEXPERIMENT", "GOTOOLCHAIN"}, k) {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOOS="+t.OS, "GOARCH="+t.Arch, "CGO_ENABLED=0", "GOFLAGS=-mod=readonly",
		"GOAMD64=v1", "GOARM64=v8.0", "GOTOOLCHAIN=local")
}

// build compiles the binary for t into bin.
func (r release) build(ctx context.Context, t target, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags", r.ldflags(), "-o", bin, ".")
	cmd.Dir = r.source.root
	cmd.Env = buildEnv(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s: %v\n%s", t, err, out)
	}
	return nil
}

// checkVersion runs a binary built for this machine and checks that
// `arbiter version` names the release.
func (r release) checkVersion(ctx context.Context, bin string) error {
	out, err := exec.CommandContext(ctx, bin, "version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s version: %v\n%s", bin, err, out)
	}
	if !strings.HasPrefix(string(out), "arbiter "+r.version+" revision "+r.source.revision[:12]) {
		return fmt.Errorf("%s version printed %q, not version %s revision %s", bin, out, r.version, r.source.revision[:12])
	}
	fmt.Fprintf(r.log, "checked: %s", out)
	return nil
}

// writeSums writes SHA256SUMS in dir over the named files of dir, in the
// format of sha256sum (and shasum -a 256): the digest, two spaces, the name.
func writeSums(dir string, names []string) error {
	names = slices.Sorted(slices.Values(names))
	var b bytes.Buffer
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("checksum of %s: %w", name, err)
		}
		fmt.Fprintf(&b, "%x  %s\n", h.Sum(nil), name)
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), b.Bytes(), 0o644)
}
