package ide

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The editor queries of SPEC §4b: the clocks of clocks.json, the time modes
// (the keys of the clocks' modes maps and the mode tags of chapter
// headings) and the runtime addresses (inline code of chapters and the
// advances of clocks). They are indexed with the other citations
// (targets.go), so definition, references and rename work as for tuning
// keys; completion and hover are here.

// clocks indexes clocks.json, the mode tags of the package's chapters and
// the unchanged members of the build plan's tests.
func (b *indexBuilder) clocks(p *analysis.Package) {
	b.clockFile(p)
	for _, ch := range p.Chapters {
		b.modeTags(p, ch)
		b.planUnchanged(p, ch.File)
	}
}

// planUnchanged indexes the unchanged members of the tests of f when f is
// the build plan.
func (b *indexBuilder) planUnchanged(p *analysis.Package, f *analysis.File) {
	plan := planOf(f)
	if plan == nil {
		return
	}
	for _, t := range plan.Tests {
		b.unchangedRefs(p, f.Path, f.Content, t.Unchanged)
	}
}

// clockFile indexes the clocks, advances and mode keys of clocks.json.
func (b *indexBuilder) clockFile(p *analysis.Package) {
	cf := p.ClockFile
	if cf == nil {
		return
	}
	content := p.FileAt("clocks.json").Content
	for _, c := range cf.Clocks {
		b.add(jsonRef(cf.Path, content, refDecl, targetKey{kind: targetClock, scope: p.Root, name: c.Name}, c.NameSpan, c.Name, 0, len(c.Name)))
		for _, a := range c.Advances {
			b.add(jsonRef(cf.Path, content, refAdvances, targetKey{kind: targetRuntime, scope: p.Root, name: a.Text}, a.Span, a.Text, 0, len(a.Text)))
		}
		for _, m := range c.Modes {
			b.add(jsonRef(cf.Path, content, refDecl, targetKey{kind: targetMode, scope: p.Root, name: m.ID}, m.KeySpan, m.ID, 0, len(m.ID)))
		}
	}
}

// modeTags indexes the mode tags of a chapter's headings that name a time
// mode.
func (b *indexBuilder) modeTags(p *analysis.Package, ch *analysis.Chapter) {
	cf := p.ClockFile
	if cf == nil {
		return
	}
	for _, tag := range clocks.ModeTags(ch.File.Markdown) {
		m := cf.ModeFold(tag.Word)
		if m == nil {
			continue
		}
		b.add(citeRef{File: ch.File.Path, Kind: refModeTag, Target: targetKey{kind: targetMode, scope: p.Root, name: m.ID},
			Whole: tag.Span, Name: tag.WordSpan, Exact: true, Text: tag.Word})
	}
}

// clockLenses returns a lens over each clock of clocks.json with the
// number of places that cite it.
func clockLenses(s *analysis.Snapshot, path string, p *analysis.Package) []CodeLens {
	var out []CodeLens
	for _, c := range p.ClockFile.Clocks {
		out = append(out, referenceLens(s, path, c.NameSpan, targetKey{kind: targetClock, scope: p.Root, name: c.Name}))
	}
	return out
}

// clockLocations returns where a clock, a time mode or a runtime address
// is declared: the clock's key, the mode's key in every clock, the places
// that declare the address.
func clockLocations(p *analysis.Package, t targetKey) []Location {
	cf := p.ClockFile
	switch t.kind {
	case targetClock:
		if c := cf.Clock(t.name); c != nil {
			return []Location{{File: cf.Path, Span: c.NameSpan}}
		}
	case targetMode:
		if cf == nil {
			return nil
		}
		var out []Location
		for _, c := range cf.Clocks {
			if w, ok := c.Word(t.name); ok {
				out = append(out, Location{File: cf.Path, Span: w.KeySpan})
			}
		}
		return out
	case targetRuntime:
		var out []Location
		for _, d := range p.RuntimeDeclarations(t.name) {
			out = append(out, Location{File: d.File, Span: d.Span})
		}
		return out
	}
	return nil
}

