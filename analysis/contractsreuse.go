package analysis

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// The reading and check of contracts/ carried from one build of a package
// to the next (reuse.go). An edit changes one adoption file or a chapter or
// two, while contracts/ holds thousands of adoptions: looking at each of
// them in every build (its claim, its parse, its memo's dependencies) costs
// more than re-checking the one that changed. When the folder's listing is
// the same and the files of contracts/ that changed are adoption files it
// already held, loadContracts takes the last build's reading and replaces
// only those adoptions (carryContracts); checkContracts then re-checks
// only the adoptions that changed and those whose dependencies a
// reverse-dependency index (depIndex) says may see something else
// (carryChecks), and takes the states and findings of all others whole.

// contractsMemo is what one build read and checked in contracts/. It is
// not changed once the build is over, except for its index, which the next
// build takes over (see depIndex).
type contractsMemo struct {
	lenient bool
	anchor  string
	listing []DirEntry
	// rels are the package-relative paths of the adoption files, in the
	// order of adoptions; pos indexes them, claims tells which claim to be
	// adoptions and claiming how many do.
	// claims, adoptions and results are chunked: an edit's build copies
	// what it changes of them, not the thousands of entries.
	rels     []string
	pos      map[string]int
	claims   chunked[bool]
	claiming int
	packs    []*pack.Pack
	// bad are the findings of the folder's entries.
	bad       []source.Finding
	adoptions AdoptionList
	// byID finds an adoption by id, with idOver winning over it: an edit
	// that keeps the ids replaces an adoption in the small idOver rather
	// than copying byID (see lookupID).
	byID, idOver map[string]*contracts.Adoption

	// The check (checked once checkContracts ran): the result of each
	// adoption, with its state, the positions whose result has findings (in
	// order), and the definition identity groups.
	checked   bool
	results   chunked[*adoptionResult]
	flagged   []int
	divIDs    []string
	divGroups map[string][]*contracts.Adoption
	// packSet holds pack.CheckSet's findings once packSetDone.
	packSet     []source.Finding
	packSetDone bool
	// index is the reverse-dependency index of results; the next build
	// takes it (Swap) and updates it for its own results, so a build that
	// finds none builds it again.
	index atomic.Pointer[depIndex]
}

// carryContracts is loadContracts taking the last build's reading of
// contracts/ with the changed adoption files replaced. It reports false,
// having changed nothing, when the last reading does not hold for this
// build: no last build or a new disk state, another listing, a changed
// file of contracts/ that was not an adoption file, a folder that holds
// no adoption now or did not then.
func (b *builder) carryContracts(p *Package, entries []DirEntry) bool {
	last := b.last[p.Root]
	if last == nil || p.prevStamp == 0 || last.contracts == nil {
		return false
	}
	m := last.contracts
	if m.lenient != b.lenient || m.anchor != p.anchorFile() || !sameElems(m.listing, entries) {
		return false
	}
	var changed []int
	for rel := range p.changed {
		if !strings.HasPrefix(rel, "contracts/") {
			continue
		}
		i, ok := m.pos[rel]
		f := p.files.get(rel)
		if !ok || f == nil || f.Skipped != "" {
			return false
		}
		changed = append(changed, i)
	}
	sort.Ints(changed)
	n := &contractsMemo{
		lenient: m.lenient, anchor: m.anchor, listing: m.listing, rels: m.rels, pos: m.pos,
		claims: m.claims, claiming: m.claiming, packs: m.packs, bad: m.bad,
		adoptions: m.adoptions, byID: m.byID, idOver: m.idOver,
	}
	if len(changed) > 0 {
		claims, adoptions := m.claims.edit(), m.adoptions.edit()
		idsKept := true
		for _, i := range changed {
			f := p.files.get(m.rels[i])
			claim := f.entry.claimOf(f.Path, b.lenient)
			if claim != claims.at(i) {
				claims.set(i, claim)
				if claim {
					n.claiming++
				} else {
					n.claiming--
				}
			}
			a := f.entry.getAdoption(f.Path)
			if a.ID != adoptions.at(i).ID {
				idsKept = false
			}
			adoptions.set(i, a)
		}
		n.claims, n.adoptions = claims.done(), AdoptionList{adoptions.done()}
		if n.claiming == 0 {
			return false // the folder turns reserved: read it afresh
		}
		if idsKept {
			// With several adoptions of one id, the last in order is the
			// one found by id: replace only the adoptions that are.
			cloned := false
			for _, i := range changed {
				old := m.adoptions.At(i)
				if m.lookupID(old.ID) == old {
					if !cloned {
						n.idOver, cloned = maps.Clone(m.idOver), true
						if n.idOver == nil {
							n.idOver = map[string]*contracts.Adoption{}
						}
					}
					n.idOver[old.ID] = n.adoptions.At(i)
				}
			}
			if len(n.idOver) > maxIDOverrides {
				n.byID = maps.Clone(m.byID)
				maps.Copy(n.byID, n.idOver)
				n.idOver = nil
			}
		} else {
			n.byID, n.idOver = adoptionsByID(n.adoptions), nil
		}
	}
	p.Packs = n.packs
	b.findings = append(b.findings, n.bad...)
	p.Adoptions = n.adoptions
	p.contracts, p.contractsLast, p.contractsChanged = n, m, changed
	return true
}

