package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis/collections"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// recordResult is the memoized check of one record file against one
// record schema.
type recordResult struct {
	schema  *collections.Record
	checked *collections.Checked
}

// CheckedRecord returns the check of a record against its collection's
// record schema, reused while neither the record's content nor the schema
// file's content changed.
func CheckedRecord(f *File, schema *collections.Record, v *jsonsrc.Value) *collections.Checked {
	e := f.entry
	e.mu.Lock()
	r := e.recordChecked
	e.mu.Unlock()
	if r != nil && r.schema == schema {
		return r.checked
	}
	r = &recordResult{schema: schema, checked: collections.CheckRecord(schema, f.Path, v)}
	e.mu.Lock()
	e.recordChecked = r
	e.mu.Unlock()
	return r.checked
}

// collectionState is what the cross-record checks read of one collection.
type collectionState struct {
	c *Collection
	// schema is the record schema the records are checked against; usable
	// is false when the schema file does not parse or has no readable
	// record schema (Collection.RecordSchema).
	schema *collections.Record
	usable bool
	// ids are the record ids in order; checked the check of each readable
	// record.
	ids     []string
	checked map[string]*collections.Checked
	// list holds the check of each record in ids order, nil for one that
	// is not checked.
	list []*collections.Checked
	// sets caches linkSets.
	sets map[*collections.Field]map[string]map[string]bool
}

// linkSets returns, for each record of the collection, the ids it links
// to through field f; it is built once per field.
func (s *collectionState) linkSets(f *collections.Field) map[string]map[string]bool {
	if sets, ok := s.sets[f]; ok {
		return sets
	}
	sets := make(map[string]map[string]bool, len(s.checked))
	for rid, ch := range s.checked {
		var m map[string]bool
		for _, l := range ch.Links {
			if l.Field == f {
				if m == nil {
					m = map[string]bool{}
				}
				m[l.ID] = true
			}
		}
		sets[rid] = m
	}
	if s.sets == nil {
		s.sets = map[*collections.Field]map[string]map[string]bool{}
	}
	s.sets[f] = sets
	return sets
}