// clockRenameSite returns the rename of a clock, a mode or a runtime
// address at offset, when the cursor is on one.
func clockRenameSite(s *analysis.Snapshot, path string, offset int) (renameSite, bool, error) {
	r, ok := citeIndex(s).refAt(path, offset)
	if !ok {
		return renameSite{}, false, nil
	}
	switch r.Target.kind {
	case targetClock, targetMode, targetRuntime:
	default:
		return renameSite{}, false, nil
	}
	p := packageAt(s, r.Target.scope)
	if p == nil || p.ClockFile == nil && r.Target.kind != targetRuntime {
		return renameSite{}, true, errors.New("the package has no readable clocks.json")
	}
	if !r.Exact && !r.Quoted {
		return renameSite{}, true, errors.New("this reference cannot be rewritten in place")
	}
	t := r.Target
	name := t.name
	span := r.span()
	if t.kind == targetMode && r.Kind == refModeTag {
		name = r.Text
	}
	return renameSite{clock: &t, name: name, span: span}, true, nil
}

// renameClockTarget rewrites a clock name, a mode id or a runtime address
// everywhere the package uses it. A mode tag keeps its letter case (a tag
// written in capitals gets the new id in capitals), and a heading whose
// anchor the new tag changes is renamed with its citations and links.
func renameClockTarget(s *analysis.Snapshot, t targetKey, newName string) (map[string][]TextEdit, error) {
	p := packageAt(s, t.scope)
	if p == nil {
		return nil, errors.New("the package is not in the workspace")
	}
	cf := p.ClockFile
	switch t.kind {
	case targetClock:
		if !clocks.IsClockName(newName) {
			return nil, fmt.Errorf("%q is not a clock name: use letters, digits, `_` and `-` (not at either end), with no dots", newName)
		}
		if newName != t.name && cf.Clock(newName) != nil {
			return nil, fmt.Errorf("clocks.json already has the clock %q", newName)
		}
	case targetMode:
		newName = strings.ToLower(newName)
		if !clocks.IsModeID(newName) {
			return nil, fmt.Errorf("%q is not a mode id: write it in kebab-case, letters and digits joined by single hyphens", newName)
		}
		if newName != t.name && cf.Mode(newName) != nil {
			return nil, fmt.Errorf("clocks.json already declares the time mode %q", newName)
		}
	case targetRuntime:
		if !clocks.IsAddress(newName) && clocks.IsAddress("runtime."+newName) {
			newName = "runtime." + newName
		}
		if !clocks.IsAddress(newName) {
			return nil, fmt.Errorf("%q is not a runtime address: write runtime. and one or more segments of letters, digits, `_` and `-`", newName)
		}
		if newName != t.name && p.RuntimeDeclared(newName) {
			return nil, fmt.Errorf("%s is already declared; renaming onto it would merge two values", newName)
		}
	}
	if newName == t.name {
		return map[string][]TextEdit{}, nil
	}
	var w editWriter
	headings := map[*analysis.File]map[int]bool{}
	for _, r := range citeIndex(s).byTarget[t] {
		if r.Kind == refModeTag {
			f := s.File(r.File)
			if f == nil || f.Markdown == nil {
				continue
			}
			if headings[f] == nil {
				headings[f] = map[int]bool{}
			}
			headings[f][f.Markdown.HeadingAt(r.Whole.Start)] = true
			continue
		}
		if !w.rewrite(r, newName) {
			return nil, fmt.Errorf("the reference at %s:%d cannot be rewritten in place", r.File, lineOf(s, r.File, r.Whole.Start)+1)
		}
	}
	out := w.result()
	for f, his := range headings {
		for hi := range his {
			edits, err := retagHeading(s, f, hi, t.name, newName)
			if err != nil {
				return nil, err
			}
			for file, es := range edits {
				out[file] = append(out[file], es...)
			}
		}
	}
	for file, es := range out {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start < es[j].Span.Start })
		out[file] = es
	}
	return out, nil
}

