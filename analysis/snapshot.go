package analysis

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/analysis/collections"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/analysis/manifest"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/migrate"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// Options configure how a snapshot is built.
type Options struct {
	// Overlay holds unsaved editor buffers; they win over disk.
	Overlay Overlay
	// MaxFileSize is the largest file that is parsed; 0 means
	// DefaultMaxFileSize.
	MaxFileSize int64
	// Cache, when set, lets a new snapshot reuse the parse of every file
	// whose content did not change since an earlier snapshot.
	Cache *Cache
	// Lenient reads contracts/ as an editor needs while the designer
	// types: an adoption file that does not parse yet still counts as an
	// adoption when the text before its syntax error carries "contract"
	// or "format", so the folder does not turn into
	// CONTRACT_FOLDER_RESERVED at every keystroke. Without it the folder
	// is read exactly as SPEC §10.1 rule 8 says, as `gddls check` does.
	Lenient bool
	// BuildRecords checks every opengdd-build.json against its package
	// (SPEC §7), as the editor shows it; gddls check leaves build records
	// to its build mode, as the format's validator does.
	BuildRecords bool
}

// Snapshot is an immutable view of every package and Markdown document under
// a set of root folders, with all findings computed. Queries read it
// concurrently without locks.
type Snapshot struct {
	// Roots are the absolute folders the snapshot covers.
	Roots []string
	// Packages are the OpenGDD packages found, ordered by root path.
	Packages []*Package
	files    fileMap
	// withEntries is how many of files have a cache entry (Cache.prune).
	withEntries int
	diags       map[string][]Diagnostic
	// tree is the walk the snapshot was built from: every folder's entries,
	// for questions such as "does this cited path exist".
	tree *tree
	// repoTops tells for each root whether it is the top of its
	// repository (see repositoryTop).
	repoTops map[string]bool

	// citationsOnce guards citations, the index from each cited target to
	// the places citing it, built on first use by the navigation queries
	// (see CitationIndex).
	citationsOnce sync.Once
	citations     any
	// refsMu guards refs, the references of single files that the queries
	// reading one file build (see FileRefs; analysis/ide builds them).
	refsMu sync.Mutex
	refs   map[string]any

	// docResults are the results of the Markdown checks, whose recorded
	// reads DependsOn consults; deps is the set it builds from them once.
	docResults []*docResult
	// docFiles are the Markdown files of the snapshot, each with its
	// result at the same position in docResults; skipped are the files
	// that were not read (File.Skipped). Both are in the order of the
	// first snapshot the files were read in, kept by the snapshots carried
	// from it (carry.go).
	docFiles []*File
	skipped  []*File
	// docReads are the paths docResults read (docs.go).
	docReads docReads
	depsOnce sync.Once
	deps     map[string]bool

	// safety holds the safety notices, scanned on first use (Safety).
	safetyOnce sync.Once
	// safetyFrom, set in a build carried from a snapshot whose notices
	// were made, lets the first call take them from it (carrySafety);
	// safetyDone is set once the notices are made.
	safetyFrom   *carried
	safetyDone   atomic.Bool
	safety       []Diagnostic
	safetyByFile map[string][]Diagnostic

	// hintList holds the review-mode hints, computed on first use (Hints);
	// hintsByFile keeps each file's hints with what their fixes need.
	hintsOnce   sync.Once
	hintList    []Diagnostic
	hintsByFile map[string][]hint

	// migrations holds the migration of each package (by root) that an
	// editor action asked for, computed on first use (Migration).
	migrateMu  sync.Mutex
	migrations map[string]*migrate.Result
}

// CitationIndex returns the snapshot's citation index, building it with build
// on first use; concurrent callers wait for one build. The index's type
// belongs to the navigation queries.
func (s *Snapshot) CitationIndex(build func() any) any {
	s.citationsOnce.Do(func() { s.citations = build() })
	return s.citations
}

