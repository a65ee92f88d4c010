// Package buildplan reads the build plan of a package, 05-build-plan.md
// (OpenGDD §6): its stages, its acceptance tests (the `AT-<n>` headings)
// and the JSON test block that follows each heading in a fence tagged
// `test`. Each block is parsed with the span-keeping JSON parser and its
// spans are shifted to offsets in the file, so findings, completion and
// hover work inside a fence as they do in a JSON file of the package.
//
// Check reports everything that needs only this file: heading numbers,
// missing blocks, JSON syntax, the closed field set and the shape per test
// type, and the shape of direction_claims. Whether a claimed path names an
// entry of direction.json, and the modes and values of `unchanged`, are
// checked by the caller, which sees the other files. CheckBlock is the
// shape check alone, which the tests a contract pack generates also pass
// through. Pure: no file system, no globals.
package buildplan

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// FileName is the build plan's name at the package root.
const FileName = "05-build-plan.md"

// Plan is the model of one build plan.
type Plan struct {
	// Stages are the headings that can begin a build stage: every heading
	// but the chapter title (the first heading, when it is at level 1) and
	// the test headings. The format leaves the stages to prose; they are
	// listed for the editor, never checked.
	Stages []Stage
	// Tests are the acceptance tests in document order.
	Tests []*Test
}

// Stage is a heading of the build plan that is not a test heading.
type Stage struct {
	// Heading is the index of the heading in the document.
	Heading int
	Title   string
	Span    source.Span
}

// Test is one acceptance test: an `AT-<n>` heading and its block.
type Test struct {
	// Heading is the index of the heading in the document; HeadingSpan
	// covers the heading line.
	Heading     int
	HeadingSpan source.Span
	// ID is the test id as written, such as AT-4, and IDSpan its place in
	// the heading; NumberSpan covers the digits.
	ID         string
	IDSpan     source.Span
	NumberSpan source.Span
	// Number is the number without leading zeros, "" when it is not a
	// positive integer (AT-0).
	Number string
	// Title is the rest of the heading after the id and its separator.
	Title string

	// HasFence reports that a fence tagged `test` follows the heading
	// directly; Next is the span of what follows instead (the next
	// block's first line), empty at the end of the file, and NextInfo
	// the tag of a fence that follows but is not tagged `test`.
	HasFence bool
	Next     source.Span
	NextInfo string
	// Fence covers the fenced block; Content its JSON text.
	Fence   source.Span
	Content source.Span
	// Unclosed reports a test fence that is never closed. CommonMark runs
	// it to the end of the file; §6 writes a test block between two fence
	// lines, so the content is not parsed and Block stays nil.
	Unclosed bool
	// Block is the parsed test block with spans in the file, nil when the
	// fence is missing or never closed, or its content does not parse.
	Block *jsonsrc.Value
	// SyntaxError is the first JSON syntax error of the content.
	SyntaxError *jsonsrc.Error
	// Type is the block's type when it is "scenario" or "general", else "".
	Type string
	// Claims are the string entries of direction_claims.
	Claims []Claim
	// Unchanged is the value of the block's `unchanged` member, or nil.
	// Its shape and what it names are checked with the package's clocks
	// (§4b.3), not here.
	Unchanged *jsonsrc.Value
}

// Claim is one path of a test's direction_claims.
type Claim struct {
	Path string
	Span source.Span
}

// N returns the test number as an int, and false when it is not a
// positive integer that fits.
func (t *Test) N() (int, bool) {
	n, err := strconv.Atoi(t.Number)
	return n, err == nil && n > 0
}

// Test returns the test whose heading id is id (such as AT-4), or nil.
func (p *Plan) Test(id string) *Test {
	if p == nil {
		return nil
	}
	for _, t := range p.Tests {
		if t.ID == id {
			return t
		}
	}
	return nil
}

// At returns the test whose heading or block holds offset, or nil.
func (p *Plan) At(offset int) *Test {
	if p == nil {
		return nil
	}
	for _, t := range p.Tests {
		if t.HeadingSpan.Start <= offset && offset <= t.HeadingSpan.End ||
			t.HasFence && t.Fence.Start <= offset && offset <= t.Fence.End {
			return t
		}
	}
	return nil
}

// NextNumber is the number the next new test takes: one more than the
// largest number in the plan. Numbers of deleted tests are never reused,
// but the plan cannot know them; it proposes past every number it holds.
func (p *Plan) NextNumber() int {
	next := 1
	if p == nil {
		return next
	}
	for _, t := range p.Tests {
		if n, ok := t.N(); ok && n >= next {
			next = n + 1
		}
	}
	return next
}