// retagHeading renames heading hi of f so that its tags of mode old name
// mode newID, keeping each tag's case, with the citations and links of the
// anchor the change moves.
func retagHeading(s *analysis.Snapshot, f *analysis.File, hi int, old, newID string) (map[string][]TextEdit, error) {
	doc := f.Markdown
	if hi < 0 || hi >= len(doc.Headings) {
		return nil, nil
	}
	h := doc.Headings[hi]
	var b strings.Builder
	at := h.TextSpan().Start
	for _, tag := range clocks.ModeTags(doc) {
		if tag.Heading != hi || strings.ToLower(tag.Word) != old {
			continue
		}
		b.Write(doc.Data[at:tag.WordSpan.Start])
		word := newID
		if tag.Word == strings.ToUpper(tag.Word) {
			word = strings.ToUpper(newID)
		}
		b.WriteString(word)
		at = tag.WordSpan.End
	}
	b.Write(doc.Data[at:h.TextSpan().End])
	if strings.ContainsAny(b.String(), "\r\n") {
		return nil, fmt.Errorf("the heading on line %d of %s spans several lines; rename its tag by hand", h.Line()+1, f.Path)
	}
	return renameHeading(s, f, hi, b.String())
}

// clockItems lists what inline code in a chapter can name of SPEC §4b:
// `clocks.<name>` for each clock and `runtime.<address>` for each declared
// runtime address.
func clockItems(p *analysis.Package, edit func(string) *TextEdit) []CompletionItem {
	var out []CompletionItem
	if cf := p.ClockFile; cf != nil {
		for _, c := range cf.Clocks {
			addr := "clocks." + c.Name
			out = append(out, CompletionItem{Label: addr, Kind: CompleteKeyword, Detail: "clock, in " + c.Unit,
				Documentation: clockMarkdown(cf, c), SortText: "4" + addr, Edit: edit(addr)})
		}
	}
	for _, addr := range p.RuntimeAddresses() {
		detail := "runtime value"
		if c, _, ok := p.ClockFile.Advancer(addr); ok {
			detail = "runtime value, advanced by clock " + c.Name
		}
		out = append(out, CompletionItem{Label: addr, Kind: CompleteKeyword, Detail: detail, SortText: "5" + addr, Edit: edit(addr)})
	}
	return out
}

// modeTagItems completes a mode id inside `[…]` of a heading: typed is the
// text after `[` up to the cursor, span the text to replace. The ids are
// offered in capitals, as tags are usually written, unless the designer
// typed lowercase.
func modeTagItems(p *analysis.Package, typed string, span source.Span) []CompletionItem {
	if p == nil || p.ClockFile == nil {
		return nil
	}
	lower := typed != strings.ToUpper(typed)
	var out []CompletionItem
	for i, m := range p.ClockFile.Modes {
		label := strings.ToUpper(m.ID)
		if lower {
			label = m.ID
		}
		out = append(out, CompletionItem{Label: label, Kind: CompleteKeyword, Detail: "time mode",
			Documentation: modeMarkdown(p.ClockFile, m.ID), SortText: fmt.Sprintf("%04d", i),
			Edit: &TextEdit{Span: span, NewText: label}})
	}
	return out
}

// headingTagSpan returns, when offset stands in a heading line after an
// unclosed `[`, the text typed after it and the span a mode id replaces.
func headingTagSpan(f *analysis.File, lineStart, lineEnd, offset int) (string, source.Span, bool) {
	line := f.Content[lineStart:lineEnd]
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '#' {
		return "", source.Span{}, false
	}
	before := string(f.Content[lineStart:offset])
	if strings.Count(before, "`")%2 == 1 {
		return "", source.Span{}, false // inside inline code
	}
	open := strings.LastIndexByte(before, '[')
	if open < 0 || strings.ContainsAny(before[open:], "] `") {
		return "", source.Span{}, false
	}
	end := offset
	for end < lineEnd && f.Content[end] != ']' && f.Content[end] != ' ' && f.Content[end] != '[' {
		end++
	}
	return before[open+1:], source.Span{Start: lineStart + open + 1, End: end}, true
}

