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