// ParseID reads a test id at the start of a heading's text: the letters
// AT, a hyphen and digits, ending the text or followed by a character that
// is not an ASCII letter, digit or underscore. It returns the length of the
// id and of its digits, or 0, 0 when text does not begin with a test id.
func ParseID(text string) (idLen, digits int) {
	if !strings.HasPrefix(text, "AT-") {
		return 0, 0
	}
	i := 3
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i == 3 {
		return 0, 0
	}
	if i < len(text) {
		if c := text[i]; c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return 0, 0
		}
	}
	return i, i - 3
}

// Parse reads the build plan from its parsed Markdown.
func Parse(doc *markdown.Doc) *Plan {
	p := &Plan{}
	if doc == nil {
		return p
	}
	for i, h := range doc.Headings {
		text := h.Text(doc)
		lead := len(text) - len(strings.TrimLeft(text, " \t"))
		idLen, digits := ParseID(text[lead:])
		if idLen == 0 {
			if i == 0 && h.Level() == 1 {
				continue
			}
			p.Stages = append(p.Stages, Stage{Heading: i, Title: strings.TrimSpace(text), Span: h.Span()})
			continue
		}
		start := h.TextSpan().Start + lead
		t := &Test{
			Heading: i, HeadingSpan: h.Span(),
			ID:         text[lead : lead+idLen],
			IDSpan:     source.Span{Start: start, End: start + idLen},
			NumberSpan: source.Span{Start: start + 3, End: start + 3 + digits},
			Number:     strings.TrimLeft(text[lead+3:lead+idLen], "0"),
			Title:      strings.TrimSpace(strings.TrimLeft(strings.SplitN(text[lead+idLen:], "\n", 2)[0], " \t:.-—–")),
		}
		readFence(doc, h, t)
		p.Tests = append(p.Tests, t)
	}
	return p
}

// readFence finds the block that directly follows the heading and, when it
// is a fence tagged `test`, parses its content.
func readFence(doc *markdown.Doc, h markdown.Heading, t *Test) {
	lines := doc.Lines
	line := lines.Position(h.Span().End).Line + 1
	for line < lines.LineCount() && len(strings.TrimSpace(string(lines.LineText(line)))) == 0 {
		line++
	}
	if line >= lines.LineCount() {
		t.Next = source.Span{Start: len(doc.Data), End: len(doc.Data)}
		return
	}
	start := lines.LineStart(line)
	t.Next = source.Span{Start: start, End: start + len(strings.TrimRight(string(lines.LineText(line)), " \t"))}
	for _, b := range doc.CodeBlocks {
		if b.StartLine != line {
			continue
		}
		if !b.Fenced {
			return
		}
		tag, _, _ := strings.Cut(strings.TrimSpace(b.Info), " ")
		if tag != "test" {
			t.NextInfo = tag
			if t.NextInfo == "" {
				t.NextInfo = "(no tag)"
			}
			return
		}
		t.HasFence, t.Fence, t.Content = true, b.Span, b.Content
		if !b.Closed {
			t.Unclosed = true
			return
		}
		parseBlock(doc.Data, t)
		return
	}
}

// parseBlock parses the test block and fills the test's typed parts.
func parseBlock(data []byte, t *Test) {
	content := data[t.Content.Start:t.Content.End]
	v, errs := jsonsrc.Parse(content)
	if len(errs) > 0 {
		e := errs[0]
		e.Span = source.Span{Start: e.Span.Start + t.Content.Start, End: e.Span.End + t.Content.Start}
		if len(strings.TrimSpace(string(content))) == 0 {
			e.Msg = "the block is empty"
		}
		t.SyntaxError = &e
		return
	}
	v.Shift(t.Content.Start)
	t.Block = v
	if ty := v.Get("type"); ty != nil && ty.Kind() == jsonsrc.String && (ty.Str() == Scenario || ty.Str() == General) {
		t.Type = ty.Str()
	}
	t.Unchanged = v.Get("unchanged")
	if dc := v.Get("direction_claims"); dc != nil && dc.Kind() == jsonsrc.Array {
		for _, e := range dc.Elems() {
			if e.Kind() == jsonsrc.String {
				t.Claims = append(t.Claims, Claim{Path: e.Str(), Span: e.Span()})
			}
		}
	}
}
