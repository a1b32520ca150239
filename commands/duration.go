package commands

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// durationUnit is a unit a player may use for a per-move time.
type durationUnit struct {
	suffix string
	unit   time.Duration
}

// durationUnits returns the units, largest first.
func durationUnits() [5]durationUnit {
	return [5]durationUnit{
		{"w", 7 * 24 * time.Hour},
		{"d", 24 * time.Hour},
		{"h", time.Hour},
		{"m", time.Minute},
		{"s", time.Second},
	}
}

// MaxDuration is the longest time ParseDuration accepts: a year.
const MaxDuration = 366 * 24 * time.Hour

// ParseDuration reads a per-move time such as "45s", "10m", "2d" or
// "1d12h": whole numbers each followed by w, d, h, m or s, at most
// MaxDuration in all. Nothing overflows: a longer time is an error that
// says so.
func ParseDuration(text string) (time.Duration, error) {
	if len(text) > 64 {
		return 0, fmt.Errorf("%.20q...: a time is at most 64 characters, such as 45s, 10m, 6h or 2d", text)
	}
	s := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(text), " ", ""))
	if s == "" {
		return 0, fmt.Errorf("give a time such as 45s, 10m, 6h or 2d")
	}
	var total time.Duration
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) || i > 6 {
			return 0, fmt.Errorf("%q: give a time such as 45s, 10m, 6h or 2d", text)
		}
		n, _ := strconv.Atoi(s[:i]) // at most 6 digits: no overflow
		var unit time.Duration
		for _, u := range durationUnits() {
			if strings.HasPrefix(s[i:], u.suffix) {
				unit = u.unit
				break
			}
		}
		if unit == 0 {
			return 0, fmt.Errorf("%q: units are w, d, h, m and s, e.g. 45s, 10m, 2d", text)
		}
		if time.Duration(n) > (MaxDuration-total)/unit {
			return 0, fmt.Errorf("%q is too long: at most %s", text, FormatDuration(MaxDuration))
		}
		total += time.Duration(n) * unit
		s = s[i+1:]
	}
	return total, nil
}

// FormatDuration writes d in the units ParseDuration reads, e.g. "2d",
// "1h30m" or "45s", rounded to the second.
func FormatDuration(d time.Duration) string {
	d = d.Round(time.Second)
	if d <= 0 {
		return "0s"
	}
	var b strings.Builder
	units := durationUnits()
	for _, u := range units[1:] { // days and smaller read best
		if n := d / u.unit; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.suffix)
			d -= n * u.unit
		}
	}
	return b.String()
}