// maxIDOverrides is how many adoptions replaced by id the memo keeps
// beside byID before it folds them into a copy of it.
const maxIDOverrides = 32

// lookupID returns the adoption of the id, or nil.
func (m *contractsMemo) lookupID(id string) *contracts.Adoption {
	if a, ok := m.idOver[id]; ok {
		return a
	}
	return m.byID[id]
}

// adoptionsByID indexes adoptions by id; of several with one id, the last
// is kept.
func adoptionsByID(adoptions AdoptionList) map[string]*contracts.Adoption {
	out := make(map[string]*contracts.Adoption, adoptions.Len())
	for _, a := range adoptions.All() {
		out[a.ID] = a
	}
	return out
}

// keepChecks records checkContracts' results of every adoption, in the
// order of p.Adoptions, in the package's memo of contracts/, and lets the
// index of the last build's memo go: no build will take it over, and a
// result of that build still in use would keep it alive.
func (p *Package) keepChecks(results []*adoptionResult, last *pkgMemo) {
	if last != nil && last.contracts != nil {
		last.contracts.index.Store(nil)
	}
	n := p.contracts
	if n == nil {
		return
	}
	n.checked, n.results = true, chunkedOf(results)
	n.flagged = nil
	for i, res := range results {
		if len(res.findings) > 0 {
			n.flagged = append(n.flagged, i)
		}
	}
}

// carryChecks is checkContracts' loop over the adoptions when the reading
// of contracts/ was carried from the last build (carryContracts) and that
// build checked it: only the adoptions that changed and those a dependency
// of which may see something else are checked (through checkAdoption and
// its memo); every other result is the last build's. It reports false when
// it cannot, and the caller checks every adoption.
func (b *builder) carryChecks(p *Package, r *resolver) bool {
	m, n := p.contractsLast, p.contracts
	if m == nil || n == nil || !m.checked {
		return false
	}
	idx := m.index.Swap(nil)
	if idx == nil {
		idx = newDepIndex(m.results)
	}
	dirty := map[int]bool{}
	for _, i := range p.contractsChanged {
		dirty[i] = true
	}
	check := func(k depKey) {
		u, ok := idx.users[k]
		if !ok {
			return
		}
		if tok := p.token(dep{kind: k.kind, key: k.key}, nil); tok != *u.seen {
			u.seen = &tok
			idx.users[k] = u
			for _, i := range u.at {
				dirty[int(i)] = true
			}
		}
	}
	runtime := false
	for rel := range p.changed {
		for k := range idx.bySource[rel] {
			check(k)
		}
		if folded := foldName(rel); folded != rel {
			for k := range idx.bySource[folded] {
				check(k)
			}
		}
		if rel == "clocks.json" || !strings.Contains(rel, "/") && IsMarkdown(rel) {
			runtime = true // the runtime addresses are declared there
		}
	}
	if runtime {
		for k := range idx.bySource[runtimeSource] {
			check(k)
		}
	}
	for _, i := range p.contractsChanged {
		check(depKey{depAdoption, m.adoptions.At(i).ID})
		check(depKey{depAdoption, n.adoptions.At(i).ID})
	}

	results := m.results.edit()
	order := make([]int, 0, len(dirty))
	for i := range dirty {
		order = append(order, i)
	}
	sort.Ints(order)
	for _, i := range order {
		res := b.checkAdoption(p, r, n.adoptions.At(i))
		// A result that reads the same dependencies as the one it replaces
		// (an adoption re-checked because a heading it cites moved) leaves
		// the readers as they are; what the dependencies see now is noted
		// above.
		if old := m.results.At(i); res != old && !sameDepKeys(old.deps, res.deps) {
			idx.remove(i, old)
			idx.add(i, res)
		}
		results.set(i, res)
	}
	n.checked, n.results = true, results.done()
	n.flagged = make([]int, 0, len(m.flagged)+len(order))
	for _, i := range m.flagged {
		if !dirty[i] {
			n.flagged = append(n.flagged, i)
		}
	}
	for _, i := range order {
		if len(n.results.At(i).findings) > 0 {
			n.flagged = append(n.flagged, i)
		}
	}
	sort.Ints(n.flagged)
	for _, i := range n.flagged {
		b.findings = append(b.findings, n.results.At(i).findings...)
	}
	n.index.Store(idx)
	return true
}

