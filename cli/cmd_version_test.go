package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestVersion: `arbiter version` prints one line with the module, its
// version, the revision, the Go version and the store layout.
func TestVersion(t *testing.T) {
	code, out, errOut := runArgs(t, "version")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	if !regexp.MustCompile(`^arbiter \S+ revision \S+.* go1\.\d+\S* store layout 2\n$`).MatchString(out) {
		t.Fatalf("arbiter version = %q", out)
	}
	if code, _, _ := runArgs(t, "version", "extra"); code != 2 {
		t.Fatalf("arbiter version extra: exit %d, want 2", code)
	}
}

func TestBuildInfoString(t *testing.T) {
	for _, c := range []struct {
		b    buildInfo
		want string
	}{
		{buildInfo{Module: "arbiter", Version: "v1.2.0", Revision: "0123456789abcdef0123", Time: "2026-11-25T12:00:00Z", Go: "go1.26.0", Layout: 2},
			"arbiter v1.2.0 revision 0123456789ab (2026-11-25T12:00:00Z) go1.26.0 store layout 2"},
		{buildInfo{Module: "arbiter", Version: "(devel)", Revision: "abc", Modified: true, Go: "go1.26.0", Layout: 2},
			"arbiter (devel) revision abc (modified) go1.26.0 store layout 2"},
		{buildInfo{Module: "arbiter", Version: "(devel)", Go: "go1.26.0", Layout: 3},
			"arbiter (devel) revision unknown go1.26.0 store layout 3"},
	} {
		if got := c.b.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	if b := readBuildInfo(); !strings.HasPrefix(b.Go, "go1.") || b.Layout != 2 {
		t.Errorf("readBuildInfo() = %+v", b)
	}
}

// TestReleaseStamp: the release build's stamp replaces what the toolchain
// recorded; without one, nothing changes.
func TestReleaseStamp(t *testing.T) {
	dev := buildInfo{Module: "arbiter", Version: "(devel)", Revision: "abc", Modified: true, Go: "go1.26.0", Layout: 2}
	if got := withReleaseStamp(dev, "", "", "", ""); got != dev {
		t.Errorf("no stamp: %+v", got)
	}
	got := withReleaseStamp(dev, "v1.2.0", "0123456789abcdef0123", "2026-11-25T12:00:00Z", "false")
	if want := "arbiter v1.2.0 revision 0123456789ab (2026-11-25T12:00:00Z) go1.26.0 store layout 2"; got.String() != want {
		t.Errorf("stamped: %q, want %q", got.String(), want)
	}
}
