package analysis

import (
	"strings"

	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// RuntimeDeclaration is one place that declares a runtime address (SPEC
// §4b.1 rules 2 and 3): an inline code span of a numbered root chapter
// whose whole content is the address, or an entry of a clock's advances.
type RuntimeDeclaration struct {
	// Address is the runtime address, such as runtime.scan_progress.
	Address string
	// File is the absolute path of the chapter or of clocks.json.
	File string
	// Span covers the address itself: the code span's content, or the JSON
	// string without its quotes when it holds no escapes (else with them).
	Span source.Span
	// Clock is the clock whose advances name the address, or "" for a
	// chapter.
	Clock string
}

// RuntimeDeclarations returns the places that declare the runtime address
// addr: the advances entries of clocks.json first, then the chapters in
// file name order. Empty when the address is not declared.
func (p *Package) RuntimeDeclarations(addr string) []RuntimeDeclaration {
	return p.runtimeIndex()[addr]
}

// RuntimeDeclared reports whether the package declares the runtime address
// addr: a numbered root chapter cites it as the whole content of an inline
// code span, or a clock's advances names it. This is what a test's
// `unchanged.values` is checked against (SPEC §4b.3 rule 2). A check that
// uses it reads clocks.json and every chapter of the package.
func (p *Package) RuntimeDeclared(addr string) bool { return len(p.runtimeIndex()[addr]) > 0 }

// RuntimeAddresses returns every runtime address the package declares, in
// the order of their first declaration.
func (p *Package) RuntimeAddresses() []string {
	idx := p.runtimeIndex()
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	if p.ClockFile != nil {
		for _, c := range p.ClockFile.Clocks {
			for _, a := range c.Advances {
				add(a.Text)
			}
		}
	}
	for _, c := range p.Chapters {
		for _, cs := range c.File.Markdown.CodeSpans {
			text := cs.Text(c.File.Markdown)
			if _, ok := idx[text]; ok {
				add(text)
			}
		}
	}
	return out
}

func (p *Package) runtimeIndex() map[string][]RuntimeDeclaration {
	p.runtimeOnce.Do(func() {
		idx := map[string][]RuntimeDeclaration{}
		if p.ClockFile != nil {
			content := p.files.get("clocks.json").Content
			for _, c := range p.ClockFile.Clocks {
				for _, a := range c.Advances {
					sp := a.Span
					if inner, ok := InnerString(content, a.Span, a.Text); ok {
						sp = inner
					}
					idx[a.Text] = append(idx[a.Text], RuntimeDeclaration{Address: a.Text, File: p.ClockFile.Path, Span: sp, Clock: c.Name})
				}
			}
		}
		for _, c := range p.Chapters {
			for _, cs := range c.File.Markdown.CodeSpans {
				text := cs.Text(c.File.Markdown)
				if !clocks.IsAddress(text) {
					continue
				}
				start, ok := CodeTextStart(c.File.Markdown, cs)
				if !ok {
					continue
				}
				idx[text] = append(idx[text], RuntimeDeclaration{Address: text, File: c.File.Path, Span: source.Span{Start: start, End: start + len(text)}})
			}
		}
		p.runtime = idx
	})
	return p.runtime
}

// checkUnchanged checks the unchanged member of one acceptance test of the
// package, held in file (SPEC §4b.3), and notes what it reads for a check
// memoized with deps (see noteUnchanged). While clocks.json exists but does
// not parse nothing is reported: its own CLOCKS_JSON stands alone.
func (p *Package) checkUnchanged(unchanged *jsonsrc.Value, file string, note func(depKind, string)) []source.Finding {
	if note != nil {
		noteUnchanged(unchanged, note)
	}
	if unchanged == nil || p.Unreadable("clocks.json") {
		return nil
	}
	return clocks.CheckUnchanged(p.ClockFile, unchanged, p.RuntimeDeclared, file)
}

// noteUnchanged records what checking a test's unchanged reads, for a
// check memoized with deps: clocks.json as a whole (its modes, words and
// advances) and, for each runtime address the member names, whether the
// package declares it, so an edit of a chapter re-checks the test only
// when it changes a named address's declaration.
func noteUnchanged(unchanged *jsonsrc.Value, note func(depKind, string)) {
	note(depFile, "clocks.json")
	if unchanged == nil {
		return
	}
	for _, v := range ArrayElems(unchanged.Get("values")) {
		if v != nil && v.Kind() == jsonsrc.String {
			note(depRuntime, v.Str())
		}
	}
}

// InnerString returns the span of a JSON string's content when the bytes
// between its quotes are exactly text (no escapes).
func InnerString(content []byte, span source.Span, text string) (source.Span, bool) {
	if span.Start < 0 || span.End > len(content) || span.Len() < 2 || content[span.Start] != '"' || content[span.End-1] != '"' {
		return source.Span{}, false
	}
	inner := source.Span{Start: span.Start + 1, End: span.End - 1}
	if string(content[inner.Start:inner.End]) != text {
		return source.Span{}, false
	}
	return inner, true
}

// CodeTextStart returns the offset in doc's content where a code span's
// Text begins, when the source holds Text verbatim.
func CodeTextStart(doc *markdown.Doc, cs markdown.CodeSpan) (int, bool) {
	content := doc.Data
	ts := cs.TextSpan()
	if ts.Start < 0 || ts.End > len(content) || ts.Start > ts.End {
		return 0, false
	}
	raw := string(content[ts.Start:ts.End])
	if text := cs.Text(doc); text != "" {
		if i := strings.Index(raw, text); i >= 0 {
			return ts.Start + i, true
		}
	}
	return 0, false
}
