package analysis

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/analysis/collections"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/analysis/fantasy"
	"github.com/gddls/gddls/analysis/manifest"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/review"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// Cache keeps, for each file, the parse of its content and the results of
// the checks that read it, across snapshots. A language server keeps one
// Cache for its lifetime so that an edit re-parses only the file it changed
// and re-checks only what depends on it. Create one with NewCache; a nil
// *Cache caches nothing.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	// pkgs holds the last build of each package root (see reuse.go);
	// stamps numbers the builds.
	pkgs   map[string]*pkgMemo
	stamps atomic.Uint64
	// digests holds the definition digests by definition as written,
	// across builds, so that an edit that keeps an adoption's definition
	// does not serialise it again; replaced when it holds maxDigests.
	digests atomic.Pointer[contracts.DigestCache]
}

// maxDigests bounds the definitions as written a Cache keeps digests of.
const maxDigests = 4096

// digestCache returns the digest cache builds share, a new one for a nil
// Cache.
func (c *Cache) digestCache() *contracts.DigestCache {
	if c == nil {
		return &contracts.DigestCache{}
	}
	d := c.digests.Load()
	if d == nil || d.Len() >= maxDigests {
		fresh := &contracts.DigestCache{}
		if c.digests.CompareAndSwap(d, fresh) {
			return fresh
		}
		return c.digests.Load()
	}
	return d
}

// cacheEntry is what the cache knows about one content of one file. When the
// content changes the entry is replaced, so every result in it is tied to
// the content it was computed from.
type cacheEntry struct {
	mu       sync.Mutex // guards the lazily parsed fields below
	content  []byte
	lines    *source.Lines
	markdown *markdown.Doc
	fantasy  *fantasy.Block
	tuning   *tuning.File
	pers     *personalization.File
	adoption *contracts.Adoption
	pack     *pack.Pack
	plan     *buildplan.Plan
	// planChecked holds the findings of the build plan that need only
	// its content (buildplan.Check).
	planChecked *planFindings
	// claimsChecked holds the build plan's direction_claims findings with
	// the direction.json they were judged against (checkBuildPlan).
	claimsChecked *claimFindings
	manifest      *manifest.Manifest
	direction     *direction.File
	// clocks holds clocks.json read from the content's JSON parse.
	clocks *clockFile
	// fences holds the retired direction fences of a chapter's content.
	fences   *spanList
	json     *jsonsrc.Value
	jsonErrs []jsonsrc.Error
	jsonDone bool
	// checked is the memoized check of an adoption, docChecked of a
	// Markdown file; each is valid while its recorded dependencies are.
	// anchors memoizes the resolution of anchors in a Markdown file; it is
	// read by concurrent queries, hence its lock.
	anchorsMu sync.Mutex
	// safetyScans are the safety scans of the content (getSafety).
	safetyMu    sync.Mutex
	safetyScans []safetyScan
	anchors     map[string]contracts.AnchorTarget

	// literals and ties are the review-mode readings of a Markdown
	// content (literalsOf, tieBreaksOf in hints.go).
	literalsOnce, tiesOnce sync.Once
	literals               []review.Literal
	ties                   []review.Hint

	// claim is whether the content read as an adoption claims to be one
	// (see claimOf).
	claim *adoptionClaim
	// envChecked holds the findings of the content read as tuning.json
	// over record fields and package defaults (tuningEnvironments).
	envChecked   *envFindings
	checked      *adoptionResult
	persChecked  *persResult
	docChecked   *docResult
	proseChecked *proseResult
	// directionChecked is the memoized cross-file check of direction.json.
	directionChecked *directionResult
	// collSchema is the content read as a collection's _collection.json;
	// recordChecked the content checked as a record against a record
	// schema (see checkRecordMemo); collCites the collections the content
	// read as a chapter cites in prose, dirCites the direction.json
	// addresses (chapterDirectionCites).
	collSchema    *collections.Schema
	recordChecked *recordResult
	crossChecked  *crossMemo
	collCites     *[]string
	dirCites      *[]string
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{entries: map[string]*cacheEntry{}} }

