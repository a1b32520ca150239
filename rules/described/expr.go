package described

import (
	"fmt"
	"strconv"
	"strings"
)

// expr is a whole-number expression of a description: numbers, the names
// of options and lets, + - * / % and parentheses, as in "size - 1" or
// "(size / 2) + 1". It is checked when the description is read and
// evaluated when a game starts, with the options' values.
type expr struct {
	op          byte // 0 number, 'n' name, or the operator
	num         int
	name        string
	left, right *expr
}

// eval evaluates e with the named values env. Division by zero is an error.
func (e *expr) eval(env map[string]int) (int, error) {
	switch e.op {
	case 0:
		return e.num, nil
	case 'n':
		v, ok := env[e.name]
		if !ok {
			return 0, fmt.Errorf("%s has no value", e.name)
		}
		return v, nil
	case 'u':
		v, err := e.left.eval(env)
		return -v, err
	}
	a, err := e.left.eval(env)
	if err != nil {
		return 0, err
	}
	b, err := e.right.eval(env)
	if err != nil {
		return 0, err
	}
	switch e.op {
	case '+':
		return a + b, nil
	case '-':
		return a - b, nil
	case '*':
		return a * b, nil
	case '/', '%':
		if b == 0 {
			return 0, fmt.Errorf("division by zero")
		}
		if e.op == '/' {
			return a / b, nil
		}
		return a % b, nil
	}
	return 0, fmt.Errorf("bad operator %q", e.op)
}

// names calls f with each name e uses.
func (e *expr) names(f func(string)) {
	if e == nil {
		return
	}
	if e.op == 'n' {
		f(e.name)
	}
	e.left.names(f)
	e.right.names(f)
}

// exprParser reads an expression; pos is the byte offset reached, for
// error columns.
type exprParser struct {
	s     string
	pos   int
	depth int // parentheses and signs open at pos
}

// Bounds of an expression: how deep parentheses and signs nest, and how
// long a name is (as an option's or a let's).
const (
	maxExprDepth = 32
	maxExprName  = 32
)

// quoted is text for an error: quoted, and cut when long.
func quoted(text string) string {
	if len(text) > 40 {
		return fmt.Sprintf("%q...", text[:40])
	}
	return fmt.Sprintf("%q", text)
}

// parseExpr reads text as an expression. The error's offset is the byte
// in text where reading failed.
func parseExpr(text string) (*expr, int, error) {
	p := &exprParser{s: text}
	e, err := p.sum()
	if err != nil {
		return nil, p.pos, err
	}
	p.space()
	if p.pos < len(p.s) {
		return nil, p.pos, fmt.Errorf("unexpected %s in expression %s", quoted(p.s[p.pos:]), quoted(text))
	}
	return e, 0, nil
}

func (p *exprParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *exprParser) sum() (*expr, error) {
	left, err := p.product()
	if err != nil {
		return nil, err
	}
	for {
		p.space()
		if p.pos >= len(p.s) || (p.s[p.pos] != '+' && p.s[p.pos] != '-') {
			return left, nil
		}
		op := p.s[p.pos]
		p.pos++
		right, err := p.product()
		if err != nil {
			return nil, err
		}
		left = &expr{op: op, left: left, right: right}
	}
}

func (p *exprParser) product() (*expr, error) {
	left, err := p.factor()
	if err != nil {
		return nil, err
	}
	for {
		p.space()
		if p.pos >= len(p.s) || strings.IndexByte("*/%", p.s[p.pos]) < 0 {
			return left, nil
		}
		op := p.s[p.pos]
		p.pos++
		right, err := p.factor()
		if err != nil {
			return nil, err
		}
		left = &expr{op: op, left: left, right: right}
	}
}

func (p *exprParser) factor() (*expr, error) {
	p.space()
	if p.pos >= len(p.s) {
		return nil, fmt.Errorf("expression %s ends where a number or a name should be", quoted(p.s))
	}
	c := p.s[p.pos]
	if c == '(' || c == '-' {
		if p.depth++; p.depth > maxExprDepth {
			return nil, fmt.Errorf("expression %s is nested more than %d deep", quoted(p.s), maxExprDepth)
		}
		defer func() { p.depth-- }()
	}
	switch {
	case c == '(':
		p.pos++
		e, err := p.sum()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != ')' {
			return nil, fmt.Errorf("expression %s lacks a closing parenthesis", quoted(p.s))
		}
		p.pos++
		return e, nil
	case c == '-':
		p.pos++
		e, err := p.factor()
		if err != nil {
			return nil, err
		}
		return &expr{op: 'u', left: e}, nil
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
		}
		n, err := strconv.Atoi(p.s[start:p.pos])
		if err != nil || n > 1<<20 {
			p.pos = start
			return nil, fmt.Errorf("number %s is too large", p.s[start:p.pos])
		}
		return &expr{num: n}, nil
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		start := p.pos
		for p.pos < len(p.s) && (p.s[p.pos] == '_' || p.s[p.pos] >= 'a' && p.s[p.pos] <= 'z' ||
			p.s[p.pos] >= 'A' && p.s[p.pos] <= 'Z' || p.s[p.pos] >= '0' && p.s[p.pos] <= '9') {
			p.pos++
		}
		if p.pos-start > maxExprName {
			p.pos = start
			return nil, fmt.Errorf("name %s in an expression is over %d characters", quoted(p.s[start:]), maxExprName)
		}
		return &expr{op: 'n', name: p.s[start:p.pos]}, nil
	}
	return nil, fmt.Errorf("unexpected %q in expression %s: write numbers, option names, + - * / %% and parentheses", c, quoted(p.s))
}
