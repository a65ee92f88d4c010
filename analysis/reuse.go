package analysis

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/source"
)

// What one build of a package leaves for the next. A language server builds
// a snapshot after every keystroke; most of a package is then what it was
// in the previous build. The cache keeps, per package root, the files the
// last build attached to the package (pkgMemo), and the next build compares
// them with its own to learn which files changed (Package.changed). Results
// memoized in cache entries carry the stamp of the last build that found
// them valid: a result valid in the previous build whose reads are not
// among the changed files is valid again without looking at its
// dependencies one by one.

// pkgMemo is what the cache keeps of the last build of one package root.
type pkgMemo struct {
	// stamp identifies that build; it is never 0.
	stamp uint64
	// generation is the disk state the package was read from, tree the
	// walk with the overlay applied.
	generation int
	tree       *tree
	// files are the package's files by package-relative slash path;
	// rootFiles is how many of them are directly in the root.
	files     fileMap
	rootFiles int
	// divergence holds the definition divergence of each identity shared
	// by several adoptions.
	divergence map[string]*divergenceGroup
	// collections is the reading and check of collections/, nil when the
	// package has none.
	collections *collectionsMemo
	// contracts is the reading and check of contracts/, nil when the
	// package has none or it holds no adoption (contractsreuse.go).
	contracts *contractsMemo
	// chapters are the findings of the chapters' checks
	// (chaptersreuse.go).
	chapters *chaptersMemo
}

// collectionsMemo is what loadCollections and checkCollections found in
// collections/. Those read only the files below it, the folder listings
// and the file package-level findings are shown on, so a build in which
// none of them changed takes the last build's memo whole.
type collectionsMemo struct {
	anchor       string
	collections  map[string]*Collection
	loadFindings []source.Finding
	// unreadable are the package-relative paths below collections/ that
	// the reading marked unreadable.
	unreadable []string
	// ids, states and findings are checkCollections' (without the
	// citations in chapters, checked in every build).
	ids      []string
	states   map[string]*collectionState
	findings []source.Finding
}

// lastCollections returns the last build's memo of collections/ when it
// holds for this build, or nil.
func (b *builder) lastCollections(p *Package) *collectionsMemo {
	last := b.last[p.Root]
	if last == nil || last.collections == nil || last.collections.states == nil || p.prevStamp == 0 {
		return nil
	}
	for rel := range p.changed {
		if strings.HasPrefix(rel, "collections/") {
			return nil
		}
	}
	if last.collections.anchor != p.anchorFile() {
		return nil
	}
	return last.collections
}

// divergenceGroup is the divergence check of the adoptions of one
// definition identity: its findings follow from the adoptions' parses in
// order, so an edit re-checks only the group of the adoption it changed.
type divergenceGroup struct {
	members  []*contracts.Adoption
	findings []source.Finding
}

// checkDivergence reports the definition divergence of the package's
// adoptions (contracts.CheckDivergence), reusing the groups of the last
// build whose adoptions are the same parses.
func (p *Package) checkDivergence(last *pkgMemo, digests *contracts.DigestCache) []source.Finding {
	ids, groups := p.divergenceGroups()
	var out []source.Finding
	for _, id := range ids {
		g := groups[id]
		if len(g) < 2 {
			continue
		}
		var d *divergenceGroup
		if last != nil {
			d = last.divergence[id]
		}
		if d == nil || !slices.Equal(d.members, g) {
			d = &divergenceGroup{members: g, findings: checkDivergentGroup(id, g, digests)}
		}
		if p.divergence == nil {
			p.divergence = map[string]*divergenceGroup{}
		}
		p.divergence[id] = d
		out = append(out, d.findings...)
	}
	return out
}

// checkDivergentGroup is contracts.CheckDivergentGroup, which finds nothing
// when every adoption of the group holds the same definition: the digests
// are kept per adoption parse, so an edit that keeps the definition costs a
// comparison per adoption instead of the grouping of the whole group.
func checkDivergentGroup(id string, g []*contracts.Adoption, digests *contracts.DigestCache) []source.Finding {
	if len(g) < 2 {
		return nil
	}
	first := digests.DefinitionDigest(g[0])
	for _, a := range g[1:] {
		if digests.DefinitionDigest(a) != first {
			return contracts.CheckDivergentGroup(id, g)
		}
	}
	return nil
}

// stampBuild returns a stamp for a new build of a package: unique in the
// cache, never 0. A nil cache gives 0, which no result is valid at.
func (c *Cache) stampBuild() uint64 {
	if c == nil {
		return 0
	}
	return c.stamps.Add(1)
}

