package analysis

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// requiredFiles are the files every package holds (SPEC §1).
var requiredFiles = [...]string{"manifest.json", "tuning.json", "01-overview.md", "02-mechanics.md", "05-build-plan.md"}

// isRequiredFile reports whether a package-relative path is one of
// requiredFiles.
func isRequiredFile(rel string) bool {
	for _, name := range requiredFiles {
		if name == rel {
			return true
		}
	}
	return false
}

// canonicalChapters are the names chapters 01 to 05 must have.
var canonicalChapters = map[int]string{1: "overview", 2: "mechanics", 3: "content", 4: "presentation", 5: "build-plan"}

// check runs every check of the snapshot and stores the diagnostics.
func (b *builder) check() {
	for _, f := range b.snap.skipped {
		if analysed(f.Path) {
			// Another text file is read only by the safety scan, which
			// reports it unread itself (INJECTION_SCAN_SKIPPED).
			b.report(skippedFinding(f))
		}
	}
	for _, sk := range b.tree.skipped {
		b.report(source.Finding{
			Code: "FILE_NOT_ANALYSED", Severity: source.Warning, File: sk.path,
			Message: "gddls did not read this entry: it " + sk.reason,
		})
	}
	for _, p := range b.snap.Packages {
		b.checkPackage(p)
	}
	b.checkDocuments()
	if b.buildRecords {
		b.checkBuildRecords()
	}
	b.place()
}

func (b *builder) checkPackage(p *Package) {
	last := b.lastChapters(p)
	m := &chaptersMemo{lenient: b.lenient}
	if last != nil {
		m.layout = last.layout
		b.findings = append(b.findings, m.layout...)
	} else {
		m.layout = b.collect(func() { b.checkLayout(p) })
	}
	if p.ManifestModel != nil {
		b.findings = append(b.findings, p.ManifestModel.Findings...)
	}
	if p.Tuning != nil {
		b.findings = append(b.findings, p.Tuning.Findings...)
		b.findings = append(b.findings, p.tuningEnvironments()...)
	}
	if p.ClockFile != nil {
		b.findings = append(b.findings, p.ClockFile.Findings...)
	}
	b.checkChapters(p, last, m)
	b.checkPersonalization(p)
	b.checkDirection(p)
	b.checkGrids(p)
	b.checkCollections(p)
	b.checkContracts(p)
}

// tuningEnvironments returns checkTuningEnvironments, kept in the cache
// entry of tuning.json with the personalization.json parse and the memo
// of collections/ it read: the same inputs give the same findings.
func (p *Package) tuningEnvironments() []source.Finding {
	e := p.TuningFile.entry
	if e == nil {
		return p.checkTuningEnvironments()
	}
	if m := e.envChecked; m != nil && m.pers == p.pers && m.coll == p.coll {
		return m.findings
	}
	m := &envFindings{pers: p.pers, coll: p.coll, findings: p.checkTuningEnvironments()}
	e.envChecked = m
	return m.findings
}

// envFindings are the findings of tuning.json's rules over record fields
// and package defaults, with what they read besides tuning.json.
type envFindings struct {
	pers     *personalization.File
	coll     *collectionsMemo
	findings []source.Finding
}

// checkTuningEnvironments evaluates the rules of tuning.json that read
// record fields, with their pins, and every rule over the package defaults
// of personalization.json (SPEC §4).
func (p *Package) checkTuningEnvironments() []source.Finding {
	records := func(id string) (*tuning.Collection, bool) {
		c := p.Collections[id]
		if c == nil {
			return nil, false
		}
		return &tuning.Collection{Records: c.Records, HasSchema: c.HasSchema, Schema: c.Schema}, true
	}
	return p.Tuning.CheckEnvironments(records, p.pers)
}

