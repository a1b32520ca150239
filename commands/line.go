package commands

import (
	"fmt"
	"strings"
	"unicode"
)

// ParseLine reads a command typed as text, the console's syntax:
//
//	/play game:hique level:3
//	/move 4 2 4 10                 (text before the first option fills the
//	/move move:4 2 4 10             command's first option)
//	/play sixes opponent:@bob options:"turns=60 edges=on"
//	/referee start game:sixes p1:@ann p2:@bob
//
// An option's value runs to the next "name:" of that command's options, so
// values may hold spaces; quotes around a value are removed. The leading
// slash is optional. Unknown commands and options are errors that say what
// there is: a word "xyz:value" (no space after the colon, outside quotes)
// whose name is not one of the command's options is an unknown option, not
// part of the value before it. Required options and values are checked by
// CheckOptions, as for any invocation.
func ParseLine(line string, specs []CommandSpec) (Invocation, error) {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "/"))
	name, rest, _ := strings.Cut(line, " ")
	name = strings.ToLower(name)
	inv := Invocation{Command: name, Options: map[string]string{}}
	spec, ok := findSpec(specs, name)
	if !ok {
		return inv, fmt.Errorf("there is no command /%s; /help lists them", clip(name, 30))
	}
	rest = strings.TrimSpace(rest)
	if len(spec.Subcommands) > 0 {
		sub, more, _ := strings.Cut(rest, " ")
		sub = strings.ToLower(sub)
		subSpec, ok := findSpec(spec.Subcommands, sub)
		if !ok {
			return inv, fmt.Errorf("/%s takes %s", name, specNames(spec.Subcommands))
		}
		inv.Sub, spec, rest = sub, subSpec, strings.TrimSpace(more)
	}
	opts, err := parseOptions(strings.TrimSpace(name+" "+inv.Sub), spec, rest)
	if err != nil {
		return inv, err
	}
	inv.Options = opts
	return inv, nil
}

// isMoveLike reports whether text before a colon may be part of a move
// (HiQUE's "4,2:4,10" style) rather than an option name.
func isMoveLike(s string) bool {
	return strings.IndexFunc(s, unicode.IsDigit) >= 0
}

func findSpec(specs []CommandSpec, name string) (CommandSpec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return CommandSpec{}, false
}

func specNames(specs []CommandSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

func optionNames(opts []OptionSpec) string {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Name
	}
	return strings.Join(names, ", ")
}

// unquote removes one pair of matching quotes around s.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}
