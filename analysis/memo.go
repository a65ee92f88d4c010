package analysis

import (
	"slices"
	"strings"

	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// The contract checks of an adoption read the rest of its package only
// through the Resolver (tuning keys, chapter headings, other adoptions) and
// through its pack. recorder notes each of those reads with the parse it
// saw; since the cache hands out the same parse for the same content, an
// adoption whose own parse and every recorded parse are unchanged has the
// same findings, and an edit re-checks only the adoptions it can affect.

// depKind says what a dependency of an adoption's check is.
type depKind uint8

const (
	depTuning depKind = iota
	// depAnchor is one chapter anchor as a citation sees it: whether it
	// resolves, to how many headings, whether the section is Fixed, and
	// where those headings and tags stand, so that typing in a chapter
	// re-checks only the adoptions whose cited sections changed.
	depAnchor
	depAdoption
	depPack
	// depFile is a package file read as a whole (clocks.json, a
	// collection record); its token is the file's cache entry.
	depFile
	// depGeneration is the state of the disk: folder listings.
	depGeneration
	// depTuningKey is one key of tuning.json as a citation sees it, so
	// that an edit of tuning.json re-checks only the adoptions citing a key
	// whose number, kind or place changed.
	depTuningKey
	// depRuntime is whether one runtime address is declared (SPEC §4b.1),
	// as a test's unchanged.values reads it: its key is the address.
	depRuntime
)

// anchorToken is what a citation of one chapter anchor reads (the first
// few matching headings are enough: more than one is already ambiguous).
type anchorToken struct {
	outside, exists, fixed, unreadable bool
	matches                            int
	// caseName is AnchorTarget.CaseName: it follows the listings of the
	// package, not only the cited file.
	caseName string
	spans    [3]source.Span
	notFixed source.Span
}

func anchorTokenOf(t contracts.AnchorTarget) anchorToken {
	tok := anchorToken{outside: t.Outside, exists: t.FileExists, fixed: t.Fixed, unreadable: t.Unreadable, matches: len(t.Matches), caseName: t.CaseName}
	if len(t.Matches) == 1 && t.Fixed {
		// A citation that resolves cleanly reports nothing about where the
		// heading stands, so text moving the heading does not concern it.
		return tok
	}
	for i, m := range t.Matches {
		if i < len(tok.spans) {
			tok.spans[i] = m.Span
		}
	}
	if t.NotFixedBecause != nil {
		tok.notFixed = t.NotFixedBecause.Span
	}
	return tok
}

// tuningKeyToken is what a citation of one tuning key reads.
type tuningKeyToken struct {
	readable, found, open, hasNumber bool
	number                           float64
	keySpan                          source.Span
}

// dep is one read of the package that a check made, with what it saw: a
// parse (a pointer, nil when the target was absent), or for anchors and
// tuning keys the few facts the citation read. The facts are kept unboxed
// so that validating thousands of dependencies allocates nothing.
type dep struct {
	kind depKind
	key  string
	seen depValue
}

// depValue is what a dependency saw; only the field of its kind is used.
type depValue struct {
	ptr        any
	gen        int
	anchor     anchorToken
	tuning     tuningKeyToken
	unreadable bool
}

// adoptionResult is the memoized evaluation and check of one adoption.
type adoptionResult struct {
	deps    []dep
	sources *depSources
	// reads and others are deps split by fileReads; validAt is the last
	// build the result was found valid in.
	reads    []string
	others   []dep
	validAt  validStamp
	state    *contracts.State
	findings []source.Finding
}

// token returns what the package currently holds for a dependency.
func (p *Package) token(d dep, a *contracts.Adoption) depValue {
	switch d.kind {
	case depTuning:
		return depValue{ptr: p.Tuning}
	case depAnchor:
		file, anchor, _ := strings.Cut(d.key, "#")
		return depValue{anchor: anchorTokenOf(p.AnchorTarget(file, anchor))}
	case depAdoption:
		return depValue{ptr: p.Adoption(d.key)}
	case depPack:
		return depValue{ptr: p.PackFor(a)}
	case depFile:
		if f := p.files.get(d.key); f != nil {
			return depValue{ptr: f.entry}
		}
		// No file: absent, or something in its place that cannot be read
		// (a folder), which holds back what reads it.
		return depValue{ptr: (*cacheEntry)(nil), unreadable: p.Unreadable(d.key)}
	case depGeneration:
		return depValue{gen: p.generation}
	case depTuningKey:
		var t tuningKeyToken
		if p.Tuning != nil {
			t.readable = p.Tuning.KeysKnown()
			if e, ok := p.Tuning.Lookup(d.key); ok {
				t.found, t.open, t.hasNumber, t.number, t.keySpan = true, e.Open, e.HasNumber, e.Number, e.KeySpan
			}
		}
		return depValue{tuning: t}
	case depRuntime:
		return depValue{ptr: p.RuntimeDeclared(d.key)}
	}
	return depValue{}
}

// depSources is what the anchor and tuning-key dependencies of a result
// read as a whole: the tuning parse, and the cache entry of each file whose
// anchors they resolve (nil when absent). While those are unchanged, every
// such dependency sees what it saw, so validating a result after an edit
// elsewhere compares a few pointers instead of resolving each citation
// again.
type depSources struct {
	tuning *tuning.File
	files  []fileEntry
	// absent is set when a cited file is not in the package: what such a
	// citation sees follows the names of other files too (a file named
	// as it is when letter case is ignored), so its dependencies are
	// looked up one by one.
	absent bool
}

// fileEntry is the cache entry a package-relative file had.
type fileEntry struct {
	rel   string
	entry *cacheEntry
}

// sourcesOf returns the sources of deps as the package holds them now.
func (p *Package) sourcesOf(deps []dep) *depSources {
	s := &depSources{tuning: p.Tuning}
	var seen map[string]bool
	for _, d := range deps {
		if d.kind != depAnchor {
			continue
		}
		file, _, _ := strings.Cut(d.key, "#")
		rel, ok := PackageRelative(file)
		if !ok || seen[rel] {
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[rel] = true
		e := p.entryOf(rel)
		s.absent = s.absent || e == nil
		s.files = append(s.files, fileEntry{rel, e})
	}
	return s
}

// entryOf returns the cache entry of a package file, or nil.
func (p *Package) entryOf(rel string) *cacheEntry {
	if f := p.files.get(rel); f != nil {
		return f.entry
	}
	return nil
}

// same reports whether the package still holds the sources s recorded.
func (s *depSources) same(p *Package) bool {
	if s == nil || s.absent || p.Tuning != s.tuning {
		return false
	}
	for _, fe := range s.files {
		if p.entryOf(fe.rel) != fe.entry {
			return false
		}
	}
	return true
}

// depsValid reports whether every dependency still sees the same parse.
// While the sources are unchanged, the anchor and tuning dependencies are
// not looked up one by one.
func (p *Package) depsValid(deps []dep, src *depSources, a *contracts.Adoption) bool {
	same := src.same(p)
	for _, d := range deps {
		if same && (d.kind == depAnchor || d.kind == depTuning || d.kind == depTuningKey) {
			continue
		}
		if p.token(d, a) != d.seen {
			return false
		}
	}
	return true
}

// valid reports whether every dependency of a result still sees the same
// parse. A result valid in the previous build whose files did not change
// looks up only its dependencies that are not files.
func (r *adoptionResult) valid(p *Package, a *contracts.Adoption) bool {
	ok := false
	if p.unchangedSince(r.validAt.load(), r.reads) {
		ok = p.depsValid(r.others, nil, a)
	} else {
		ok = p.depsValid(r.deps, r.sources, a)
	}
	if ok {
		r.validAt.store(p.stamp)
	}
	return ok
}

// recorder is a Resolver that notes what it was asked.
type recorder struct {
	*resolver
	deps  []dep
	noted map[depKey]bool
}

// depKey names a dependency without what it saw.
type depKey struct {
	kind depKind
	key  string
}

// stop ends the recording: the state keeps the recorder as its resolver,
// and what queries ask of it later is not a dependency of the check. It
// also lets the set of noted dependencies go.
func (r *recorder) stop() { r.noted, r.deps = nil, nil }

func (r *recorder) note(kind depKind, key string) {
	if r.noted == nil {
		return // stopped
	}
	k := depKey{kind, key}
	if r.noted[k] {
		return
	}
	r.noted[k] = true
	d := dep{kind: kind, key: key}
	d.seen = r.pkg.token(d, nil)
	r.deps = append(r.deps, d)
}

func (r *recorder) TuningReadable() bool {
	r.note(depTuningKey, "")
	return r.resolver.TuningReadable()
}

func (r *recorder) TuningKey(key string) (contracts.TuningTarget, bool) {
	r.note(depTuningKey, key)
	return r.resolver.TuningKey(key)
}

func (r *recorder) Anchor(file, anchor string) contracts.AnchorTarget {
	r.note(depAnchor, file+"#"+anchor)
	return r.resolver.Anchor(file, anchor)
}

func (r *recorder) Adoption(id string) *contracts.Adoption {
	r.note(depAdoption, id)
	return r.resolver.Adoption(id)
}

// checkAdoption evaluates and checks one adoption with its pack, reusing
// the cached result while its dependencies are unchanged.
func (b *builder) checkAdoption(p *Package, r *resolver, a *contracts.Adoption) *adoptionResult {
	var entry *cacheEntry
	if f := b.snap.files.get(a.File); f != nil {
		entry = f.entry
	}
	if entry != nil && entry.checked != nil && entry.checked.valid(p, a) {
		return entry.checked
	}
	// Most adoptions read a dozen dependencies or fewer (a dep is about
	// 180 bytes): room for 64 made 16 KB of garbage an adoption.
	rec := &recorder{resolver: r, noted: make(map[depKey]bool, 16), deps: make([]dep, 0, 16)}
	state := contracts.Evaluate(a, rec)
	findings := contracts.CheckState(state)
	// An adoption that does not parse is not paired with its pack: only its
	// syntax error is reported until it parses.
	var pk *pack.Pack
	if a.ParseError == nil {
		pk = p.PackFor(a)
	}
	rec.deps = append(rec.deps, dep{kind: depPack, seen: depValue{ptr: pk}})
	if pk != nil {
		check := pack.CheckTestsMemo
		if b.cache == nil {
			// No later build reuses this pack (Options.Cache): what its
			// renderings read is not kept for one.
			check = pack.CheckTestsOnce
		}
		found := check(a, state, pk, func(tests []pack.Test) []source.Finding {
			return checkGeneratedTests(a, pk, tests)
		})
		findings = append(findings, found...)
	}
	res := &adoptionResult{deps: slices.Clone(rec.deps), sources: p.sourcesOf(rec.deps), state: state, findings: findings}
	res.reads, res.others = fileReads(rec.deps)
	res.validAt.store(p.stamp)
	rec.stop()
	if entry != nil {
		entry.checked = res
	}
	return res
}
