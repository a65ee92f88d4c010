package analysis

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

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
func isBuildRecord(f *File) bool {
	return f != nil && filepath.Base(f.Path) == buildrecord.FileName && f.Skipped == ""
}

// recordChecker returns a checker of the record f (its current text,
// parsed as far as it goes) against its package, with the snapshot's key
// set and the package's tests computed; nil without a package.
func (s *Snapshot) recordChecker(f *File) *buildChecker {
	p := s.BuildRecordPackage(f.Path)
	if p == nil {
		return nil
	}
	c := &buildChecker{file: f.Path, rec: buildrecord.Parse(f.Path, f.Content), snap: s, p: p, root: p.Root}
	if p.Tuning != nil && p.Tuning.Readable {
		c.expectedKeys()
	}
	plan := p.files.get("05-build-plan.md") != nil
	c.packageTests(plan)
	return c
}

// completeBuildRecord completes in a build record; ok is false when the
// place is not one it knows, and the shape's completion applies.
func (s *Snapshot) completeBuildRecord(f *File, offset int) ([]CompletionItem, bool) {
	c := s.recordChecker(f)
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
		if c.p.PersonalizationFile() == nil {
			return nil, true
		}
		for _, q := range c.p.PersonalizationFile().Questions {
			if q.ID == "" || ctx.HasKey(q.ID) {
				continue
			}
			add(CompletionItem{Label: q.ID, Kind: CompleteQuestion, Detail: q.Type + " question", Documentation: q.Prompt, Edit: keyEditAt(ctx, q.ID)})
		}
		return out, true
	case ctx.Pos == jsonsrc.PosValue && len(keys) == 3 && keys[0] == "personalization" && keys[1] == "answers":
		if c.p.PersonalizationFile() == nil {
			return nil, true
		}
		q := c.p.PersonalizationFile().Question(keys[2])
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
			if q.Default != nil && !ctx.InString || q.Default != nil && q.Default.Kind == jsonsrc.String {
				text := q.Default.Raw
				edit := &TextEdit{Span: ctx.Token, NewText: text}
				if q.Default.Kind == jsonsrc.String {
					text, edit = q.Default.Str, valueEditAt(ctx, q.Default.Str, true)
				}
				add(CompletionItem{Label: text, Kind: CompleteKeyword, Detail: "the default of " + q.ID, Documentation: q.Prompt, Edit: edit})
			}
		}
		return out, true
	case ctx.Pos == jsonsrc.PosKey && path == "resolved_tuning.values":
		var names []string
		for key := range c.expected {
			names = append(names, key)
		}
		sort.Strings(names)
		for _, key := range names {
			if ctx.HasKey(key) {
				continue
			}
			add(CompletionItem{Label: key, Kind: CompleteTuningKey, Detail: c.expected[key].summary(), Documentation: c.keyDoc(key), Edit: keyEditAt(ctx, key)})
		}
		return out, true
	case ctx.Pos == jsonsrc.PosKey && path == "evidence.acceptance.not_passed":
		for _, t := range c.tests {
			if !ctx.HasKey(t.Name) {
				add(CompletionItem{Label: t.Name, Kind: CompleteKeyword, Detail: orWord(t.Type, "untyped") + " test", Edit: keyEditAt(ctx, t.Name)})
			}
		}
		return out, true
	case (ctx.Pos == jsonsrc.PosElement || ctx.Pos == jsonsrc.PosValue) && (path == "evidence.acceptance.sampled" || strings.HasPrefix(path, "evidence.acceptance.sampled.")):
		for _, t := range c.tests {
			if t.Type == "general" {
				add(CompletionItem{Label: t.Name, Kind: CompleteKeyword, Detail: "general test", Edit: valueEditAt(ctx, t.Name, true)})
			}
		}
		return out, true
	case ctx.Pos == jsonsrc.PosValue && len(keys) == 4 && keys[0] == "evidence" && keys[1] == "contracts":
		entry := valueAt(draftJSON(f.Content, ctx), contextPath(ctx.Path[:len(ctx.Path)-1]))
		named := ""
		if a := entry.Get("adoption"); a != nil && a.Kind == jsonsrc.String {
			named = a.Str
		}
		for _, a := range c.p.Adoptions {
			pk := c.p.PackFor(a)
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
func (k *snapshotKey) summary() string {
	switch {
	case k.want != nil:
		return "must be " + ruleline.FormatNumber(*k.want)
	case k.hasRange:
		return fmt.Sprintf("within [%s, %s]", ruleline.FormatNumber(k.lo), ruleline.FormatNumber(k.hi))
	case k.integer:
		return "a whole number"
	}
	return "the build's number"
}

// keyDoc explains what the package requires of a snapshot key, for hover
// and completion.
func (c *buildChecker) keyDoc(key string) string {
	k := c.expected[key]
	if k == nil {
		return ""
	}
	var kind string
	switch {
	case strings.HasPrefix(key, "collections."):
		kind = "an open record field"
		if k.integer {
			kind += " of type integer"
		}
	case strings.HasPrefix(key, "contracts."):
		kind = "the value of an active contract declaration"
	default:
		if e, ok := c.p.Tuning.Lookup(key); ok {
			kind = "a " + e.Kind().String() + " tuning number"
			if e.Open && e.HasNumber {
				kind += fmt.Sprintf(" (its guess is %s)", ruleline.FormatNumber(e.Number))
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` is %s.", key, kind)
	if k.want != nil {
		fmt.Fprintf(&b, " The record must hold %s: %s.", ruleline.FormatNumber(*k.want), k.why)
	} else {
		b.WriteString(" The builder records the number the build used.")
	}
	if k.hasRange {
		fmt.Fprintf(&b, " It stays inside [%s, %s].", ruleline.FormatNumber(k.lo), ruleline.FormatNumber(k.hi))
	}
	if k.integer {
		b.WriteString(" It is a whole number.")
	}
	return b.String()
}

// hoverBuildRecord answers a hover on a key of resolved_tuning.values with
// what the package requires of it; ok is false elsewhere.
func (s *Snapshot) hoverBuildRecord(f *File, offset int) (*Hover, bool) {
	c := s.recordChecker(f)
	if c == nil || c.rec.ValuesObject == nil {
		return nil, false
	}
	for _, e := range c.rec.Values {
		if e.KeySpan.Start > offset || offset > e.KeySpan.End {
			continue
		}
		if c.expected == nil {
			return nil, false
		}
		if c.expected[e.Key] == nil {
			return &Hover{Markdown: fmt.Sprintf("**%s**\n\nNot a key of the snapshot of package `%s`: a build records every values and open key of tuning.json, every present open record field and every active contract value, and nothing else.", e.Key, c.packageName()), Span: e.KeySpan}, true
		}
		return &Hover{Markdown: fmt.Sprintf("**%s** · %s\n\n%s", e.Key, c.expected[e.Key].summary(), c.keyDoc(e.Key)), Span: e.KeySpan}, true
	}
	return nil, false
}

// packageName names the source package in hovers.
func (c *buildChecker) packageName() string {
	if m := c.p.ManifestModel; m != nil && m.ID != "" {
		return m.ID
	}
	return strconv.Quote(filepath.Base(c.p.Root))
}

// fixBuildRecord offers the quick fixes of a build record's findings
// against its package: the number the package requires for a
// BUILD_TUNING_VALUE, the keys a BUILD_TUNING_KEYS says are missing, the
// package's count for BUILD_ACCEPTANCE_TOTAL, the pack's digest for a
// BUILD_CONTRACT_PACK on a digest, and the default answers for
// BUILD_ANSWER_MISSING.
func (x *fixer) fixBuildRecord(d Diagnostic, ds source.Span) {
	c := x.s.recordChecker(x.f)
	if c == nil || c.rec.Root == nil {
		return
	}
	replace := func(title, text string) {
		x.add(title, d.Code, true, TextEdit{Span: ds, NewText: text})
	}
	e := newJSONEditor(x.f.Content, c.rec.Root)
	expand := e.multiline(c.rec.Root)
	switch d.Code {
	case buildrecord.CodeTuningValue:
		for _, v := range c.rec.Values {
			if k := c.expected[v.Key]; k != nil && k.want != nil && v.Value.Span == ds {
				n := ruleline.FormatNumber(*k.want)
				replace(fmt.Sprintf("Record %s for %s", n, v.Key), n)
			}
		}
	case buildrecord.CodeTuningKeys:
		obj := c.rec.ValuesObject
		if obj == nil || obj.Opening() != ds {
			return
		}
		var missing []jsonKV
		for _, key := range c.missingKeys() {
			missing = append(missing, jsonKV{key, ruleline.FormatNumber(c.expected[key].proposal(c.p))})
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
		replace(fmt.Sprintf("Count the package's %d tests", len(c.tests)), strconv.Itoa(len(c.tests)))
	case buildrecord.CodeContractPack:
		for _, entry := range c.rec.ContractEntries {
			if entry.PackSpan != ds {
				continue
			}
			if a := c.p.Adoption(entry.Adoption); a != nil {
				if pk := c.p.PackFor(a); pk != nil {
					replace("Record the digest of "+filepath.Base(pk.File), strconv.Quote(pk.Digest()))
				}
			}
		}
	case buildrecord.CodeAnswerMissing:
		obj := c.rec.AnswersObject
		if obj == nil || obj.Opening() != ds || c.p.PersonalizationFile() == nil {
			return
		}
		var missing []jsonKV
		for _, q := range c.p.PersonalizationFile().Questions {
			if q.ID != "" && q.Default != nil && c.rec.Answer(q.ID) == nil {
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
func (k *snapshotKey) proposal(p *Package) float64 {
	switch {
	case k.want != nil:
		return *k.want
	}
	if p.Tuning != nil {
		if e, ok := p.Tuning.Lookup(k.key); ok && e.Open && e.HasNumber && (!k.hasRange || e.Number >= k.lo && e.Number <= k.hi) {
			return e.Number
		}
	}
	if k.hasRange {
		return k.lo
	}
	return 0
}
