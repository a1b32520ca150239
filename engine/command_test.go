package engine

import (
	"os/exec"
	"reflect"
	"testing"
)

func TestProgramCommandArgs(t *testing.T) {
	cases := []struct {
		name    string
		c       ProgramCommand
		goos    string
		argv    []string
		cmdLine string
	}{
		{"line on linux", ProgramCommand{Line: "python3 my prog.py"}, "linux", []string{"/bin/sh", "-c", "python3 my prog.py"}, ""},
		{"line on darwin", ProgramCommand{Line: "./prog"}, "darwin", []string{"/bin/sh", "-c", "./prog"}, ""},
		{"line on windows", ProgramCommand{Line: `python "my prog.py" --fast`}, "windows",
			[]string{"cmd.exe", "/d", "/s", "/c", `python "my prog.py" --fast`}, `cmd.exe /d /s /c "python "my prog.py" --fast"`},
		{"argv on windows", ProgramCommand{Argv: []string{`C:\Program Files\Python\python.exe`, "my prog.py"}}, "windows",
			[]string{`C:\Program Files\Python\python.exe`, "my prog.py"}, ""},
		{"argv on linux", ProgramCommand{Argv: []string{"python3", "it's.py", "$HOME"}}, "linux", []string{"python3", "it's.py", "$HOME"}, ""},
	}
	for _, c := range cases {
		argv, line := c.c.processArgs(c.goos)
		if !reflect.DeepEqual(argv, c.argv) || line != c.cmdLine {
			t.Errorf("%s: got %q, %q; want %q, %q", c.name, argv, line, c.argv, c.cmdLine)
		}
	}
}

func TestProgramCommandString(t *testing.T) {
	for _, c := range []struct {
		c    ProgramCommand
		want string
	}{
		{ProgramCommand{Line: "./prog --fast"}, "./prog --fast"},
		{ProgramCommand{Argv: []string{"python3", "my prog.py", "it's"}}, `python3 'my prog.py' 'it'\''s'`},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("%#v: got %q, want %q", c.c, got, c.want)
		}
	}
}

// An argument vector reaches the program word for word: no shell expands
// or splits it.
func TestProgramCommandArgvReachesProgram(t *testing.T) {
	if _, err := exec.LookPath("printf"); err != nil {
		t.Skip("no printf here")
	}
	cmd := ProgramCommand{Argv: []string{"printf", "%s|", "a b", "$HOME", "*"}}.command()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "a b|$HOME|*|" {
		t.Fatalf("got %q", out)
	}
}
