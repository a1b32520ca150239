package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// images builds the container image of deploy/Containerfile for each Linux
// binary of the release with podman, dated the commit's time, saves each as
// an OCI archive in r.out and, for this machine's architecture, checks
// that the image's `arbiter version` names the release. It returns the
// archives' names.
func (r release) images(ctx context.Context, work string, binaries map[target]string) ([]string, error) {
	var names []string
	for _, t := range r.targets {
		if t.OS != "linux" {
			continue
		}
		fmt.Fprintf(r.log, "image %s\n", t)
		dir := filepath.Join(work, "image-"+t.Arch)
		if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
			return nil, err
		}
		for _, f := range []string{"Containerfile", "data/.keep"} {
			data, err := os.ReadFile(filepath.Join(r.source.root, "deploy", f))
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				return nil, err
			}
		}
		bin, err := os.ReadFile(binaries[t])
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "arbiter"), bin, 0o755); err != nil {
			return nil, err
		}
		tag := "localhost/arbiter:" + r.version + "-" + t.Arch
		if err := podman(ctx, "build", "--network", "none", "--platform", t.String(),
			"--timestamp", strconv.FormatInt(r.source.time.Unix(), 10),
			"-t", tag, "-f", filepath.Join(dir, "Containerfile"), dir); err != nil {
			return nil, err
		}
		name := fmt.Sprintf("arbiter_%s_image_linux_%s.oci.tar", r.version, t.Arch)
		if err := podman(ctx, "save", "--format", "oci-archive", "-o", filepath.Join(r.out, name), tag); err != nil {
			return nil, err
		}
		names = append(names, name)
		if t.Arch == runtime.GOARCH && runtime.GOOS == "linux" {
			out, err := exec.CommandContext(ctx, "podman", "run", "--rm", "--network", "none", tag, "version").CombinedOutput()
			if err != nil {
				return nil, fmt.Errorf("podman run %s version: %v\n%s", tag, err, out)
			}
			if !strings.HasPrefix(string(out), "arbiter "+r.version+" ") {
				return nil, fmt.Errorf("the image's arbiter version printed %q, not %s", out, r.version)
			}
			fmt.Fprintf(r.log, "checked image: %s", out)
		}
	}
	return names, nil
}

// podman runs podman with args, failing with its output.
func podman(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, "podman", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("podman %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}