// FileRefs returns the references held by the file at path, building them
// with build on first use and keeping them for the snapshot. Like the
// citation index, their type belongs to the queries that read them.
func (s *Snapshot) FileRefs(path string, build func() any) any {
	s.refsMu.Lock()
	refs, ok := s.refs[path]
	s.refsMu.Unlock()
	if ok {
		return refs
	}
	refs = build()
	s.refsMu.Lock()
	if s.refs == nil {
		s.refs = map[string]any{}
	}
	s.refs[path] = refs
	s.refsMu.Unlock()
	return refs
}

// File is one parsed file of the snapshot.
type File struct {
	// Path is the absolute path.
	Path    string
	Content []byte
	Lines   *source.Lines
	// Markdown is the parsed document of a Markdown file.
	Markdown *markdown.Doc
	// Skipped says why the file was not analysed, or is empty.
	Skipped string

	// entry holds the parses and check results cached for this content.
	entry *cacheEntry
	// cleanPath is set when Path is clean and absolute (cleanAbs), as
	// the walk found it.
	cleanPath bool
	// PkgRoot is the root of the package the file belongs to, empty when
	// it belongs to none. A File holds no pointer to its Package: a
	// snapshot built from the last one by an edit shares the files the
	// edit did not change, each with its package's root, and every
	// snapshot has Packages of its own (see Snapshot.PackageFor).
	pkgRoot string
}

// InPackage reports whether the file belongs to an OpenGDD package.
func (f *File) InPackage() bool { return f.pkgRoot != "" }

// PackageRel returns the file's package-relative slash path, and false
// when it belongs to no package.
func (f *File) PackageRel() (string, bool) {
	if f.pkgRoot == "" {
		return "", false
	}
	return relPath(f.pkgRoot, f.Path), true
}

// PackageFor returns the package of the snapshot the file belongs to, or
// nil.
func (s *Snapshot) PackageFor(f *File) *Package {
	if f == nil || f.pkgRoot == "" {
		return nil
	}
	i, ok := slices.BinarySearchFunc(s.Packages, f.pkgRoot, func(p *Package, root string) int { return strings.Compare(p.Root, root) })
	if !ok {
		return nil
	}
	return s.Packages[i]
}