// checkCollections runs the checks of SPEC §1b on the package's collections:
// each schema file, each record against its schema, uniqueness across the
// records, the links between records, and whether anything cites each
// collection.
func (b *builder) checkCollections(p *Package) {
	if len(p.Collections) == 0 {
		return
	}
	if p.collCarried {
		m := p.coll
		b.findings = append(b.findings, m.findings...)
		b.checkUncited(p, m.ids, m.states)
		return
	}
	start := len(b.findings)
	ids := make([]string, 0, len(p.Collections))
	for id := range p.Collections {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	states := make(map[string]*collectionState, len(ids))
	for _, id := range ids {
		c := p.Collections[id]
		st := &collectionState{c: c, checked: map[string]*collections.Checked{}}
		states[id] = st
		if c.Parsed != nil {
			b.findings = append(b.findings, c.Parsed.Findings...)
		}
		st.schema, st.usable = c.RecordSchema()
		for rid := range c.Records {
			st.ids = append(st.ids, rid)
		}
		sort.Strings(st.ids)
		if !st.usable || st.schema == nil {
			continue
		}
		st.list = make([]*collections.Checked, len(st.ids))
		for i, rid := range st.ids {
			v := c.Records[rid]
			f := p.files.get("collections/" + id + "/" + rid + ".json")
			if v == nil || f == nil {
				continue
			}
			ch := CheckedRecord(f, st.schema, v)
			st.checked[rid] = ch
			st.list[i] = ch
			b.findings = append(b.findings, ch.Findings...)
		}
	}
	var cross []source.Finding
	for _, id := range ids {
		st := states[id]
		if !st.usable || st.schema == nil {
			continue
		}
		cross = append(cross, crossChecked(p, states, st)...)
	}
	// A link whose two fields name each other as mirrors is reported by
	// both collections' checks; it is one finding.
	seen := map[string]bool{}
	for _, f := range cross {
		if f.Code == "COLLECTION_MIRROR_ONE_WAY" {
			key := fmt.Sprintf("%s\x00%d", f.File, f.Span.Start)
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		b.report(f)
	}
	if m := p.coll; m != nil {
		m.ids, m.states, m.findings = ids, states, slices.Clone(b.findings[start:])
	}
	b.checkUncited(p, ids, states)
}

// crossMemo is the memoized cross-record check of one collection: what it
// read of each collection it involves, and its findings.
type crossMemo struct {
	deps     []crossDep
	findings []source.Finding
}

// crossDep is what a collection's cross-record check read of one
// collection: its schema file's reading, its record ids and the check of
// each record (nil for one that cannot be read).
type crossDep struct {
	id        string
	hasSchema bool
	schema    *collections.Schema
	ids       []string
	checked   []*collections.Checked
}

func (d crossDep) same(e crossDep) bool {
	return d.id == e.id && d.hasSchema == e.hasSchema && d.schema == e.schema &&
		slices.Equal(d.ids, e.ids) && slices.Equal(d.checked, e.checked)
}

// crossChecked returns the findings of the checks across the records of
// a collection with a usable record schema: uniqueness and its link
// fields (targets, dangling ids, cycles, mirrors). They are reused from the
// schema file's cache entry while neither the collection nor a collection
// its links reach changed a record, a record id or a schema, so that an
// edit elsewhere in the package re-runs none of them.
func crossChecked(p *Package, states map[string]*collectionState, st *collectionState) []source.Finding {
	involved := []string{st.c.ID}
	VisitFields(st.schema, func(f *collections.Field) {
		if f.Type == collections.TypeLink && !f.Broken && f.To != "" && !slices.Contains(involved, f.To) {
			involved = append(involved, f.To)
		}
	})
	var deps []crossDep
	for _, id := range involved {
		d := crossDep{id: id}
		if t := states[id]; t != nil {
			d.hasSchema, d.schema, d.ids, d.checked = t.c.HasSchema, t.c.Parsed, t.ids, t.list
		}
		deps = append(deps, d)
	}
	sf := p.files.get("collections/" + st.c.ID + "/_collection.json")
	if sf == nil || sf.entry == nil {
		return computeCross(states, st)
	}
	e := sf.entry
	e.mu.Lock()
	m := e.crossChecked
	e.mu.Unlock()
	if m != nil && slices.EqualFunc(m.deps, deps, crossDep.same) {
		return m.findings
	}
	m = &crossMemo{deps: deps, findings: computeCross(states, st)}
	e.mu.Lock()
	e.crossChecked = m
	e.mu.Unlock()
	return m.findings
}

// computeCross runs the cross-record checks of one collection.
func computeCross(states map[string]*collectionState, st *collectionState) []source.Finding {
	var files []string
	var checked []*collections.Checked
	for i, ch := range st.list {
		if ch != nil {
			files = append(files, st.c.RecordPath(st.ids[i]))
			checked = append(checked, ch)
		}
	}
	lc := &linkChecker{states: states}
	lc.out = collections.Unique(files, checked)
	VisitFields(st.schema, func(f *collections.Field) {
		// A link field whose shape has a finding of its own holds no
		// links (CheckRecord skips it), so its targets, loops and
		// mirrors are not checked either.
		if f.Type == collections.TypeLink && !f.Broken && f.To != "" {
			lc.field(st, f)
		}
	})
	return lc.out
}

// VisitFields calls visit for every field of a record schema, the fields
// inside of included.
func VisitFields(r *collections.Record, visit func(*collections.Field)) {
	if r == nil {
		return
	}
	for _, f := range r.Fields {
		visit(f)
		VisitFields(f.Of, visit)
	}
}

// linkChecker runs the checks of "Links between records" (SPEC §1b).
type linkChecker struct {
	states map[string]*collectionState
	out    []source.Finding
}

func (lc *linkChecker) report(f source.Finding) { lc.out = append(lc.out, f) }

func (lc *linkChecker) field(st *collectionState, f *collections.Field) {
	c := st.c
	declaring := source.Related{File: c.SchemaPath(), Span: f.NameSpan, Message: fmt.Sprintf("the link field %q of %s", f.Path(), c.ID)}
	target := lc.states[f.To]
	if target == nil {
		lc.report(source.Finding{
			Code: "COLLECTION_LINK_TARGET", Severity: source.Error, File: c.SchemaPath(), Span: f.ToSpan,
			Message: fmt.Sprintf("the link field %q of %s links to %q, but the package has no collection %s (no folder collections/%s); name an existing collection", f.Path(), c.ID, f.To, f.To, f.To),
		})
		return
	}
	for _, rid := range st.ids {
		ch := st.checked[rid]
		if ch == nil {
			continue
		}
		for _, l := range ch.Links {
			if l.Field != f {
				continue
			}
			if _, ok := target.c.Records[l.ID]; !ok {
				lc.report(source.Finding{
					Code: "COLLECTION_LINK_DANGLING", Severity: source.Error, File: c.RecordPath(rid), Span: l.Span,
					Message: fmt.Sprintf("record %s links through %q to %q, which is not a record of %s (no file collections/%s/%s.json); link an existing record", rid, f.Path(), l.ID, f.To, f.To, l.ID),
					Related: []source.Related{declaring},
				})
			}
		}
	}
	if f.NoLoops && f.To == c.ID {
		lc.loops(st, f, declaring)
	}
	if f.MirroredBy != "" {
		lc.mirror(st, f, target)
	}
}

// loops reports one complete cycle in each strongly connected group of
// records that the links of a field with loops: false join.
func (lc *linkChecker) loops(st *collectionState, f *collections.Field, declaring source.Related) {
	// Records are numbered in id order; out[v] are v's links to records
	// that exist, in document order.
	type edge struct {
		to   int
		span source.Span
	}
	index := make(map[string]int, len(st.ids))
	for i, id := range st.ids {
		index[id] = i
	}
	n := len(st.ids)
	out := make([][]edge, n)
	any := false
	for v, rid := range st.ids {
		if ch := st.checked[rid]; ch != nil {
			for _, l := range ch.Links {
				if w, ok := index[l.ID]; ok && l.Field == f {
					out[v] = append(out[v], edge{w, l.Span})
					any = true
				}
			}
		}
	}
	if !any {
		return
	}
	// Tarjan's algorithm, iterative. group[v] is the strongly connected
	// group of v; groups are listed with their least member first.
	const unseen = -1
	num := make([]int, n)
	low := make([]int, n)
	group := make([]int, n)
	for i := range num {
		num[i], group[i] = unseen, unseen
	}
	onStack := make([]bool, n)
	var stack []int
	var firsts []int // the least member of each group
	next := 0
	type frame struct{ v, i int }
	for root := 0; root < n; root++ {
		if num[root] != unseen {
			continue
		}
		work := []frame{{root, 0}}
		num[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(work) > 0 {
			top := &work[len(work)-1]
			if top.i < len(out[top.v]) {
				w := out[top.v][top.i].to
				top.i++
				if num[w] == unseen {
					num[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					work = append(work, frame{w, 0})
				} else if onStack[w] && num[w] < low[top.v] {
					low[top.v] = num[w]
				}
				continue
			}
			v := top.v
			work = work[:len(work)-1]
			if len(work) > 0 && low[v] < low[work[len(work)-1].v] {
				low[work[len(work)-1].v] = low[v]
			}
			if low[v] != num[v] {
				continue
			}
			g, least := len(firsts), v
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				group[w] = g
				least = min(least, w)
				if w == v {
					break
				}
			}
			firsts = append(firsts, least)
		}
	}
	sort.Ints(firsts)
	for _, start := range firsts {
		g := group[start]
		// A shortest cycle through start, by breadth-first search inside
		// its group; a group of one record has one only with a self-link.
		prev := map[int]edge{}
		from := map[int]int{}
		seen := map[int]bool{start: true}
		queue := []int{start}
		var last edge
		found := false
		for len(queue) > 0 && !found {
			v := queue[0]
			queue = queue[1:]
			for _, e := range out[v] {
				if e.to == start {
					last, from[start], found = e, v, true
					break
				}
				if group[e.to] == g && !seen[e.to] {
					seen[e.to] = true
					prev[e.to], from[e.to] = e, v
					queue = append(queue, e.to)
				}
			}
		}
		if !found {
			continue
		}
		// Walk back from the closing link to list the cycle in order.
		type hop struct {
			from int
			e    edge
		}
		hops := []hop{{from[start], last}}
		for v := from[start]; v != start; v = from[v] {
			hops = append(hops, hop{from[v], prev[v]})
		}
		for i, j := 0, len(hops)-1; i < j; i, j = i+1, j-1 {
			hops[i], hops[j] = hops[j], hops[i]
		}
		cycle := make([]string, 0, len(hops)+1)
		related := []source.Related{declaring}
		for _, h := range hops {
			cycle = append(cycle, st.ids[h.from])
		}
		cycle = append(cycle, st.ids[start])
		for _, h := range hops[1:] {
			related = append(related, source.Related{File: st.c.RecordPath(st.ids[h.from]), Span: h.e.span, Message: fmt.Sprintf("%s links to %s", st.ids[h.from], st.ids[h.e.to])})
		}
		lc.report(source.Finding{
			Code: "COLLECTION_LINK_LOOP", Severity: source.Error, File: st.c.RecordPath(st.ids[start]), Span: hops[0].e.span,
			Message: fmt.Sprintf("the links of %q form a cycle, which \"loops\": false forbids: %s; remove one of these links", f.Path(), strings.Join(cycle, " → ")),
			Related: related,
		})
	}
}

// mirror checks a field with mirrored_by: the mirror field exists and
// links back, and the links agree in both directions.
func (lc *linkChecker) mirror(st *collectionState, f *collections.Field, target *collectionState) {
	c := st.c
	if target.c.HasSchema && !target.usable {
		return // the target's schema file has its own finding
	}
	mf := target.schema.Field(f.MirroredBy)
	if mf != nil && mf.Broken {
		return // the mirror field's shape has its own finding
	}
	var problem string
	switch {
	case mf == nil:
		problem = fmt.Sprintf("the record schema of %s declares no field %q", target.c.ID, f.MirroredBy)
	case mf.Type != collections.TypeLink:
		problem = fmt.Sprintf("%q of %s is of type %s, not a link", mf.Name, target.c.ID, mf.Type)
	case mf.To != c.ID:
		problem = fmt.Sprintf("%q of %s links to %s, not back to %s", mf.Name, target.c.ID, mf.To, c.ID)
	}
	if problem != "" {
		fd := source.Finding{
			Code: "COLLECTION_MIRROR_FIELD", Severity: source.Error, File: c.SchemaPath(), Span: f.MirrorSpan,
			Message: fmt.Sprintf("%q of %s is mirrored by %q, but %s; declare the mirror as a link field of %s with \"to\": %q", f.Path(), c.ID, f.MirroredBy, problem, target.c.ID, c.ID),
		}
		if mf != nil {
			fd.Related = []source.Related{{File: target.c.SchemaPath(), Span: mf.NameSpan, Message: "the field named as mirror"}}
		}
		lc.report(fd)
		return
	}
	// A link of f from a to b needs a link of mf from b to a, and back.
	lc.agree(st, f, target, mf)
	lc.agree(target, mf, st, f)
}

// agree reports each link of f (in the records of from) whose target
// record's field back does not link to it.
func (lc *linkChecker) agree(from *collectionState, f *collections.Field, to *collectionState, back *collections.Field) {
	backSets := to.linkSets(back)
	for _, rid := range from.ids {
		ch := from.checked[rid]
		if ch == nil {
			continue
		}
		for _, l := range ch.Links {
			if l.Field != f {
				continue
			}
			backs, ok := backSets[l.ID]
			if !ok || backs[rid] {
				continue // dangling, unreadable, or mirrored
			}
			other := to.c.RecordPath(l.ID)
			span := source.Span{}
			if v := to.c.Records[l.ID]; v != nil {
				span = v.Opening()
				if m := v.Member(back.Name); m != nil && back.TopLevel() {
					span = m.KeySpan()
				}
			}
			lc.report(source.Finding{
				Code: "COLLECTION_MIRROR_ONE_WAY", Severity: source.Error, File: from.c.RecordPath(rid), Span: l.Span,
				Message: fmt.Sprintf("%s/%s links to %s/%s through %q, but %s/%s does not link back to %s through %q; add the link there or remove this one", from.c.ID, rid, to.c.ID, l.ID, f.Path(), to.c.ID, l.ID, rid, back.Path()),
				Related: []source.Related{{File: other, Span: span, Message: fmt.Sprintf("%s/%s, where %q should link to %s", to.c.ID, l.ID, back.Path(), rid)}},
			})
		}
	}
}

// checkUncited reports each collection that nothing in the package refers
// to (SPEC §1b rule 13): no prose citation, no rule naming one of its
// record fields, no link field naming it in to.
func (b *builder) checkUncited(p *Package, ids []string, states map[string]*collectionState) {
	if p.TuningFile != nil && p.Tuning == nil || p.Unreadable("tuning.json") {
		return // what its rules name is not known
	}
	cited := map[string]bool{}
	for _, st := range states {
		if st.c.Parsed == nil {
			if st.c.HasSchema {
				return // an unreadable schema file may link anywhere
			}
			continue
		}
		VisitFields(st.c.Parsed.Record, func(f *collections.Field) {
			if f.Type == collections.TypeLink && f.To != "" {
				cited[f.To] = true
			}
		})
	}
	if p.Tuning != nil {
		for _, r := range p.Tuning.Rules {
			if r.Parsed == nil {
				continue
			}
			for _, n := range r.Parsed.Names() {
				if tuning.IsRecordField(n.Text) {
					cited[strings.Split(n.Text, ".")[1]] = true
				}
			}
		}
	}
	for _, ch := range p.Chapters {
		for _, id := range chapterCollectionCites(ch.File) {
			cited[id] = true
		}
	}
	for _, id := range ids {
		if cited[id] {
			continue
		}
		c := p.Collections[id]
		b.report(source.Finding{
			Code: "COLLECTION_UNCITED", Severity: source.Warning, File: p.anchorFile(), Subject: c.Dir,
			Message: fmt.Sprintf("nothing in the package refers to the collection %s: no chapter cites `collections.%s`, no rule in tuning.json reads its fields and no link field links to it; cite it where the game uses it, or remove it if it is unused", id, id),
		})
	}
}

// chapterCollectionCites returns the collection ids a chapter's prose
// cites, once per content.
func chapterCollectionCites(f *File) []string {
	return codeTokens(f, func(e *cacheEntry) **[]string { return &e.collCites }, func(text string) (string, bool) {
		class, segs := tuning.ClassifyToken(text)
		if class == tuning.MechanismPath && len(segs) >= 2 && segs[0] == "collections" {
			return segs[1], true
		}
		return "", false
	})
}

// codeTokens returns the distinct keys that pick finds in the inline code
// of a Markdown file, in the order of their first code span, kept in the
// field of its cache entry: computed once per content, so a build after an
// edit of one chapter reads the other chapters' lists, not their spans.
func codeTokens(f *File, field func(*cacheEntry) **[]string, pick func(text string) (key string, ok bool)) []string {
	scan := func() *[]string {
		var out []string
		seen := map[string]bool{}
		for _, cs := range f.Markdown.CodeSpans {
			if key, ok := pick(cs.Text(f.Markdown)); ok && !seen[key] {
				seen[key] = true
				out = append(out, key)
			}
		}
		return &out
	}
	if f.entry == nil {
		return *scan()
	}
	return *parseOnce(f.entry, field(f.entry), scan)
}
