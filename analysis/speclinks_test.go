package analysis

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSpecSectionsMatchSpec checks the code table against the
// specification's reference copy: each section title exists as a heading,
// and each code is defined in a table row of its section.
func TestSpecSectionsMatchSpec(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "shared", "reference", "SPEC.md"))
	if err != nil {
		t.Skipf("the specification is not beside the repository: %v", err)
	}
	section := ""
	defined := map[string]map[string]bool{}
	heading := regexp.MustCompile(`^#{2,4} (\d+[a-z]?(?:\.\d+)*)\.? `)
	titles := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			section = m[1]
			titles[section] = strings.TrimLeft(line, "# ")
		}
		if strings.HasPrefix(line, "| `") {
			code, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			if defined[code] == nil {
				defined[code] = map[string]bool{}
			}
			defined[code][section] = true
		}
	}
	for num, title := range specSections {
		if titles[num] != title {
			t.Errorf("section %s is titled %q in the specification, %q in the table", num, titles[num], title)
		}
	}
	for code, num := range codeSections {
		if !defined[code][num] {
			t.Errorf("%s is not defined in a table of section %s", code, num)
		}
	}
}

func TestSpecSection(t *testing.T) {
	sec, href, ok := SpecSection("CONTRACT_ANSWER_NOT_ASKED")
	if !ok || sec != "10.3" || href != "https://opengdd.org/spec/#103-questions-and-answers" {
		t.Errorf("SpecSection(CONTRACT_ANSWER_NOT_ASKED) = %q, %q, %v", sec, href, ok)
	}
	if _, _, ok := SpecSection("DOC_LINK_FILE"); ok {
		t.Error("a gddls code has a spec section")
	}
}

// gddlsCodes are the finding codes of gddls' own (DESIGN §5), which no
// section of the specification defines.
var gddlsCodes = map[string]bool{
	"DOC_LINK_AMBIGUOUS": true, "DOC_LINK_ANCHOR": true, "DOC_LINK_FILE": true,
	"DOC_PATH_MISSING": true, "DOC_WITNESS_MISSING": true, "FILE_NOT_ANALYSED": true,
}

// TestEveryCodeHasASection reads the code literals of the checks (every
// "UPPER_CASE" string of the non-test sources of analysis and contracts)
// and requires each to be in the table or one of gddls' own codes, so that
// a new finding code gets its link.
func TestEveryCodeHasASection(t *testing.T) {
	lit := regexp.MustCompile(`"([A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+)"`)
	seen := 0
	for _, dir := range []string{".", filepath.Join("..", "contracts"), filepath.Join("..", "contracts", "pack")} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range lit.FindAllStringSubmatch(string(data), -1) {
				code := m[1]
				seen++
				if _, ok := codeSections[code]; ok || gddlsCodes[code] {
					continue
				}
				if strings.Contains(string(data), `HasPrefix(d.Code, "`+code+`")`) {
					continue // a family of codes, not a code
				}
				t.Errorf("%s: the code %s has no section in codeSections", file, code)
			}
		}
	}
	if seen < len(codeSections) {
		t.Errorf("only %d code literals found in the sources; the scan is broken", seen)
	}
}