// checkLayout reports missing required files and misnamed chapters.
func (b *builder) checkLayout(p *Package) {
	for _, name := range requiredFiles {
		if f := p.files.get(name); f != nil {
			continue
		}
		what := "is missing"
		if b.rootFolder(p, name) {
			what = "is a folder, not a file"
		} else if note := p.caseSibling(name); note != "" {
			what = note
		}
		b.report(source.Finding{
			Code: "PACKAGE_REQUIRED_FILE", Severity: source.Error, File: p.anchorFile(), Subject: filepath.Join(p.Root, name),
			Message: fmt.Sprintf("the package's required file %s %s; every package needs manifest.json, tuning.json, 01-overview.md, 02-mechanics.md and 05-build-plan.md", name, what),
		})
	}
	for _, c := range p.Chapters {
		want, fixed := canonicalChapters[c.Number]
		switch {
		case c.Number == 0:
			b.report(source.Finding{
				Code: "CHAPTER_NAME_RESERVED", Severity: source.Error, File: c.File.Path,
				Message: fmt.Sprintf("chapter number 00 is reserved and cannot be used; renumber %s to 06 or above", c.Name),
			})
		case fixed && c.title != want:
			b.report(source.Finding{
				Code: "CHAPTER_NAME_RESERVED", Severity: source.Error, File: c.File.Path,
				Message: fmt.Sprintf("chapter %02d must be named %02d-%s.md; rename %s, or give it a number from 06 up for a chapter of your own", c.Number, c.Number, want, c.Name),
			})
		}
	}
}

// firstLine is the span of a file's first line, where file-level findings
// are shown.
func firstLine(f *File) source.Span {
	text := f.Lines.LineText(0)
	start := f.Lines.Offset(source.Position{})
	return source.Span{Start: start, End: f.Lines.LineStart(0) + len(text)}
}

// checkChapter reports the chapter's tag findings and its prose citations.
func (b *builder) checkChapter(p *Package, c *Chapter) {
	doc := c.File.Markdown
	for _, f := range doc.Findings {
		f.File = c.File.Path
		for i := range f.Related {
			f.Related[i].File = c.File.Path
		}
		b.report(f)
	}
	for _, tag := range doc.Tags {
		if tag.Kind != markdown.Personalization || tag.ID == "" {
			continue
		}
		if p.Personalization[tag.ID] || p.Unreadable("personalization.json") {
			continue
		}
		msg := fmt.Sprintf("the tag names personalization question %q, but personalization.json declares no such question", tag.ID)
		if n := Nearest(tag.ID, p.pers.QuestionIDs()); n != "" {
			msg += fmt.Sprintf("; did you mean %q?", n)
		}
		if p.Personalization == nil {
			msg = fmt.Sprintf("the tag names personalization question %q, but the package has no personalization.json; add the question there or remove the tag", tag.ID)
		}
		b.report(source.Finding{Code: "PERSONALIZATION_TAG_DANGLING", Severity: source.Error, File: c.File.Path, Span: tag.IDSpan, Message: msg})
	}
	b.checkProse(p, c)
	if c.Name == "01-overview.md" {
		b.checkFantasy(c)
	}
	if c.Number == 5 {
		b.checkRetiredBlock(c)
	}
	if c.Name == buildplan.FileName {
		b.checkBuildPlan(p, c.File)
	}
}

// checkRetiredBlock reports a generated-contracts marker block left in the
// build plan by an older format version.
func (b *builder) checkRetiredBlock(c *Chapter) {
	for i := 0; i < c.File.Lines.LineCount(); i++ {
		line := c.File.Lines.LineText(i)
		if loc := buildplan.RetiredMarker.FindIndex(line); loc != nil {
			start := c.File.Lines.LineStart(i)
			b.report(source.Finding{
				Code: "CONTRACT_BLOCK_RETIRED", Severity: source.Error, File: c.File.Path,
				Span:    source.Span{Start: start + loc[0], End: start + len(line)},
				Message: "generated contract tests are no longer kept in the build plan; delete this marker block and its contents (`gddls migrate` does it) and render the tests with `gddls check --render-tests` instead",
			})
			return
		}
	}
}

