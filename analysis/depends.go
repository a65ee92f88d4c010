package analysis

import (
	"path/filepath"

	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

// DependsOn reports whether an event on disk at path can change what the
// snapshot reports, so that a server can watch every file and folder and
// rebuild only for the events that matter. listing says that path was
// created or deleted, which changes the listing of its folder; otherwise
// its content changed.
//
// The snapshot depends on every Markdown and JSON file below its roots; on
// each file or folder a check looked at, present or missing (a linked image,
// a cited path, a test source holding a witness, an image of
// direction.json) and on the folders above them; and, for creations and
// deletions, on the listing of every folder it walked or listed for a
// citation, from which it answers whether a path exists. Nothing outside the roots counts.
func (s *Snapshot) DependsOn(path string, listing bool) bool {
	path = filepath.Clean(path)
	if s.RootFor(path) == "" {
		return false
	}
	if interesting(filepath.Base(path)) {
		return true
	}
	if s.files.get(path) != nil {
		return true
	}
	if _, ok := s.tree.dirs[path]; ok {
		return true
	}
	if listing {
		if _, ok := s.tree.dirs[filepath.Dir(path)]; ok {
			return true
		}
		if s.tree.listedOutside(filepath.Dir(path)) {
			return true // a hidden folder a citation led into (casefold.go)
		}
	}
	s.depsOnce.Do(s.collectDeps)
	return s.deps[path]
}

// collectDeps gathers the paths the checks looked at, and the folders
// above each up to its root, so that deleting a folder is seen too.
func (s *Snapshot) collectDeps() {
	s.deps = map[string]bool{}
	add := func(path string) {
		root := s.RootFor(path)
		for root != "" && !s.deps[path] {
			s.deps[path] = true
			if path == root {
				break
			}
			path = filepath.Dir(path)
		}
	}
	for _, r := range s.docResults {
		for _, d := range r.deps {
			add(d.path)
		}
	}
	for _, p := range s.Packages {
		if p.Direction == nil {
			continue
		}
		direction.Images(p.Direction, func(image *jsonsrc.Value) {
			if rel, ok := PackageRelative(image.Str()); ok {
				add(filepath.Join(p.Root, filepath.FromSlash(rel)))
			}
		})
	}
}
