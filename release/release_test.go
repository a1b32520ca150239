package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"debug/buildinfo"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"
)

// someFiles writes a binary-like file and a document into a folder and
// returns them as archiveFiles.
func someFiles(t *testing.T) []archiveFile {
	t.Helper()
	dir := t.TempDir()
	bin, doc := filepath.Join(dir, "arbiter"), filepath.Join(dir, "README.md")
	if err := os.WriteFile(bin, bytes.Repeat([]byte{0x7f, 'E', 'L', 'F'}, 1000), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, []byte("# Arbiter\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A later modification time on disk must not reach the archive.
	_ = os.Chtimes(doc, time.Now(), time.Now())
	return []archiveFile{{name: "arbiter", path: bin, mode: 0o755}, {name: "README.md", path: doc, mode: 0o644}}
}

// TestArchivesAreReproducible: the same files give byte-identical tar.gz
// and zip archives, each file under the archive's folder with its mode and
// the commit's time, whatever the files' times and modes on disk.
func TestArchivesAreReproducible(t *testing.T) {
	files := someFiles(t)
	mtime := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	for _, w := range []struct {
		ext   string
		write func(string, string, []archiveFile, time.Time) error
	}{{".tar.gz", writeTarGz}, {".zip", writeZip}} {
		a, b := filepath.Join(dir, "a"+w.ext), filepath.Join(dir, "b"+w.ext)
		if err := w.write(a, "arbiter_v1.0.0_x_y", files, mtime); err != nil {
			t.Fatal(err)
		}
		if err := w.write(b, "arbiter_v1.0.0_x_y", files, mtime); err != nil {
			t.Fatal(err)
		}
		da, _ := os.ReadFile(a)
		db, _ := os.ReadFile(b)
		if !bytes.Equal(da, db) {
			t.Errorf("%s: two archives of the same files differ", w.ext)
		}
		got := listArchive(t, a)
		want := []string{"arbiter_v1.0.0_x_y/ drwxr-xr-x", "arbiter_v1.0.0_x_y/arbiter -rwxr-xr-x", "arbiter_v1.0.0_x_y/README.md -rw-r--r--"}
		if strings.Join(got.entries, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s holds\n%s\nwant\n%s", w.ext, strings.Join(got.entries, "\n"), strings.Join(want, "\n"))
		}
		for _, m := range got.times {
			if !m.Equal(mtime) {
				t.Errorf("%s: a file dated %v, want %v", w.ext, m, mtime)
			}
		}
	}
}

type listing struct {
	entries []string
	times   []time.Time
}

// listArchive reads a .tar.gz or .zip: each entry's name and mode, and its time.
func listArchive(t *testing.T, path string) listing {
	t.Helper()
	var l listing
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			l.entries = append(l.entries, f.Name+" "+f.Mode().String())
			l.times = append(l.times, f.Modified)
		}
		return l
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return l
		}
		if err != nil {
			t.Fatal(err)
		}
		l.entries = append(l.entries, h.Name+" "+h.FileInfo().Mode().String())
		l.times = append(l.times, h.ModTime)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "root" {
			t.Errorf("%s owned by %d:%d %s", h.Name, h.Uid, h.Gid, h.Uname)
		}
	}
}

// TestSumsCheckWithSha256sum: SHA256SUMS is what `sha256sum -c` reads,
// and it catches a changed file.
func TestSumsCheckWithSha256sum(t *testing.T) {
	sha256sum, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip("sha256sum (coreutils) is not installed")
	}
	dir := t.TempDir()
	for name, data := range map[string]string{"b.zip": "zip", "a.tar.gz": "tar", "a.sbom.cdx.json": "{}"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeSums(dir, []string{"b.zip", "a.tar.gz", "a.sbom.cdx.json"}); err != nil {
		t.Fatal(err)
	}
	sums, _ := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if lines := strings.Split(strings.TrimSpace(string(sums)), "\n"); len(lines) != 3 || !strings.HasSuffix(lines[0], "  a.sbom.cdx.json") {
		t.Fatalf("SHA256SUMS:\n%s", sums)
	}
	check := func() error {
		cmd := exec.Command(sha256sum, "-c", "SHA256SUMS")
		cmd.Dir = dir
		return cmd.Run()
	}
	if err := check(); err != nil {
		t.Fatalf("sha256sum -c: %v\n%s", err, sums)
	}
	_ = os.WriteFile(filepath.Join(dir, "b.zip"), []byte("changed"), 0o644)
	if err := check(); err == nil {
		t.Fatal("sha256sum -c passed a changed file")
	}
}

