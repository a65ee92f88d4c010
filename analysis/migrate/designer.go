package migrate

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// designerForms lists the retired forms whose v0.9 form is a choice the
// format leaves to the designer (Appendix A): a reserved or all-digit
// tuning key, a question id with white space (and the tags naming it),
// empty definition text or a value name that begins with a digit in an
// adoption, a colon citation it cannot rewrite, and the retired
// placeholder and template types of a pack, which the migration never
// edits. Each is listed at the line the check reports it, in the files as
// the migration leaves them. A seed with a colon, which no check reports,
// is a review item.
func (r *run) designerForms() {
	if data, ok := r.cur["tuning.json"]; ok {
		for _, f := range tuning.Parse("tuning.json", data).Findings {
			if f.Severity != source.Error {
				continue
			}
			it := Item{File: "tuning.json", Line: lineOf(data, f.Span.Start), Code: f.Code}
			switch f.Code {
			case tuning.CodeKeyReserved:
				it.Need = "rename the key " + spanText(data, f.Span) + " so that its first segment is not a reserved word (for example feel.…), and change every place that names it"
				it.Why = "the new name is the designer's choice, and every citation, rule and personalization answer of the key must follow it"
			case tuning.CodeKey:
				if !allDigitKey(spanText(data, f.Span)) {
					continue
				}
				it.Need = "rename the key " + spanText(data, f.Span) + " so that at least one segment holds a letter, and change every place that names it"
				it.Why = "the new name is the designer's choice, and every citation, rule, range and personalization answer of the key must follow it"
			default:
				continue
			}
			r.res.Items = append(r.res.Items, it)
		}
	}
	if data, ok := r.cur["personalization.json"]; ok {
		if v, errs := jsonsrc.Parse(data); len(errs) == 0 && v != nil {
			if qs := v.Get("questions"); qs != nil && qs.Kind() == jsonsrc.Array {
				for _, q := range qs.Elems() {
					id := q.Get("id")
					if id == nil || id.Kind() != jsonsrc.String || !strings.ContainsFunc(id.Str(), personalization.IsWhitespace) {
						continue
					}
					r.res.Items = append(r.res.Items, Item{Code: personalization.CodeSchema, File: "personalization.json", Line: lineOf(data, id.Span().Start),
						Need: "write the question id " + spanText(data, id.Span()) + " without white space (join its words with _ or choose another id), and change every > PERSONALIZATION: tag that names it",
						Why:  "the new id is the designer's choice, and the tags in the chapters must follow it"})
					r.personalizationTags(id.Str())
				}
			}
		}
	}
	r.colonSeeds()
	for _, file := range sortedKeys(r.cur) {
		if !strings.HasPrefix(file, "contracts/") || strings.Count(file, "/") != 1 || !strings.HasSuffix(file, ".json") {
			continue
		}
		data := r.cur[file]
		if strings.HasSuffix(file, ".pack.json") {
			r.packForms(file, data)
			continue
		}
		a := contracts.ParseAdoption(file, data)
		if a.ParseError != nil {
			continue
		}
		if ver := a.Root.Get("verification"); ver != nil && ver.Kind() == jsonsrc.Object {
			for _, m := range ver.Members() {
				if m.Value != nil && m.Value.Kind() == jsonsrc.Object {
					r.seedItems(file, data, 0, m.Value.Get("seeds"))
				}
			}
		}
		if r.colonCitations(file, a) {
			data = r.cur[file]
			a = contracts.ParseAdoption(file, data)
		}
		for _, f := range a.Findings() {
			text := spanText(data, f.Span)
			it := Item{Code: f.Code, File: file, Line: lineOf(data, f.Span.Start)}
			switch {
			case f.Code == "CONTRACT_ENVELOPE_TYPE" && (text == `""` || emptyArray(text)):
				it.Need = "write the text this field of the definition is meant to hold (" + f.Message + ")"
				it.Why = "the migration invents no content; the edit changes the definition part, so a copy of a catalog definition becomes a fork"
			case f.Code == "CONTRACT_NAME_GRAMMAR" && len(text) > 1 && text[0] == '"' && text[1] >= '0' && text[1] <= '9':
				it.Need = "rename the value " + text + " so that it begins with a lowercase letter, and change every place that names it (its entry in values, rules, conditions, within bounds, citations and the pack's value-cite placeholders)"
				it.Why = "the new name is the designer's choice, it changes the definition part (a copy of a catalog definition becomes a fork) and the pack, which is named by digest"
			default:
				continue
			}
			r.res.Items = append(r.res.Items, it)
		}
	}
}

