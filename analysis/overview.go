package analysis

import (
	"fmt"

	"github.com/gddls/gddls/analysis/fantasy"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// Fantasy returns the fantasy block of the package's 01-overview.md (SPEC
// §1a), or nil when the package has no such chapter. The block is read once
// per content of the file.
func (p *Package) Fantasy() *fantasy.Block {
	f := p.files.get("01-overview.md")
	if f == nil || f.Markdown == nil || f.entry == nil {
		return nil
	}
	return f.entry.getFantasy()
}

// checkFantasy reports the §1a findings of the overview chapter.
func (b *builder) checkFantasy(c *Chapter) {
	if c.File.Markdown == nil || c.File.entry == nil {
		return
	}
	for _, f := range c.File.entry.getFantasy().Findings {
		f.File = c.File.Path
		f.Related = append([]source.Related(nil), f.Related...)
		for i := range f.Related {
			f.Related[i].File = c.File.Path
		}
		b.report(f)
	}
}

// RulesetTag is one ruleset tag of a package's chapters.
type RulesetTag struct {
	Chapter *Chapter
	Tag     *markdown.Tag
}

// Rulesets returns the ruleset tags of every chapter of the package, in
// chapter and line order.
func (p *Package) Rulesets() []RulesetTag {
	// Counted first: a large package holds thousands of tags, and the
	// list is built in every build.
	n := 0
	for _, c := range p.Chapters {
		if c.File.Markdown == nil {
			continue
		}
		for i := range c.File.Markdown.Tags {
			if c.File.Markdown.Tags[i].Kind == markdown.Ruleset {
				n++
			}
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]RulesetTag, 0, n)
	for _, c := range p.Chapters {
		if c.File.Markdown == nil {
			continue
		}
		for i := range c.File.Markdown.Tags {
			if t := &c.File.Markdown.Tags[i]; t.Kind == markdown.Ruleset {
				out = append(out, RulesetTag{Chapter: c, Tag: t})
			}
		}
	}
	return out
}

// checkRulesets reports a package whose ruleset tags mark no initial
// ruleset, or more than one (SPEC §2c rule 5).
func (b *builder) checkRulesets(p *Package) {
	tags := p.Rulesets()
	if len(tags) == 0 {
		return
	}
	var initial []RulesetTag
	for _, rt := range tags {
		if rt.Tag.MarksInitial() {
			initial = append(initial, rt)
		}
	}
	if len(initial) == 0 {
		first := tags[0]
		b.report(source.Finding{
			Code: "RULESET_INITIAL", Severity: source.Error, File: first.Chapter.File.Path, Span: source.Span{Start: first.Tag.WordSpan.Start, End: first.Tag.TextSpan.End},
			Message: fmt.Sprintf("the package declares %s, but no ruleset tag carries (initial); add (initial) after the id of the ruleset play starts in", countRulesets(tags)),
		})
		return
	}
	for _, rt := range initial[1:] {
		first := initial[0]
		b.report(source.Finding{
			Code: "RULESET_INITIAL", Severity: source.Error, File: rt.Chapter.File.Path, Span: initialSpan(rt.Tag),
			Message: fmt.Sprintf("a second tag marks an initial ruleset (%s), but play starts in exactly one; remove (initial) here or from %s", rt.Tag.ID, first.Tag.ID),
			Related: []source.Related{{File: first.Chapter.File.Path, Span: initialSpan(first.Tag), Message: "the first tag that carries (initial)"}},
		})
	}
}

// initialSpan is the span of a ruleset tag's initial mark.
func initialSpan(t *markdown.Tag) source.Span {
	_, span := t.Rest()
	return span
}

// countRulesets says how many rulesets the tags declare: a repeated id
// continues its ruleset (SPEC §2c rule 4).
func countRulesets(tags []RulesetTag) string {
	ids := map[string]bool{}
	for _, rt := range tags {
		ids[rt.Tag.ID] = true
	}
	if len(ids) == 1 {
		return fmt.Sprintf("the ruleset %s", tags[0].Tag.ID)
	}
	return fmt.Sprintf("%d rulesets", len(ids))
}