// divergenceGroups returns contracts.DivergenceGroups of the package's
// adoptions, from the last build's groups when the reading of contracts/
// was carried and no changed adoption changed its definition identity.
func (p *Package) divergenceGroups() ([]string, map[string][]*contracts.Adoption) {
	m, n := p.contractsLast, p.contracts
	if m != nil && n != nil && m.divGroups != nil {
		groups, cloned := m.divGroups, false
		ok := true
		for _, i := range p.contractsChanged {
			old, a := m.adoptions.At(i), n.adoptions.At(i)
			id := divergenceIdentity(old)
			if id != divergenceIdentity(a) {
				ok = false
				break
			}
			if id == "" {
				continue
			}
			if !cloned {
				groups, cloned = maps.Clone(m.divGroups), true
			}
			g := slices.Clone(groups[id])
			if j := slices.Index(g, old); j >= 0 {
				g[j] = a
			}
			groups[id] = g
		}
		if ok {
			n.divIDs, n.divGroups = m.divIDs, groups
			return n.divIDs, n.divGroups
		}
	}
	ids, groups := contracts.DivergenceGroups(p.Adoptions.Slice())
	if n != nil {
		n.divIDs, n.divGroups = ids, groups
	}
	return ids, groups
}

// packSetFindings returns pack.CheckSet of the package's packs and
// adoptions. CheckSet reads the adoptions for the definitions they adopt,
// each pack scanning them for one, which at ten times the package costs a
// keystroke 0.15 ms; so when the reading of contracts/ was carried (the
// same packs) and no changed adoption changed what CheckSet reads of it
// (packSetKey), the last build's findings, which point into packs alone,
// are this build's.
func (p *Package) packSetFindings() []source.Finding {
	m, n := p.contractsLast, p.contracts
	if m != nil && n != nil && m.packSetDone && slices.Equal(m.packs, n.packs) {
		same := true
		for _, i := range p.contractsChanged {
			if packSetKeyOf(m.adoptions.At(i)) != packSetKeyOf(n.adoptions.At(i)) {
				same = false
				break
			}
		}
		if same {
			n.packSet, n.packSetDone = m.packSet, true
			return n.packSet
		}
	}
	fs := pack.CheckSet(p.Packs, p.Adoptions.Slice())
	if n != nil {
		n.packSet, n.packSetDone = fs, true
	}
	return fs
}

// packSetKey is what pack.CheckSet reads of an adoption: whether it
// parsed, its contract, and its version when that is a finite number
// (pack.Matches takes the integer ones).
type packSetKey struct {
	broken, hasContract, hasNumber bool
	contract                       string
	number                         float64
}

