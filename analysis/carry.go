package analysis

import (
	"maps"
	"slices"
	"strings"
)

// A snapshot built from the last one. Most builds of a language server
// follow an edit of an open file: the walk is the last build's, no file
// appeared or disappeared, and one file or two have new content. Such a
// build reads only the edited files, shares every other File and the maps
// that hold them with the last snapshot (fileMap), and takes each package
// from the last build's with the edited files swapped in, so that nothing
// in it costs a step per file of the repository before the checks start.
// The checks then run as in any build, through their memos (reuse.go).
// TestWorkspaceMatchesLoad, its random and same-files variants and the
// tests of carry_test.go hold the result to that of a fresh Load.

// carried is what a build takes from the last snapshot: the snapshot, and
// the edited files whose content changed, by absolute path and by package.
type carried struct {
	prev *Snapshot
	// files are the edited files whose content changed, by path.
	files map[string]*File
	// byPackage are the same files by package root and package-relative
	// path.
	byPackage map[string]map[string]*File
}

// canCarry reports whether a build over the tree t can start from prev:
// prev was built from the very same walk (so the same files, folders and
// package roots, and the same disk state), and the cache still holds the
// memo of each of its packages' builds.
func canCarry(prev *Snapshot, t *tree, cache *Cache) bool {
	if prev == nil || prev.tree != t || cache == nil {
		return false
	}
	for _, p := range prev.Packages {
		if last := cache.lastBuild(p.Root); last == nil || last.stamp != p.stamp {
			return false
		}
	}
	return true
}

// readEdited reads the edited paths of a build carried from prev and
// makes the snapshot's files those of prev with the changed ones
// replaced. A path that is no file of the snapshot, or whose content is
// what prev had, changes nothing.
func (s *Snapshot) readEdited(prev *Snapshot, d *disk, opts Options, edited []string) *carried {
	c := &carried{prev: prev, files: map[string]*File{}, byPackage: map[string]map[string]*File{}}
	s.withEntries = prev.withEntries
	for _, path := range edited {
		wf := s.tree.files[path]
		old := prev.files.get(path)
		if wf == nil || old == nil || c.files[path] != nil {
			continue
		}
		f := loadFile(path, wf.size, d, opts)
		f.cleanPath, f.pkgRoot = wf.clean, old.pkgRoot
		if f.entry != nil && f.entry == old.entry && f.Skipped == old.Skipped {
			continue
		}
		c.files[path] = f
		if old.entry != nil {
			s.withEntries--
		}
		if f.entry != nil {
			s.withEntries++
		}
		if f.pkgRoot != "" {
			rels := c.byPackage[f.pkgRoot]
			if rels == nil {
				rels = map[string]*File{}
				c.byPackage[f.pkgRoot] = rels
			}
			rels[relPath(f.pkgRoot, path)] = f
		}
	}
	s.files = prev.files.with(c.files)
	s.docFiles = c.replaceFiles(prev.docFiles, func(f *File) bool { return f.Markdown != nil })
	s.skipped = c.replaceFiles(prev.skipped, func(f *File) bool { return f.Skipped != "" })
	return c
}

// replaceFiles returns list, the last snapshot's files that have a
// property (keep), for the snapshot with the changed files: each changed
// file takes the place of its last version, or leaves the list when it
// lost the property; one that gained it comes last. The order of the
// others is kept. When no changed file has the property, or had it, list
// itself is returned.
func (c *carried) replaceFiles(list []*File, keep func(*File) bool) []*File {
	touched := false
	for path, f := range c.files {
		touched = touched || keep(f) || keep(c.prev.files.get(path))
	}
	if !touched {
		return list
	}
	out := make([]*File, 0, len(list)+len(c.files))
	for _, f := range list {
		if nf := c.files[f.Path]; nf != nil {
			if !keep(nf) {
				continue
			}
			f = nf
		}
		out = append(out, f)
	}
	for _, path := range slices.Sorted(maps.Keys(c.files)) {
		if f := c.files[path]; keep(f) && !keep(c.prev.files.get(path)) {
			out = append(out, f)
		}
	}
	return out
}

// carryPackages makes the packages of a carried build: each is the last
// build's with the changed files in place, compared with that build by
// the changed files alone, and then loaded as in any build.
func (b *builder) carryPackages(c *carried) {
	b.last = map[string]*pkgMemo{}
	b.lastPkgs = map[string]*Package{}
	for _, pp := range c.prev.Packages {
		last := b.cache.lastBuild(pp.Root)
		b.last[pp.Root], b.lastPkgs[pp.Root] = last, pp
		p := &Package{
			Root:       pp.Root,
			generation: b.generation,
			stamp:      b.cache.stampBuild(),
			files:      pp.files.with(c.byPackage[pp.Root]),
			rootFiles:  pp.rootFiles,
			tree:       b.tree,
			prevStamp:  last.stamp,
			sameFiles:  true,
			changed:    map[string]bool{},
		}
		for rel := range c.byPackage[pp.Root] {
			p.changed[rel] = true
		}
		b.snap.Packages = append(b.snap.Packages, p)
	}
	for _, p := range b.snap.Packages {
		b.loadPackage(p)
	}
}

// carriedChapters returns the chapters of a carried package: the last
// build's list, with a new Chapter for each edited chapter, or nil when
// the list must be made again (an edited chapter file is no chapter now,
// or was none).
func (b *builder) carriedChapters(p *Package) []*Chapter {
	pp := b.lastPkgs[p.Root]
	if pp == nil {
		return nil
	}
	out := pp.Chapters
	for rel := range p.changed {
		if strings.Contains(rel, "/") || !isChapterName(rel) {
			continue
		}
		f := p.files.get(rel)
		i := slices.IndexFunc(pp.Chapters, func(c *Chapter) bool { return c.Name == rel })
		if i < 0 || f == nil || f.Markdown == nil {
			return nil
		}
		if len(out) > 0 && &out[0] == &pp.Chapters[0] {
			out = slices.Clone(pp.Chapters)
		}
		c := *out[i]
		c.File = f
		out[i] = &c
	}
	return out
}