// checkContracts runs the contract checks of every adoption and pack.
// The adoptions are checked in parallel (each check reads the package and
// writes only its own result and its file's memo); their findings are
// merged in adoption order, so the report does not depend on scheduling.
func (b *builder) checkContracts(p *Package) {
	r := p.Citations()
	// carryChecks re-checks only what an edit can change when contracts/
	// was carried from the last build (contractsreuse.go); otherwise every
	// adoption is checked, through its memo, and the results kept for the
	// next build (keepChecks).
	if !b.carryChecks(p, r) {
		results := make([]*adoptionResult, p.Adoptions.Len())
		// In batches: most checks are a memo found valid, about a
		// microsecond, which a hand-off per adoption would exceed.
		parallelBatches(p.Adoptions.Len(), 32, 0, func(i int) {
			a := p.Adoptions.At(i)
			results[i] = b.checkAdoption(p, r, a)
			// The digest checkDivergence compares, computed here in
			// parallel (once per adoption parse, and once per definition
			// as written among the build's adoptions; later builds find
			// it done).
			b.digests.DefinitionDigest(a)
		})
		for _, res := range results {
			b.findings = append(b.findings, res.findings...)
		}
		p.keepChecks(results, b.last[p.Root])
	}
	b.findings = append(b.findings, p.checkDivergence(b.last[p.Root], b.digests)...)
	for _, pk := range p.Packs {
		b.findings = append(b.findings, pk.Findings...)
	}
	b.findings = append(b.findings, p.packSetFindings()...)
	// The last build's memo is not needed once this build is checked;
	// letting it go keeps a snapshot from holding the one before it.
	p.contractsLast, p.contractsChanged = nil, nil
}

// PackFor returns the pack of the adoption's definition, or nil when the
// adoption is promised. A pack that does not parse serves no adoption.
func (p *Package) PackFor(a *contracts.Adoption) *pack.Pack {
	id := a.Identity()
	if id == "" {
		return nil
	}
	for _, pk := range p.Packs {
		if !pk.Unparsed && pk.Identity() == id {
			return pk
		}
	}
	return nil
}

// Citations returns a resolver of the package's citations.
func (p *Package) Citations() *resolver { return &resolver{pkg: p} }

// resolver answers an adoption's citations from the package. It holds no
// state of its own, so the adoptions of a package can be checked
// concurrently and a State that keeps it keeps nothing more alive; the
// anchors it resolves are remembered per chapter content in the cache
// (cacheEntry.anchorTarget), which many adoptions cite alike.
type resolver struct {
	pkg *Package
}

func (r *resolver) TuningReadable() bool { return r.pkg.Tuning.KeysKnown() }

func (r *resolver) TuningKey(key string) (contracts.TuningTarget, bool) {
	if r.pkg.Tuning == nil {
		return contracts.TuningTarget{}, false
	}
	e, ok := r.pkg.Tuning.Lookup(key)
	if !ok {
		return contracts.TuningTarget{}, false
	}
	return contracts.TuningTarget{
		Open: e.Open, HasNumber: e.HasNumber, Number: e.Number,
		Related: source.Related{File: r.pkg.TuningFile.Path, Span: e.KeySpan, Message: "the tuning key"},
	}, true
}

func (r *resolver) Adoption(id string) *contracts.Adoption { return r.pkg.Adoption(id) }

func (r *resolver) Anchor(file, anchor string) contracts.AnchorTarget {
	return r.pkg.AnchorTarget(file, anchor)
}

// AnchorTarget resolves the citation of an anchor of a package file.
func (p *Package) AnchorTarget(file, anchor string) contracts.AnchorTarget {
	var t contracts.AnchorTarget
	rel, ok := PackageRelative(file)
	if !ok {
		t.Outside = true
		return t
	}
	f := p.files.get(rel)
	if f == nil {
		t.CaseName = p.caseName(file)
		return t
	}
	if f.Markdown == nil {
		t.FileExists, t.Unreadable = true, true
		return t
	}
	if f.entry != nil {
		return f.entry.anchorTarget(f.Path, anchor)
	}
	return anchorTarget(f.Path, f.Markdown, anchor)
}

