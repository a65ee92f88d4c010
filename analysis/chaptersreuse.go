package analysis

import (
	"path"
	"slices"
	"strings"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/contracts/source"
)

// The chapters' checks carried from the last build. A package's chapter
// checks (checkLayout, checkChapter of each chapter, checkRulesets) read
// the chapters themselves, the package root's JSON files (tuning.json,
// clocks.json, personalization.json, direction.json, the required files'
// presence), the records and schemas of collections/, the adoptions that
// prose cites by id, and the disk state (folders of the root). When only
// chapters and contracts/ changed since the last build, and the list of
// chapters is the same, a chapter whose content is the same and whose
// cited adoptions are the same parses keeps its findings; the build plan's
// tests, which read the runtime addresses every chapter declares, and the
// ruleset tags, read across the chapters, are checked again when any
// chapter changed.

// chaptersMemo is what the chapter checks of one build found.
type chaptersMemo struct {
	lenient bool
	// layout are checkLayout's findings, rulesets checkRulesets'.
	layout, rulesets []source.Finding
	// chapters are the results of checkChapter, in the order of the
	// package's chapters; readers indexes them by the adoption ids their
	// prose cites (adoptionReaders).
	chapters []*chapterResult
	readers  map[string][]int
	// list is the package's chapters the results are of: a build that
	// changed no chapter shares it (carriedChapters), and then the
	// entries of its chapters are those the results were made from, which
	// spares looking at each of them. noEntry are the positions of the
	// chapters without a cache entry, which are checked in every build.
	list    []*Chapter
	noEntry []int
}

// chapterResult is checkChapter's result for one chapter.
type chapterResult struct {
	name     string
	entry    *cacheEntry
	findings []source.Finding
	// adoptions are the prose's dependencies on adoptions by id, with the
	// parse each saw.
	adoptions []dep
}

// lastChapters returns the last build's memo of the chapter checks when
// what this build changed allows carrying it (see above), or nil.
func (b *builder) lastChapters(p *Package) *chaptersMemo {
	last := b.last[p.Root]
	if last == nil || last.chapters == nil || p.prevStamp == 0 || last.stamp != p.prevStamp || last.chapters.lenient != b.lenient {
		return nil
	}
	for rel := range p.changed {
		if strings.HasPrefix(rel, "contracts/") {
			continue
		}
		// A Markdown file of the root is a chapter (compared below) or
		// a file no chapter check reads; anything else may be read.
		if strings.Contains(rel, "/") || !strings.HasSuffix(rel, ".md") {
			return nil
		}
	}
	m := last.chapters
	if len(m.chapters) != len(p.Chapters) {
		return nil
	}
	if sameElems(m.list, p.Chapters) {
		return m // the same chapters, so the same names
	}
	for i, c := range p.Chapters {
		if m.chapters[i].name != c.Name {
			return nil
		}
	}
	return m
}

// checkChapters runs checkChapter on every chapter of the package and
// checkRulesets, taking from the last build's memo (nil when it does not
// hold) the findings of each chapter that the changes cannot reach, and
// records the results in m, which becomes the package's memo. The
// findings are reported in chapter order whichever chapters were checked.
func (b *builder) checkChapters(p *Package, last *chaptersMemo, m *chaptersMemo) {
	p.chapters = m
	m.list = p.Chapters
	if last == nil {
		m.chapters = make([]*chapterResult, len(p.Chapters))
		for i, c := range p.Chapters {
			m.chapters[i] = b.chapterResult(p, c)
			if c.File.entry == nil {
				m.noEntry = append(m.noEntry, i)
			}
		}
		m.readers = adoptionReaders(m.chapters)
		b.emitChapters(m)
		m.rulesets = b.collect(func() { b.checkRulesets(p) })
		return
	}
	// What to check again: the chapters whose content changed, the build
	// plan when any did (its tests read the runtime addresses every
	// chapter declares), and the chapters citing an adoption whose id
	// names a changed file of contracts/ (an adoption's id is its file's
	// name) when the adoption they see is another.
	var redo []int
	if sameElems(last.list, p.Chapters) {
		// Every result was made from the entry its chapter has now.
		m.noEntry = last.noEntry
		redo = slices.Clone(last.noEntry)
	} else {
		for i, c := range p.Chapters {
			if c.File.entry == nil {
				m.noEntry = append(m.noEntry, i)
			}
			if c.File.entry == nil || last.chapters[i].entry != c.File.entry {
				redo = append(redo, i)
			}
		}
	}
	chaptersChanged := len(redo) > 0
	if chaptersChanged {
		plan := slices.IndexFunc(p.Chapters, func(c *Chapter) bool { return c.Name == buildplan.FileName })
		if plan >= 0 && !slices.Contains(redo, plan) {
			redo = append(redo, plan)
		}
	}
	for rel := range p.changed {
		if !strings.HasPrefix(rel, "contracts/") {
			continue
		}
		for _, i := range last.readers[strings.TrimSuffix(path.Base(rel), ".json")] {
			if !slices.Contains(redo, i) && !p.sameDeps(last.chapters[i].adoptions) {
				redo = append(redo, i)
			}
		}
	}
	m.chapters, m.readers = last.chapters, last.readers
	if len(redo) > 0 {
		m.chapters = slices.Clone(last.chapters)
		sameReaders := true
		for _, i := range redo {
			res := b.chapterResult(p, p.Chapters[i])
			sameReaders = sameReaders && sameDepKeys(res.adoptions, m.chapters[i].adoptions)
			m.chapters[i] = res
		}
		if !sameReaders {
			m.readers = adoptionReaders(m.chapters)
		}
	}
	b.emitChapters(m)
	if chaptersChanged {
		m.rulesets = b.collect(func() { b.checkRulesets(p) })
	} else {
		m.rulesets = last.rulesets
		b.findings = append(b.findings, m.rulesets...)
	}
}

// chapterResult runs checkChapter on one chapter and returns its result,
// leaving b.findings as it was.
func (b *builder) chapterResult(p *Package, c *Chapter) *chapterResult {
	start := len(b.findings)
	res := &chapterResult{name: c.Name, entry: c.File.entry}
	res.findings = b.collect(func() { b.checkChapter(p, c) })
	b.findings = b.findings[:start]
	if c.File.entry != nil && c.File.entry.proseChecked != nil {
		for _, d := range c.File.entry.proseChecked.deps {
			if d.kind == depAdoption {
				res.adoptions = append(res.adoptions, d)
			}
		}
	}
	return res
}

// emitChapters reports the findings of every chapter of m in order.
func (b *builder) emitChapters(m *chaptersMemo) {
	for i := range m.chapters {
		b.findings = append(b.findings, m.chapters[i].findings...)
	}
}

// adoptionReaders indexes the chapters by the adoption ids their prose
// cites.
func adoptionReaders(chapters []*chapterResult) map[string][]int {
	out := map[string][]int{}
	for i := range chapters {
		for _, d := range chapters[i].adoptions {
			if r := out[d.key]; len(r) == 0 || r[len(r)-1] != i {
				out[d.key] = append(r, i)
			}
		}
	}
	return out
}

// sameDeps reports whether every dependency still sees what it saw.
func (p *Package) sameDeps(deps []dep) bool {
	for _, d := range deps {
		if p.token(d, nil) != d.seen {
			return false
		}
	}
	return true
}

// collect runs a check and returns a copy of the findings it reported
// (they are also in b.findings), nil when none: the copy can outlive the
// build without holding its findings.
func (b *builder) collect(check func()) []source.Finding {
	start := len(b.findings)
	check()
	return slices.Clone(b.findings[start:len(b.findings):len(b.findings)])
}
