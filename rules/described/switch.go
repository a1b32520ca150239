package described

import (
	"slices"

	"gopkg.in/yaml.v3"
)

// switchOption reads an option whose values are on and off (values: [on,
// off]); in expressions on is 1 and off 0, so that a rule can say
// if: swap. It returns false, reading nothing, when values is a list of
// numbers.
func (r *reader) switchOption(o *optionDef, def, values *yaml.Node) bool {
	items := r.list(values, "values")
	if r.err != nil || len(items) == 0 {
		return false
	}
	words := 0
	for _, x := range items {
		if x.Kind == yaml.ScalarNode && (x.Value == "on" || x.Value == "off") {
			words++
		}
	}
	if words == 0 {
		return false
	}
	o.Switch = true
	for _, x := range items {
		switch r.word(x, "a value of an on/off option", "on", "off") {
		case "on":
			o.Values = append(o.Values, 1)
		case "off":
			o.Values = append(o.Values, 0)
		}
	}
	if r.err != nil {
		return true
	}
	if len(o.Values) != 2 || o.Values[0] == o.Values[1] {
		r.fail(values, "an on/off option lists both values once: values: [on, off]")
		return true
	}
	switch r.word(def, "default", "on", "off") {
	case "on":
		o.Default = 1
	case "off":
		o.Default = 0
	}
	if r.err == nil && !slices.Contains(o.Values, o.Default) {
		r.fail(def, "default is not one of the values")
	}
	return true
}