// lastBuild returns the memo of the last build of the package at root, or
// nil.
func (c *Cache) lastBuild(root string) *pkgMemo {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pkgs[root]
}

// keepBuilds replaces the memos of the packages by those of this build,
// forgetting package roots the build no longer has.
func (c *Cache) keepBuilds(pkgs []*Package) {
	if c == nil {
		return
	}
	memos := make(map[string]*pkgMemo, len(pkgs))
	for _, p := range pkgs {
		memos[p.Root] = &pkgMemo{stamp: p.stamp, generation: p.generation, tree: p.tree, files: p.files, rootFiles: len(p.rootFiles), divergence: p.divergence, collections: p.coll, contracts: p.contracts, chapters: p.chapters}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pkgs = memos
}

// compareWith starts comparing the package with its previous build: it
// sets the previous build's stamp, and attach then notes in changed each
// file that appeared or changed content since; finishCompare adds the
// files that disappeared. Without a previous build, or when the disk state
// changed (folder listings a check may have read), prevStamp stays 0 and
// nothing counts as unchanged. It is called before the files are
// attached, so that each is compared as it is attached.
//
// When the build's walk is the very tree of the previous build (an edit
// that replaces a file's content adds or removes none), the package has
// the same files (sameFiles), and none can have disappeared. A workspace
// carries such a build from its last snapshot instead (carry.go), which
// sets changed from the edited files without comparing any other.
func (p *Package) compareWith(prev *pkgMemo) {
	if prev == nil || prev.generation != p.generation {
		return
	}
	p.prev = prev
	p.prevStamp = prev.stamp
	p.sameFiles = prev.tree != nil && prev.tree == p.tree
	p.changed = map[string]bool{}
}

// compareFile notes whether the file attached at rel is new or changed
// since the previous build (see compareWith).
func (p *Package) compareFile(rel string, f *File) {
	old := p.prev.files.get(rel)
	if old != nil {
		p.kept++
	}
	if old == nil || old.entry != f.entry {
		p.changed[rel] = true
	}
}

// finishCompare notes the files of the previous build that this one does
// not have, once every file is attached, and lets the previous build go.
func (p *Package) finishCompare() {
	if p.prev == nil {
		return
	}
	if !p.sameFiles && p.kept < p.prev.files.len() {
		for rel := range p.prev.files.all() {
			if p.files.get(rel) == nil {
				p.changed[rel] = true
			}
		}
	}
	p.prev = nil
}

// unchangedSince reports whether a result found valid in the build with
// the given stamp read none of the files changed since, so that each of
// its dependencies on those files sees what it saw.
func (p *Package) unchangedSince(stamp uint64, reads []string) bool {
	if stamp == 0 || stamp != p.prevStamp {
		return false
	}
	// An edit changes a file or two, and a result reads tens of them:
	// walk the shorter list.
	if len(p.changed) > len(reads) {
		for _, rel := range reads {
			if p.changed[rel] {
				return false
			}
		}
		return true
	}
	for rel := range p.changed {
		if slices.Contains(reads, rel) {
			return false
		}
	}
	return true
}

// validStamp is the stamp of the last build a memoized result was found
// valid in; results are shared by the snapshots of one cache, hence
// atomic.
type validStamp struct{ v atomic.Uint64 }

func (s *validStamp) load() uint64   { return s.v.Load() }
func (s *validStamp) store(x uint64) { s.v.Store(x) }

// fileReads returns the package-relative paths of the files whose content
// the dependencies read (tuning.json for a tuning key, the chapter of an
// anchor, a file read whole), and the dependencies that read the package
// otherwise (adoptions by id, the pack, runtime addresses), which are
// looked up again in every build. A dependency on the disk state needs
// neither: a new disk state starts every package afresh (compareWith).
func fileReads(deps []dep) (reads []string, others []dep) {
	add := func(rel string) {
		if !slices.Contains(reads, rel) {
			reads = append(reads, rel)
		}
	}
	for _, d := range deps {
		switch d.kind {
		case depTuning, depTuningKey:
			add("tuning.json")
		case depAnchor:
			if !d.seen.anchor.exists {
				// A missing chapter: a new file named like it when
				// letter case is ignored changes what the citation
				// sees, so it is looked up in every build.
				others = append(others, d)
				continue
			}
			file, _, _ := strings.Cut(d.key, "#")
			if rel, ok := PackageRelative(file); ok {
				add(rel)
			}
		case depFile:
			add(d.key)
		case depGeneration:
		default:
			others = append(others, d)
		}
	}
	return reads, others
}
