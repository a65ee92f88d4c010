package analysis

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWithinFastPath: the prefix comparison of clean absolute paths answers
// as filepath.Rel does.
func TestWithinFastPath(t *testing.T) {
	byRel := func(root, path string) bool {
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return false
		}
		return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
	}
	paths := []string{"/", "/a", "/a/b", "/a/bc", "/ab", "/a/b/c.md", "/a/..b", "/a/b/", "/a//b", "/a/./b", "/a/../b", "a/b", "", ".", "/a/b/..", "/x/a/b"}
	for _, root := range paths {
		for _, path := range paths {
			if got, want := Within(root, path), byRel(root, path); got != want {
				t.Errorf("within(%q, %q) = %v, filepath.Rel says %v", root, path, got, want)
			}
		}
	}
	for p, want := range map[string]bool{"/": true, "/a/b": true, "/a/b/": false, "/a//b": false, "/a/.": false, "/..": false, "a": false, "": false, "/a/...": true} {
		if cleanAbs(p) != want {
			t.Errorf("cleanAbs(%q) = %v", p, !want)
		}
	}
}

// TestJoinPath: joinPath joins a link's path to a folder as filepath.Join
// does, for every path of up to four elements drawn from names, "." and
// "..", with and without slashes around them.
func TestJoinPath(t *testing.T) {
	elems := []string{"a", "b.md", ".", "..", "", "...", "c d"}
	rels, layer := []string{}, []string{""}
	for n := 1; n <= 4; n++ {
		var next []string
		for _, r := range layer {
			for _, e := range elems {
				if n == 1 {
					next = append(next, e)
				} else {
					next = append(next, r+"/"+e)
				}
			}
		}
		rels, layer = append(rels, next...), next
	}
	bases := []string{"/", "/r", "/r/s", "/r/s/t", "/r/s/", "/r//s", "/r/./s", "/r/../s", "r/s", ""}
	for _, base := range bases {
		for _, rel := range rels {
			for _, r := range []string{rel, "/" + rel, rel + "/"} {
				if got, want := joinPath(base, r), filepath.Join(base, filepath.FromSlash(r)); got != want {
					t.Fatalf("joinPath(%q, %q) = %q, filepath.Join gives %q", base, r, got, want)
				}
			}
		}
	}
}
