package ide

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The editor queries of the build plan: completion, hover and outline in
// its test headings and test blocks. A test block is JSON inside a fence;
// it is served like a JSON file of the package, with the JSON context read
// from the fence's content and its spans shifted to the file.

// planOf returns the build plan when f is the build plan of its package.
func planOf(f *analysis.File) *buildplan.Plan {
	if rel, ok := f.PackageRel(); !ok || rel != buildplan.FileName || !f.Parsed() {
		return nil
	}
	return f.ParsedPlan()
}

// inBlock returns the test whose block content holds offset, or nil.
func inBlock(plan *buildplan.Plan, offset int) *buildplan.Test {
	for _, t := range plan.Tests {
		if t.HasFence && t.Content.Start <= offset && offset <= t.Content.End {
			return t
		}
	}
	return nil
}

// headingPrefix matches a heading line being typed up to the cursor whose
// text so far can still become a test id.
var headingPrefix = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(A|AT|AT-[0-9]*)?$`)

// completePlan completes inside a test block, or the id of a test heading
// being typed; ok is false when offset is in neither.
func completePlan(s *analysis.Snapshot, f *analysis.File, offset int) (items []CompletionItem, ok bool) {
	plan := planOf(f)
	if plan == nil {
		return nil, false
	}
	if t := inBlock(plan, offset); t != nil {
		return completeBlock(s, f, t, offset), true
	}
	for _, b := range f.Markdown.CodeBlocks {
		if b.Span.Start <= offset && offset <= b.Span.End {
			return nil, false // a line of another code block is no heading
		}
	}
	start := offset
	for start > 0 && f.Content[start-1] != '\n' && f.Content[start-1] != '\r' {
		start--
	}
	m := headingPrefix.FindSubmatchIndex(f.Content[start:offset])
	if m == nil {
		return nil, false
	}
	typed := start + m[2]
	if m[2] < 0 {
		typed = offset
	}
	id := "AT-" + strconv.Itoa(plan.NextNumber())
	return []CompletionItem{{
		Label: id, Kind: CompleteKeyword, Detail: "the next free test number",
		Documentation: "A test heading is followed directly by its test block, a fence tagged `test`. Numbers ascend through the file and a deleted test's number is never used again.",
		Edit:          &TextEdit{Span: source.Span{Start: typed, End: offset}, NewText: id + ": "},
	}}, true
}

// blockContext is the JSON context of offset in a test block, with its
// spans in the file, and the block's type as far as it can be read.
func blockContext(f *analysis.File, t *buildplan.Test, offset int) (jsonsrc.Context, string) {
	content := f.Content[t.Content.Start:t.Content.End]
	ctx := jsonsrc.ContextAt(content, offset-t.Content.Start)
	typ := t.Type
	if t.Block == nil {
		// A half-typed block: read the type from a repaired copy.
		for _, fixed := range repairJSON(content, ctx) {
			if v, errs := jsonsrc.Parse(fixed); len(errs) == 0 {
				if ty := v.Get("type"); ty != nil && ty.Kind() == jsonsrc.String {
					typ = ty.Str()
				}
				break
			}
		}
	}
	off := t.Content.Start
	ctx.Token = source.Span{Start: ctx.Token.Start + off, End: ctx.Token.End + off}
	ctx.Content = source.Span{Start: ctx.Content.Start + off, End: ctx.Content.End + off}
	return ctx, typ
}

// completeBlock proposes the members of a test block that its type still
// takes, the test types, and the measured promises of direction.json.
func completeBlock(s *analysis.Snapshot, f *analysis.File, t *buildplan.Test, offset int) []CompletionItem {
	ctx, typ := blockContext(f, t, offset)
	keys := ctx.Keys()
	var out []CompletionItem
	switch {
	case ctx.Pos == jsonsrc.PosKey && len(keys) == 0:
		shape := buildplan.Shape(typ)
		var req, opt []jsonshape.Field
		for _, fd := range shape.Fields {
			switch {
			case ctx.HasKey(fd.Name):
			case fd.Required || fd.Name == "type":
				req = append(req, fd)
			default:
				opt = append(opt, fd)
			}
		}
		for i, fd := range append(req, opt...) {
			detail := fd.Shape.Describe()
			if fd.Required {
				detail += " (required)"
			}
			out = append(out, CompletionItem{Label: fd.Name, Kind: CompleteField, Detail: detail, Documentation: fd.Doc,
				SortText: fmt.Sprintf("%02d", i), Edit: keyEditAt(ctx, fd.Name)})
		}
	case len(keys) > 0 && keys[0] == "unchanged" && !(ctx.Pos == jsonsrc.PosValue && len(keys) == 1):
		out = unchangedItems(s.PackageFor(f), ctx, keys[1:]) // clockfeatures.go
	case ctx.Pos == jsonsrc.PosValue && len(keys) == 1 && keys[0] == "type":
		for i, ty := range buildplan.Types {
			out = append(out, CompletionItem{Label: ty, Kind: CompleteOption, Detail: "test type", Documentation: typeDoc[ty],
				SortText: strconv.Itoa(i), Edit: valueEditAt(ctx, ty, true)})
		}
	case ctx.Pos == jsonsrc.PosElement && len(keys) == 2 && keys[0] == "direction_claims",
		ctx.Pos == jsonsrc.PosValue && len(keys) == 1 && keys[0] == "direction_claims" && !ctx.InString:
		paths, values := analysis.ClaimTargets(directionBytes(s.PackageFor(f)))
		for i, path := range paths {
			edit := valueEditAt(ctx, path, true)
			if ctx.Pos == jsonsrc.PosValue {
				// The member holds a list: write one with the path.
				edit = &TextEdit{Span: ctx.Token, NewText: "[" + strconv.Quote(path) + "]"}
			}
			out = append(out, CompletionItem{Label: path, Kind: CompleteField, Detail: "measured promise of direction.json",
				Documentation: "```json\n" + values[i] + "\n```", Edit: edit})
		}
	}
	return out
}

// typeDoc says what each test type states.
var typeDoc = map[string]string{
	buildplan.Scenario: "One specific situation and its outcome: `given`, `when` and `then`.",
	buildplan.General:  "One claim across many cases: `scope` and `holds`, with optional `seeds`.",
}

// directionBytes returns the content of the package's direction.json when
// it parses, or nil.
func directionBytes(p *analysis.Package) []byte {
	if p == nil || p.Direction == nil {
		return nil
	}
	if f := p.FileAt("direction.json"); f != nil {
		return f.Content
	}
	return nil
}

// hoverPlan explains a test heading or the member of a test block under
// offset; ok is false when offset is in neither.
func hoverPlan(s *analysis.Snapshot, f *analysis.File, offset int) (*HoverInfo, bool) {
	plan := planOf(f)
	if plan == nil {
		return nil, false
	}
	if t := inBlock(plan, offset); t != nil {
		return blockHover(s.PackageFor(f), t, offset), true
	}
	for _, t := range plan.Tests {
		if t.IDSpan.Contains(offset) {
			return &HoverInfo{Markdown: testSummary(t), Span: t.IDSpan}, true
		}
	}
	return nil, false
}

// testSummary describes a test for its heading's hover.
func testSummary(t *buildplan.Test) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**acceptance test %s**", t.ID)
	if t.Title != "" {
		fmt.Fprintf(&b, ": %s", t.Title)
	}
	switch {
	case !t.HasFence:
		b.WriteString("\n\nNo test block follows the heading.")
	case t.Unclosed:
		b.WriteString("\n\nIts test fence is never closed.")
	case t.Block == nil:
		b.WriteString("\n\nIts test block is not valid JSON yet.")
	case t.Type != "":
		fmt.Fprintf(&b, "\n\nA %s test. %s", t.Type, typeDoc[t.Type])
	}
	return b.String()
}

// blockHover explains the member of a test block at offset, and a claimed
// direction path with the entry it names.
func blockHover(p *analysis.Package, t *buildplan.Test, offset int) *HoverInfo {
	hit := LocateJSON(t.Block, offset)
	if len(hit.Path) == 0 {
		return nil
	}
	name := hit.Path[0].Key
	top := t.Block.Member(name)
	if len(hit.Path) == 2 && name == "direction_claims" && hit.Value != nil && hit.Value.Kind() == jsonsrc.String {
		md := fmt.Sprintf("**measured promise `%s`**", hit.Value.Str())
		if section, key, ok := buildplan.SplitClaim(hit.Value.Str()); ok {
			if e := gjson.GetBytes(directionBytes(p), section+"."+gjson.Escape(key)); e.Exists() {
				md += " of direction.json\n\n```json\n" + e.Raw + "\n```"
			} else {
				md += "\n\ndirection.json declares no such entry."
			}
		}
		return &HoverInfo{Markdown: md, Span: hit.Value.Span()}
	}
	if len(hit.Path) == 1 && name == "type" && !hit.OnKey && typeDoc[t.Type] != "" {
		return &HoverInfo{Markdown: fmt.Sprintf("**test type `%s`**\n\n%s", t.Type, typeDoc[t.Type]), Span: top.Value.Span()}
	}
	if len(hit.Path) > 1 || !hit.OnKey {
		return nil // only a field's name explains the field
	}
	fd := buildplan.Shape(t.Type).Field(name)
	if fd == nil {
		return &HoverInfo{Markdown: fmt.Sprintf("`%s` is not a field of a %s test block.", name, orAny(t.Type)), Span: top.KeySpan()}
	}
	md := fmt.Sprintf("**test field `%s`** of %s\n\n%s\n\nHolds %s.", name, t.ID, fd.Doc, fd.Shape.Describe())
	if fd.Required {
		md += fmt.Sprintf(" Required in a %s test.", t.Type)
	}
	return &HoverInfo{Markdown: md, Span: top.KeySpan()}
}

func orAny(typ string) string {
	if typ == "" {
		return "typed"
	}
	return typ
}

// planSymbols marks the test headings of the build plan in its heading
// tree: each becomes a test symbol whose detail is its type and whose
// range covers its heading and block.
func planSymbols(f *analysis.File, tree []Symbol) []Symbol {
	plan := planOf(f)
	if plan == nil || len(plan.Tests) == 0 {
		return tree
	}
	byStart := map[int]*buildplan.Test{}
	for _, t := range plan.Tests {
		byStart[t.HeadingSpan.Start] = t
	}
	var mark func(list []Symbol)
	mark = func(list []Symbol) {
		for i := range list {
			sym := &list[i]
			if t := byStart[sym.Span.Start]; t != nil {
				sym.Kind = SymbolTest
				sym.Detail = "test"
				if t.Type != "" {
					sym.Detail = t.Type + " test"
				}
				if t.HasFence && t.Fence.End > sym.Span.End {
					sym.Span.End = t.Fence.End
				}
			}
			mark(sym.Children)
		}
	}
	mark(tree)
	return tree
}

// keepsTestID refuses a rename of a test heading of the build plan that
// changes or drops its id: a test number names the same check in every
// revision of the package (§6), so only the title may change.
func keepsTestID(f *analysis.File, heading int, newText string) error {
	plan := planOf(f)
	if plan == nil {
		return nil
	}
	for _, t := range plan.Tests {
		if t.Heading != heading {
			continue
		}
		text := strings.TrimSpace(newText)
		if n, _ := buildplan.ParseID(text); n > 0 && text[:n] == t.ID {
			return nil
		}
		return errors.New(t.ID + " names the same check in every revision of the package, so its number never changes: keep " + t.ID + " at the start and change only the title (a new test takes the next free number)")
	}
	return nil
}

// fieldPlaceholders are the texts a quick fix writes into the required
// fields it adds to a test block, for the designer to replace.
var fieldPlaceholders = map[string]string{
	"given": "the situation the test starts from",
	"when":  "what happens",
	"then":  "the outcome a finished build shows",
	"scope": "the cases the claim is about",
	"holds": "the claim that holds in each case",
}

// missingTestFields adds the required fields a test block lacks, when the
// finding sits on the block's opening brace.
func (x *fixer) missingTestFields(code string, ds source.Span) {
	plan := planOf(x.f)
	if plan == nil {
		return
	}
	t := inBlock(plan, ds.Start)
	if t == nil || t.Block == nil || t.Type == "" || t.Block.Opening() != ds {
		return
	}
	var kvs []jsonKV
	var names []string
	for _, fd := range jsonshape.Missing(buildplan.Shape(t.Type), t.Block) {
		if fd.Required {
			kvs = append(kvs, jsonKV{fd.Name, quoteJSON(fieldPlaceholders[fd.Name])})
			names = append(names, fd.Name)
		}
	}
	edit, ok := newJSONEditor(x.f.Content, t.Block).insertMembers(t.Block, kvs, true)
	if !ok {
		return
	}
	x.add("Add "+strings.Join(names, ", ")+" to "+t.ID, code, true, edit)
}

// claimedEntry returns the place in direction.json of the measured promise
// a claimed path names.
func claimedEntry(p *analysis.Package, path string) (Location, bool) {
	section, key, ok := buildplan.SplitClaim(path)
	if !ok || p == nil || p.Direction == nil {
		return Location{}, false
	}
	m := p.Direction.Get(section).Member(key)
	if m == nil {
		return Location{}, false
	}
	return Location{File: p.FileAt("direction.json").Path, Span: m.KeySpan()}, true
}

// claimAt returns the path of direction.json that the token at offset
// names: a claim in a test block of the build plan, or the key of a
// measured promise in direction.json; "" elsewhere.
func claimAt(p *analysis.Package, f *analysis.File, offset int) string {
	if p == nil {
		return ""
	}
	if plan := planOf(f); plan != nil {
		if t := inBlock(plan, offset); t != nil {
			for _, c := range t.Claims {
				if c.Span.Contains(offset) {
					return c.Path
				}
			}
		}
		return ""
	}
	if p.FileAt("direction.json") != f || p.Direction == nil {
		return ""
	}
	for _, section := range buildplan.Measured {
		if v := p.Direction.Get(section); v != nil && v.Kind() == jsonsrc.Object {
			for _, m := range v.Members() {
				if m.KeySpan().Contains(offset) {
					return section + "." + m.Key
				}
			}
		}
	}
	return ""
}

// claimDefinition leads from a claim in a test block to the promise it
// names in direction.json.
func claimDefinition(s *analysis.Snapshot, f *analysis.File, offset int) []Location {
	if planOf(f) == nil {
		return nil
	}
	if loc, ok := claimedEntry(s.PackageFor(f), claimAt(s.PackageFor(f), f, offset)); ok {
		return []Location{loc}
	}
	return nil
}

// claimReferences lists the tests that claim the measured promise at
// offset (on a claim or on the promise's key in direction.json), with the
// promise itself first when includeDeclaration is set; ok is false when
// offset names no promise.
func claimReferences(s *analysis.Snapshot, f *analysis.File, offset int, includeDeclaration bool) (out []Location, ok bool) {
	path := claimAt(s.PackageFor(f), f, offset)
	if path == "" {
		return nil, false
	}
	p := s.PackageFor(f)
	if loc, found := claimedEntry(p, path); found && includeDeclaration {
		out = append(out, loc)
	}
	if plan := p.FileAt(buildplan.FileName); plan != nil {
		if pl := planOf(plan); pl != nil {
			for _, t := range pl.Tests {
				for _, c := range t.Claims {
					if c.Path == path {
						out = append(out, Location{File: plan.Path, Span: c.Span})
					}
				}
			}
		}
	}
	// The chapters citing the promise in prose (directionquery.go).
	if section, key, ok := strings.Cut(path, "."); ok {
		for _, r := range citeIndex(s).byTarget[targetKey{kind: targetDirection, scope: p.Root, name: section, sub: key}] {
			if r.Kind == refProse {
				out = append(out, Location{File: r.File, Span: r.span()})
			}
		}
	}
	return out, true
}