// completeClocks completes inside clocks.json: the four words as the value
// of a mode, the members of a clock, the time modes a clock's modes map
// does not name yet, and in advances the declared runtime addresses no
// clock advances yet. ok is false for any other file.
func completeClocks(s *analysis.Snapshot, f *analysis.File, offset int) ([]CompletionItem, bool) {
	p := s.PackageFor(f)
	if p == nil || p.Rel(f.Path) != "clocks.json" {
		return nil, false
	}
	ctx := jsonsrc.ContextAt(f.Content, offset)
	keys := ctx.Keys()
	cf := p.ClockFile
	if cf == nil {
		// The file is being typed: read the clocks of a repaired copy.
		for _, fixed := range repairJSON(f.Content, ctx) {
			if v, errs := jsonsrc.Parse(fixed); len(errs) == 0 {
				cf = clocks.Parse(f.Path, v)
				break
			}
		}
	}
	var out []CompletionItem
	switch {
	case ctx.Pos == jsonsrc.PosValue && len(keys) == 3 && keys[1] == "modes":
		for i, w := range clocks.Words {
			out = append(out, CompletionItem{Label: w, Kind: CompleteOption, Detail: "the clock " + clocks.WordMeaning(w),
				SortText: fmt.Sprintf("%d", i), Edit: valueEditAt(ctx, w, true)})
		}
	case ctx.Pos == jsonsrc.PosKey && len(keys) == 1:
		for i, fd := range clocks.ClockShape.Fields {
			if ctx.HasKey(fd.Name) {
				continue
			}
			detail := fd.Shape.Describe()
			if fd.Required {
				detail = "required; " + detail
			}
			out = append(out, CompletionItem{Label: fd.Name, Kind: CompleteField, Detail: detail, Documentation: fd.Doc,
				SortText: fmt.Sprintf("%d", i), Edit: keyEditAt(ctx, fd.Name)})
		}
	case ctx.Pos == jsonsrc.PosKey && len(keys) == 2 && keys[1] == "modes" && cf != nil:
		for i, m := range cf.Modes {
			if ctx.HasKey(m.ID) {
				continue
			}
			out = append(out, CompletionItem{Label: m.ID, Kind: CompleteKeyword, Detail: "time mode", Documentation: modeMarkdown(cf, m.ID),
				SortText: fmt.Sprintf("%04d", i), Edit: keyEditAt(ctx, m.ID)})
		}
	case ctx.Pos == jsonsrc.PosElement && len(keys) == 3 && keys[1] == "advances":
		for _, addr := range p.RuntimeAddresses() {
			if _, _, ok := cf.Advancer(addr); ok {
				continue // a clock advances it already
			}
			out = append(out, CompletionItem{Label: addr, Kind: CompleteKeyword, Detail: "runtime value", SortText: addr, Edit: valueEditAt(ctx, addr, true)})
		}
	}
	return out, true
}

// hoverClocks explains a clock, a mode, a runtime address or a mode word
// under the cursor in clocks.json; ok is false for any other file.
func hoverClocks(s *analysis.Snapshot, f *analysis.File, offset int) (*HoverInfo, bool) {
	p := s.PackageFor(f)
	if p == nil || p.Rel(f.Path) != "clocks.json" {
		return nil, false
	}
	r, ok := citeIndex(s).refAt(f.Path, offset)
	if !ok {
		if p.ClockFile == nil {
			return nil, true
		}
		for _, c := range p.ClockFile.Clocks {
			for _, w := range c.Modes {
				if meaning := clocks.WordMeaning(w.Word); meaning != "" && w.WordSpan.Contains(offset) {
					return &HoverInfo{Markdown: fmt.Sprintf("**`%s`**: in the time mode `%s`, clock `%s` %s.", w.Word, w.ID, c.Name, meaning), Span: w.WordSpan}, true
				}
			}
		}
		return nil, true
	}
	md := clockTargetMarkdown(p, r.Target)
	if md == "" {
		return nil, true
	}
	return &HoverInfo{Markdown: md, Span: r.Whole}, true
}

