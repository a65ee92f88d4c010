package ide

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/buildrecord"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// The editor queries of a build record, opengdd-build.json (SPEC §7), read
// against the package it is checked against (Snapshot.BuildRecordPackage):
// completion of question and option ids in answers, of the snapshot's keys
// in resolved_tuning.values, of test names in not_passed and sampled, of
// checked adoption ids and their pack digests in evidence.contracts; hover
// on a snapshot key with what the package requires of it. Everything else
// (members, closed values, field hovers, quick fixes) is the record's
// jsonshape shape, served by shaped.go.

// isBuildRecord reports whether f is a build record.
func isBuildRecord(f *analysis.File) bool {
	return f != nil && filepath.Base(f.Path) == buildrecord.FileName && f.Skipped == ""
}

// recordChecker returns a checker of the record f (its current text,
// parsed as far as it goes) against its package, with the snapshot's key
// set and the package's tests computed; nil without a package.
func recordChecker(s *analysis.Snapshot, f *analysis.File) *analysis.BuildChecker {
	return s.RecordChecker(f)
}

// completeBuildRecord completes in a build record; ok is false when the
// place is not one it knows, and the shape's completion applies.
func completeBuildRecord(s *analysis.Snapshot, f *analysis.File, offset int) ([]CompletionItem, bool) {
	c := recordChecker(s, f)
	if c == nil {
		return nil, false
	}
	ctx := jsonsrc.ContextAt(f.Content, offset)
	keys := ctx.Keys()
	path := strings.Join(keys, ".")
	var out []CompletionItem
	add := func(item CompletionItem) {
		item.SortText = fmt.Sprintf("%04d", len(out))
		out = append(out, item)
	}
	switch {
	case ctx.Pos == jsonsrc.PosKey && path == "personalization.answers":
		if c.P.PersonalizationFile() == nil {
			return nil, true
		}
		for _, q := range c.P.PersonalizationFile().Questions {
			if q.ID == "" || ctx.HasKey(q.ID) {
				continue
			}
			add(CompletionItem{Label: q.ID, Kind: CompleteQuestion, Detail: q.Type + " question", Documentation: q.Prompt, Edit: keyEditAt(ctx, q.ID)})
		}
		return out, true
	case ctx.Pos == jsonsrc.PosValue && len(keys) == 3 && keys[0] == "personalization" && keys[1] == "answers":
		if c.P.PersonalizationFile() == nil {
			return nil, true
		}
		q := c.P.PersonalizationFile().Question(keys[2])
		if q == nil {
			return nil, true
		}
		switch q.Type {
		case personalization.Choice:
			for _, o := range q.Options {
				doc := o.Label
				if sets := setsText(o.Sets); sets != "" {
					doc += "\n\nSets " + sets + "."
				}
				detail := "option of " + q.ID
				if q.DefaultOption() == o {
					detail += " (the default)"
				}
				add(CompletionItem{Label: o.ID, Kind: CompleteOption, Detail: detail, Documentation: doc, Edit: valueEditAt(ctx, o.ID, true)})
			}
		case personalization.Number, personalization.Text:
			if q.Default != nil && !ctx.InString || q.Default != nil && q.Default.Kind() == jsonsrc.String {
				text := q.Default.Raw()
				edit := &TextEdit{Span: ctx.Token, NewText: text}
				if q.Default.Kind() == jsonsrc.String {
					text, edit = q.Default.Str(), valueEditAt(ctx, q.Default.Str(), true)
				}
				add(CompletionItem{Label: text, Kind: CompleteKeyword, Detail: "the default of " + q.ID, Documentation: q.Prompt, Edit: edit})
			}
		}
		return out, true
	case ctx.Pos == jsonsrc.PosKey && path == "resolved_tuning.values":
		var names []string
		for key := range c.Expected {
			names = append(names, key)
		}
		sort.Strings(names)
		for _, key := range names {
			if ctx.HasKey(key) {
				continue
			}
			add(CompletionItem{Label: key, Kind: CompleteTuningKey, Detail: summary(c.Expected[key]), Documentation: keyDoc(c, key), Edit: keyEditAt(ctx, key)})
		}
		return out, true
	case ctx.Pos == jsonsrc.PosKey && path == "evidence.acceptance.not_passed":
		for _, t := range c.Tests {
			if !ctx.HasKey(t.Name) {
				add(CompletionItem{Label: t.Name, Kind: CompleteKeyword, Detail: analysis.OrWord(t.Type, "untyped") + " test", Edit: keyEditAt(ctx, t.Name)})
			}
		}
		return out, true
	case (ctx.Pos == jsonsrc.PosElement || ctx.Pos == jsonsrc.PosValue) && (path == "evidence.acceptance.sampled" || strings.HasPrefix(path, "evidence.acceptance.sampled.")):
		for _, t := range c.Tests {
			if t.Type == "general" {
				add(CompletionItem{Label: t.Name, Kind: CompleteKeyword, Detail: "general test", Edit: valueEditAt(ctx, t.Name, true)})
			}
		}
		return out, true
	case ctx.Pos == jsonsrc.PosValue && len(keys) == 4 && keys[0] == "evidence" && keys[1] == "contracts":
		entry := valueAt(draftJSON(f.Content, ctx), contextPath(ctx.Path[:len(ctx.Path)-1]))
		named := ""
		if a := entry.Get("adoption"); a != nil && a.Kind() == jsonsrc.String {
			named = a.Str()
		}
		for _, a := range c.P.Adoptions.All() {
			pk := c.P.PackFor(a)
			if pk == nil || a.ParseError != nil {
				continue
			}
			switch keys[3] {
			case "adoption":
				add(CompletionItem{Label: a.ID, Kind: CompleteKeyword, Detail: "checked adoption of " + a.Identity(), Documentation: "Its pack digest: " + pk.Digest(), Edit: valueEditAt(ctx, a.ID, true)})
			case "pack":
				if named == "" || named == a.ID {
					add(CompletionItem{Label: pk.Digest(), Kind: CompleteKeyword, Detail: "the pack of " + a.ID, Documentation: filepath.Base(pk.File), Edit: valueEditAt(ctx, pk.Digest(), true)})
				}
			}
		}
		return out, true
	}
	return nil, false
}

