package ide

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/fantasy"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// This file holds the editor queries of the fantasy block (SPEC §1a) and of
// ruleset tags (§2c): hover, quick fixes, completion, navigation, rename
// and outline.

// fantasyHover explains the fantasy block under the cursor: the budget its
// player-fantasy lines use, and the entries of its labelled lines.
func fantasyHover(s *analysis.Snapshot, f *analysis.File, offset int) *HoverInfo {
	p := s.PackageFor(f)
	if p == nil || p.FileAt("01-overview.md") != f {
		return nil
	}
	b := p.Fantasy()
	if b == nil || !b.Found || b.Close == (source.Span{}) || !b.Span.Contains(offset) {
		return nil
	}
	var md strings.Builder
	fmt.Fprintf(&md, "**Fantasy block**: %d / %d characters", b.Used, fantasy.Budget)
	if b.Used > fantasy.Budget {
		fmt.Fprintf(&md, " (%d over)", b.Used-fantasy.Budget)
	}
	md.WriteString("\n\nThe player-fantasy lines are counted in Unicode scalar values, without the white space around each line.")
	for _, l := range b.Fantasy {
		if l.Span.Contains(offset) {
			fmt.Fprintf(&md, " This line holds %d.", l.Count)
		}
	}
	if b.Feel != nil {
		fmt.Fprintf(&md, "\n\n`%s` %d %s (three to five)", b.Feel.Label, len(b.Feel.Entries), analysis.Plural(len(b.Feel.Entries), "entry", "entries"))
	}
	return &HoverInfo{Markdown: md.String(), Span: b.Span}
}

// rulesetHover explains the ruleset tag whose id is under the cursor.
func rulesetHover(s *analysis.Snapshot, f *analysis.File, offset int) *HoverInfo {
	p := s.PackageFor(f)
	if !analysis.IsChapter(p, f) || f.Markdown == nil {
		return nil
	}
	for _, t := range f.Markdown.Tags {
		if t.Kind != markdown.Ruleset || t.ID == "" || !t.IDSpan.Contains(offset) {
			continue
		}
		var tags, initial int
		for _, rt := range p.Rulesets() {
			if rt.Tag.ID == t.ID {
				tags++
				if rt.Tag.MarksInitial() {
					initial++
				}
			}
		}
		md := fmt.Sprintf("**Ruleset** `%s`: %d %s in the package's chapters", t.ID, tags, analysis.Plural(tags, "tag", "tags"))
		if initial > 0 {
			md += "; play starts in this ruleset (initial)"
		}
		md += ".\n\nThe blockquote of each tag belongs to the ruleset; text outside every ruleset applies in all of them."
		return &HoverInfo{Markdown: md, Span: t.IDSpan}
	}
	return nil
}

// fantasySkeleton is the block the FANTASY_BLOCK fix inserts.
var fantasySkeleton = []string{
	"```fantasy",
	"You are … (say in a sentence or two what the player gets to be).",
	"Feel: …, …, …",
	"NOT: …",
	"```",
}

