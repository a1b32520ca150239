package cli

import (
	"strings"
	"testing"
)

// TestConsoleDeadlinesInLocalTime: the console writes deadlines in the
// machine's time zone (TZ), not in UTC.
func TestConsoleDeadlinesInLocalTime(t *testing.T) {
	t.Parallel()
	bin := buildArbiter(t)
	out := runConsoleBinary(t, bin, "/play game:sixes level:1\n/board\n", "DATA_DIR="+t.TempDir(), "TZ=Asia/Tokyo")
	if !strings.Contains(out, "JST).") || strings.Contains(out, "UTC).") {
		t.Errorf("the deadline is not in Tokyo's time:\n%s", out)
	}
}