// summary says in a few words what a snapshot key must hold.
func summary(k *analysis.SnapshotKey) string {
	switch {
	case k.Want != nil:
		return "must be " + ruleline.FormatNumber(*k.Want)
	case k.HasRange:
		return fmt.Sprintf("within [%s, %s]", ruleline.FormatNumber(k.Lo), ruleline.FormatNumber(k.Hi))
	case k.Integer:
		return "a whole number"
	}
	return "the build's number"
}

// keyDoc explains what the package requires of a snapshot key, for hover
// and completion.
func keyDoc(c *analysis.BuildChecker, key string) string {
	k := c.Expected[key]
	if k == nil {
		return ""
	}
	var kind string
	switch {
	case strings.HasPrefix(key, "collections."):
		kind = "an open record field"
		if k.Integer {
			kind += " of type integer"
		}
	case strings.HasPrefix(key, "contracts."):
		kind = "the value of an active contract declaration"
	default:
		if e, ok := c.P.Tuning.Lookup(key); ok {
			kind = "a " + e.Kind().String() + " tuning number"
			if e.Open && e.HasNumber {
				kind += fmt.Sprintf(" (its guess is %s)", ruleline.FormatNumber(e.Number))
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` is %s.", key, kind)
	if k.Want != nil {
		fmt.Fprintf(&b, " The record must hold %s: %s.", ruleline.FormatNumber(*k.Want), k.Why)
	} else {
		b.WriteString(" The builder records the number the build used.")
	}
	if k.HasRange {
		fmt.Fprintf(&b, " It stays inside [%s, %s].", ruleline.FormatNumber(k.Lo), ruleline.FormatNumber(k.Hi))
	}
	if k.Integer {
		b.WriteString(" It is a whole number.")
	}
	return b.String()
}

// hoverBuildRecord answers a hover on a key of resolved_tuning.values with
// what the package requires of it; ok is false elsewhere.
func hoverBuildRecord(s *analysis.Snapshot, f *analysis.File, offset int) (*HoverInfo, bool) {
	c := recordChecker(s, f)
	if c == nil || c.Rec.ValuesObject == nil {
		return nil, false
	}
	for _, e := range c.Rec.Values {
		if e.KeySpan.Start > offset || offset > e.KeySpan.End {
			continue
		}
		if c.Expected == nil {
			return nil, false
		}
		if c.Expected[e.Key] == nil {
			return &HoverInfo{Markdown: fmt.Sprintf("**%s**\n\nNot a key of the snapshot of package `%s`: a build records every values and open key of tuning.json, every present open record field and every active contract value, and nothing else.", e.Key, packageName(c)), Span: e.KeySpan}, true
		}
		return &HoverInfo{Markdown: fmt.Sprintf("**%s** · %s\n\n%s", e.Key, summary(c.Expected[e.Key]), keyDoc(c, e.Key)), Span: e.KeySpan}, true
	}
	return nil, false
}

// packageName names the source package in hovers.
func packageName(c *analysis.BuildChecker) string {
	if m := c.P.ManifestModel; m != nil && m.ID != "" {
		return m.ID
	}
	return strconv.Quote(filepath.Base(c.P.Root))
}

// fixBuildRecord offers the quick fixes of a build record's findings
// against its package: the number the package requires for a
// BUILD_TUNING_VALUE, the keys a BUILD_TUNING_KEYS says are missing, the
// package's count for BUILD_ACCEPTANCE_TOTAL, the pack's digest for a
// BUILD_CONTRACT_PACK on a digest, and the default answers for
// BUILD_ANSWER_MISSING.
func (x *fixer) fixBuildRecord(d analysis.Diagnostic, ds source.Span) {
	c := recordChecker(x.s, x.f)
	if c == nil || c.Rec.Root == nil {
		return
	}
	replace := func(title, text string) {
		x.add(title, d.Code, true, TextEdit{Span: ds, NewText: text})
	}
	e := newJSONEditor(x.f.Content, c.Rec.Root)
	expand := e.multiline(c.Rec.Root)
	switch d.Code {
	case buildrecord.CodeTuningValue:
		for _, v := range c.Rec.Values {
			if k := c.Expected[v.Key]; k != nil && k.Want != nil && v.Value.Span() == ds {
				n := ruleline.FormatNumber(*k.Want)
				replace(fmt.Sprintf("Record %s for %s", n, v.Key), n)
			}
		}
	case buildrecord.CodeTuningKeys:
		obj := c.Rec.ValuesObject
		if obj == nil || obj.Opening() != ds {
			return
		}
		var missing []jsonKV
		for _, key := range c.MissingKeys() {
			missing = append(missing, jsonKV{key, ruleline.FormatNumber(proposal(c.Expected[key], c.P))})
		}
		for _, kv := range missing {
			if edit, ok := e.insertMembers(obj, []jsonKV{kv}, expand); ok {
				x.add(fmt.Sprintf("Add the missing key %q", kv.key), d.Code, len(missing) == 1, edit)
			}
		}
		if len(missing) > 1 {
			if edit, ok := e.insertMembers(obj, missing, expand); ok {
				x.add(fmt.Sprintf("Add the %d missing keys", len(missing)), d.Code, true, edit)
			}
		}
	case buildrecord.CodeAcceptanceTotal:
		replace(fmt.Sprintf("Count the package's %d tests", len(c.Tests)), strconv.Itoa(len(c.Tests)))
	case buildrecord.CodeContractPack:
		for _, entry := range c.Rec.ContractEntries {
			if entry.PackSpan != ds {
				continue
			}
			if a := c.P.Adoption(entry.Adoption); a != nil {
				if pk := c.P.PackFor(a); pk != nil {
					replace("Record the digest of "+filepath.Base(pk.File), strconv.Quote(pk.Digest()))
				}
			}
		}
	case buildrecord.CodeAnswerMissing:
		obj := c.Rec.AnswersObject
		if obj == nil || obj.Opening() != ds || c.P.PersonalizationFile() == nil {
			return
		}
		var missing []jsonKV
		for _, q := range c.P.PersonalizationFile().Questions {
			if q.ID != "" && q.Default != nil && c.Rec.Answer(q.ID) == nil {
				var b strings.Builder
				jsonsrc.Write(&b, q.Default, jsonsrc.WriteOptions{})
				missing = append(missing, jsonKV{q.ID, b.String()})
			}
		}
		if edit, ok := e.insertMembers(obj, missing, expand); ok && len(missing) > 0 {
			x.add("Record the default answers of the unanswered questions", d.Code, true, edit)
		}
	}
}

// proposal is the number a quick fix writes for a missing snapshot key:
// the required one, else the open key's guess, else the low end of its
// range, else 0.
func proposal(k *analysis.SnapshotKey, p *analysis.Package) float64 {
	switch {
	case k.Want != nil:
		return *k.Want
	}
	if p.Tuning != nil {
		if e, ok := p.Tuning.Lookup(k.Key); ok && e.Open && e.HasNumber && (!k.HasRange || e.Number >= k.Lo && e.Number <= k.Hi) {
			return e.Number
		}
	}
	if k.HasRange {
		return k.Lo
	}
	return 0
}
