package described

import (
	"fmt"
	"regexp"
	"strings"
)

// keyLine matches a line that starts a mapping key, after its indentation
// and any list dashes: the key and the rest of the line after the colon.
var keyLine = regexp.MustCompile(`^([A-Za-z0-9_-]+):(?:\s+(.*))?$`)

// indentFault finds the usual cause of a YAML syntax error in a
// description, a key indented unlike the keys around it, and says so in
// the author's words: the line and column of the key and what is wrong.
// It looks only at block mappings and lists (flow collections and
// folded texts are skipped), and ok is false when it finds nothing it can
// name, so that the YAML reader's own message is kept.
func indentFault(data []byte) (line, col int, msg string, ok bool) {
	type level struct {
		indent int
		key    string // "" for a list item
	}
	levels := []level{{0, ""}}
	var prevKey, prevValue string
	prevIndent, opens := -1, true
	textUnder := -1 // skip a folded or literal text indented more than this
	depth := 0      // open brackets of a flow collection
	for i, raw := range strings.Split(string(data), "\n") {
		text := strings.TrimRight(raw, " \r")
		body := strings.TrimLeft(text, " ")
		indent := len(text) - len(body)
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		if textUnder >= 0 && indent > textUnder {
			continue
		}
		textUnder = -1
		if depth > 0 {
			depth += flowDepth(body)
			continue
		}
		// List dashes open an item level each, its keys two further in.
		item := false
		for strings.HasPrefix(body, "- ") || body == "-" {
			item = true
			body = strings.TrimLeft(strings.TrimPrefix(body, "-"), " ")
		}
		m := keyLine.FindStringSubmatch(body)
		if m == nil && !item {
			continue // a value on its own line: left to the YAML reader
		}
		top := levels[len(levels)-1].indent
		switch {
		case indent > top && !opens:
			if m != nil {
				return i + 1, indent + 1, fmt.Sprintf("%s: is indented more than %s: above it, which already has its value (%q), so YAML reads it as part of that value; "+
					"a key of the same block is indented as %s: is (%s)", m[1], prevKey, prevValue, prevKey, spaces(prevIndent)), true
			}
		case indent > top:
			levels = append(levels, level{indent, prevKey})
		case indent < top:
			for len(levels) > 1 && levels[len(levels)-1].indent > indent {
				levels = levels[:len(levels)-1]
			}
			if levels[len(levels)-1].indent != indent && m != nil {
				return i + 1, indent + 1, fmt.Sprintf("%s: is indented %s, which lines it up with no block above it: "+
					"indent it as the keys beside it, or as the key it belongs under", m[1], spaces(indent)), true
			}
		}
		if item {
			levels = append(levels, level{len(text) - len(strings.TrimLeft(text, " -")), ""})
		}
		if m == nil {
			opens = true
			continue
		}
		prevKey, prevValue, prevIndent = m[1], m[2], indent
		value := strings.TrimSpace(m[2])
		opens = value == "" || strings.HasPrefix(value, "#")
		switch {
		case strings.HasPrefix(value, ">") || strings.HasPrefix(value, "|"):
			textUnder, opens = indent, true
			if item {
				textUnder = levels[len(levels)-1].indent
			}
		case strings.HasPrefix(value, "[") || strings.HasPrefix(value, "{"):
			depth = flowDepth(value)
		}
	}
	return 0, 0, "", false
}

// flowDepth counts the brackets text opens less those it closes, outside
// quotes.
func flowDepth(text string) int {
	n := 0
	var quote rune
	for _, r := range text {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '[' || r == '{':
			n++
		case r == ']' || r == '}':
			n--
		case r == '#':
			return n
		}
	}
	return n
}

// spaces writes an indentation in words: "1 space", "2 spaces".
func spaces(n int) string {
	if n == 1 {
		return "1 space"
	}
	return fmt.Sprintf("%d spaces", n)
}