func packSetKeyOf(a *contracts.Adoption) packSetKey {
	k := packSetKey{broken: a.ParseError != nil}
	if a.Contract != nil {
		k.hasContract, k.contract = true, a.Contract.Text
	}
	if a.Version.Finite() {
		k.hasNumber, k.number = true, a.Version.Num()
	}
	return k
}

// divergenceIdentity is the group contracts.DivergenceGroups puts a in, ""
// for none.
func divergenceIdentity(a *contracts.Adoption) string {
	if a == nil || a.ParseError != nil {
		return ""
	}
	return a.Identity()
}

// runtimeSource is the source in depIndex.bySource of the dependencies on
// runtime addresses, which clocks.json and the chapters declare.
const runtimeSource = "\x00runtime"

// depIndex is the reverse-dependency index of the adoption results of one
// build: for each dependency (but the pack, which follows the adoption's
// own definition and the package's packs, and the disk state, which a
// carried build shares), what it saw in that build and the positions of
// the adoptions that read it; and for each source a dependency reads from
// (a package-relative file, runtimeSource), the set of dependencies on it. Every
// result of a build is valid in it, so all readers of a dependency saw the
// same thing.
type depIndex struct {
	users    map[depKey]depUsers
	bySource map[string]map[depKey]bool
}

// depUsers is what one dependency saw and who read it. seen points into
// the dependencies of a result that read it (results do not change), or at
// what the dependency saw when a later build found it changed: the index
// holds tens of thousands of dependencies, and a copy of each would make
// the server's heap larger by megabytes.
type depUsers struct {
	seen *depValue
	at   []int32
}

// newDepIndex indexes the dependencies of results.
func newDepIndex(results chunked[*adoptionResult]) *depIndex {
	idx := &depIndex{users: map[depKey]depUsers{}, bySource: map[string]map[depKey]bool{}}
	for i, res := range results.All() {
		idx.add(i, res)
	}
	return idx
}

// sameDepKeys reports whether two lists of dependencies name the same
// dependencies in the same order.
func sameDepKeys(a, b []dep) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].kind != b[i].kind || a[i].key != b[i].key {
			return false
		}
	}
	return true
}

// indexed reports whether the index keeps a dependency of this kind.
func indexed(kind depKind) bool { return kind != depPack && kind != depGeneration }

// sourceOf returns where a dependency reads from; false for one that reads
// nothing that can change (an anchor outside the package) or is looked up
// by other means (an adoption by id).
func sourceOf(k depKey) (string, bool) {
	switch k.kind {
	case depTuning, depTuningKey:
		return "tuning.json", true
	case depAnchor:
		// By the folded name: a file that appears with the cited name in
		// another letter case changes what the citation sees.
		file, _, _ := strings.Cut(k.key, "#")
		rel, ok := PackageRelative(file)
		return foldName(rel), ok
	case depFile:
		return k.key, true
	case depRuntime:
		return runtimeSource, true
	}
	return "", false
}

// add notes the dependencies of the result at position i.
func (idx *depIndex) add(i int, res *adoptionResult) {
	for j := range res.deps {
		d := &res.deps[j]
		if !indexed(d.kind) {
			continue
		}
		k := depKey{d.kind, d.key}
		u, ok := idx.users[k]
		if !ok {
			u.seen = &d.seen
			if src, ok := sourceOf(k); ok {
				if idx.bySource[src] == nil {
					idx.bySource[src] = map[depKey]bool{}
				}
				idx.bySource[src][k] = true
			}
		}
		u.at = append(u.at, int32(i))
		idx.users[k] = u
	}
}

// remove forgets the dependencies of the result at position i.
func (idx *depIndex) remove(i int, res *adoptionResult) {
	for _, d := range res.deps {
		if !indexed(d.kind) {
			continue
		}
		k := depKey{d.kind, d.key}
		u, ok := idx.users[k]
		if !ok {
			continue
		}
		if j := slices.Index(u.at, int32(i)); j >= 0 {
			u.at[j] = u.at[len(u.at)-1]
			u.at = u.at[:len(u.at)-1]
		}
		if len(u.at) > 0 {
			idx.users[k] = u
			continue
		}
		delete(idx.users, k)
		if src, ok := sourceOf(k); ok {
			delete(idx.bySource[src], k)
		}
	}
}