// Package is one OpenGDD package: a folder holding tuning.json or
// manifest.json.
type Package struct {
	// Root is the absolute path of the package folder.
	Root string
	// Tuning is the parsed tuning.json, or nil when the file is missing.
	Tuning     *tuning.File
	TuningFile *File
	Manifest   *File
	// ManifestModel is the parsed manifest.json (SPEC §3), or nil when the
	// file is absent or does not parse (see Unreadable).
	ManifestModel *manifest.Manifest
	// Chapters are the numbered Markdown files at the root, in file name
	// order.
	Chapters []*Chapter
	// Adoptions are the contract adoptions under contracts/, by file name.
	Adoptions AdoptionList
	// Packs are the verification packs under contracts/.
	Packs []*pack.Pack
	// Personalization holds the question ids of personalization.json; nil
	// when the file is absent or does not parse (see Unreadable).
	Personalization map[string]bool
	// Clocks holds the clock names of clocks.json; nil when absent or
	// when the file does not parse.
	Clocks map[string]bool
	// ClockFile is the model of clocks.json (analysis/clocks); nil when
	// absent or when the file does not parse.
	ClockFile *clocks.File
	// Direction is the parsed direction.json, or nil when absent or when
	// the file does not parse.
	Direction *jsonsrc.Value
	// DirectionFile is the model of direction.json (analysis/direction);
	// nil when absent or when the file does not parse.
	DirectionFile *direction.File
	// Collections maps collection ids to their records; nil when the
	// package has no collections/ folder.
	Collections map[string]*Collection

	// pers is the read personalization.json, nil when it is absent or
	// does not parse.
	pers *personalization.File
	// unreadable holds the package-relative paths of the format's JSON
	// files that exist but cannot be read or do not parse.
	unreadable map[string]bool

	// generation is the disk state the package was read from.
	generation int
	// stamp identifies this build of the package in the cache; prevStamp
	// the previous build and changed the files changed since (reuse.go).
	stamp, prevStamp uint64
	changed          map[string]bool
	// prev is the previous build while the files are attached and
	// compared with it; kept counts its files still here; sameFiles is
	// set when the walk is the previous build's (compareWith).
	prev      *pkgMemo
	kept      int
	sameFiles bool
	// tree is the walk the package was built from.
	tree *tree
	// divergence is the definition divergence by identity (reuse.go).
	divergence map[string]*divergenceGroup
	// coll is the memo of collections/, collCarried set when it was taken
	// from the last build (reuse.go).
	coll        *collectionsMemo
	collCarried bool
	// contracts is this build's memo of contracts/; contractsLast the last
	// build's when this one carried it, with the positions of the
	// adoptions whose files changed (contractsreuse.go).
	contracts        *contractsMemo
	contractsLast    *contractsMemo
	contractsChanged []int
	// chapters is this build's memo of the chapters' checks
	// (chaptersreuse.go).
	chapters *chaptersMemo
	files    fileMap // package-relative slash path -> file
	// rootFiles are the package-relative paths of the files directly in
	// the root, as they were attached (chapterList reads them).
	rootFiles []string
	// retiredFences are the findings of the retired direction fences of
	// the chapters (checkDirection).
	retiredFences []source.Finding
	// runtimeOnce guards runtime, the index of the runtime addresses the
	// package declares (see RuntimeDeclarations), built on first use.
	runtimeOnce sync.Once
	runtime     map[string][]RuntimeDeclaration
}

// Chapter is a numbered Markdown chapter of a package.
type Chapter struct {
	File   *File
	Number int
	// Name is the file name, such as 02-mechanics.md.
	Name string
	// title is the name between the number and .md, such as mechanics.
	title string
}

// Collection is one folder of collections/.
type Collection struct {
	ID string
	// Records maps each record id to its parsed record file; the value is
	// nil when the file cannot be read or does not parse.
	Records map[string]*jsonsrc.Value
	// HasSchema is set when the folder holds _collection.json; Schema is
	// its parse, nil when it cannot be read or does not parse.
	HasSchema bool
	Schema    *jsonsrc.Value
	// Dir is the collection's folder.
	Dir string
	// Parsed is the reading of the schema file (analysis/collections),
	// nil when the folder has none or it does not parse.
	Parsed *collections.Schema
}

// RecordPath returns the path of a record's file.
func (c *Collection) RecordPath(id string) string { return filepath.Join(c.Dir, id+".json") }

// SchemaPath returns the path of the collection's schema file.
func (c *Collection) SchemaPath() string { return filepath.Join(c.Dir, "_collection.json") }

// RecordSchema returns the record schema the records are checked against,
// and false when they cannot be: the schema file does not parse, is not an
// object, or its record is not an object. A field shape with a finding of
// its own leaves the schema usable (its Field is Broken). A collection
// without a record schema gives nil and true.
func (c *Collection) RecordSchema() (*collections.Record, bool) {
	if !c.HasSchema {
		return nil, true
	}
	if c.Parsed == nil || c.Parsed.Broken {
		return nil, false
	}
	return c.Parsed.Record, true
}

// File returns the parsed file at an absolute path, or nil.
func (s *Snapshot) File(path string) *File { return s.files.get(path) }

