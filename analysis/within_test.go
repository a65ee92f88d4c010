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