// sameElems reports whether a and b hold the same elements, answering at
// once when they are the same slice.
func sameElems[E comparable](a, b []E) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return slices.Equal(a, b)
}

// entry returns the entry of path for content, replacing a stale one. With
// a nil cache it returns a fresh entry every time.
func (c *Cache) entry(path string, content []byte) *cacheEntry {
	if c == nil {
		return &cacheEntry{content: content}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[path]
	if e == nil || !sameElems(e.content, content) {
		e = &cacheEntry{content: content}
		c.entries[path] = e
	}
	return e
}

// prune forgets every file not in keep, so that deleted files do not hold
// memory. withEntries is how many files of keep have a cache entry: each
// has its own path in the cache (only loadFile makes entries), so a cache
// holding no more entries than that holds nothing else, and is not walked.
// (A build running at the same time on the same cache could leave an entry
// of its own that this test then keeps; the next prune forgets it.)
func (c *Cache) prune(keep fileMap, withEntries int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) <= withEntries {
		return
	}
	for path := range c.entries {
		if keep.get(path) == nil {
			delete(c.entries, path)
		}
	}
}

// The accessors below parse on first use. An entry is shared by every
// snapshot that saw the same content, and queries on an older snapshot can
// run while a newer one is built, so each parse is guarded by the entry's
// lock.

// parseOnce returns *field, computing it with parse under the entry's lock
// the first time.
func parseOnce[T comparable](e *cacheEntry, field *T, parse func() T) T {
	e.mu.Lock()
	defer e.mu.Unlock()
	var zero T
	if *field == zero {
		*field = parse()
	}
	return *field
}

// getLines returns the line index of the content of path (an entry is
// always of one path).
func (e *cacheEntry) getLines(path string) *source.Lines {
	return parseOnce(e, &e.lines, func() *source.Lines { return NewLines(path, e.content) })
}

func (e *cacheEntry) getMarkdown() *markdown.Doc {
	lines := e.getLines("") // one line index per content, shared with the document
	return parseOnce(e, &e.markdown, func() *markdown.Doc { return markdown.ParseIndexed(e.content, lines) })
}

// getFantasy returns the fantasy block of the content read as
// 01-overview.md.
func (e *cacheEntry) getFantasy() *fantasy.Block {
	doc := e.getMarkdown()
	return parseOnce(e, &e.fantasy, func() *fantasy.Block { return fantasy.Read(doc) })
}

func (e *cacheEntry) getTuning(path string) *tuning.File {
	return parseOnce(e, &e.tuning, func() *tuning.File { return tuning.Parse(path, e.content) })
}

func (e *cacheEntry) getAdoption(path string) *contracts.Adoption {
	return parseOnce(e, &e.adoption, func() *contracts.Adoption { return contracts.ParseAdoption(path, e.content) })
}

// getJSON returns the plain JSON parse of the content (the partial tree
// when it does not parse; nil for an empty or skipped file).
func (e *cacheEntry) getJSON() *jsonsrc.Value {
	v, _ := e.getJSONParse()
	return v
}

