package analysis

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// checkDirection reports the art direction of a package (SPEC §9): the
// retired direction fences of the chapters, the findings of direction.json
// alone (analysis/direction), and the checks that read other files: the
// images, the timing keys against tuning.json, the entries and palettes no
// chapter or color position refers to, and the measured promises no test
// of the build plan covers. Each reads cached parses and is linear in what
// it reads.
func (b *builder) checkDirection(p *Package) {
	if last := b.lastPkgs[p.Root]; last != nil && len(p.Chapters) > 0 && len(last.Chapters) > 0 && &last.Chapters[0] == &p.Chapters[0] {
		// A carried build whose chapters are the last build's.
		p.retiredFences = last.retiredFences
		b.findings = append(b.findings, p.retiredFences...)
	} else {
		p.retiredFences = b.collect(func() {
			for _, c := range p.Chapters {
				if c.File.entry == nil {
					continue
				}
				for _, span := range c.File.entry.getRetiredFences() {
					b.report(source.Finding{Code: direction.CodeFenceRetired, Severity: source.Error, File: c.File.Path, Span: span,
						Message: "this fence opened with `direction` is a form of an older version of the format; put its entries in direction.json and keep the chapter's words as normal prose (`gddls migrate` does this)"})
				}
			}
		})
	}
	d := p.DirectionFile
	if d == nil {
		return
	}
	b.findings = append(b.findings, d.Findings...)
	e := p.files.get("direction.json").entry
	if r := e.directionChecked; r != nil && r.valid(p) {
		b.findings = append(b.findings, r.findings...)
		return
	}
	n := len(b.findings)
	b.checkDirectionImages(p)
	b.checkTimingKeys(p, d)
	b.checkDirectionReach(p, d)
	b.checkCovering(p, d)
	r := &directionResult{chapters: chapterEntries(p), findings: slices.Clone(b.findings[n:])}
	for _, d := range []dep{{kind: depTuning}, {kind: depFile, key: "05-build-plan.md"}, {kind: depGeneration}} {
		d.seen = p.token(d, nil)
		r.deps = append(r.deps, d)
	}
	e.directionChecked = r
}

// directionResult is the memoized check of direction.json against the
// rest of its package: what it read (tuning.json, the build plan, the disk
// state its images were looked up in, and the chapters, in order) and the
// findings.
type directionResult struct {
	deps     []dep
	chapters []*cacheEntry
	findings []source.Finding
}

// valid reports whether the package still holds what r read.
func (r *directionResult) valid(p *Package) bool {
	if !p.depsValid(r.deps, nil, nil) || len(r.chapters) != len(p.Chapters) {
		return false
	}
	for i, c := range p.Chapters {
		if r.chapters[i] != c.File.entry {
			return false
		}
	}
	return true
}

// chapterEntries returns the cache entries of the package's chapters, in
// order: a chapter's citations change only with its content.
func chapterEntries(p *Package) []*cacheEntry {
	out := make([]*cacheEntry, len(p.Chapters))
	for i, c := range p.Chapters {
		out[i] = c.File.entry
	}
	return out
}

// checkDirectionImages reports the `image` paths of direction.json that
// leave the package or name no file (SPEC §9.9, §1 rule 11:
// MEDIA_PATH_MISSING). Images stand in mood borrows and anti-reference
// objects; every `image` string member of the file is checked.
func (b *builder) checkDirectionImages(p *Package) {
	f := p.files.get("direction.json")
	direction.Images(p.Direction, func(image *jsonsrc.Value) {
		if msg := b.imageProblem(p, image.Str()); msg != "" {
			b.report(source.Finding{Code: "MEDIA_PATH_MISSING", Severity: source.Error, File: f.Path, Span: image.Span(), Message: msg})
		}
	})
}

// checkTimingKeys reports a timing promise whose key is not a key of
// `values` in tuning.json (SPEC §9.6 rule 4: an open number carries no
// timing promise). Without a readable tuning.json nothing is judged.
func (b *builder) checkTimingKeys(p *Package, d *direction.File) {
	if !p.Tuning.KeysKnown() {
		return
	}
	for _, t := range d.Timings {
		if t.Key == nil {
			continue
		}
		e, ok := p.Tuning.Lookup(t.Key.Text)
		switch {
		case ok && !e.Open:
			continue
		case ok:
			b.report(source.Finding{Code: direction.CodeTimingKey, Severity: source.Error, File: d.Path, Span: t.Key.Span,
				Message: fmt.Sprintf("timing %q names %q, an open number of tuning.json; a timing promise needs a decided key of values", t.Entry.Key, t.Key.Text),
				Related: []source.Related{{File: p.TuningFile.Path, Span: e.KeySpan, Message: "the open key"}}})
		default:
			msg := fmt.Sprintf("timing %q names %q, which is no key of values in tuning.json", t.Entry.Key, t.Key.Text)
			if near := Nearest(t.Key.Text, p.TuningKeys()); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			} else {
				msg += "; add the key to values or correct it"
			}
			b.report(source.Finding{Code: direction.CodeTimingKey, Severity: source.Error, File: d.Path, Span: t.Key.Span, Message: msg})
		}
	}
}

// directionCitations returns the inline-code tokens of the package's
// chapters that cite direction.json: two-segment entry addresses and
// palette addresses.
func directionCitations(p *Package) map[string]bool {
	cited := map[string]bool{}
	for _, c := range p.Chapters {
		for _, text := range chapterDirectionCites(c.File) {
			cited[text] = true
		}
	}
	return cited
}