// clockTargetMarkdown explains a clock, a time mode or a runtime address.
func clockTargetMarkdown(p *analysis.Package, t targetKey) string {
	cf := p.ClockFile
	switch t.kind {
	case targetClock:
		if c := cf.Clock(t.name); c != nil {
			return clockMarkdown(cf, c)
		}
	case targetMode:
		return modeMarkdown(cf, t.name)
	case targetRuntime:
		return runtimeMarkdown(p, t.name)
	}
	return ""
}

// clockMarkdown is a clock's unit, what it advances, and what it does in
// each time mode.
func clockMarkdown(cf *clocks.File, c *clocks.Clock) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**clock `%s`**", c.Name)
	if c.Unit != "" {
		fmt.Fprintf(&b, ", counting %s", c.Unit)
	}
	if len(c.Advances) > 0 {
		names := make([]string, len(c.Advances))
		for i, a := range c.Advances {
			names[i] = "`" + a.Text + "`"
		}
		fmt.Fprintf(&b, "\n\nAdvances %s.", strings.Join(names, ", "))
	}
	if len(cf.Modes) > 0 {
		b.WriteString("\n\n| Mode | Word | The clock |\n| --- | --- | --- |")
		for _, m := range cf.Modes {
			w, ok := c.Word(m.ID)
			switch {
			case !ok:
				fmt.Fprintf(&b, "\n| %s | — | does not say (CLOCKS_MODE_MISSING) |", m.ID)
			case clocks.WordMeaning(w.Word) == "":
				fmt.Fprintf(&b, "\n| %s | %s | not one of the four words |", m.ID, w.Word)
			default:
				fmt.Fprintf(&b, "\n| %s | %s | %s |", m.ID, w.Word, clocks.WordMeaning(w.Word))
			}
		}
	}
	return b.String()
}

// modeMarkdown says what each clock does in a time mode.
func modeMarkdown(cf *clocks.File, id string) string {
	if cf.Mode(id) == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**time mode `%s`**", id)
	if len(cf.Clocks) > 0 {
		b.WriteString("\n\n| Clock | Word | In this mode the clock |\n| --- | --- | --- |")
		for _, c := range cf.Clocks {
			w, ok := c.Word(id)
			switch {
			case !ok:
				fmt.Fprintf(&b, "\n| %s | — | does not say (CLOCKS_MODE_MISSING) |", c.Name)
			default:
				meaning := clocks.WordMeaning(w.Word)
				if meaning == "" {
					meaning = "not one of the four words"
				}
				fmt.Fprintf(&b, "\n| %s | %s | %s |", c.Name, w.Word, meaning)
			}
		}
	}
	return b.String()
}

// runtimeMarkdown says which clock advances a runtime address and how many
// places declare it.
func runtimeMarkdown(p *analysis.Package, addr string) string {
	decls := p.RuntimeDeclarations(addr)
	var b strings.Builder
	fmt.Fprintf(&b, "**runtime value `%s`**", addr)
	if c, _, ok := p.ClockFile.Advancer(addr); ok {
		fmt.Fprintf(&b, "\n\nAdvanced by clock `%s`", c.Name)
		if c.Unit != "" {
			fmt.Fprintf(&b, " (%s)", c.Unit)
		}
		var moving, still, undefined []string
		for _, m := range p.ClockFile.Modes {
			w, _ := c.Word(m.ID)
			switch {
			case clocks.Moves(w.Word):
				moving = append(moving, m.ID)
			case w.Word == clocks.Paused:
				still = append(still, m.ID)
			case w.Word == clocks.None:
				undefined = append(undefined, m.ID)
			}
		}
		b.WriteString(".")
		for _, part := range []struct {
			what  string
			modes []string
		}{{"Moves in", moving}, {"Keeps its value in", still}, {"Has no value in", undefined}} {
			if len(part.modes) > 0 {
				fmt.Fprintf(&b, " %s %s.", part.what, strings.Join(part.modes, ", "))
			}
		}
	} else if len(decls) > 0 {
		b.WriteString("\n\nNo clock advances it.")
	}
	switch n := len(decls); n {
	case 0:
		b.WriteString("\n\nNot declared: no numbered chapter names it in inline code and no clock advances it.")
	case 1:
		b.WriteString("\n\nDeclared in 1 place.")
	default:
		fmt.Fprintf(&b, "\n\nDeclared in %d places.", n)
	}
	return b.String()
}

