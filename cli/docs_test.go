package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// userPageFolders hold the pages written for Arbiter's users: what it does
// and how to use it, never how it is built or tested.
var userPageFolders = []string{"../docs/tutorials", "../docs/how-to", "../docs/reference"}

// testTalk finds what belongs to the code and its tests rather than to a
// user page: a `go test` command, a test, benchmark or fuzz target's name,
// a package-qualified Go identifier (store.Layout) or a Go source file.
var testTalk = []struct {
	what string
	re   *regexp.Regexp
}{
	{"a go test command", regexp.MustCompile(`\bgo test\b`)},
	{"a test's name", testName},
	{"a Go identifier", regexp.MustCompile(`\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]*\b`)},
	{"a Go source file", regexp.MustCompile(`\b[A-Za-z0-9_/.-]+\.go\b`)},
}

// htmlComment is a comment of a page, which readers do not see (the
// generated references say there how they are made).
var htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)

// findTestTalk returns, for a page's text, each line that names one of
// testTalk, saying what it names.
func findTestTalk(text string) []string {
	var found []string
	text = htmlComment.ReplaceAllStringFunc(text, func(c string) string { return strings.Repeat("\n", strings.Count(c, "\n")) })
	for i, line := range strings.Split(text, "\n") {
		for _, t := range testTalk {
			if m := t.re.FindString(line); m != "" {
				found = append(found, fmt.Sprintf("line %d names %s (%s)", i+1, t.what, m))
			}
		}
	}
	return found
}

// TestDocsUserPagesSpeakToUsers: the tutorials, how-to guides and
// references name no Go identifier, test or `go test` command; those go to
// docs/explanation (the code behind the pages and its tests:
// docs/explanation/code-and-tests.md).
func TestDocsUserPagesSpeakToUsers(t *testing.T) {
	pages := 0
	for _, dir := range userPageFolders {
		paths, err := filepath.Glob(filepath.Join(dir, "*.md"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("no pages in %s: %v", dir, err)
		}
		for _, path := range paths {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, f := range findTestTalk(string(raw)) {
				t.Errorf("%s: %s: move it to docs/explanation", path, f)
			}
		}
	}
	if pages < 20 {
		t.Fatalf("checked only %d pages", pages)
	}
}

// TestFindTestTalk: the check finds each kind of test talk, and passes a
// user's text and a generated page's comment.
func TestFindTestTalk(t *testing.T) {
	for text, want := range map[string]string{
		"run `go test ./cli` first":               "a go test command",
		"kept true by TestTutorialFirstServer":    "a test's name",
		"measured by BenchmarkMoveArchive":        "a test's name",
		"the lease (`store.JobLease`) runs out":   "a Go identifier",
		"see `store/boltstore/group.go`":          "a Go source file",
		"a\n<!-- go test -run TestX -->\nb":       "",
		"Set `API_ADDR=127.0.0.1:8080`, e.g. Foo": "",
		"`/play game:sixes`; arbiter.example.org": "",
	} {
		got := findTestTalk(text)
		if want == "" && len(got) > 0 || want != "" && (len(got) == 0 || !strings.Contains(got[0], want)) {
			t.Errorf("%q: found %q, want %q", text, got, want)
		}
	}
}