// chapterDirectionCites returns the distinct inline-code tokens of a
// chapter that cite direction.json, once per content.
func chapterDirectionCites(f *File) []string {
	return codeTokens(f, func(e *cacheEntry) **[]string { return &e.dirCites }, func(text string) (string, bool) {
		first, _, _ := strings.Cut(text, ".")
		return text, first == "palette" || direction.IsSection(first)
	})
}

// checkDirectionReach reports the entries of pillars, mood, anti and
// must_keep that no chapter cites (DIRECTION_UNMENTIONED, §9 rule 8) and
// the palettes nothing refers to (PALETTE_UNREACHED, §9.1 rules 8 and 9):
// no mood's palette, no color position and no chapter citation.
func (b *builder) checkDirectionReach(p *Package, d *direction.File) {
	cited := directionCitations(p)
	var related []source.Related
	if c := p.Chapter("04-presentation.md"); c != nil {
		related = []source.Related{{File: c.File.Path, Span: firstLine(c.File), Message: "presentation prose usually lives in this chapter"}}
	}
	for _, e := range d.Entries {
		if !direction.IsJudged(e.Section) || !e.WellNamed() || cited[e.Address()] {
			continue
		}
		b.report(source.Finding{Code: direction.CodeUnmentioned, Severity: source.Warning, File: d.Path, Span: e.KeySpan,
			Message: fmt.Sprintf("no chapter cites %s; cite it as `%s` where the chapters describe it (usually 04-presentation.md), or remove the entry", e.Address(), e.Address()),
			Related: related})
	}
	reached := map[*direction.Palette]bool{}
	reach := func(addr string) {
		pal, col := d.Resolve(addr)
		if col != nil {
			pal = col.Palette
		}
		if pal != nil {
			reached[pal] = true
		}
	}
	for _, r := range d.MoodPalettes {
		if pal, _ := d.Resolve(r.Text); pal != nil {
			reached[pal] = true // a mood that names a color refers to no palette
		}
	}
	for _, r := range d.ColorRefs() {
		if _, col := d.Resolve(r.Text); col != nil {
			reached[col.Palette] = true // a color position that names a whole palette is dangling and refers to nothing
		}
	}
	for text := range cited {
		reach(text)
	}
	for _, pal := range d.Palettes {
		if reached[pal] {
			continue
		}
		b.report(source.Finding{Code: direction.CodeUnreached, Severity: source.Warning, File: d.Path, Span: pal.KeySpan,
			Message: fmt.Sprintf("nothing refers to palette %q: no mood names it, no color or contrast promise names one of its colors, and no chapter cites it; refer to it or remove it", pal.Key)})
	}
}

// checkCovering reports each measured promise that no test of the build
// plan claims in direction_claims (the covering rule, SPEC §9.8). While the
// plan is missing (PACKAGE_REQUIRED_FILE) or unread, or a test block of it
// does not parse, its claims are unknown and nothing is reported.
func (b *builder) checkCovering(p *Package, d *direction.File) {
	claimed := map[string]bool{}
	var related []source.Related
	f := p.files.get("05-build-plan.md")
	if f == nil || f.entry == nil || f.Markdown == nil {
		return
	}
	tests := f.entry.getPlan().Tests
	for _, t := range tests {
		if t.HasFence && t.Block == nil {
			return
		}
		for _, c := range t.Claims {
			claimed[c.Path] = true
		}
	}
	if len(tests) > 0 {
		related = []source.Related{{File: f.Path, Span: tests[0].HeadingSpan, Message: "the tests of the build plan start here"}}
	}
	for _, e := range d.Entries {
		if !direction.IsMeasured(e.Section) || !e.WellNamed() || claimed[e.Address()] {
			continue
		}
		b.report(source.Finding{Code: direction.CodeClaimUncovered, Severity: source.Error, File: d.Path, Span: e.KeySpan,
			Message: fmt.Sprintf("no test of 05-build-plan.md covers %s; add %q to the direction_claims of a test that observes it", e.Address(), e.Address()),
			Related: related})
	}
}

// imageProblem says what is wrong with an image path, or "".
func (b *builder) imageProblem(p *Package, image string) string {
	rel, ok := PackageRelative(image)
	if !ok {
		return fmt.Sprintf("the image %q leaves the package; an image path is relative to the package root and stays inside it", image)
	}
	target := filepath.Join(p.Root, filepath.FromSlash(rel))
	found, isDir := b.snap.Exists(target)
	fixed := ""
	if !found {
		fixed = ImageCase(p, image)
	}
	switch {
	case fixed != "":
		return "the image names " + source.CaseMismatch(image, fixed)
	case !found:
		return fmt.Sprintf("the image %q names no file of the package; add the file or fix the path", image)
	case isDir:
		return fmt.Sprintf("the image %q names a folder, not a file", image)
	case !b.snap.InsideRoots(target) || !Within(realPath(p.Root), realPath(target)):
		return fmt.Sprintf("the image %q is a link to a file outside the package; keep the image inside the package", image)
	}
	return ""
}

// ImageCase returns an image path that names no file of the package with
// the real names of the file it names when letter case is ignored, or "".
func ImageCase(p *Package, image string) string {
	if fixed, _, ok := p.tree.caseFixOf(p.Root, p.Root, image); ok {
		return fixed
	}
	return ""
}

// realPath resolves symbolic links, or returns path as it is when it cannot.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