// TestSBOM: the bill of materials of a Go binary (this test's own) is
// CycloneDX 1.6 JSON naming the toolchain and each module with its version
// and go.sum hash, and the same binary gives the same bytes.
func TestSBOM(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	src := source{revision: strings.Repeat("ab", 20), time: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, p := range []string{a, b} {
		if err := writeSBOM(p, exe, "v1.2.0", target{"linux", "amd64"}, src); err != nil {
			t.Fatal(err)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatal("two SBOMs of the same binary differ")
	}
	var bom cdx.BOM
	if err := cdx.NewBOMDecoder(bytes.NewReader(da), cdx.BOMFileFormatJSON).Decode(&bom); err != nil {
		t.Fatalf("decode: %v\n%s", err, da)
	}
	if bom.BOMFormat != "CycloneDX" || bom.SpecVersion != cdx.SpecVersion1_6 || !strings.HasPrefix(bom.SerialNumber, "urn:uuid:") {
		t.Errorf("format %q, spec %v, serial %q", bom.BOMFormat, bom.SpecVersion, bom.SerialNumber)
	}
	if bom.Metadata.Timestamp != "2026-11-25T12:00:00Z" || bom.Metadata.Component.Version != "v1.2.0" {
		t.Errorf("metadata: %+v", bom.Metadata)
	}
	found := map[string]cdx.Component{}
	for _, c := range *bom.Components {
		found[c.Name] = c
	}
	if c := found["stdlib"]; c.Version != runtime.Version() {
		t.Errorf("stdlib component %+v, want version %s", c, runtime.Version())
	}
	for _, m := range info.Deps {
		c, ok := found[m.Path]
		if !ok || c.Version != m.Version || c.PackageURL != "pkg:golang/"+m.Path+"@"+m.Version {
			t.Errorf("module %s %s: component %+v", m.Path, m.Version, c)
		}
	}
	if _, ok := found["github.com/CycloneDX/cyclonedx-go"]; !ok {
		t.Error("the SBOM lacks a module the binary holds")
	}
}

// TestBadInput: a version or target that is not one gets a clear message
// and exit status 2, before anything is built.
func TestBadInput(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-version", "1.2"},
		{"-version", "v1.2.0; rm -rf /"},
		{"-version", "v1.2.0", "-target", "plan9/386"},
		{"-version", "v1.2.0", "extra"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), append(args, "-out", t.TempDir()), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "release") && !strings.Contains(errOut.String(), "target") {
			t.Errorf("%q: exit %d, %q", args, code, errOut.String())
		}
	}
}

// TestRelease makes a release for this machine twice, the second time with
// an empty build cache: the archives and SBOMs are byte-identical, and the
// archive's binary prints the stamped version (the run checks it itself).
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds arbiter twice, once from an empty cache; .ci/run makes the same check with the release command")
	}
	host := target{runtime.GOOS, runtime.GOARCH}
	if _, err := parseTarget(host.String()); err != nil {
		t.Skipf("no release target for %s", host)
	}
	src, err := readSource(context.Background(), ".")
	if err != nil {
		t.Skip(err)
	}
	outs := []string{t.TempDir(), t.TempDir()}
	for i, out := range outs {
		if i == 1 {
			t.Setenv("GOCACHE", t.TempDir())
		}
		var log bytes.Buffer
		r := release{version: "v0.0.1-test", source: src, targets: []target{host}, out: out, log: &log}
		if err := r.make(context.Background()); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		if !strings.Contains(log.String(), "checked: arbiter v0.0.1-test revision "+src.revision[:12]) {
			t.Fatalf("the binary's version was not checked:\n%s", log.String())
		}
	}
	a, _ := os.ReadFile(filepath.Join(outs[0], "SHA256SUMS"))
	b, _ := os.ReadFile(filepath.Join(outs[1], "SHA256SUMS"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("two releases of one commit differ:\n%s\n%s", a, b)
	}
}
