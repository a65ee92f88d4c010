package markdown

import (
	"bytes"
	"fmt"

	"github.com/gddls/gddls/contracts/source"
)

// TagKind is the kind of a blockquote tag.
type TagKind int

// The tag kinds of OpenGDD §2 and §2c.
const (
	Delegated       TagKind = iota + 1 // > DELEGATED:
	Personalization                    // > PERSONALIZATION: <id>
	Ruleset                            // > RULESET: <id>
)

// Word returns the tag word with its colon, as written on a tag line.
func (k TagKind) Word() string {
	switch k {
	case Delegated:
		return "DELEGATED:"
	case Personalization:
		return "PERSONALIZATION:"
	case Ruleset:
		return "RULESET:"
	}
	return ""
}

// IsAuthority reports DELEGATED and PERSONALIZATION, the authority tags.
func (k TagKind) IsAuthority() bool { return k == Delegated || k == Personalization }

// Authority is the authority level of a line of a chapter.
type Authority int

// The three authority levels; Fixed is the default.
const (
	Fixed Authority = iota
	DelegatedAuthority
	PersonalizationAuthority
)

// String returns "fixed", "delegated" or "personalization".
func (a Authority) String() string {
	switch a {
	case DelegatedAuthority:
		return "delegated"
	case PersonalizationAuthority:
		return "personalization"
	}
	return "fixed"
}

// Tag is one tag line and the lines its blockquote covers.
type Tag struct {
	Kind TagKind
	// Line is the zero-based line of the tag; EndLine is the first line
	// after its blockquote, so the tag covers [Line, EndLine).
	Line, EndLine int
	// Depth is the tag line's quote depth (number of `>` markers).
	Depth int
	// Span covers the tag line without its line break; WordSpan covers the
	// tag word and its colon.
	Span, WordSpan source.Span
	// ID is, for PERSONALIZATION and RULESET, the text after the tag word
	// up to the first white space (empty when there is none); IDSpan is its
	// span (empty, just after the tag word, when there is no id).
	ID     string
	IDSpan source.Span
	// Text is the trimmed text after the tag word; TextSpan its span. For
	// PERSONALIZATION and RULESET it starts with the id.
	Text     string
	TextSpan source.Span
	// Initial reports a RULESET tag whose text after the id is exactly
	// "(initial)" (see also MarksInitial).
	Initial bool
}

// Covers reports whether the tag's blockquote holds line.
func (t Tag) Covers(line int) bool { return line >= t.Line && line < t.EndLine }

// quotePrefix returns the quote depth of a line and the index where its
// text starts after the `>` markers and the spaces around them.
func quotePrefix(line []byte) (depth, text int) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	for i < len(line) && line[i] == '>' {
		depth++
		i++
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	if depth == 0 {
		return 0, 0
	}
	return depth, i
}

// scanTags finds the tag lines outside fenced code, their scopes, and the
// overlap and missing-id findings.
func (d *Doc) scanTags() {
	n := d.Lines.LineCount()
	inFence := make([]bool, n)
	for _, cb := range d.CodeBlocks {
		if !cb.Fenced {
			continue
		}
		for i := max(cb.StartLine, 0); i < cb.EndLine && i < n; i++ {
			inFence[i] = true
		}
	}
	var open []int // indexes into d.Tags, quote depth never decreasing
	for i := 0; i < n; i++ {
		lineStart := d.lineStart(i)
		text := d.lineText(i)
		depth, at := quotePrefix(text)
		for len(open) > 0 && d.Tags[open[len(open)-1]].Depth > depth {
			d.Tags[open[len(open)-1]].EndLine = i
			open = open[:len(open)-1]
		}
		if depth == 0 || inFence[i] {
			continue
		}
		t, ok := readTag(text, at, lineStart)
		if !ok {
			if bytes.HasPrefix(text[at:], []byte(retiredCollectionTag)) {
				d.Findings = append(d.Findings, source.Finding{
					Code: "COLLECTION_TAG_RETIRED", Severity: source.Error,
					Span:    source.Span{Start: lineStart + at, End: lineStart + at + len(retiredCollectionTag)},
					Message: "the > COLLECTION: tag is retired; remove it: the folder under collections/ declares the collection, prose cites it as `collections.<id>`, and the record schema in _collection.json holds its shape",
				})
			}
			continue
		}
		t.Line, t.Depth, t.EndLine = i, depth, n
		for _, j := range open {
			prev := d.Tags[j]
			if prev.Depth != depth || prev.Kind.IsAuthority() != t.Kind.IsAuthority() {
				continue
			}
			d.Findings = append(d.Findings, overlapFinding(t, prev))
			break
		}
		if t.Kind == Personalization && t.ID == "" {
			d.Findings = append(d.Findings, source.Finding{
				Code:     "PERSONALIZATION_TAG_DANGLING",
				Severity: source.Error,
				Span:     t.WordSpan,
				Message:  "this PERSONALIZATION tag names no question; write the id of a question from personalization.json after the colon",
			})
		}
		if f, bad := rulesetShape(t); bad && t.Kind == Ruleset {
			d.Findings = append(d.Findings, f)
		}
		d.Tags = append(d.Tags, t)
		open = append(open, len(d.Tags)-1)
	}
}