// clockTokenTarget reads an inline-code token `clocks.<name>` of a clock
// or a runtime address.
func clockTokenTarget(p *analysis.Package, text string) (targetKey, bool) {
	if name, ok := strings.CutPrefix(text, "clocks."); ok && p.ClockFile.Clock(name) != nil {
		return targetKey{kind: targetClock, scope: p.Root, name: name}, true
	}
	if clocks.IsAddress(text) {
		return targetKey{kind: targetRuntime, scope: p.Root, name: text}, true
	}
	return targetKey{}, false
}

// missingModes offers, for the clock whose modes key is at ds, each time
// mode it does not name with each of the four words (CLOCKS_MODE_MISSING).
func (x *fixer) missingModes(ds source.Span) {
	cf := x.pkg.ClockFile
	if cf == nil || x.f.Path != cf.Path {
		return
	}
	for _, c := range cf.Clocks {
		if c.ModesSpan != ds || !c.HasModes {
			continue
		}
		modes := c.Value.Get("modes")
		for _, m := range cf.Modes {
			if _, ok := c.Word(m.ID); ok {
				continue
			}
			for _, w := range clocks.Words {
				e, ok := newJSONEditor(x.f.Content, c.Value).insertMembers(modes, []jsonKV{{m.ID, quoteJSON(w)}}, false)
				if !ok {
					return
				}
				x.add(fmt.Sprintf("Add %q: %q to clock %s (it %s)", m.ID, w, c.Name, clocks.WordMeaning(w)), clocks.CodeMissing, false, e)
			}
		}
	}
}

// danglingTag offers, for the mode tag at ds, its removal when it is
// [ALL], else the nearest time modes in the tag's letter case
// (MODE_TAG_DANGLING). The heading is rewritten as a rename is, so the
// citations and links of an anchor the change moves follow it.
func (x *fixer) danglingTag(ds source.Span) {
	doc, p := x.f.Markdown, x.pkg
	if doc == nil || p == nil || p.ClockFile == nil {
		return
	}
	for _, tag := range clocks.ModeTags(doc) {
		if tag.Span != ds {
			continue
		}
		h := doc.Headings[tag.Heading]
		before := string(doc.Data[h.TextSpan().Start:tag.Span.Start])
		after := string(doc.Data[tag.Span.End:h.TextSpan().End])
		retag := func(title, text string, preferred bool) {
			edits, err := renameHeading(x.s, x.f, tag.Heading, text)
			if err != nil || x.seen[title] {
				return
			}
			x.seen[title] = true
			x.out = append(x.out, CodeAction{Title: title, Kind: "quickfix", Codes: []string{clocks.CodeTagDangling}, Edits: edits, Preferred: preferred})
		}
		if tag.IsAll() {
			if strings.HasSuffix(before, " ") {
				before = strings.TrimSuffix(before, " ")
			} else {
				after = strings.TrimPrefix(after, " ")
			}
			retag(fmt.Sprintf("Remove the tag [%s]", tag.Word), before+after, true)
			return
		}
		ids := make([]string, len(p.ClockFile.Modes))
		for i, m := range p.ClockFile.Modes {
			ids[i] = m.ID
		}
		word := strings.ToLower(tag.Word)
		ranked := rankByDistance(word, ids)
		if len(ranked) > maxNearActions {
			ranked = ranked[:maxNearActions]
		}
		for i, id := range ranked {
			if tag.Word == strings.ToUpper(tag.Word) {
				id = strings.ToUpper(id)
			}
			retag(fmt.Sprintf("Replace [%s] with [%s]", tag.Word, id), before+"["+id+"]"+after, i == 0 && source.EditDistance(word, strings.ToLower(id)) <= typoLimit(word))
		}
		return
	}
}

