package commands

import (
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	good := map[string]time.Duration{
		"45s":     45 * time.Second,
		"10m":     10 * time.Minute,
		"2d":      48 * time.Hour,
		"1d12h":   36 * time.Hour,
		" 1H 30M": 90 * time.Minute,
		"1w":      7 * 24 * time.Hour,
	}
	for in, want := range good {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
		if back, err := ParseDuration(FormatDuration(got)); err != nil || back != got {
			t.Errorf("round trip of %q via %q = %v, %v", in, FormatDuration(got), back, err)
		}
	}
	for _, in := range []string{"", "abc", "10", "m", "5x", "10mm", "9999999d", "-5m", "999999d", "999999w", "367d",
		"999999w999999w", "52w2d1s", strings.Repeat("1s", 40)} {
		if d, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) accepted as %v", in, d)
		}
	}
	if d, err := ParseDuration("52w2d"); err != nil || d != MaxDuration {
		t.Errorf("ParseDuration(52w2d) = %v, %v; want the maximum", d, err)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		48 * time.Hour:   "2d",
		90 * time.Minute: "1h30m",
		45 * time.Second: "45s",
		0:                "0s",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"45s", "10m", "2d", "1d12h", "", "x", "99999w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			return
		}
		if d < 0 || d > MaxDuration {
			t.Fatalf("ParseDuration(%q) = %v, out of bounds", s, d)
		}
		back, err := ParseDuration(FormatDuration(d))
		if err != nil || back != d.Round(time.Second) {
			t.Fatalf("round trip of %q: %v, %v", s, back, err)
		}
	})
}