// retiredCollectionTag is the tag word of the retired > COLLECTION: tag
// (SPEC §1b, Appendix A).
const retiredCollectionTag = "COLLECTION:"

// readTag reads the tag word and its text at index at of a line.
func readTag(line []byte, at, lineStart int) (Tag, bool) {
	rest := line[at:]
	var t Tag
	for _, k := range []TagKind{Delegated, Personalization, Ruleset} {
		if bytes.HasPrefix(rest, []byte(k.Word())) {
			t.Kind = k
			break
		}
	}
	if t.Kind == 0 {
		return t, false
	}
	wordEnd := at + len(t.Kind.Word())
	t.Span = source.Span{Start: lineStart, End: lineStart + len(line)}
	t.WordSpan = source.Span{Start: lineStart + at, End: lineStart + wordEnd}
	a := wordEnd
	for a < len(line) && (line[a] == ' ' || line[a] == '\t') {
		a++
	}
	z := len(line)
	for z > a && (line[z-1] == ' ' || line[z-1] == '\t') {
		z--
	}
	t.Text = string(line[a:z])
	t.TextSpan = source.Span{Start: lineStart + a, End: lineStart + z}
	t.IDSpan = source.Span{Start: lineStart + wordEnd, End: lineStart + wordEnd}
	if t.Kind != Delegated && a < z {
		e := a
		for e < z && line[e] != ' ' && line[e] != '\t' {
			e++
		}
		t.ID = string(line[a:e])
		t.IDSpan = source.Span{Start: lineStart + a, End: lineStart + e}
		if t.Kind == Ruleset {
			t.Initial = string(bytes.TrimSpace(line[e:z])) == "(initial)"
		}
	}
	return t, true
}

func overlapFinding(t, prev Tag) source.Finding {
	code, what := "AUTHORITY_TAG_OVERLAP", "authority tag"
	if t.Kind == Ruleset {
		code, what = "RULESET_TAG_OVERLAP", "ruleset tag"
	}
	return source.Finding{
		Code:     code,
		Severity: source.Error,
		Span:     t.WordSpan,
		Message: fmt.Sprintf("a second %s at quote depth %d in the blockquote opened by %s on line %d; "+
			"end that blockquote with a blank line first, or nest this tag one level deeper",
			what, t.Depth, prev.Kind.Word(), prev.Line+1),
		Related: []source.Related{{Span: prev.WordSpan, Message: "the first " + what + " of this blockquote"}},
	}
}

// innermost returns the index of the innermost tag covering line whose
// kind passes keep, or -1. Among tags of equal depth the later one wins.
func (d *Doc) innermost(line int, keep func(TagKind) bool) int {
	best := -1
	for i, t := range d.Tags {
		if !keep(t.Kind) || !t.Covers(line) {
			continue
		}
		if best < 0 || t.Depth >= d.Tags[best].Depth {
			best = i
		}
	}
	return best
}

// AuthorityAt returns the authority of a zero-based line: that of the
// innermost authority tag covering it, or Fixed.
func (d *Doc) AuthorityAt(line int) Authority {
	t := d.AuthorityTagAt(line)
	if t == nil {
		return Fixed
	}
	if t.Kind == Personalization {
		return PersonalizationAuthority
	}
	return DelegatedAuthority
}

// AuthorityTagAt returns the innermost authority tag covering a zero-based
// line, or nil when the line is Fixed.
func (d *Doc) AuthorityTagAt(line int) *Tag {
	if i := d.innermost(line, TagKind.IsAuthority); i >= 0 {
		return &d.Tags[i]
	}
	return nil
}

// RulesetAt returns the innermost ruleset tag covering a zero-based line,
// or nil when the line belongs to every ruleset.
func (d *Doc) RulesetAt(line int) *Tag {
	if i := d.innermost(line, func(k TagKind) bool { return k == Ruleset }); i >= 0 {
		return &d.Tags[i]
	}
	return nil
}

// SectionFixed reports whether heading h's section, from its heading line
// to SectionEnd, is Fixed (SPEC §10.10 rule 6): no DELEGATED or
// PERSONALIZATION tag covers any of its lines or stands inside it. When it
// is not, tag is the first such tag. An index out of range is not Fixed.
func (d *Doc) SectionFixed(h int) (fixed bool, tag *Tag) {
	if h < 0 || h >= len(d.Headings) {
		return false, nil
	}
	first, end := d.Headings[h].Line(), d.sectionEndLine(h)
	for i := range d.Tags {
		t := &d.Tags[i]
		if t.Kind.IsAuthority() && t.Line < end && t.EndLine > first {
			return false, t
		}
	}
	return true, nil
}