// caseName returns the file part of a chapter citation that names no file
// of the package rewritten with the names of the Markdown file it names
// when letter case is ignored, or "" when it names none that way either.
func (p *Package) caseName(file string) string {
	if p.tree == nil {
		return ""
	}
	fixed, real, ok := p.tree.caseFixOf(p.Root, p.Root, file)
	if !ok {
		return ""
	}
	if rf := p.files.get(p.Rel(real)); rf == nil || rf.Markdown == nil {
		return ""
	}
	return fixed
}

// caseSibling says, for a file of the format the package root lacks, that
// a file of the root has its name in another letter case and must be
// renamed; "" when none has.
func (p *Package) caseSibling(name string) string {
	if p == nil || p.tree == nil {
		return ""
	}
	if e, exact, ok := p.tree.lookup(p.Root, name); ok && !exact && !e.IsDir {
		return fmt.Sprintf("exists only as `%s`: the names differ in letter case, so Windows and macOS find it and Linux does not; rename it to %s", e.Name, name)
	}
	return ""
}

// anchorTarget resolves an anchor among a chapter's headings.
func anchorTarget(path string, doc *markdown.Doc, anchor string) contracts.AnchorTarget {
	t := contracts.AnchorTarget{FileExists: true}
	matches := doc.FindAnchor(anchor, false)
	for _, h := range matches {
		t.Matches = append(t.Matches, source.Related{File: path, Span: doc.Headings[h].Span(), Message: "heading " + strings.TrimSpace(doc.Headings[h].Text(doc))})
	}
	if len(matches) == 1 {
		fixed, tag := doc.SectionFixed(matches[0])
		t.Fixed = fixed
		if !fixed && tag != nil {
			t.NotFixedBecause = &source.Related{File: path, Span: tag.Span, Message: "this authority tag makes the section not Fixed"}
		}
	}
	return t
}

// PackageRelative cleans a citation's file part and reports whether it stays
// inside the package (SPEC §1 rule 11).
func PackageRelative(file string) (string, bool) {
	if file == "" || strings.HasPrefix(file, "/") || strings.Contains(file, "\\") || filepath.IsAbs(file) || (len(file) > 1 && file[1] == ':') {
		return "", false
	}
	clean := path.Clean(file)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	return clean, true
}

// place converts every finding into a diagnostic of its file.
func (b *builder) place() {
	seen := map[string]bool{}
	for _, f := range b.findings {
		// A pack shared by several adoptions can report the same problem
		// once per adoption: keep one.
		key := fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%s", f.File, f.Code, f.Span.Start, f.Span.End, f.Message)
		if seen[key] {
			continue
		}
		seen[key] = true
		file := b.snap.files.get(f.File)
		d := Diagnostic{File: f.File, Code: f.Code, Severity: f.Severity, Message: f.Message, Dependent: f.Dependent,
			Subject: f.Subject, Unnecessary: f.Unnecessary}
		if file != nil {
			span := f.Span
			if span == (source.Span{}) {
				// A finding about a whole file or package has no token: it
				// is shown on the first line of its file.
				span = firstLine(file)
			}
			d.Range = file.Lines.Range(span)
		}
		for _, rel := range f.Related {
			rl := RelatedLocation{File: rel.File, Message: rel.Message}
			if rf := b.snap.files.get(rel.File); rf != nil {
				rl.Range = rf.Lines.Range(rel.Span)
			}
			d.Related = append(d.Related, rl)
		}
		b.snap.diags[f.File] = append(b.snap.diags[f.File], d)
	}
	for file := range b.snap.diags {
		sortDiagnostics(b.snap.diags[file])
	}
}