// unchangedRefs indexes the mode ids and runtime addresses of one test's
// unchanged member, held in file with content (the build plan, whose test
// blocks are parsed with spans in the file): a test block is one more
// place that names them, so references and renames reach it.
func (b *indexBuilder) unchangedRefs(p *analysis.Package, file string, content []byte, unchanged *jsonsrc.Value) {
	if unchanged == nil || unchanged.Kind() != jsonsrc.Object {
		return
	}
	for _, m := range analysis.ArrayElems(unchanged.Get("modes")) {
		if m != nil && m.Kind() == jsonsrc.String && p.ClockFile.Mode(m.Str()) != nil {
			b.add(jsonRef(file, content, refUnchanged, targetKey{kind: targetMode, scope: p.Root, name: m.Str()}, m.Span(), m.Str(), 0, len(m.Str())))
		}
	}
	for _, v := range analysis.ArrayElems(unchanged.Get("values")) {
		if v != nil && v.Kind() == jsonsrc.String && clocks.IsAddress(v.Str()) {
			b.add(jsonRef(file, content, refUnchanged, targetKey{kind: targetRuntime, scope: p.Root, name: v.Str()}, v.Span(), v.Str(), 0, len(v.Str())))
		}
	}
}

// unchangedItems completes inside a test's unchanged member: keys is the
// JSON path of the cursor from the unchanged object (as Context.Keys
// gives it, "[]" for an index), ctx the JSON context of the cursor.
// It proposes the members modes and values, the time modes in modes and
// the declared runtime addresses in values; completeBlock (planquery.go)
// calls it when the path reaches unchanged.
func unchangedItems(p *analysis.Package, ctx jsonsrc.Context, keys []string) []CompletionItem {
	var out []CompletionItem
	switch {
	case ctx.Pos == jsonsrc.PosKey && len(keys) == 0:
		for i, fd := range clocks.UnchangedShape.Fields {
			if !ctx.HasKey(fd.Name) {
				out = append(out, CompletionItem{Label: fd.Name, Kind: CompleteField, Detail: "required; " + fd.Shape.Describe(),
					Documentation: fd.Doc, SortText: fmt.Sprintf("%d", i), Edit: keyEditAt(ctx, fd.Name)})
			}
		}
	case ctx.Pos == jsonsrc.PosElement && len(keys) == 2 && keys[0] == "modes" && p.ClockFile != nil:
		for i, m := range p.ClockFile.Modes {
			out = append(out, CompletionItem{Label: m.ID, Kind: CompleteKeyword, Detail: "time mode",
				Documentation: modeMarkdown(p.ClockFile, m.ID), SortText: fmt.Sprintf("%04d", i), Edit: valueEditAt(ctx, m.ID, true)})
		}
	case ctx.Pos == jsonsrc.PosElement && len(keys) == 2 && keys[0] == "values":
		for _, addr := range p.RuntimeAddresses() {
			out = append(out, CompletionItem{Label: addr, Kind: CompleteKeyword, Detail: "runtime value",
				Documentation: runtimeMarkdown(p, addr), SortText: addr, Edit: valueEditAt(ctx, addr, true)})
		}
	}
	return out
}

// modeTagHover explains the mode tag of a chapter heading at offset: what
// each clock does in that mode.
func modeTagHover(p *analysis.Package, f *analysis.File, offset int) *HoverInfo {
	if p == nil || p.ClockFile == nil || !analysis.IsChapter(p, f) {
		return nil
	}
	if hi := f.Markdown.HeadingAt(offset); hi < 0 || !f.Markdown.Headings[hi].Span().Contains(offset) {
		return nil
	}
	for _, tag := range clocks.ModeTags(f.Markdown) {
		if !tag.Span.Contains(offset) {
			continue
		}
		if m := p.ClockFile.ModeFold(tag.Word); m != nil {
			return &HoverInfo{Markdown: modeMarkdown(p.ClockFile, m.ID), Span: tag.Span}
		}
	}
	return nil
}
