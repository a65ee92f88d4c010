package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// builder assembles packages from the walked files and runs the checks.
type builder struct {
	snap  *Snapshot
	tree  *tree
	cache *Cache
	// generation identifies the state of the disk the tree was walked
	// from (see disk.generation).
	generation int
	// lenient is Options.Lenient.
	lenient bool
	// buildRecords is Options.BuildRecords.
	buildRecords bool
	findings     []source.Finding
	// digests shares the definition digests of adoptions between copies
	// of one definition (checkContracts) and between builds
	// (Cache.digestCache).
	digests *contracts.DigestCache
	// last holds the cache's memo of each package's previous build, by
	// root, while this build runs (reuse.go).
	last map[string]*pkgMemo
	// lastPkgs are the packages of the last snapshot, by root, in a build
	// carried from it (carry.go); nil in any other build.
	lastPkgs map[string]*Package
	// carried is what a build carried from the last snapshot took from
	// it; nil in any other build.
	carried *carried
}

func (b *builder) report(f source.Finding) { b.findings = append(b.findings, f) }

// findPackages makes a Package of every package root (see isPackageRoot)
// and attaches the files below it.
func (b *builder) findPackages() {
	var roots []string
	for dir, entries := range b.tree.dirs {
		if isPackageRoot(entries) {
			roots = append(roots, dir)
		}
	}
	sort.Strings(roots)
	b.last = map[string]*pkgMemo{}
	for _, root := range roots {
		// The last build's number of files, to size the map and list.
		size, roots := 0, 0
		if last := b.cache.lastBuild(root); last != nil {
			b.last[root], size, roots = last, last.files.len(), last.rootFiles
		}
		b.snap.Packages = append(b.snap.Packages, &Package{
			Root:       root,
			generation: b.generation,
			stamp:      b.cache.stampBuild(),
			files:      newFileMap(size),
			rootFiles:  make([]string, 0, roots),
			tree:       b.tree,
		})
		p := b.snap.Packages[len(b.snap.Packages)-1]
		p.compareWith(b.last[root])
	}
	// Every walked path is clean and absolute: test that once per file
	// and per root, not in each within and Rel (cleanAbs walks the path).
	cleanRoots := filepath.Separator == '/'
	for _, p := range b.snap.Packages {
		cleanRoots = cleanRoots && p.Root != "/" && cleanAbs(p.Root)
	}
	for _, f := range b.snap.files.all() {
		if !cleanRoots || !f.cleanPath {
			if p := b.snap.PackageOf(f.Path); p != nil {
				f.pkgRoot = p.Root
				p.attach(p.Rel(f.Path), f)
			}
			continue
		}
		var best *Package
		for _, p := range b.snap.Packages {
			if _, ok := belowClean(p.Root, f.Path); ok && (best == nil || len(p.Root) > len(best.Root)) {
				best = p
			}
		}
		if best != nil {
			rel, _ := belowClean(best.Root, f.Path)
			f.pkgRoot = best.Root
			best.attach(rel, f)
		}
	}
	for _, p := range b.snap.Packages {
		p.finishCompare()
		b.loadPackage(p)
	}
}

// attach makes f the package's file at the package-relative path rel.
func (p *Package) attach(rel string, f *File) {
	p.files.put(rel, f)
	if !strings.Contains(rel, "/") {
		p.rootFiles = append(p.rootFiles, rel)
	}
	if p.prev != nil {
		p.compareFile(rel, f)
	}
}

