package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Options are a game's creation options as key=value pairs, e.g.
// "turns=200 edges=on".
type Options map[string]string

// ParseOptions reads options written as key=value pairs separated by spaces
// or commas. A key given twice, or a pair without "=", is an error.
func ParseOptions(text string) (Options, error) {
	opts := Options{}
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == ';' })
	for _, f := range fields {
		key, value, ok := strings.Cut(f, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if !ok || key == "" || value == "" {
			return nil, fmt.Errorf("option %q: write options as key=value, e.g. turns=200", f)
		}
		if _, dup := opts[key]; dup {
			return nil, fmt.Errorf("option %s is given twice", key)
		}
		opts[key] = value
	}
	return opts, nil
}

// String writes the options as sorted key=value pairs separated by spaces,
// a form ParseOptions reads back.
func (o Options) String() string {
	var buf [8]string // a game's options fit; more spill to the heap
	keys := buf[:0]
	size := 0
	for k, v := range o {
		keys = append(keys, k)
		size += len(k) + len(v) + 2
	}
	if len(keys) == 0 {
		return ""
	}
	slices.Sort(keys)
	var b strings.Builder
	b.Grow(size)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(o[k])
	}
	return b.String()
}

// Clone returns a copy of o.
func (o Options) Clone() Options {
	c := make(Options, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}

// FixedOptions are a game's complete options, fixed for its life: a game
// keeps them as this, so that their text is worked out once (every save
// writes it) and a clone of the game shares them.
type FixedOptions struct {
	opts Options
	text string
}

// Fix returns o, fixed: o must not be changed afterwards.
func Fix(o Options) FixedOptions { return FixedOptions{opts: o, text: o.String()} }

// Options returns a copy of the options.
func (f FixedOptions) Options() Options { return f.opts.Clone() }

// String returns Options().String().
func (f FixedOptions) String() string { return f.text }

// OptionSpec describes one option a game takes: a rules file's Variant.
type OptionSpec struct {
	Key     string   // e.g. "turns"
	Default string   // the value when the option is not given
	Values  []string // the allowed values, when they are a fixed set
	Min     int      // for a whole-number option (Values empty): the bounds
	Max     int
	Help    string // one line, e.g. "moves of both players before the game is scored"
	// Validate, when set, replaces the checks above: it returns the value
	// normalised or an error that says what is allowed.
	Validate func(value string) (string, error)
	// Describe, with Validate, says in words what is allowed.
	Describe string
}

// Allowed describes the allowed values in words, e.g. "on or off" or "a
// whole number from 1 to 10000".
func (s OptionSpec) Allowed() string {
	if s.Describe != "" {
		return s.Describe
	}
	if len(s.Values) > 0 {
		if len(s.Values) == 1 {
			return s.Values[0]
		}
		return strings.Join(s.Values[:len(s.Values)-1], ", ") + " or " + s.Values[len(s.Values)-1]
	}
	return fmt.Sprintf("a whole number from %d to %d", s.Min, s.Max)
}

// Check validates value against the spec and returns it normalised (lower
// case for a fixed set of values, canonical digits for a number).
func (s OptionSpec) Check(value string) (string, error) {
	if s.Validate != nil {
		v, err := s.Validate(value)
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w", s.Key, value, err)
		}
		return v, nil
	}
	if len(s.Values) > 0 {
		v := strings.ToLower(value)
		if slices.Contains(s.Values, v) {
			return v, nil
		}
		return "", fmt.Errorf("%s=%s: %s must be %s", s.Key, value, s.Key, s.Allowed())
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < s.Min || n > s.Max {
		return "", fmt.Errorf("%s=%s: %s must be %s", s.Key, value, s.Key, s.Allowed())
	}
	return strconv.Itoa(n), nil
}

// Resolve checks opts against specs and returns the complete options: every
// spec's key with the given value or its default. A key that no spec names
// is an error that lists the keys the game takes.
func Resolve(game string, specs []OptionSpec, opts Options) (Options, error) {
	known := make([]string, 0, len(specs))
	for _, s := range specs {
		known = append(known, s.Key)
	}
	for k := range opts {
		if !slices.Contains(known, k) {
			if len(known) == 0 {
				return nil, fmt.Errorf("%s takes no options (got %s)", game, k)
			}
			return nil, fmt.Errorf("%s has no option %s; it takes %s", game, k, strings.Join(known, ", "))
		}
	}
	out := make(Options, len(specs))
	for _, s := range specs {
		v, given := opts[s.Key]
		if !given {
			out[s.Key] = s.Default
			continue
		}
		norm, err := s.Check(v)
		if err != nil {
			return nil, err
		}
		out[s.Key] = norm
	}
	return out, nil
}
