package analysis

import (
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
	depDoc
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
)

// tuningKeyToken is what a citation of one tuning key reads.
type tuningKeyToken struct {
	readable, found, open, hasNumber bool
	number                           float64
	keySpan                          source.Span
}

// dep is one read of the package that an adoption's check made, with the
// parse it saw (a pointer, nil when the target was absent).
type dep struct {
	kind  depKind
	key   string
	token any
}

// adoptionResult is the memoized evaluation and check of one adoption.
type adoptionResult struct {
	deps     []dep
	state    *contracts.State
	findings []source.Finding
}

// token returns what the package currently holds for a dependency.
func (p *Package) token(d dep, a *contracts.Adoption) any {
	switch d.kind {
	case depTuning:
		return p.Tuning
	case depDoc:
		if f := p.files[d.key]; f != nil {
			return f.Markdown
		}
		return (*File)(nil)
	case depAdoption:
		return p.Adoption(d.key)
	case depPack:
		return p.PackFor(a)
	case depFile:
		if f := p.files[d.key]; f != nil {
			return f.entry
		}
		return (*cacheEntry)(nil)
	case depGeneration:
		return p.generation
	case depTuningKey:
		var t tuningKeyToken
		if p.Tuning != nil {
			t.readable = p.Tuning.Readable
			if e, ok := p.Tuning.Lookup(d.key); ok {
				t.found, t.open, t.hasNumber, t.number, t.keySpan = true, e.Open, e.HasNumber, e.Number, e.KeySpan
			}
		}
		return t
	}
	return nil
}

// depsValid reports whether every dependency still sees the same parse.
func (p *Package) depsValid(deps []dep, a *contracts.Adoption) bool {
	for _, d := range deps {
		if p.token(d, a) != d.token {
			return false
		}
	}
	return true
}

// valid reports whether every dependency of a result still sees the same
// parse.
func (r *adoptionResult) valid(p *Package, a *contracts.Adoption) bool {
	return p.depsValid(r.deps, a)
}

// recorder is a Resolver that notes what it was asked.
type recorder struct {
	*resolver
	deps []dep
	seen map[dep]bool
}

func (r *recorder) note(kind depKind, key string) {
	d := dep{kind: kind, key: key}
	if r.seen[d] {
		return
	}
	r.seen[d] = true
	d.token = r.pkg.token(d, nil)
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
	if rel, ok := packageRelative(file); ok {
		r.note(depDoc, rel)
	}
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
	if f := b.snap.files[a.File]; f != nil {
		entry = f.entry
	}
	if entry != nil && entry.checked != nil && entry.checked.valid(p, a) {
		return entry.checked
	}
	rec := &recorder{resolver: r, seen: map[dep]bool{}}
	state := contracts.Evaluate(a, rec)
	findings := contracts.Check(a, rec)
	pk := p.PackFor(a)
	rec.deps = append(rec.deps, dep{kind: depPack, token: pk})
	if pk != nil {
		findings = append(findings, pack.Check(a, state, pk)...)
	}
	res := &adoptionResult{deps: rec.deps, state: state, findings: findings}
	if entry != nil {
		entry.checked = res
	}
	return res
}