// Files returns every file of the snapshot in path order.
func (s *Snapshot) Files() []*File {
	out := make([]*File, 0, s.files.len())
	for _, f := range s.files.all() {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Diagnostics returns the diagnostics of one file.
func (s *Snapshot) Diagnostics(path string) []Diagnostic { return s.diags[path] }

// DiagnosedFiles returns the files that have diagnostics, in path order.
func (s *Snapshot) DiagnosedFiles() []string {
	out := make([]string, 0, len(s.diags))
	for path := range s.diags {
		out = append(out, path)
	}
	sort.Strings(out)
	return out
}

// AllDiagnostics returns every diagnostic of the snapshot, sorted by file
// and position.
func (s *Snapshot) AllDiagnostics() []Diagnostic {
	var out []Diagnostic
	for _, ds := range s.diags {
		out = append(out, ds...)
	}
	sortDiagnostics(out)
	return out
}

// PackageOf returns the package holding the absolute path, or nil.
func (s *Snapshot) PackageOf(path string) *Package {
	var best *Package
	for _, p := range s.Packages {
		if Within(p.Root, path) && (best == nil || len(p.Root) > len(best.Root)) {
			best = p
		}
	}
	return best
}

// Rel returns the package-relative slash path of an absolute path.
func (p *Package) Rel(path string) string { return relPath(p.Root, path) }

// relPath returns the slash path of path relative to root.
func relPath(root, path string) string {
	if filepath.Separator == '/' && root != "/" && cleanAbs(root) && cleanAbs(path) {
		if rel, ok := belowClean(root, path); ok {
			return rel // what filepath.Rel gives for clean paths below the root
		}
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// FileAt returns the package file at a package-relative slash path, or nil.
func (p *Package) FileAt(rel string) *File { return p.files.get(rel) }

// State returns the evaluation of an adoption: which questions are asked,
// which declarations are active and the resolved numbers.
func (p *Package) State(a *contracts.Adoption) *contracts.State {
	if p.contracts == nil || !p.contracts.checked || a == nil {
		return nil
	}
	if i, ok := p.contracts.pos[p.Rel(a.File)]; ok && p.contracts.adoptions.At(i) == a {
		return p.contracts.results.At(i).state
	}
	return nil
}

// AdoptionFile returns the adoption parsed from the package file at an
// absolute path, or nil.
func (p *Package) AdoptionFile(path string) *contracts.Adoption {
	if p.contracts == nil {
		return nil
	}
	if i, ok := p.contracts.pos[p.Rel(path)]; ok {
		return p.contracts.adoptions.At(i)
	}
	return nil
}

// AdoptionAt returns the adoption parsed from the file at an absolute path,
// with its package; both are nil when the file is not an adoption.
func (s *Snapshot) AdoptionAt(path string) (*Package, *contracts.Adoption) {
	p := s.PackageFor(s.files.get(path))
	if p == nil {
		return nil, nil
	}
	if a := p.AdoptionFile(path); a != nil {
		return p, a
	}
	return nil, nil
}

// Adoption returns the adoption with the given id, or nil.
func (p *Package) Adoption(id string) *contracts.Adoption {
	if p.contracts == nil {
		return nil
	}
	return p.contracts.lookupID(id)
}

// Chapter returns the chapter with the given file name, or nil.
func (p *Package) Chapter(name string) *Chapter {
	for _, c := range p.Chapters {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// splitChapterName reads a chapter's file name, NN-title.md (two digits, a
// hyphen, a title of at least one character without a line break, .md),
// into its number and title; ok is false for any other name. It is the
// pattern ^([0-9]{2})-(.+)\.md$ without a regular expression, which the
// walk and the checks would otherwise run over every root file of every
// build.
func splitChapterName(name string) (number int, title string, ok bool) {
	if !maybeChapter(name) {
		return 0, "", false
	}
	title = name[3 : len(name)-len(".md")]
	if strings.IndexByte(title, '\n') >= 0 {
		return 0, "", false
	}
	return int(name[0]-'0')*10 + int(name[1]-'0'), title, true
}

// Load builds a snapshot of every package and Markdown document below the
// roots. Unreadable files become findings; Load itself does not fail.
func Load(roots []string, opts Options) *Snapshot {
	return build(newDisk(absRoots(roots)), opts)
}

// absRoots makes the roots absolute and clean.
func absRoots(roots []string) []string {
	abs := make([]string, 0, len(roots))
	for _, r := range roots {
		if a, err := filepath.Abs(r); err == nil {
			abs = append(abs, filepath.Clean(a))
		}
	}
	return abs
}

// build makes a snapshot from what d knows of the disk and from the
// options' overlay.
func build(d *disk, opts Options) *Snapshot { return buildFrom(d, opts, nil, nil) }

// buildFrom is build after the last snapshot prev of the same disk and
// options, with edited the paths whose overlay changed since: when the
// walk is prev's, the build is carried from prev (carry.go). prev may be
// nil.
func buildFrom(d *disk, opts Options, prev *Snapshot, edited []string) *Snapshot {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	t := d.walked(opts.Overlay)
	s := &Snapshot{Roots: d.roots, diags: map[string][]Diagnostic{}, tree: t}
	b := &builder{snap: s, tree: t, cache: opts.Cache, digests: opts.Cache.digestCache(), generation: d.generation, lenient: opts.Lenient, buildRecords: opts.BuildRecords}
	if canCarry(prev, t, opts.Cache) {
		// The same walk: the same roots, so the same repository tops.
		s.repoTops = prev.repoTops
		b.carried = s.readEdited(prev, d, opts, edited)
		if prev.safetyDone.Load() {
			s.safetyFrom = b.carried
		}
		b.carryPackages(b.carried)
	} else {
		s.repoTops = make(map[string]bool, len(d.roots))
		for _, root := range d.roots {
			s.repoTops[root] = isRepositoryTop(t, root)
		}
		s.readFiles(t, d, opts)
		b.findPackages()
	}
	b.check()
	opts.Cache.prune(s.files, s.withEntries)
	opts.Cache.keepBuilds(s.Packages)
	return s
}

// readFiles reads and parses every walked file, in parallel.
func (s *Snapshot) readFiles(t *tree, d *disk, opts Options) {
	// The order of the reads does not matter: each file lands in the map
	// under its path.
	walked := make([]*walkedFile, 0, len(t.files))
	for _, wf := range t.files {
		walked = append(walked, wf)
	}
	files := make([]*File, len(walked))
	s.files = newFileMap(len(walked))
	// Four readers keep the disk busy while others parse; in batches, as
	// most files of a later snapshot are found in the disk's memory and
	// the cache in about a microsecond, less than a hand-off each.
	parallelBatches(len(walked), 16, 4, func(i int) {
		files[i] = loadFile(walked[i].path, walked[i].size, d, opts)
		files[i].cleanPath = walked[i].clean
	})
	for _, f := range files {
		s.files.put(f.Path, f)
		if f.entry != nil {
			s.withEntries++
		}
		if f.Markdown != nil {
			s.docFiles = append(s.docFiles, f)
		}
		if f.Skipped != "" {
			s.skipped = append(s.skipped, f)
		}
	}
}

// loadFile reads one file, through the overlay and the disk's memory, and
// parses it when it is Markdown.
func loadFile(path string, size int64, d *disk, opts Options) *File {
	f := &File{Path: path}
	content, inOverlay := opts.Overlay[path]
	if inOverlay && content != nil {
		size = int64(len(content))
	}
	if size > opts.MaxFileSize {
		f.Skipped = (&tooLarge{size, opts.MaxFileSize}).Error()
		f.Lines = source.NewLines(nil)
		return f
	}
	if !inOverlay || content == nil {
		var err error
		if content, err = d.readFile(path, opts.MaxFileSize); err != nil {
			f.Skipped = "the file cannot be read: " + err.Error()
			if tl, ok := err.(*tooLarge); ok {
				f.Skipped = tl.Error()
			}
			f.Lines = source.NewLines(nil)
			return f
		}
	}
	f.Content = content
	f.entry = opts.Cache.entry(path, content)
	f.Lines = f.entry.getLines(path)
	// A NUL byte does not stop the analysis: in a JSON file of the format
	// it is a syntax error of the file's kind, and Markdown reads it as
	// U+FFFD (CommonMark §2.3).
	if IsMarkdown(path) {
		f.Markdown = f.entry.getMarkdown()
	}
	return f
}

// NewLines returns the line index of content, the content of the file at
// path: source.NewJSONLines for a .json file, whose byte-order mark is a
// character (and a syntax error), source.NewLines for any other.
func NewLines(path string, content []byte) *source.Lines {
	if IsJSONPath(path) {
		return source.NewJSONLines(content)
	}
	return source.NewLines(content)
}

// IsJSONPath reports whether path names a .json file.
func IsJSONPath(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".json")
}

// IsMarkdown reports whether path names a Markdown file, by its extension
// in any letter case.
func IsMarkdown(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".md" || ext == ".markdown"
}

// Migration returns the migration of a package of the snapshot, computed
// once per snapshot.
func (s *Snapshot) Migration(p *Package) *migrate.Result {
	s.migrateMu.Lock()
	defer s.migrateMu.Unlock()
	if r, ok := s.migrations[p.Root]; ok {
		return r
	}
	files := map[string][]byte{}
	for rel, f := range p.files.all() {
		if strings.HasSuffix(rel, ".json") || strings.HasSuffix(rel, ".md") {
			files[rel] = f.Content
		}
	}
	r := migrate.Package(files)
	if s.migrations == nil {
		s.migrations = map[string]*migrate.Result{}
	}
	s.migrations[p.Root] = r
	return r
}

// ParsedJSON returns the file's content parsed as JSON, parsed once per
// content and shared with the checks; nil when the file was not read or
// does not parse far enough to hold a value.
func (f *File) ParsedJSON() *jsonsrc.Value { return f.entry.getJSON() }

// JSONParse returns the file's content parsed as JSON with its syntax
// errors, parsed once per content and shared with the checks.
func (f *File) JSONParse() (*jsonsrc.Value, []jsonsrc.Error) { return f.entry.getJSONParse() }

// Parsed reports whether the file's content was read into the parse cache,
// so that ParsedAdoption and ParsedPlan can read it.
func (f *File) Parsed() bool { return f.entry != nil }

// ParsedAdoption returns the file read as a contract adoption, parsed once
// per content and shared with the checks; nil when the file was not read.
func (f *File) ParsedAdoption() *contracts.Adoption {
	if f.entry == nil {
		return nil
	}
	return f.entry.getAdoption(f.Path)
}

// ParsedPlan returns the file read as the build plan, parsed once per
// content and shared with the checks; nil when the file was not read.
func (f *File) ParsedPlan() *buildplan.Plan {
	if f.entry == nil {
		return nil
	}
	return f.entry.getPlan()
}

// PersonalizationFile returns the package's personalization.json as read,
// or nil when the package has none or it does not parse.
func (p *Package) PersonalizationFile() *personalization.File { return p.pers }

// PackageRoot returns the root folder of the package holding the file, or
// "" when it belongs to none.
func (f *File) PackageRoot() string { return f.pkgRoot }

// FolderEntries returns the entries of the folder dir as the walk the
// snapshot was built from listed them (unsaved files included), and false
// when the walk did not list dir.
func (s *Snapshot) FolderEntries(dir string) ([]DirEntry, bool) {
	entries, ok := s.tree.dirs[dir]
	return entries, ok
}

// CaseFix follows the path written, relative to base, through the listings
// of the snapshot's walk with letter case ignored (see tree.caseFix): when
// the path names something only that way, it returns the path as written
// with the real names and the real absolute path.
func (s *Snapshot) CaseFix(root, base, written string, decode, encode func(string) string) (fixed, real string, ok bool) {
	return s.tree.caseFix(root, base, written, decode, encode)
}
