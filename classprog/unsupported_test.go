package classprog

import (
	"strings"
	"testing"
)

// Where class programs cannot run, the reason says so and what to do.
func TestUnsupportedSaysWhereAndWhatInstead(t *testing.T) {
	msg := unsupported("windows")
	for _, want := range []string{"Linux only", "not on windows", "engine protocol", "arbiter bridge"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}
