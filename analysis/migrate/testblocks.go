package migrate

import (
	"fmt"
	"strings"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

const (
	codeTypeRetired  = "VERIFICATION_TYPE_RETIRED"
	codeFieldUnknown = "VERIFICATION_FIELD_UNKNOWN"
)

// renamedFields are the test fields of earlier versions that a v0.9 field
// replaces as they are.
var renamedFields = map[string]string{
	"freeze_invariant": "unchanged",
	"domain":           "scope",
	"predicate":        "holds",
}

// droppedFields are the test fields of earlier versions that are removed,
// with why.
var droppedFields = map[string]string{
	"applies_to":   "the holds sentence says whether the claim is about each case or a measure across them",
	"transitions":  "the build record's acceptance.sampled says how thoroughly a general test was checked",
	"finite_state": "the build record's acceptance.sampled says how thoroughly a general test was checked",
	"complete":     "the build record's acceptance.sampled says how thoroughly a general test was checked",
	"rule_set":     "a check of package files belongs in the data rules or in prose",
	"artifacts":    "a check of package files belongs in the data rules or in prose",
}

// scopeFields are the test fields of earlier versions whose content moves
// into the scope sentence, with the words that introduce it.
var scopeFields = []struct{ name, words string }{
	{"initial_states", "starting from"},
	{"bound", "bounded by"},
}

// buildPlan rewrites the test blocks of 05-build-plan.md: the fence tag,
// the retired types and the retired fields.
func (r *run) buildPlan() {
	const file = "05-build-plan.md"
	data, ok := r.cur[file]
	if !ok {
		return
	}
	doc := markdown.Parse(data)
	plan := buildplan.Parse(doc)
	var edits []edit
	var touched []int // old offsets of the rewritten blocks' fences
	var items []pendingMD
	for _, t := range plan.Tests {
		fence, content := t.Fence, t.Content
		if !t.HasFence && t.NextInfo != "" && t.NextInfo != "(no tag)" {
			// A fence of an earlier tag: retag it when it holds a JSON
			// object with a type.
			for _, b := range doc.CodeBlocks {
				if b.Fenced && b.Span.Start == t.Next.Start {
					v, errs := jsonsrc.Parse(data[b.Content.Start:b.Content.End])
					if len(errs) == 0 && v != nil && v.Kind() == jsonsrc.Object && v.Get("type") != nil {
						line := string(data[b.Span.Start:t.Next.End])
						at := strings.Index(line, t.NextInfo)
						edits = append(edits, edit{b.Span.Start + at, b.Span.Start + at + len(t.NextInfo), "test"})
						r.change("VERIFICATION_BLOCK", file, lineOf(data, b.Span.Start), fmt.Sprintf("the test block of %s tagged %q is now tagged `test`", t.ID, t.NextInfo))
						fence, content = b.Span, b.Content
						touched = append(touched, b.Span.Start)
					}
				}
			}
		}
		if content.End <= content.Start {
			continue
		}
		raw := data[content.Start:content.End]
		root, ok := parseTree(raw)
		if !ok {
			at := content.Start
			if _, errs := jsonsrc.Parse(raw); len(errs) > 0 {
				at += errs[0].Span.Start
			}
			items = append(items, pendingMD{Item{Code: buildplan.CodeJSON, File: file,
				Need: fmt.Sprintf("correct the JSON of the test block of %s, then run gddls migrate again", t.ID),
				Why:  "the block does not parse, so the migration leaves it as it is"}, at})
			continue
		}
		if root.kind != jsonsrc.Object {
			continue
		}
		shift := func(n int) int { return lineOf(data, content.Start) + n - 1 }
		changed := false
		typ := root.val("type")
		if typ != nil && typ.kind == jsonsrc.String {
			switch typ.str {
			case "property", "exhaustive-search":
				root.put("type", strNode("general"))
				changed = true
				r.change(codeTypeRetired, file, shift(typ.line), fmt.Sprintf("%s: the %s test became a general test", t.ID, typ.str))
			case "document-check":
				items = append(items, pendingMD{Item{Code: codeTypeRetired, File: file,
					Need: fmt.Sprintf("delete %s or rewrite it: a check of package files belongs in tuning.json's rules or in prose", t.ID),
					Why:  "the format leaves this decision to the designer"}, lineStartOffset(data, shift(typ.line))})
				continue
			}
		}
		for _, old := range sortedNames(renamedFields) {
			now := renamedFields[old]
			m := root.get(old)
			if m == nil {
				continue
			}
			if root.get(now) != nil {
				continue // both: left for the check and a person
			}
			m.key, m.keyRaw = now, quoteKey(now)
			root.dirty, changed = true, true
			r.change(codeFieldUnknown, file, shift(m.line), fmt.Sprintf("%s: %s became %s", t.ID, old, now))
		}
		for _, old := range sortedNames(droppedFields) {
			why := droppedFields[old]
			if m := root.get(old); m != nil {
				root.remove(old)
				changed = true
				r.change(codeFieldUnknown, file, shift(m.line), fmt.Sprintf("%s: %s removed: %s", t.ID, old, why))
			}
		}
		for _, sf := range scopeFields {
			m := root.get(sf.name)
			if m == nil {
				continue
			}
			text, ok := plainText(m.val)
			scope := root.val("scope")
			if !ok || scope != nil && scope.kind != jsonsrc.String {
				continue // left for a person: the check reports it
			}
			s := text
			if scope != nil {
				s = strings.TrimRight(scope.str, ". ") + ", " + sf.words + " " + text
			} else {
				s = sf.words + " " + text
			}
			root.put("scope", strNode(s))
			root.remove(sf.name)
			changed = true
			r.change(codeFieldUnknown, file, shift(m.line), fmt.Sprintf("%s: %s moved into scope (%q)", t.ID, sf.name, sf.words+" "+text))
		}
		if dc := root.val("direction_claims"); dc != nil && dc.kind == jsonsrc.Array {
			for i, e := range dc.elems {
				if e.kind != jsonsrc.String {
					continue
				}
				if now := direction.RetiredConstraint(e.str); now != "" {
					dc.elems[i] = strNode(now)
					dc.dirty, changed = true, true
					r.change("DIRECTION_CLAIMS_DANGLING", file, shift(e.line), fmt.Sprintf("%s: the claim %s became %s", t.ID, e.str, now))
				}
			}
		}
		if !changed {
			continue
		}
		edits = append(edits, edit{content.Start, content.End, string(encode(root, raw))})
		touched = append(touched, fence.Start)
	}
	edits, items = r.markerBlocks(file, data, edits, items)
	if len(edits) == 0 && len(items) == 0 {
		return
	}
	out := r.applyMD(file, data, edits, items)
	// What the check still reports in a rewritten block is for a person.
	newPlan := buildplan.Parse(markdown.Parse(out))
	starts := map[int]bool{}
	for _, off := range touched {
		starts[mapOffset(edits, off)] = true
	}
	findings := buildplan.Check(newPlan, file)
	for _, t := range newPlan.Tests {
		if starts[t.Fence.Start] && t.Unchanged != nil {
			findings = append(findings, r.checkUnchanged(t.Unchanged, file)...)
		}
	}
	for _, f := range findings {
		if f.Severity != source.Error {
			continue
		}
		for _, t := range newPlan.Tests {
			if starts[t.Fence.Start] && f.Span.Start >= t.Fence.Start && f.Span.Start < t.Fence.End {
				r.res.Items = append(r.res.Items, Item{Code: f.Code, File: file, Line: lineOf(out, f.Span.Start),
					Need: f.Message, Why: "the old test block did not hold what the v0.9 shape requires, and the migration does not invent it"})
			}
		}
	}
}

// markerBlocks removes each generated-contracts marker block of older
// versions (a begin marker line, its content and its end marker line); a
// begin marker without an end stays for a person.
func (r *run) markerBlocks(file string, data []byte, edits []edit, items []pendingMD) ([]edit, []pendingMD) {
	begin := -1
	for off := 0; off < len(data); {
		_, next := lineBounds(data, off)
		line := data[off:next]
		if m := buildplan.RetiredMarker.FindSubmatch(line); m != nil {
			if strings.EqualFold(string(m[1]), "end") {
				if begin >= 0 {
					start := begin
					if next == len(data) && begin > 0 {
						// At the end of the file: take the blank line before.
						if ps, _ := lineBounds(data, begin-1); strings.TrimSpace(string(data[ps:begin])) == "" {
							start = ps
						}
					}
					edits = append(edits, edit{start, dropBlankAfter(data, begin, next), ""})
					r.change("CONTRACT_BLOCK_RETIRED", file, lineOf(data, begin), "the generated-contracts marker block removed; gddls check --render-tests renders the tests")
					begin = -1
				}
			} else if begin < 0 {
				begin = off
			}
		}
		off = next
	}
	if begin >= 0 {
		items = append(items, pendingMD{Item{Code: "CONTRACT_BLOCK_RETIRED", File: file,
			Need: "delete the generated-contracts marker and what it holds",
			Why:  "the block has no end marker, so the migration cannot tell where it ends"}, begin})
	}
	return edits, items
}

// checkUnchanged checks an unchanged member written from an old
// freeze_invariant against the migrated clocks.json and the runtime
// addresses the chapters and clocks declare.
func (r *run) checkUnchanged(v *jsonsrc.Value, file string) []source.Finding {
	var cf *clocks.File
	if data, ok := r.cur["clocks.json"]; ok {
		cv, errs := jsonsrc.Parse(data)
		if len(errs) > 0 {
			return nil
		}
		cf = clocks.Parse("clocks.json", cv)
	}
	declared := map[string]bool{}
	if cf != nil {
		for _, c := range cf.Clocks {
			for _, a := range c.Advances {
				declared[a.Text] = true
			}
		}
	}
	for _, name := range sortedKeys(r.cur) {
		if chapterName.MatchString(name) {
			doc := markdown.Parse(r.cur[name])
			for _, cs := range doc.CodeSpans {
				if clocks.IsAddress(cs.Text(doc)) {
					declared[cs.Text(doc)] = true
				}
			}
		}
	}
	return clocks.CheckUnchanged(cf, v, func(a string) bool { return declared[a] }, file)
}

// plainText returns a string, a number or an array of them as one text.
func plainText(n *node) (string, bool) {
	switch n.kind {
	case jsonsrc.String:
		return n.str, true
	case jsonsrc.Number, jsonsrc.Bool:
		return n.raw, true
	case jsonsrc.Array:
		var parts []string
		for _, e := range n.elems {
			s, ok := plainText(e)
			if !ok || e.kind == jsonsrc.Array {
				return "", false
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, "; "), len(parts) > 0
	}
	return "", false
}

// sortedNames returns the keys of a map in order.
func sortedNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// lineStartOffset returns the offset of the start of a one-based line.
func lineStartOffset(data []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(string(data[off:]), '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}