// getJSONParse returns the plain JSON parse of the content with its syntax
// errors (at most one).
func (e *cacheEntry) getJSONParse() (*jsonsrc.Value, []jsonsrc.Error) {
	if e == nil {
		return nil, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.jsonDone {
		e.json, e.jsonErrs = jsonsrc.Parse(e.content)
		e.jsonDone = true
	}
	return e.json, e.jsonErrs
}

// getCollectionSchema returns the reading of the content as a collection's
// schema file (its plain JSON parse, which must have parsed).
func (e *cacheEntry) getCollectionSchema(path string) *collections.Schema {
	v := e.getJSON()
	return parseOnce(e, &e.collSchema, func() *collections.Schema { return collections.ParseSchema(path, v) })
}

// getPlan returns the build plan read from the Markdown parse.
func (e *cacheEntry) getPlan() *buildplan.Plan {
	doc := e.getMarkdown()
	return parseOnce(e, &e.plan, func() *buildplan.Plan { return buildplan.Parse(doc) })
}

// planFindings is the memoized buildplan.Check of one content.
type planFindings struct{ findings []source.Finding }

// getPlanFindings returns buildplan.Check of the content, once.
func (e *cacheEntry) getPlanFindings(path string) []source.Finding {
	plan := e.getPlan()
	return parseOnce(e, &e.planChecked, func() *planFindings { return &planFindings{buildplan.Check(plan, path)} }).findings
}

// getManifest returns the manifest read from the content's JSON parse v
// with its checks, once per content.
func (e *cacheEntry) getManifest(path string, v *jsonsrc.Value) *manifest.Manifest {
	return parseOnce(e, &e.manifest, func() *manifest.Manifest { return manifest.Parse(path, v) })
}

// getPersonalization returns the reading of personalization.json (its
// plain JSON parse, which must have parsed).
func (e *cacheEntry) getPersonalization(path string) *personalization.File {
	v := e.getJSON()
	return parseOnce(e, &e.pers, func() *personalization.File { return personalization.Parse(path, v) })
}

// getDirection returns direction.json read from the content's JSON parse
// v with the findings of the file alone, once per content.
func (e *cacheEntry) getDirection(path string, v *jsonsrc.Value) *direction.File {
	return parseOnce(e, &e.direction, func() *direction.File { return direction.Parse(path, v) })
}

// clockFile is clocks.json read once per content: the model and the names
// of its clocks (a clock whose object is broken still has its name). Both
// are shared by the snapshots that see the content and never changed.
type clockFile struct {
	file  *clocks.File
	names map[string]bool
}

// getClocks returns clocks.json read from the content's JSON parse v, once
// per content.
func (e *cacheEntry) getClocks(path string, v *jsonsrc.Value) *clockFile {
	return parseOnce(e, &e.clocks, func() *clockFile {
		c := &clockFile{file: clocks.Parse(path, v), names: map[string]bool{}}
		for _, m := range v.Members() {
			c.names[m.Key] = true
		}
		return c
	})
}

// spanList is a memoized list of spans.
type spanList struct{ spans []source.Span }

// getRetiredFences returns direction.RetiredFences of the content, once.
func (e *cacheEntry) getRetiredFences() []source.Span {
	return parseOnce(e, &e.fences, func() *spanList { return &spanList{direction.RetiredFences(e.content)} }).spans
}

// adoptionClaim is whether an adoption file counts as an adoption under
// SPEC §10.1 rule 8 (strict), and under Options.Lenient.
type adoptionClaim struct{ strict, lenient bool }

// claimOf returns whether the content, read as the adoption at path,
// counts as an adoption, with Options.Lenient or without; once.
func (e *cacheEntry) claimOf(path string, lenient bool) bool {
	a := e.getAdoption(path)
	c := parseOnce(e, &e.claim, func() *adoptionClaim {
		c := &adoptionClaim{strict: a.IsAdoption()}
		c.lenient = c.strict || (a.Root != nil && a.Root.Kind() == jsonsrc.Object && (a.Root.Get("contract") != nil || a.Root.Get("format") != nil))
		return c
	})
	if lenient {
		return c.lenient
	}
	return c.strict
}

func (e *cacheEntry) getPack(path string) *pack.Pack {
	return parseOnce(e, &e.pack, func() *pack.Pack { return pack.ParsePack(path, e.content) })
}

// anchorTarget resolves an anchor of this Markdown content, once.
func (e *cacheEntry) anchorTarget(path, anchor string) contracts.AnchorTarget {
	e.anchorsMu.Lock()
	defer e.anchorsMu.Unlock()
	if t, ok := e.anchors[anchor]; ok {
		return t
	}
	t := anchorTarget(path, e.getMarkdown(), anchor)
	if e.anchors == nil {
		e.anchors = map[string]contracts.AnchorTarget{}
	}
	e.anchors[anchor] = t
	return t
}
