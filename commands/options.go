package commands

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// MaxOptionLength is the most bytes an option's value may hold. Anything
// longer is refused without being echoed: no move, name or setting is near
// it, and a refusal must stay readable.
const MaxOptionLength = 200

// optionMark matches "name:value" at the start of a word: an option name
// followed by a colon and, for an unknown name, a value with no space
// before it (so that prose such as "left: no show" is not an option).
var optionMark = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*):`)

// parseOptions reads the options text of one command: "name:value ..."
// where a value runs to the next "name:" of the command's options and the
// text before the first option fills the command's first option. A word
// "xyz:value" whose name is not one of the command's options is an error
// naming it, as is an option given twice. Quoted text is a value only.
func parseOptions(cmd string, spec CommandSpec, rest string) (map[string]string, error) {
	opts := map[string]string{}
	type mark struct {
		name      string
		at, value int
	}
	var marks []mark
	quote := byte(0)
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		} else if (c == '"' || c == '\'') && (i == 0 || isSpace(rest[i-1]) || rest[i-1] == ':') {
			quote = c
			continue
		}
		if i > 0 && !isSpace(rest[i-1]) {
			continue
		}
		m := optionMark.FindStringSubmatch(rest[i:])
		if m == nil {
			continue
		}
		name := strings.ToLower(m[1])
		if _, ok := findOption(spec.Options, name); ok {
			marks = append(marks, mark{name, i, i + len(m[0])})
			continue
		}
		after := i + len(m[0])
		if after < len(rest) && !isSpace(rest[after]) && !isMoveLike(name) {
			if len(spec.Options) == 0 {
				return nil, fmt.Errorf("/%s takes no options", cmd)
			}
			return nil, fmt.Errorf("/%s has no option %s; it takes %s", cmd, clip(name, 30), optionNames(spec.Options))
		}
	}
	end := len(rest)
	if len(marks) > 0 {
		end = marks[0].at
	}
	if lead := strings.TrimSpace(rest[:end]); lead != "" {
		if len(spec.Options) == 0 {
			return nil, fmt.Errorf("/%s takes no options", cmd)
		}
		opts[spec.Options[0].Name] = unquote(lead)
	}
	for i, m := range marks {
		stop := len(rest)
		if i+1 < len(marks) {
			stop = marks[i+1].at
		}
		if _, dup := opts[m.name]; dup {
			return nil, fmt.Errorf("option %s is given twice", m.name)
		}
		opts[m.name] = unquote(strings.TrimSpace(rest[m.value:stop]))
	}
	return opts, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// CheckOptions checks an invocation's options against its command's spec
// as a chat platform does before it sends a command: every option is one
// of the command's, every required one is given, a value is one of the
// option's choices, an integer is a whole number within its bounds, a
// boolean is true or false, and no value is longer than MaxOptionLength.
// Choice values are folded to the spelling of the choice and empty options
// dropped, in a copy of inv.Options: the map given is never changed. Its
// errors name the command and the option.
func CheckOptions(specs []CommandSpec, inv *Invocation) error {
	spec, ok := findSpec(specs, strings.ToLower(inv.Command))
	if !ok {
		return fmt.Errorf("there is no command /%s; /help lists them", clip(inv.Command, 30))
	}
	cmd := spec.Name
	if len(spec.Subcommands) > 0 {
		sub, ok := findSpec(spec.Subcommands, strings.ToLower(inv.Sub))
		if !ok {
			return fmt.Errorf("/%s takes %s", cmd, specNames(spec.Subcommands))
		}
		spec, cmd = sub, cmd+" "+sub.Name
	}
	var few [8]string // room for a command's options without an allocation
	names := few[:0]
	for name := range inv.Options {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if _, ok := findOption(spec.Options, name); !ok {
			if len(spec.Options) == 0 {
				return fmt.Errorf("/%s takes no options", cmd)
			}
			return fmt.Errorf("/%s has no option %s; it takes %s", cmd, clip(name, 30), optionNames(spec.Options))
		}
	}
	copied := false // inv.Options is a copy of the caller's map
	for _, o := range spec.Options {
		given, ok := inv.Options[o.Name]
		v := strings.TrimSpace(given)
		if !ok || v == "" {
			if o.Required {
				return &MissingOptionError{Command: cmd, Option: o}
			}
			if ok {
				if !copied {
					inv.Options, copied = maps.Clone(inv.Options), true
				}
				delete(inv.Options, o.Name)
			}
			continue
		}
		if len(v) > MaxOptionLength {
			return fmt.Errorf("%s is %d bytes long; Arbiter reads at most %d", o.Name, len(v), MaxOptionLength)
		}
		switch {
		case len(o.Choices) > 0 && o.Name != "game":
			// Games are checked by the registry, which knows them by more
			// than one name and says which there are.
			i := slices.IndexFunc(o.Choices, func(c Choice) bool { return strings.EqualFold(c.Value, v) || strings.EqualFold(c.Name, v) })
			if i < 0 {
				return fmt.Errorf("%s must be %s, not %q", o.Name, orList(choiceValues(o.Choices)), clip(v, 30))
			}
			v = o.Choices[i].Value
		case o.Type == OptInteger:
			n, err := strconv.Atoi(v)
			if err != nil || o.Max > 0 && (n < o.Min || n > o.Max) {
				return fmt.Errorf("%s must be %d to %d, not %q", o.Name, o.Min, o.Max, clip(v, 30))
			}
		case o.Type == OptBoolean:
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s must be true or false, not %q", o.Name, clip(v, 30))
			}
			v = strconv.FormatBool(b)
		}
		if v != given {
			if !copied {
				inv.Options, copied = maps.Clone(inv.Options), true
			}
			inv.Options[o.Name] = v
		}
	}
	return nil
}

// MissingOptionError is a required option left out.
type MissingOptionError struct {
	Command string // "play", "referee start"
	Option  OptionSpec
}

func (e *MissingOptionError) Error() string {
	return fmt.Sprintf("/%s needs %s (%s)%s", e.Command, e.Option.Name, e.Option.Description, choiceHint(e.Option))
}

// choiceHint lists an option's choices after a colon, or nothing.
func choiceHint(o OptionSpec) string {
	if len(o.Choices) == 0 {
		return ""
	}
	return ": " + orList(choiceValues(o.Choices))
}

func choiceValues(cs []Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Value
	}
	return out
}

// orList writes "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func findOption(opts []OptionSpec, name string) (OptionSpec, bool) {
	for _, o := range opts {
		if o.Name == name {
			return o, true
		}
	}
	return OptionSpec{}, false
}