// chapterList returns the package's chapters in file name order: the
// Markdown files of the root whose names are chapter names. When they are
// the chapters of the last build, they are listed in its order instead of
// being sorted again.
func (b *builder) chapterList(p *Package) []*Chapter {
	count := 0
	for _, rel := range p.rootFiles {
		if _, _, ok := splitChapterName(rel); ok && p.files.get(rel).Markdown != nil {
			count++
		}
	}
	out := make([]*Chapter, 0, count)
	if last := b.last[p.Root]; last != nil && last.chapters != nil && len(last.chapters.chapters) == count {
		for _, r := range last.chapters.chapters {
			f := p.files.get(r.name)
			if f == nil || f.Markdown == nil {
				break
			}
			n, title, _ := splitChapterName(r.name)
			out = append(out, &Chapter{File: f, Number: n, Name: r.name, title: title})
		}
		if len(out) == count {
			return out
		}
		out = out[:0]
	}
	for _, rel := range p.rootFiles {
		f := p.files.get(rel)
		n, title, ok := splitChapterName(rel)
		if !ok || f.Markdown == nil {
			continue
		}
		out = append(out, &Chapter{File: f, Number: n, Name: rel, title: title})
	}
	slices.SortFunc(out, func(a, b *Chapter) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// isPackageRoot reports whether a folder with these entries is an OpenGDD
// package: it holds tuning.json or manifest.json, or its 01-overview.md
// stands beside another numbered chapter, which makes it a package whose
// required JSON files are missing rather than plain Markdown.
func isPackageRoot(entries []DirEntry) bool {
	overview, chapters := false, 0
	for _, e := range entries {
		if e.IsDir {
			continue
		}
		switch {
		case e.Name == "tuning.json" || e.Name == "manifest.json":
			return true
		case e.Name == "01-overview.md":
			overview = true
		case isChapterName(e.Name):
			chapters++
		}
	}
	return overview && chapters > 0
}

// isChapterName reports whether name is a chapter's file name
// (splitChapterName).
func isChapterName(name string) bool {
	_, _, ok := splitChapterName(name)
	return ok
}

// maybeChapter reports whether name has the frame of a chapter's file
// name: two digits, a hyphen, at least one character, .md.
func maybeChapter(name string) bool {
	return len(name) > 6 && '0' <= name[0] && name[0] <= '9' && '0' <= name[1] && name[1] <= '9' && name[2] == '-' && strings.HasSuffix(name, ".md")
}

// IsPackageRoot reports whether the folder at dir is an OpenGDD package
// root, by the rule the workspace uses to find packages.
func IsPackageRoot(dir string) bool {
	list, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	entries := make([]DirEntry, 0, len(list))
	for _, e := range list {
		entries = append(entries, DirEntry{Name: e.Name(), IsDir: e.IsDir()})
	}
	return isPackageRoot(entries)
}

// anchorFile is the file a package-level finding is attached to: the
// manifest when it exists, else tuning.json, else the overview.
func (p *Package) anchorFile() string {
	if p.Manifest != nil {
		return p.Manifest.Path
	}
	if p.TuningFile != nil {
		return p.TuningFile.Path
	}
	if f := p.files.get("01-overview.md"); f != nil {
		return f.Path
	}
	return filepath.Join(p.Root, "tuning.json")
}

// rootFolder reports whether the package root holds a folder named name.
func (b *builder) rootFolder(p *Package, name string) bool {
	for _, e := range b.tree.dirs[p.Root] {
		if e.IsDir && e.Name == name {
			return true
		}
	}
	return false
}

func (b *builder) loadPackage(p *Package) {
	p.Manifest = p.files.get("manifest.json")
	if f := p.files.get("tuning.json"); f != nil && f.Skipped == "" {
		p.TuningFile = f
		p.Tuning = f.entry.getTuning(f.Path)
	} else if f != nil {
		p.TuningFile = f
	}
	if p.Chapters = b.carriedChapters(p); p.Chapters == nil {
		p.Chapters = b.chapterList(p)
	}

	if v := b.readJSON(p, "manifest.json"); v != nil {
		p.ManifestModel = p.Manifest.entry.getManifest(p.Manifest.Path, v)
	}
	if v := b.readJSON(p, "personalization.json"); v != nil {
		f := p.files.get("personalization.json")
		p.pers = f.entry.getPersonalization(f.Path)
		p.Personalization = p.pers.IDs()
	}
	if v := b.readJSON(p, "clocks.json"); v != nil {
		f := p.files.get("clocks.json")
		c := f.entry.getClocks(f.Path, v)
		p.ClockFile, p.Clocks = c.file, c.names
	}
	if v := b.readJSON(p, "direction.json"); v != nil {
		p.Direction = v
		f := p.files.get("direction.json")
		p.DirectionFile = f.entry.getDirection(f.Path, v)
	}
	b.loadCollections(p)
	b.loadContracts(p)
}

// loadCollections reads the record files of collections/<id>/<record>.json
// and the schema files collections/<id>/_collection.json, and applies the
// folder rules of SPEC §1b (COLLECTION_STRAY_FILE, COLLECTION_SUBDIRECTORY,
// COLLECTION_ID_GRAMMAR). A record that cannot be read or does not parse is
// kept with a nil value, so that citations of the record resolve while
// nothing is read from it. Entries whose name starts with a dot are passed
// over, as the walk passes over hidden folders.
func (b *builder) loadCollections(p *Package) {
	if m := b.lastCollections(p); m != nil {
		p.Collections, p.coll, p.collCarried = m.collections, m, true
		for _, rel := range m.unreadable {
			p.markUnreadable(rel)
		}
		b.findings = append(b.findings, m.loadFindings...)
		return
	}
	start := len(b.findings)
	b.readCollections(p)
	if p.Collections == nil {
		return
	}
	m := &collectionsMemo{anchor: p.anchorFile(), collections: p.Collections, loadFindings: slices.Clone(b.findings[start:])}
	for rel := range p.unreadable {
		if strings.HasPrefix(rel, "collections/") {
			m.unreadable = append(m.unreadable, rel)
		}
	}
	p.coll = m
}

// readCollections is loadCollections without the reuse of the last build.
func (b *builder) readCollections(p *Package) {
	dir := filepath.Join(p.Root, "collections")
	entries, ok := b.tree.dirs[dir]
	if !ok {
		return
	}
	p.Collections = map[string]*Collection{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name, ".") {
			continue
		}
		path := filepath.Join(dir, e.Name)
		if !e.IsDir {
			b.report(source.Finding{
				Code: "COLLECTION_STRAY_FILE", Severity: source.Error, File: path,
				Message: fmt.Sprintf("collections/%s is a file directly in collections/, which holds only collection folders; move it into a collection folder or out of collections/", e.Name),
			})
			continue
		}
		if !source.IsKebab(e.Name) {
			b.report(source.Finding{
				Code: "COLLECTION_ID_GRAMMAR", Severity: source.Error, File: p.anchorFile(), Subject: path,
				Message: fmt.Sprintf("the collection id %q (its folder name) is not kebab-case; rename the folder with lowercase letters and digits in groups joined by single hyphens", e.Name),
			})
		}
		c := &Collection{ID: e.Name, Dir: path, Records: map[string]*jsonsrc.Value{}}
		for _, r := range b.tree.dirs[path] {
			if strings.HasPrefix(r.Name, ".") {
				continue
			}
			rpath := filepath.Join(path, r.Name)
			switch {
			case r.IsDir:
				b.report(source.Finding{
					Code: "COLLECTION_SUBDIRECTORY", Severity: source.Error, File: p.anchorFile(), Subject: rpath,
					Message: fmt.Sprintf("collections/%s/%s is a folder; a collection is flat, so move its files up or make it a sibling collection", e.Name, r.Name),
				})
				continue
			case !strings.HasSuffix(r.Name, ".json"):
				b.report(source.Finding{
					Code: "COLLECTION_STRAY_FILE", Severity: source.Error, File: rpath,
					Message: fmt.Sprintf("collections/%s/%s is neither the schema file _collection.json nor a .json record; move it out of the collection", e.Name, r.Name),
				})
				continue
			}
			rel := "collections/" + e.Name + "/" + r.Name
			if r.Name == "_collection.json" {
				c.HasSchema = true
				c.Schema = b.readJSON(p, rel)
				if c.Schema != nil {
					c.Parsed = p.files.get(rel).entry.getCollectionSchema(p.files.get(rel).Path)
				}
				continue
			}
			id := strings.TrimSuffix(r.Name, ".json")
			if !source.IsKebab(id) {
				b.report(source.Finding{
					Code: "COLLECTION_ID_GRAMMAR", Severity: source.Error, File: rpath,
					Message: fmt.Sprintf("the record id %q (the file name without .json) is not kebab-case; rename the file with lowercase letters and digits in groups joined by single hyphens", id),
				})
			}
			v := b.readJSON(p, rel)
			if v != nil && v.Kind() != jsonsrc.Object {
				b.report(source.Finding{
					Code: "COLLECTION_RECORD_SHAPE", Severity: source.Error, File: p.files.get(rel).Path, Span: v.Span(),
					Message: fmt.Sprintf("a record file holds one JSON object, not %s; write the record's fields inside { }", v.Describe()),
				})
				p.markUnreadable(rel)
				v = nil
			}
			c.Records[id] = v
		}
		p.Collections[e.Name] = c
	}
}

// loadContracts applies the folder rules of contracts/ and parses its
// adoptions and packs.
func (b *builder) loadContracts(p *Package) {
	for _, e := range b.tree.dirs[p.Root] {
		if e.IsDir && e.Name != "contracts" && strings.EqualFold(e.Name, "contracts") {
			b.report(source.Finding{
				Code: "CONTRACT_FOLDER_CASE", Severity: source.Warning, File: p.anchorFile(), Subject: filepath.Join(p.Root, e.Name),
				Message: fmt.Sprintf("the folder %q is not read as contracts: the name must be exactly \"contracts\" in lowercase; rename it", e.Name),
			})
		}
	}
	dir := filepath.Join(p.Root, "contracts")
	entries, ok := b.tree.dirs[dir]
	if !ok {
		return
	}
	if b.carryContracts(p, entries) { // the last build's reading, see contractsreuse.go
		return
	}
	parseContracts(p, entries)
	var candidates []*File
	var claimed []bool // whether each candidate claims to be an adoption
	counted := 0
	// claims is set when a file claims to be an adoption; unknown when a
	// .json file could not be read, so whether it claims is not known.
	claims, unknown := false, false
	var bad []source.Finding
	for _, e := range entries {
		if strings.HasPrefix(e.Name, ".") {
			continue
		}
		counted++
		f := p.files.get("contracts/" + e.Name)
		if f == nil && !e.IsDir && strings.HasSuffix(e.Name, ".json") {
			// A .json entry the walk did not read (a symbolic link that
			// leaves the folder, an unreadable file) has its own finding;
			// nothing is known of what it holds.
			unknown = true
			continue
		}
		if e.IsDir || !strings.HasSuffix(e.Name, ".json") {
			file, subject := p.anchorFile(), filepath.Join(dir, e.Name)
			if !e.IsDir {
				file, subject = subject, ""
			}
			what := "a file that is not .json"
			if e.IsDir {
				what = "a folder"
			}
			bad = append(bad, source.Finding{
				Code: "CONTRACT_FOLDER_ENTRY", Severity: source.Error, File: file, Subject: subject,
				Message: fmt.Sprintf("contracts/%s is %s; contracts/ may hold only adoption files and <contract>-<version>.pack.json packs, so move it elsewhere", e.Name, what),
			})
			continue
		}
		if f.Skipped != "" {
			unknown = true
			continue
		}
		if _, _, isPack := pack.IsPackFileName(e.Name); isPack {
			p.Packs = append(p.Packs, f.entry.getPack(f.Path))
			continue
		}
		candidates = append(candidates, f)
		claimed = append(claimed, false)
		// SPEC §10.1 rule 8 counts a file as an adoption when it parses and
		// carries contract or format. In an editor a file being typed is
		// often broken for a moment: with Options.Lenient one whose text
		// before the syntax error already carries those keys counts too,
		// so that one typo does not turn the whole folder into
		// CONTRACT_FOLDER_RESERVED.
		if f.entry.claimOf(f.Path, b.lenient) {
			claims = true
			claimed[len(claimed)-1] = true
		}
	}
	if counted > 0 && !claims && !unknown {
		// The .json files are still adoption files (SPEC §10.1 rule 5):
		// one that does not parse keeps its syntax error beside the
		// folder's finding, so the designer sees what to repair.
		for _, f := range candidates {
			for _, fd := range f.entry.getAdoption(f.Path).Findings() {
				if fd.Code == "CONTRACT_INSTANCE_JSON" {
					b.report(fd)
				}
			}
		}
		b.report(source.Finding{
			Code: "CONTRACT_FOLDER_RESERVED", Severity: source.Error, File: p.anchorFile(), Subject: dir,
			Message: fmt.Sprintf("contracts/ holds %d entries and none of them is a contract adoption; the folder name is reserved for contracts, so rename the folder (or run `gddls migrate` if it holds contracts of an older format version)", counted),
		})
		p.Packs = nil
		return
	}
	b.findings = append(b.findings, bad...)
	adoptions := make([]*contracts.Adoption, 0, len(candidates))
	for _, f := range candidates {
		adoptions = append(adoptions, f.entry.getAdoption(f.Path))
	}
	p.Adoptions = AdoptionList{chunkedOf(adoptions)}
	// The package finds its adoptions by id and file through the memo,
	// which the next build may carry (contractsreuse.go).
	m := &contractsMemo{lenient: b.lenient, anchor: p.anchorFile(), listing: entries, pos: make(map[string]int, len(candidates)),
		claims: chunkedOf(claimed), packs: p.Packs, bad: bad, adoptions: p.Adoptions, byID: adoptionsByID(p.Adoptions)}
	for i, f := range candidates {
		rel := p.Rel(f.Path)
		m.rels = append(m.rels, rel)
		m.pos[rel] = i
		if claimed[i] {
			m.claiming++
		}
	}
	p.contracts = m
}

// parseContracts parses the JSON files of a package's contracts folder in
// parallel, as packs or adoptions by their names, so that the loop of
// loadContracts, which must run in the folder's order, finds every parse
// in its cache entry. An entry parsed in an earlier build costs a lookup.
func parseContracts(p *Package, entries []DirEntry) {
	var files []*File
	for _, e := range entries {
		if e.IsDir || strings.HasPrefix(e.Name, ".") || !strings.HasSuffix(e.Name, ".json") {
			continue
		}
		if f := p.files.get("contracts/" + e.Name); f != nil && f.Skipped == "" && f.entry != nil {
			files = append(files, f)
		}
	}
	parallelBatches(len(files), 32, 0, func(i int) {
		f := files[i]
		if _, _, isPack := pack.IsPackFileName(filepath.Base(f.Path)); isPack {
			f.entry.getPack(f.Path)
		} else {
			f.entry.getAdoption(f.Path)
		}
	})
}

// ArrayElems returns an array's elements, or nil for anything else.
func ArrayElems(v *jsonsrc.Value) []*jsonsrc.Value {
	if v == nil || v.Kind() != jsonsrc.Array {
		return nil
	}
	return v.Elems()
}