// newline returns the line break the content uses.
func newline(content []byte) string {
	if bytes.Contains(content, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// fantasyBlock offers to insert a fantasy block skeleton at the top of an
// overview that has none, after its title line, and to close a fantasy
// fence that is never closed.
func (x *fixer) fantasyBlock(ds source.Span) {
	p := x.pkg
	if p == nil || p.FileAt("01-overview.md") != x.f {
		return
	}
	b := p.Fantasy()
	if b != nil && b.Found && b.Close == (source.Span{}) && b.Open == ds {
		x.closeFantasy(b)
		return
	}
	if b == nil || b.Found {
		return
	}
	nl := newline(x.f.Content)
	lines := x.f.Lines
	if x.retagFence(ds) {
		return
	}
	at := lines.Offset(source.Position{})
	text := strings.Join(fantasySkeleton, nl) + nl + nl
	for i := 0; i < lines.LineCount(); i++ {
		line := bytes.TrimSpace(lines.LineText(i))
		if len(line) == 0 {
			continue
		}
		if i == 0 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if bytes.HasPrefix(line, []byte("# ")) || string(line) == "#" {
			block := strings.Join(fantasySkeleton, nl) + nl
			switch {
			case i+1 >= lines.LineCount():
				at, text = len(x.f.Content), nl+nl+block
			case len(bytes.TrimSpace(lines.LineText(i+1))) == 0:
				at, text = lines.LineStart(i+1), nl+block
			default:
				at, text = lines.LineStart(i+1), nl+block+nl
			}
		}
		break
	}
	x.add("Insert a fantasy block", "FANTASY_BLOCK", true, TextEdit{Span: source.Span{Start: at, End: at}, NewText: text})
}

// closeFantasy offers to close a fantasy fence that is never closed: a
// line of three backticks after the block's anti-reference line, or its
// Feel: line, or else at the end of the paragraph that follows the
// opening line.
func (x *fixer) closeFantasy(b *fantasy.Block) {
	lines := x.f.Lines
	open := lines.Position(b.Open.Start).Line
	after := -1 // the line the closing fence goes after
	for i := open + 1; i < lines.LineCount(); i++ {
		text := strings.ToLower(strings.TrimSpace(string(lines.LineText(i))))
		if text == "" {
			if after < 0 && i > open+1 {
				after = i - 1
			}
			continue
		}
		if strings.HasPrefix(text, "not:") || strings.HasPrefix(text, "anti-references:") {
			after = i
			break
		}
		if strings.HasPrefix(text, "feel:") {
			after = i
		}
	}
	if after < 0 {
		after = lines.LineCount() - 1
	}
	nl := newline(x.f.Content)
	at, text := lines.LineStart(after)+len(lines.LineText(after)), nl+"```"
	if after+1 < lines.LineCount() {
		at, text = lines.LineStart(after+1), "```"+nl
	}
	x.add("Close the fantasy block", "FANTASY_BLOCK", true, TextEdit{Span: source.Span{Start: at, End: at}, NewText: text})
}

// retagFence offers, when a FANTASY_BLOCK finding stands on a top-level
// backtick fence whose tag is fantasy in another spelling, to write the tag
// as fantasy. It reports whether the finding is on such a fence.
func (x *fixer) retagFence(ds source.Span) bool {
	lines := x.f.Lines
	line := lines.Position(ds.Start).Line
	start := lines.LineStart(line)
	text := lines.LineText(line)
	open := len(text) - len(bytes.TrimLeft(text, " \t"))
	n := 0
	for open+n < len(text) && text[open+n] == '`' {
		n++
	}
	if n < 3 || ds.Start != start+open {
		return false
	}
	info := bytes.TrimSpace(text[open+n:])
	word, _, _ := bytes.Cut(info, []byte(" "))
	if len(word) == 0 {
		return false
	}
	at := start + open + n + bytes.Index(text[open+n:], word)
	x.add("Tag the fence fantasy", "FANTASY_BLOCK", true, TextEdit{Span: source.Span{Start: at, End: at + len(word)}, NewText: "fantasy"})
	return true
}

// rulesetInitial offers to add (initial) to the tag a RULESET_INITIAL
// finding without a mark stands on, or to remove a second mark.
func (x *fixer) rulesetInitial(ds source.Span) {
	if x.f.Markdown == nil {
		return
	}
	for _, t := range x.f.Markdown.Tags {
		if t.Kind == markdown.Ruleset && t.ID != "" && t.Span.Contains(ds.Start) {
			x.initialMark(t)
			return
		}
	}
}

// initialMark offers to add the initial mark to a ruleset tag without one,
// or to remove it from one that has it.
func (x *fixer) initialMark(t markdown.Tag) {
	rest, restSpan := t.Rest()
	switch {
	case rest == "":
		x.add(fmt.Sprintf("Mark %s as the initial ruleset", t.ID), "RULESET_INITIAL", true,
			TextEdit{Span: source.Span{Start: t.IDSpan.End, End: t.IDSpan.End}, NewText: " (initial)"})
	case t.MarksInitial():
		x.add(fmt.Sprintf("Remove (initial) from %s", t.ID), "RULESET_INITIAL", false,
			TextEdit{Span: source.Span{Start: t.IDSpan.End, End: restSpan.End}})
	}
}

// rulesetItems completes the id of a ruleset tag: the cursor is on a
// `> RULESET:` line after the colon, in the id. ok reports such a line.
func rulesetItems(s *analysis.Snapshot, f *analysis.File, lineStart, offset int) (items []CompletionItem, ok bool) {
	if !analysis.IsChapter(s.PackageFor(f), f) || f.Markdown == nil {
		return nil, false
	}
	for _, t := range f.Markdown.Tags {
		if t.Kind != markdown.Ruleset || t.Span.Start < lineStart || t.Span.Start > offset || offset < t.WordSpan.End {
			continue
		}
		span := source.Span{Start: offset, End: offset}
		if t.ID != "" && t.IDSpan.Start <= offset && offset <= t.IDSpan.End {
			span = t.IDSpan
		} else if t.ID != "" && offset > t.IDSpan.End {
			return nil, true // after the id: only (initial) may follow
		}
		seen := map[string]bool{}
		initial := ""
		for _, rt := range s.PackageFor(f).Rulesets() {
			if rt.Tag.MarksInitial() {
				initial = rt.Tag.ID
			}
		}
		for _, rt := range s.PackageFor(f).Rulesets() {
			id := rt.Tag.ID
			if id == "" || seen[id] || !source.IsKebab(id) || id == "all" || rt.Tag.Span == t.Span && rt.Chapter.File == f {
				continue
			}
			seen[id] = true
			detail, rank := "ruleset", "1"
			if id == initial {
				detail, rank = "ruleset (initial)", "0"
			}
			items = append(items, CompletionItem{Label: id, Kind: CompleteKeyword, Detail: detail,
				Documentation: fmt.Sprintf("Continues ruleset `%s`: the blockquote joins the ruleset's other tags.", id),
				SortText:      rank + id, Edit: &TextEdit{Span: span, NewText: id}})
		}
		return items, true
	}
	return nil, false
}

// rulesetRefs adds every ruleset tag id of a package to the citation index:
// each tag declares its ruleset, and tags that repeat an id continue it
// (SPEC §2c rule 4), so every one is both declaration and reference.
func (b *indexBuilder) rulesets(p *analysis.Package) {
	for _, rt := range p.Rulesets() {
		if rt.Tag.ID == "" {
			continue
		}
		b.add(citeRef{File: rt.Chapter.File.Path, Kind: refRuleset,
			Target: targetKey{kind: targetRuleset, scope: p.Root, name: rt.Tag.ID},
			Whole:  rt.Tag.IDSpan, Name: rt.Tag.IDSpan, Exact: true, Text: rt.Tag.ID})
	}
}

// rulesetLocations returns the tags that declare a ruleset, in chapter
// order, the initial one first.
func rulesetLocations(s *analysis.Snapshot, t targetKey) []Location {
	p := packageAt(s, t.scope)
	if p == nil {
		return nil
	}
	var out, initial []Location
	for _, rt := range p.Rulesets() {
		if rt.Tag.ID != t.name {
			continue
		}
		l := Location{File: rt.Chapter.File.Path, Span: rt.Tag.IDSpan}
		if rt.Tag.MarksInitial() {
			initial = append(initial, l)
		} else {
			out = append(out, l)
		}
	}
	return append(initial, out...)
}

// renameRuleset rewrites the id of every tag of a ruleset.
func renameRuleset(s *analysis.Snapshot, p *analysis.Package, old, newID string) (map[string][]TextEdit, error) {
	newID = strings.TrimSpace(newID)
	if !source.IsKebab(newID) || newID == "all" {
		return nil, fmt.Errorf("%q is not a ruleset id: use kebab-case (lowercase letters and digits joined by single hyphens), other than all", newID)
	}
	if newID == old {
		return nil, errors.New("the ruleset already has this id")
	}
	out := map[string][]TextEdit{}
	for _, rt := range p.Rulesets() {
		if rt.Tag.ID == newID {
			return nil, fmt.Errorf("the package already has a ruleset %s; renaming %s to it would merge the two", newID, old)
		}
	}
	for _, rt := range p.Rulesets() {
		if rt.Tag.ID == old {
			out[rt.Chapter.File.Path] = append(out[rt.Chapter.File.Path], TextEdit{Span: rt.Tag.IDSpan, NewText: newID})
		}
	}
	return out, nil
}

// addRulesetSymbols places a symbol for each ruleset tag of a chapter in
// its heading outline, under the deepest heading whose section holds it.
func addRulesetSymbols(doc *markdown.Doc, syms []Symbol) []Symbol {
	for _, t := range doc.Tags {
		if t.Kind != markdown.Ruleset || t.ID == "" {
			continue
		}
		detail := "ruleset"
		if t.MarksInitial() {
			detail = "ruleset (initial)"
		}
		end := doc.Lines.LineStart(t.EndLine-1) + len(doc.Lines.LineText(t.EndLine-1))
		sym := Symbol{Name: t.ID, Detail: detail, Kind: SymbolRuleset,
			Span: source.Span{Start: t.Span.Start, End: max(end, t.Span.End)}, SelectionSpan: t.IDSpan}
		syms = insertSymbol(syms, sym)
	}
	return syms
}

// insertSymbol puts sym into the deepest symbol of list whose span holds
// it, keeping each list in position order.
func insertSymbol(list []Symbol, sym Symbol) []Symbol {
	for i := range list {
		if list[i].Span.Start <= sym.Span.Start && sym.Span.Start < list[i].Span.End {
			list[i].Children = insertSymbol(list[i].Children, sym)
			return list
		}
	}
	list = append(list, sym)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Span.Start < list[j].Span.Start })
	return list
}