// colonCitations rewrites each citation of an adoption written in the
// colon form `tuning:<key>` as the bare key, when the key is a key of
// `values` in tuning.json that holds a number, so that the citation
// resolves; it lists every other colon citation. It reports whether it
// rewrote one.
func (r *run) colonCitations(file string, a *contracts.Adoption) bool {
	data := r.cur[file]
	var tf *tuning.File
	if td, ok := r.cur["tuning.json"]; ok {
		tf = tuning.Parse("tuning.json", td)
	}
	var edits []edit
	for _, f := range contracts.Check(a, nil) {
		if f.Code != "CONTRACT_CITATION_GRAMMAR" {
			continue
		}
		v, errs := jsonsrc.Parse([]byte(spanText(data, f.Span)))
		if len(errs) > 0 || v == nil || v.Kind() != jsonsrc.String || !strings.Contains(v.Str(), ":") {
			continue
		}
		line := lineOf(data, f.Span.Start)
		if key, ok := strings.CutPrefix(v.Str(), "tuning:"); ok && tf != nil {
			if e, found := tf.Lookup(key); found && !e.Open && e.HasNumber {
				edits = append(edits, edit{f.Span.Start, f.Span.End, strconv.Quote(key)})
				r.change("CONTRACT_CITATION_GRAMMAR", file, line, "the citation "+v.Str()+" became "+key)
				continue
			}
		}
		r.res.Items = append(r.res.Items, Item{Code: f.Code, File: file, Line: line,
			Need: "cite " + strconv.Quote(v.Str()) + " by the dotted address of the thing it names",
			Why:  "the migration rewrites only tuning:<key> with a key of values that holds a number; it cannot tell what this one names"})
	}
	if len(edits) == 0 {
		return false
	}
	r.setEdits(file, applyEdits(data, edits), edits)
	return true
}

// personalizationTag matches a `> PERSONALIZATION:` tag line and captures
// what it names.
var personalizationTag = regexp.MustCompile(`(?m)^[ \t]*(?:>[ \t]*)+PERSONALIZATION:[ \t]*(.*?)[ \t]*\r?$`)

// personalizationTags lists each tag of a chapter that names the question
// id, which holds white space: the check reads its first word as the id.
func (r *run) personalizationTags(id string) {
	for _, file := range sortedKeys(r.cur) {
		if strings.Contains(file, "/") || !strings.HasSuffix(file, ".md") {
			continue
		}
		data := r.cur[file]
		for _, m := range personalizationTag.FindAllSubmatchIndex(data, -1) {
			if strings.Join(strings.Fields(string(data[m[2]:m[3]])), " ") != strings.Join(strings.Fields(id), " ") {
				continue
			}
			r.res.Items = append(r.res.Items, Item{Code: "PERSONALIZATION_TAG_DANGLING", File: file, Line: lineOf(data, m[0]),
				Need: "name the question by its new id, once its id in personalization.json has no white space",
				Why:  "the question's new id is the designer's choice"})
		}
	}
}

// codeSeedColon is the code of the review item for a seed with a colon,
// a form no check reports (Appendix A gives it no code).
const codeSeedColon = "MIGRATE_SEED_COLON"

// colonSeeds lists, for review, each entry of a test's seeds in
// 05-build-plan.md that holds a colon: a seed may not hold one, since the
// colon separates the parts of a seed address, but no check reports it.
func (r *run) colonSeeds() {
	const file = "05-build-plan.md"
	data, ok := r.cur[file]
	if !ok {
		return
	}
	for _, t := range buildplan.Parse(markdown.Parse(data)).Tests {
		if !t.HasFence || t.Content.End <= t.Content.Start {
			continue
		}
		v, errs := jsonsrc.Parse(data[t.Content.Start:t.Content.End])
		if len(errs) > 0 || v == nil {
			continue
		}
		r.seedItems(file, data, t.Content.Start, v.Get("seeds"))
	}
}

