package cli

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module's path, the prefix of every package of ours.
const module = "arbiter"

// diagram is the architecture diagram's source, from this package's directory.
const diagram = "../docs/explanation/architecture.dot"

// packagesOfTree walks the module from root and returns every package
// with non-test Go files (testdata and hidden directories skipped), by
// import path, with the packages of ours its non-test files import.
func packagesOfTree(t *testing.T, root string) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		imports := pkgs[pkg]
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if (p == module || strings.HasPrefix(p, module+"/")) && !slices.Contains(imports, p) {
				imports = append(imports, p)
			}
		}
		pkgs[pkg] = imports
		return nil
	})
	if err != nil {
		t.Fatalf("walk the module: %v", err)
	}
	return pkgs
}

// diagramNodes returns the packages the diagram names: every quoted name
// that is not an attribute's value, as an import path ("arbiter" is the
// command, any other name a path inside the module).
func diagramNodes(t *testing.T, src string) map[string]bool {
	t.Helper()
	src = regexp.MustCompile(`(?m)^\s*//.*$`).ReplaceAllString(src, "")
	src = regexp.MustCompile(`\w+\s*=\s*"[^"]*"`).ReplaceAllString(src, "")
	nodes := map[string]bool{}
	for _, m := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(src, -1) {
		if m[1] == module {
			nodes[module] = true
		} else {
			nodes[module+"/"+m[1]] = true
		}
	}
	return nodes
}

// TestArchitectureDiagram keeps docs/explanation/architecture.dot in step
// with the packages of the tree: each package is a node of the diagram and
// each node a package.
func TestArchitectureDiagram(t *testing.T) {
	src, err := os.ReadFile(diagram)
	if err != nil {
		t.Fatal(err)
	}
	nodes := diagramNodes(t, string(src))
	pkgs := packagesOfTree(t, "..")
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages in the tree: %v", len(pkgs), pkgs)
	}
	for p := range pkgs {
		if !nodes[p] {
			t.Errorf("package %s is missing from %s", p, diagram)
		}
	}
	for n := range nodes {
		if _, ok := pkgs[n]; !ok {
			t.Errorf("%s names %s, which is no package of the tree", diagram, n)
		}
	}
}

// TestImportsPointOneWay checks the layering the diagram shows: the rules
// import nothing of ours beyond rules and the shipped game descriptions
// (arbiter/games: data embedded in a package that imports nothing of
// ours); only the command line imports bot;
// commands and everything it depends on import none of bot, api and cli.
func TestImportsPointOneWay(t *testing.T) {
	pkgs := packagesOfTree(t, "..")
	under := func(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	if imports := pkgs[module+"/games"]; len(imports) > 0 {
		t.Errorf("%s/games imports %v: the shipped game descriptions are data and import nothing of ours", module, imports)
	}
	for p, imports := range pkgs {
		for _, imp := range imports {
			if under(p, module+"/rules") && !under(imp, module+"/rules") && imp != module+"/games" {
				t.Errorf("%s imports %s: the rules import nothing of ours beyond rules", p, imp)
			}
			if under(imp, module+"/bot") && p != module+"/cli" && !under(p, module+"/bot") {
				t.Errorf("%s imports %s: only the command line imports bot", p, imp)
			}
		}
	}
	// commands and everything below it.
	below := map[string]bool{}
	var visit func(p string)
	visit = func(p string) {
		if below[p] {
			return
		}
		below[p] = true
		for _, imp := range pkgs[p] {
			visit(imp)
		}
	}
	visit(module + "/commands")
	if len(below) < 3 {
		t.Fatalf("commands depends on only %v", below)
	}
	for p := range below {
		for _, imp := range pkgs[p] {
			for _, above := range []string{"/bot", "/api", "/cli"} {
				if under(imp, module+above) {
					t.Errorf("%s, below commands, imports %s", p, imp)
				}
			}
		}
	}
}