// seedItems lists, for review, each seed of the array seeds that holds a
// colon; the array was parsed from data at offset at.
func (r *run) seedItems(file string, data []byte, at int, seeds *jsonsrc.Value) {
	if seeds == nil || seeds.Kind() != jsonsrc.Array {
		return
	}
	for _, e := range seeds.Elems() {
		if e.Kind() != jsonsrc.String || !strings.Contains(e.Str(), ":") {
			continue
		}
		r.res.Items = append(r.res.Items, Item{Code: codeSeedColon, File: file, Line: lineOf(data, at+e.Span().Start), Review: true,
			Need: "choose a seed without a colon in place of " + strconv.Quote(e.Str()) + ", and change every place that uses it",
			Why:  "a colon separates the parts of a seed address; the new seed is the designer's choice, and no check reports the old one"})
	}
}

// surfacePlaceholder matches the retired placeholder of a pack template.
var surfacePlaceholder = regexp.MustCompile(`\{\{surface:`)

// retiredTemplateTypes are the template types a pack may no longer use.
var retiredTemplateTypes = map[string]bool{"property": true, "exhaustive-search": true, "document-check": true}

// packForms lists the retired forms of a pack: the migration does not
// edit a pack, which its catalog publishes and the adoptions name by
// digest.
func (r *run) packForms(file string, data []byte) {
	v, errs := jsonsrc.Parse(data)
	if len(errs) > 0 || v == nil {
		return
	}
	why := "a pack is published by its catalog and named by digest: the migration does not edit it, and a changed pack needs a new digest in each adoption that names it"
	if ts := v.Get("templates"); ts != nil && ts.Kind() == jsonsrc.Array {
		for _, t := range ts.Elems() {
			if ty := t.Get("type"); ty != nil && ty.Kind() == jsonsrc.String && retiredTemplateTypes[ty.Str()] {
				r.res.Items = append(r.res.Items, Item{Code: "CONTRACT_PACK_SHAPE", File: file, Line: lineOf(data, ty.Span().Start),
					Need: "give the template " + spanText(data, ty.Span()) + " a v0.9 type (a general test in place of property or exhaustive-search; a document-check has no v0.9 form) in a new version of the pack",
					Why:  why})
			}
		}
	}
	if ts := v.Get("templates"); ts != nil && ts.Kind() == jsonsrc.Array {
		for _, t := range ts.Elems() {
			if in := t.Get("inputs"); in != nil && in.Kind() == jsonsrc.Object {
				if sd := in.Get("seeds"); sd != nil && sd.Kind() == jsonsrc.Object {
					r.seedItems(file, data, 0, sd.Get("default"))
				}
			}
		}
	}
	for _, loc := range surfacePlaceholder.FindAllIndex(data, -1) {
		r.res.Items = append(r.res.Items, Item{Code: "CONTRACT_PLACEHOLDER", File: file, Line: lineOf(data, loc[0]),
			Need: "write {{inputs:<input>}} in place of {{surface:<input>}} in a new version of the pack",
			Why:  why})
	}
}

// spanText returns the bytes of a span.
func spanText(data []byte, s source.Span) string {
	if s.Start < 0 || s.End > len(data) || s.Start > s.End {
		return ""
	}
	return string(data[s.Start:s.End])
}

// allDigitKey reports a quoted tuning key whose every segment holds only
// digits.
func allDigitKey(quoted string) bool {
	key := strings.Trim(quoted, `"`)
	if key == "" {
		return false
	}
	for _, seg := range strings.Split(key, ".") {
		if seg == "" || strings.Trim(seg, "0123456789") != "" {
			return false
		}
	}
	return true
}

// emptyArray reports the text of an empty JSON array.
func emptyArray(text string) bool {
	return bytes.Equal(bytes.Join(bytes.Fields([]byte(text)), nil), []byte("[]"))
}
