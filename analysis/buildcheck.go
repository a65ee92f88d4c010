package analysis

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/analysis/buildrecord"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/ruleline"
	"github.com/gddls/gddls/contracts/source"
)

// BuildResult is the check of one build record (SPEC §7).
type BuildResult struct {
	// Record is the parsed record; nil when the file is missing.
	Record *buildrecord.Record
	// Diagnostics are the findings, sorted by file and position: those of
	// the record by itself and, with a package, those of §7's
	// package-consistency checks (on the record, pointing into the
	// package), and the package's MANIFEST_JSON and TUNING_JSON.
	Diagnostics []Diagnostic
	// Outcome is the derived outcome.
	Outcome buildrecord.Outcome
	// Package is the source package, nil when none was given or none was
	// found at its folder.
	Package *Package
	// Tests are the package's tests (AT-n, then the generated ones), nil
	// without a package.
	Tests []BuildTest
}

// BuildTest is one test of a source package, by the name a build record
// uses.
type BuildTest struct {
	// Name is AT-<n> or <adoption>/<template>[/<row-id>].
	Name string
	// Type is "scenario" or "general" ("" for a block without a valid
	// type).
	Type string
	// File and Span place the test: its heading in the build plan, or the
	// adoption's contract key for a generated test.
	File string
	Span source.Span
}

// CheckBuild checks the build record at the absolute path record, whose
// bytes are data (found is false when the file does not exist or is not a
// file). With a package (snap is the snapshot holding the folder root), it
// also runs §7's package-consistency checks against the package at root;
// with a nil snap the record is checked alone. Nothing is read from disk.
func CheckBuild(record string, data []byte, found bool, snap *Snapshot, root string) *BuildResult {
	var p *Package
	if snap != nil {
		for _, q := range snap.Packages {
			if q.Root == root {
				p = q
			}
		}
	}
	c := checkRecord(record, data, found, snap, p, root, true)
	res := &BuildResult{Record: c.Rec, Package: p, Tests: c.Tests}
	res.Diagnostics = c.place(NewLines(record, data))
	errors := 0
	for _, d := range res.Diagnostics {
		if d.Severity == source.Error {
			errors++
		}
	}
	notPassed := 0
	if res.Record != nil {
		notPassed = len(res.Record.NotPassed)
	}
	res.Outcome = buildrecord.Derive(errors, snap != nil, len(res.Tests), notPassed)
	return res
}

// checkRecord checks a build record against the package p at root of snap
// (a nil snap: the record alone; a nil p: no package was found at root).
// copies adds the package's own MANIFEST_JSON and TUNING_JSON, as build
// mode reports them; the editor shows them in their files already.
func checkRecord(record string, data []byte, found bool, snap *Snapshot, p *Package, root string, copies bool) *BuildChecker {
	c := &BuildChecker{file: record, copies: copies}
	if !found {
		c.report(buildrecord.CodeFileMissing, source.Span{}, fmt.Sprintf("there is no build record file %s; give the path of an %s", filepath.Base(record), buildrecord.FileName))
	} else {
		c.Rec = buildrecord.Parse(record, data)
		c.out = append(c.out, c.Rec.Findings...)
	}
	if snap == nil {
		c.out = append(c.out, source.Finding{Code: buildrecord.CodeCrossChecksSkipped, Severity: source.Warning, File: record,
			Message: "the record was checked without its source package, so the checks against the package did not run (only the record's shape and the sum of its counts were checked); name the package folder after the record to run them"})
		return c
	}
	c.snap, c.P, c.root = snap, p, root
	c.run()
	return c
}

// BuildChecker holds one build-record check.
type BuildChecker struct {
	// file is the record's path and Rec its reading; snap is the snapshot
	// of the package checked against, root that package's folder and P the
	// package itself.
	file   string
	copies bool
	Rec    *buildrecord.Record
	snap   *Snapshot
	root   string
	P      *Package
	out    []source.Finding
	// copied are diagnostics of the package's own files reported as they
	// are (MANIFEST_JSON, TUNING_JSON).
	copied []Diagnostic
	// Tests are the tests of the package the record reports on.
	Tests []BuildTest
	// Expected is the key set of the snapshot (§7 check 4) with what each
	// key requires; held are key prefixes whose keys are not known because
	// a file they come from cannot be read.
	Expected map[string]*SnapshotKey
	held     []string
}

// SnapshotKey is what the package requires of one key of the snapshot.
type SnapshotKey struct {
	// Key is the key's name.
	Key string
	// Want is the number the key must hold, when the package decides it;
	// Why says where that number comes from.
	Want    *float64
	Why     string
	related []source.Related
	// Lo and Hi bound it when HasRange; Integer says it must be whole.
	HasRange bool
	Lo, Hi   float64
	rangeAt  source.Related
	Integer  bool
}

func (c *BuildChecker) report(code string, span source.Span, msg string, related ...source.Related) {
	c.out = append(c.out, source.Finding{Code: code, Severity: source.Error, File: c.file, Span: span, Message: msg, Related: related})
}

// place turns the findings into diagnostics: those of the record with its
// lines, the related places in the package with the snapshot's.
func (c *BuildChecker) place(lines *source.Lines) []Diagnostic {
	out := append([]Diagnostic(nil), c.copied...)
	for _, f := range c.out {
		span := f.Span
		if span == (source.Span{}) {
			span = source.Span{End: len(lines.LineText(0))}
		}
		d := Diagnostic{File: f.File, Range: lines.Range(span), Code: f.Code, Severity: f.Severity, Message: f.Message, Subject: f.Subject}
		for _, r := range f.Related {
			rl := RelatedLocation{File: r.File, Message: r.Message}
			if c.snap != nil {
				if pf := c.snap.files.get(r.File); pf != nil {
					rl.Range = pf.Lines.Range(r.Span)
				}
			}
			d.Related = append(d.Related, rl)
		}
		out = append(out, d)
	}
	sortDiagnostics(out)
	return out
}

func (c *BuildChecker) run() {
	manifestOK := c.readManifest()
	tuningOK := c.readTuning()
	planOK := c.readPlan()
	if c.P == nil || c.Rec == nil || c.Rec.Root == nil || c.P.Manifest == nil && c.P.TuningFile == nil {
		// A folder without manifest.json and tuning.json is no source
		// package to compare with.
		return
	}
	if manifestOK {
		c.identity()
	}
	c.answers(tuningOK)
	if tuningOK {
		c.snapshot()
		c.rules()
	}
	c.contractRules()
	c.checkTests(planOK)
	c.contracts()
}

// opening is where a finding about a missing member of v is shown: v's
// opening, else the record's.
func (c *BuildChecker) opening(v *jsonsrc.Value) source.Span {
	if v != nil {
		return v.Opening()
	}
	return c.Rec.Root.Opening()
}

// copy reports the package file's own syntax finding of code.
func (c *BuildChecker) copy(f *File, code string) {
	if f == nil || !c.copies {
		return
	}
	for _, d := range c.snap.Diagnostics(f.Path) {
		if d.Code == code {
			c.copied = append(c.copied, d)
		}
	}
}

// readManifest reports BUILD_SPEC_MISSING (with MANIFEST_JSON when the file
// does not parse) and says whether the manifest can be compared.
func (c *BuildChecker) readManifest() bool {
	path := filepath.Join(c.root, "manifest.json")
	var f *File
	if c.P != nil {
		f = c.P.Manifest
	}
	switch {
	case f == nil && c.P.caseSibling("manifest.json") != "":
		c.out = append(c.out, source.Finding{Code: buildrecord.CodeSpecMissing, Severity: source.Error, File: c.file, Subject: path,
			Message: "the source package's manifest.json " + c.P.caseSibling("manifest.json") + ", so the record's identity cannot be compared until then"})
		return false
	case f == nil:
		c.out = append(c.out, source.Finding{Code: buildrecord.CodeSpecMissing, Severity: source.Error, File: c.file, Subject: path,
			Message: fmt.Sprintf("the source package has no manifest.json (looked in %s), so the record's identity cannot be compared; name the package folder that holds it", c.root)})
		return false
	case f.Skipped != "" || c.P.Unreadable("manifest.json") || c.P.ManifestModel == nil:
		c.out = append(c.out, source.Finding{Code: buildrecord.CodeSpecMissing, Severity: source.Error, File: c.file, Subject: path,
			Message: "the source package's manifest.json cannot be read as JSON, so the record's identity cannot be compared; fix the manifest first"})
		c.copy(f, "MANIFEST_JSON")
		return false
	}
	return true
}

// readTuning reports BUILD_SPEC_TUNING_MISSING, or the package's
// TUNING_JSON, and says whether tuning.json can be read.
func (c *BuildChecker) readTuning() bool {
	var f *File
	if c.P != nil {
		f = c.P.TuningFile
	}
	if f == nil {
		msg := "the source package has no tuning.json, so the resolved tuning cannot be checked; name the package folder that holds it"
		if note := c.P.caseSibling("tuning.json"); note != "" {
			msg = "the source package's tuning.json " + note + ", so the resolved tuning cannot be checked until then"
		}
		c.out = append(c.out, source.Finding{Code: buildrecord.CodeSpecTuningMissing, Severity: source.Error, File: c.file, Subject: filepath.Join(c.root, "tuning.json"),
			Message: msg})
		return false
	}
	// A tuning.json that parses is read as it is, even when its top level
	// is not an object (the package check's TUNING_SCHEMA): it then
	// declares no key, rule or range.
	if c.P.Tuning == nil || f.Skipped != "" || hasCode(c.P.Tuning.Findings, tuning.CodeJSON) {
		c.copy(f, tuning.CodeJSON)
		return false
	}
	return true
}

// hasCode reports whether a finding of code is among findings.
func hasCode(findings []source.Finding, code string) bool {
	for _, f := range findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

// readPlan reports BUILD_SPEC_PLAN_MISSING and says whether the package's
// AT-n tests are known.
func (c *BuildChecker) readPlan() bool {
	var f *File
	if c.P != nil {
		f = c.P.files.get(buildplan.FileName)
	} else if c.snap != nil {
		f = c.snap.files.get(filepath.Join(c.root, buildplan.FileName))
	}
	if f == nil || f.Skipped != "" || f.entry == nil {
		what := "has no " + buildplan.FileName
		if f != nil {
			what = "has a " + buildplan.FileName + " that cannot be read"
		}
		msg := fmt.Sprintf("the source package %s, so its tests cannot be counted; a package without a build plan cannot have a conforming build", what)
		if note := c.P.caseSibling(buildplan.FileName); f == nil && note != "" {
			msg = "the source package's " + buildplan.FileName + " " + note + ", so its tests cannot be counted until then"
		}
		c.out = append(c.out, source.Finding{Code: buildrecord.CodeSpecPlanMissing, Severity: source.Error, File: c.file, Subject: filepath.Join(c.root, buildplan.FileName),
			Message: msg})
		return false
	}
	return true
}

// isString reports whether v is a string.
func isString(v *jsonsrc.Value) bool { return v != nil && v.Kind() == jsonsrc.String }

func (c *BuildChecker) manifestPlace(v *jsonsrc.Value, what string) []source.Related {
	if v == nil {
		return nil
	}
	return []source.Related{{File: c.P.Manifest.Path, Span: v.Span(), Message: what}}
}

// identity runs §7 checks 1 and 2 and rule 11.
func (c *BuildChecker) identity() {
	m := c.P.ManifestModel.Root
	for _, x := range []struct{ key, code string }{{"id", buildrecord.CodeSpecID}, {"version", buildrecord.CodeSpecVersion}} {
		got := c.Rec.Spec.Get(x.key)
		if !isString(got) {
			continue // a schema finding
		}
		s, want := got.Str(), m.Get(x.key)
		if !isString(want) || want.Str() != s {
			c.report(x.code, got.Span(), fmt.Sprintf("spec.%s is %q, but the source manifest's %s is %s; record the %s of the package the build was built from", x.key, s, x.key, describe(want), x.key),
				c.manifestPlace(want, "the manifest's "+x.key)...)
		}
	}
	md := m.Get("designer")
	if name := c.Rec.Designer.Get("name"); name != nil {
		if isString(name) {
			s, want := name.Str(), md.Get("name")
			if !isString(want) || want.Str() != s {
				c.report(buildrecord.CodeDesignerName, name.Span(), fmt.Sprintf("designer.name is %q, but the source manifest's designer is %s; copy the designer's name from the manifest", s, describe(want)),
					c.manifestPlace(want, "the manifest's designer name")...)
			}
		}
	}
	for _, key := range []string{"handle", "contact"} {
		got, want := c.Rec.Designer.Get(key), md.Get(key)
		if got == nil || want == nil {
			continue
		}
		if !buildrecord.Equal(got, want) {
			c.report(buildrecord.CodeDesignerField, got.Span(), fmt.Sprintf("designer.%s is %s, but the source manifest gives %s; copy it from the manifest, or leave it out", key, describe(got), describe(want)),
				c.manifestPlace(want, "the manifest's designer "+key)...)
		}
	}
	if c.Rec.Commerce != nil {
		want := m.Get("commerce")
		switch {
		case want == nil:
			c.report(buildrecord.CodeCommerceMismatch, c.Rec.Commerce.Opening(), "the record copies a commerce object, but the source manifest has none; remove commerce from the record")
		case !buildrecord.Equal(c.Rec.Commerce, want):
			c.report(buildrecord.CodeCommerceMismatch, c.Rec.Commerce.Opening(), "commerce is not an exact copy of the source manifest's commerce object; copy it as it is (license, split and derived_from), or leave it out",
				c.manifestPlace(want, "the manifest's commerce")...)
		}
	}
}

// describe names a JSON value for a message: a string quoted, else its
// kind, or "missing".
func describe(v *jsonsrc.Value) string {
	switch {
	case v == nil:
		return "missing"
	case v.Kind() == jsonsrc.String:
		return strconv.Quote(v.Str())
	case v.Kind() == jsonsrc.Number:
		return v.Raw()
	}
	return v.Describe()
}

// answers runs §7 check 3 and the rejection of check 4.
func (c *BuildChecker) answers(tuningOK bool) {
	if c.P.Unreadable("personalization.json") || c.Rec.AnswersObject == nil {
		return // its syntax error, or the record's schema finding
	}
	pers := c.P.pers
	var ids []string
	if pers != nil {
		ids = pers.QuestionIDs()
	}
	persFile := filepath.Join(c.root, "personalization.json")
	for _, a := range c.Rec.Answers {
		var q *personalization.Question
		if pers != nil {
			q = pers.Question(a.Key)
		}
		if q == nil {
			msg := fmt.Sprintf("the answer %q names no question of the source package", a.Key)
			switch {
			case pers == nil:
				msg += "; it has no personalization.json, so answers is {}"
			case Nearest(a.Key, ids) != "":
				msg += fmt.Sprintf("; did you mean %q?", Nearest(a.Key, ids))
			default:
				msg += "; remove it"
			}
			c.report(buildrecord.CodeAnswerUnknown, a.KeySpan, msg)
			continue
		}
		at := []source.Related{{File: persFile, Span: q.IDSpan, Message: "question " + q.ID}}
		v := a.Value
		switch q.Type {
		case personalization.Number:
			if !v.Finite() {
				c.report(buildrecord.CodeAnswerType, v.Span(), fmt.Sprintf("question %q is a number question, so its answer must be a finite number, not %s", q.ID, v.Describe()), at...)
				continue
			}
			if !tuningOK || q.SetsKey == "" {
				continue
			}
			if e, s := c.P.Tuning.SetsTarget(q.SetsKey); s == tuning.Settable && !e.Admits(v.Num()) {
				c.report(buildrecord.CodeAnswerRejected, v.Span(), fmt.Sprintf("the answer %s to question %q is outside the range [%s, %s] of %s, which it sets; an answer outside the range is rejected, never moved to the range's end", v.Raw(), q.ID,
					ruleline.FormatNumber(e.Range[0]), ruleline.FormatNumber(e.Range[1]), q.SetsKey), at...)
			}
		case personalization.Choice, personalization.Text:
			if v.Kind() != jsonsrc.String {
				c.report(buildrecord.CodeAnswerType, v.Span(), fmt.Sprintf("question %q is a %s question, so its answer must be a string, not %s", q.ID, q.Type, v.Describe()), at...)
				continue
			}
			if q.Type == personalization.Choice && q.Option(v.Str()) == nil {
				var opts []string
				for _, o := range q.Options {
					opts = append(opts, o.ID)
				}
				msg := fmt.Sprintf("%q is not an option of question %q", v.Str(), q.ID)
				if len(opts) > 0 {
					msg += "; its options are " + strings.Join(quotedList(opts), ", ")
				}
				c.report(buildrecord.CodeAnswerOption, v.Span(), msg, at...)
			}
		}
	}
	if pers == nil {
		return
	}
	for _, q := range pers.Questions {
		if q.ID == "" || c.Rec.Answer(q.ID) != nil {
			continue
		}
		c.report(buildrecord.CodeAnswerMissing, c.Rec.AnswersObject.Opening(), fmt.Sprintf("answers has no answer to question %q; record the answer the build used, its default included", q.ID),
			source.Related{File: persFile, Span: q.IDSpan, Message: "question " + q.ID})
	}
}

func quotedList(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

// expectedKeys builds the key set of §7 check 4 with what each key
// requires.
func (c *BuildChecker) expectedKeys() {
	p := c.P
	tuningFile := p.TuningFile.Path
	c.Expected = map[string]*SnapshotKey{}
	for _, e := range p.Tuning.Entries {
		k := &SnapshotKey{Key: e.Key}
		if e.Range != nil {
			k.HasRange, k.Lo, k.Hi = true, e.Range[0], e.Range[1]
			if r, ok := p.Tuning.Range(e.Key); ok {
				k.rangeAt = source.Related{File: tuningFile, Span: r.ValueSpan, Message: "the range of " + e.Key}
			}
		}
		if e.Kind() == tuning.Decided && e.HasNumber {
			n := e.Number
			k.Want, k.Why = &n, "the package decides it"
			k.related = []source.Related{{File: tuningFile, Span: e.ValueSpan, Message: "the value of " + e.Key}}
		}
		c.Expected[e.Key] = k
	}
	// The answers, in question order; a later assignment replaces an
	// earlier one (§5 procedure step 2).
	if p.pers != nil {
		persFile := filepath.Join(c.root, "personalization.json")
		for _, t := range p.pers.Apply(func(q *personalization.Question) *jsonsrc.Value {
			if a := c.Rec.Answer(q.ID); a != nil {
				return a.Value
			}
			return nil
		}) {
			k := c.Expected[t.Key]
			if _, s := p.Tuning.SetsTarget(t.Key); s != tuning.Settable || k == nil {
				continue
			}
			n := t.Value
			k.Want = &n
			if t.Option != nil {
				k.Why = fmt.Sprintf("option %q of question %q sets it", t.Option.ID, t.Question.ID)
				k.related = []source.Related{{File: persFile, Span: t.ValueSpan, Message: fmt.Sprintf("the number option %q sets", t.Option.ID)}}
			} else if c.Rec.Answer(t.Question.ID) == nil {
				k.Why = fmt.Sprintf("the record gives question %q no answer, so its default sets it", t.Question.ID)
				k.related = []source.Related{{File: persFile, Span: t.ValueSpan, Message: fmt.Sprintf("the default of question %q", t.Question.ID)}}
			} else {
				k.Why = fmt.Sprintf("the answer to question %q sets it", t.Question.ID)
				k.related = nil // the answer is in the record
			}
		}
	}
	ids := make([]string, 0, len(p.Collections))
	for id := range p.Collections {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		col := p.Collections[id]
		fields, known := tuning.OpenFields(id, &tuning.Collection{Records: col.Records, HasSchema: col.HasSchema, Schema: col.Schema})
		if !known {
			c.held = append(c.held, "collections."+id+".")
		}
		for _, f := range fields {
			c.Expected[f.Address] = &SnapshotKey{Key: f.Address, Integer: f.Integer}
		}
	}
	for _, a := range p.Adoptions.All() {
		if a.ParseError != nil || a.Root == nil {
			c.held = append(c.held, "contracts."+a.ID+".")
			continue
		}
		st := p.State(a)
		if st == nil {
			continue
		}
		for _, d := range a.Values {
			if !st.Active(d.Name.Text) {
				continue
			}
			key := "contracts." + a.ID + "." + d.Name.Text
			k := &SnapshotKey{Key: key}
			if n, ok := st.Resolved(d.Name.Text); ok {
				k.Want, k.Why = &n, fmt.Sprintf("it is the resolved number of %s in adoption %s", d.Name.Text, a.ID)
				if s := a.SuppliedValue(d.Name.Text); s != nil && s.Value != nil {
					k.related = []source.Related{{File: a.File, Span: s.Value.Span(), Message: "the value of " + d.Name.Text}}
				}
			}
			c.Expected[key] = k
		}
	}
}

// isHeld reports whether a key comes from a file that cannot be read.
func (c *BuildChecker) isHeld(key string) bool {
	for _, h := range c.held {
		if strings.HasPrefix(key, h) {
			return true
		}
	}
	return false
}

// MissingKeys returns, sorted, the snapshot keys the package requires
// that resolved_tuning.values does not record.
func (c *BuildChecker) MissingKeys() []string {
	var missing []string
	for key := range c.Expected {
		if c.Rec.Value(key) == nil {
			missing = append(missing, key)
		}
	}
	sort.Strings(missing)
	return missing
}

// snapshot runs §7 check 4 over resolved_tuning.values.
func (c *BuildChecker) snapshot() {
	c.expectedKeys()
	values := c.Rec.ValuesObject
	if values == nil {
		return // the record's schema finding
	}
	for _, key := range c.MissingKeys() {
		c.report(buildrecord.CodeTuningKeys, values.Opening(), fmt.Sprintf("resolved_tuning.values lacks %q; the snapshot holds every values and open key, every present open record field and every active contract value, so record the number the build used", key))
	}
	var all []string
	for key := range c.Expected {
		all = append(all, key)
	}
	for _, e := range c.Rec.Values {
		k := c.Expected[e.Key]
		if k == nil {
			if c.isHeld(e.Key) {
				continue
			}
			msg := fmt.Sprintf("%q is not a key of the source package's snapshot", e.Key)
			if n := Nearest(e.Key, all); n != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", n)
			}
			c.report(buildrecord.CodeTuningKeys, e.KeySpan, msg+"; remove it: an inactive contract value and a missing open record field have no key")
			continue
		}
		v := e.Value
		if !v.Finite() {
			continue // the schema finding
		}
		if k.Want != nil && v.Num() != *k.Want {
			c.report(buildrecord.CodeTuningValue, v.Span(), fmt.Sprintf("%s is %s, but %s must be %s: %s", e.Key, v.Raw(), e.Key, ruleline.FormatNumber(*k.Want), k.Why), k.related...)
		}
		if k.HasRange && (v.Num() < k.Lo || v.Num() > k.Hi) {
			var rel []source.Related
			if k.rangeAt.File != "" {
				rel = append(rel, k.rangeAt)
			}
			c.report(buildrecord.CodeTuningRange, v.Span(), fmt.Sprintf("%s is %s, outside its range [%s, %s]; record a number inside the range", e.Key, v.Raw(), ruleline.FormatNumber(k.Lo), ruleline.FormatNumber(k.Hi)), rel...)
		}
		if k.Integer && v.Num() != math.Trunc(v.Num()) {
			c.report(buildrecord.CodeRecordValue, v.Span(), fmt.Sprintf("%s is an integer record field, but the build records %s; record a whole number", e.Key, v.Raw()))
		}
	}
}

// recorded returns the finite number the record gives a key.
func (c *BuildChecker) recorded(key string) (float64, bool) {
	if e := c.Rec.Value(key); e != nil && e.Value.Finite() {
		return e.Value.Num(), true
	}
	return 0, false
}

// valueSpan is where a finding about names is shown: the first name the
// record holds, else the values object.
func (c *BuildChecker) valueSpan(names []string) source.Span {
	for _, n := range names {
		if e := c.Rec.Value(n); e != nil {
			return e.Value.Span()
		}
	}
	return c.opening(c.Rec.ValuesObject)
}

// rules evaluates the rules of tuning.json over the recorded numbers
// (BUILD_TUNING_RULE).
func (c *BuildChecker) rules() {
	if c.Rec.ValuesObject == nil {
		return
	}
	p := c.P
	records := func(id string) (*tuning.Collection, bool) {
		col := p.Collections[id]
		if col == nil {
			return nil, false
		}
		return &tuning.Collection{Records: col.Records, HasSchema: col.HasSchema, Schema: col.Schema}, true
	}
	inSet := func(name string) bool { return c.Expected[name] != nil || c.isHeld(name) }
	for _, br := range p.Tuning.CheckBuild(records, c.recorded, inSet) {
		if br.Problem == "" {
			continue
		}
		c.report(buildrecord.CodeTuningRule, c.valueSpan(br.Names), br.Problem,
			source.Related{File: p.TuningFile.Path, Span: br.Rule.LineSpan, Message: "rule " + br.Rule.Name})
	}
}

// contractRules re-evaluates the comparison rules of every adoption over
// its values in the snapshot (§10.6 rules 3 and 5).
func (c *BuildChecker) contractRules() {
	for _, a := range c.P.Adoptions.All() {
		if a.ParseError != nil {
			continue
		}
		for _, r := range a.Rules {
			if r.Kind != contracts.RuleComparison {
				continue
			}
			rl, err := ruleline.Parse(r.Line)
			if err != nil {
				continue // CONTRACT_RULE_INVALID in the package
			}
			var names []string
			skip := false
			for _, n := range rl.Names() {
				key := "contracts." + a.ID + "." + n.Text
				if a.Declaration(n.Text) == nil {
					skip = true // CONTRACT_RULE_INVALID in the package
				}
				if _, ok := c.recorded(key); !ok {
					skip = true // an absent address is skipped, not failed
				}
				names = append(names, key)
			}
			if skip {
				continue
			}
			res := rl.Eval(func(name string) (float64, bool) { return c.recorded("contracts." + a.ID + "." + name) })
			related := source.Related{File: a.File, Span: r.Value.Span(), Message: "rule " + r.Name.Text + " of " + a.ID}
			switch {
			case res.Err != nil:
				c.report(buildrecord.CodeContractRule, c.valueSpan(names), fmt.Sprintf("rule %q of adoption %s cannot be computed over the recorded values: %s", r.Name.Text, a.ID, res.Err.Msg), related)
			case !res.Holds:
				var used []string
				for _, n := range names {
					v, _ := c.recorded(n)
					used = append(used, n+" = "+ruleline.FormatNumber(v))
				}
				c.report(buildrecord.CodeContractRule, c.valueSpan(names), fmt.Sprintf("rule %q of adoption %s does not hold over the recorded values: %s with %s gives %s %s %s", r.Name.Text, a.ID, r.Line,
					strings.Join(dedupe(used), ", "), ruleline.FormatNumber(res.Left), rl.Op, ruleline.FormatNumber(res.Right)), related)
			}
		}
	}
}

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// contractsKnown reports whether every adoption and pack could be read,
// so the generated tests and the checked adoptions are known.
func (c *BuildChecker) contractsKnown() bool {
	for _, a := range c.P.Adoptions.All() {
		if a.ParseError != nil || a.Root == nil {
			return false
		}
	}
	for _, pk := range c.P.Packs {
		if pk.Unparsed {
			return false
		}
	}
	return true
}

// packageTests lists the package's tests: the AT-n tests of the build plan
// when planOK, then the tests the checked packs generate.
func (c *BuildChecker) packageTests(planOK bool) {
	seen := map[string]bool{}
	add := func(t BuildTest) {
		if !seen[t.Name] {
			seen[t.Name] = true
			c.Tests = append(c.Tests, t)
		}
	}
	if f := c.P.files.get(buildplan.FileName); planOK && f != nil {
		for _, t := range f.entry.getPlan().Tests {
			if _, ok := t.N(); ok {
				add(BuildTest{Name: "AT-" + t.Number, Type: t.Type, File: f.Path, Span: t.IDSpan})
			}
		}
	}
	for _, a := range c.P.Adoptions.All() {
		pk := c.P.PackFor(a)
		st := c.P.State(a)
		if pk == nil || st == nil || a.ParseError != nil {
			continue
		}
		tests, _ := pack.Render(a, st, pk)
		for _, t := range tests {
			add(BuildTest{Name: t.Name, Type: t.Type, File: a.File, Span: a.ContractKey})
		}
	}
}

// test returns the package's test of a name, or nil.
func (c *BuildChecker) test(name string) *BuildTest {
	for i := range c.Tests {
		if c.Tests[i].Name == name {
			return &c.Tests[i]
		}
	}
	return nil
}

// nameKnowable reports whether the package's tests of the form of name
// are known: AT-n names with the build plan, generated names with every
// adoption and pack read.
func (c *BuildChecker) nameKnowable(name string, planOK, contractsOK bool) bool {
	if strings.Contains(name, "/") {
		return contractsOK
	}
	return planOK
}

// unknownTest says why a test name names no test of the package.
func (c *BuildChecker) unknownTest(name string) string {
	msg := fmt.Sprintf("%q names no test of the source package", name)
	var names []string
	for _, t := range c.Tests {
		names = append(names, t.Name)
	}
	switch {
	case strings.HasPrefix(name, "AT "):
		msg += fmt.Sprintf("; a generated test is named without the heading's \"AT \" prefix: %q", strings.TrimPrefix(name, "AT "))
	case strings.HasPrefix(name, "AT-0") && len(name) > 4:
		msg += "; write the number without leading zeros"
	case Nearest(name, names) != "":
		msg += fmt.Sprintf("; did you mean %q?", Nearest(name, names))
	default:
		msg += "; a test is named AT-<n> or <adoption>/<template>[/<row-id>]"
	}
	return msg
}

// checkTests runs §7 checks 5 to 7.
func (c *BuildChecker) checkTests(planOK bool) {
	c.packageTests(planOK)
	contractsOK := c.contractsKnown()
	rec := c.Rec
	if total, ok := buildrecord.Count(rec.Total); ok && planOK && contractsOK && total != float64(len(c.Tests)) {
		c.report(buildrecord.CodeAcceptanceTotal, rec.Total.Span(), fmt.Sprintf("total is %s, but the source package has %s: %s; count every AT-n test of %s and every test its checked packs generate",
			rec.Total.Raw(), fmt.Sprintf("%d %s", len(c.Tests), Plural(len(c.Tests), "test", "tests")), summarizeTests(c.Tests), buildplan.FileName))
	}
	for _, s := range rec.Sampled {
		t := c.test(s.Key)
		switch {
		case t == nil && c.nameKnowable(s.Key, planOK, contractsOK):
			c.report(buildrecord.CodeSampledUnknown, s.KeySpan, c.unknownTest(s.Key))
		case t != nil && t.Type != "general":
			c.report(buildrecord.CodeSampledType, s.KeySpan, fmt.Sprintf("%s is a %s test; only a general test has a scope that can be sampled, so remove it from sampled", s.Key, OrWord(t.Type, "untyped")),
				source.Related{File: t.File, Span: t.Span, Message: "the test " + t.Name})
		}
		if np := rec.NotPassedEntry(s.Key); np != nil && np.Result == "not-run" {
			c.report(buildrecord.CodeSampledNotRun, s.KeySpan, fmt.Sprintf("%s is listed as sampled, but its not_passed result is not-run; a test that did not run sampled nothing, so remove it from sampled", s.Key))
		}
	}
	for _, np := range rec.NotPassed {
		if c.test(np.Name) == nil && c.nameKnowable(np.Name, planOK, contractsOK) {
			c.report(buildrecord.CodeNotPassedUnknown, np.NameSpan, c.unknownTest(np.Name))
		}
	}
	if rec.Ran() && rec.Runner == nil && rec.Evidence != nil && rec.Evidence.Kind() == jsonsrc.Object {
		c.report(buildrecord.CodeRunnerRequired, rec.Evidence.Opening(), "a test ran, so evidence needs runner, the id and version of the runner profile that produced the results")
	}
}

// RecordChecker returns a checker of the build record f, its current text
// parsed as far as it goes, against the package it is checked against, with
// the snapshot's key set and the package's tests computed and no check run:
// what the editor's queries in a build record read. It is nil when the
// record has no package.
func (s *Snapshot) RecordChecker(f *File) *BuildChecker {
	p := s.BuildRecordPackage(f.Path)
	if p == nil {
		return nil
	}
	c := &BuildChecker{file: f.Path, Rec: buildrecord.Parse(f.Path, f.Content), snap: s, P: p, root: p.Root}
	if p.Tuning != nil && p.Tuning.Readable {
		c.expectedKeys()
	}
	plan := p.FileAt("05-build-plan.md") != nil
	c.packageTests(plan)
	return c
}

// OrWord returns s, or alt when s is empty.
func OrWord(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// summarizeTests lists a few test names for a message.
func summarizeTests(tests []BuildTest) string {
	if len(tests) == 0 {
		return "none"
	}
	var names []string
	for i, t := range tests {
		if i == 6 {
			names = append(names, fmt.Sprintf("and %d more", len(tests)-6))
			break
		}
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

// checkedPack returns the pack that makes adoption a checked (§10.8): the
// pack that serves it or, when that file does not parse, the file named
// for its definition, which keeps it checked (§10.8 rule 5) and whose
// digest is still that of its bytes.
func (c *BuildChecker) checkedPack(a *contracts.Adoption) *pack.Pack {
	if pk := c.P.PackFor(a); pk != nil {
		return pk
	}
	for _, pk := range c.P.Packs {
		if pk.Unparsed && pk.NameOK && a.Identity() != "" && pk.Identity() == a.Identity() {
			return pk
		}
	}
	return nil
}

// contracts runs §7 check 8 over evidence.contracts.
func (c *BuildChecker) contracts() {
	rec := c.Rec
	// Which adoptions are checked is known when every adoption parses and
	// every pack file that does not parse is named for its definition.
	known := true
	for _, a := range c.P.Adoptions.All() {
		known = known && a.ParseError == nil && a.Root != nil
	}
	for _, pk := range c.P.Packs {
		known = known && (!pk.Unparsed || pk.NameOK)
	}
	checked := map[string]*pack.Pack{}
	var ids []string
	for _, a := range c.P.Adoptions.All() {
		if pk := c.checkedPack(a); pk != nil && a.ParseError == nil {
			checked[a.ID] = pk
			ids = append(ids, a.ID)
		}
	}
	switch {
	case rec.Contracts == nil && len(ids) > 0 && rec.Evidence != nil && rec.Evidence.Kind() == jsonsrc.Object:
		c.report(buildrecord.CodeContractsMissing, rec.Evidence.Opening(), fmt.Sprintf("the source package has checked adoptions (%s), so evidence needs contracts: one entry of adoption and pack digest for each", strings.Join(ids, ", ")))
		return
	case rec.Contracts == nil:
		return
	case len(ids) == 0 && known:
		c.report(buildrecord.CodeContractsExtra, rec.Contracts.KeySpan(), "the source package has no checked adoption (every adoption is promised, or there is none), so evidence has no contracts; remove it")
		return
	}
	if rec.Contracts.Value.Kind() != jsonsrc.Array {
		return // the schema finding
	}
	seen := map[string]bool{}
	for _, e := range rec.ContractEntries {
		if e.Adoption == "" || e.Pack == "" {
			c.report(buildrecord.CodeContractPack, e.Value.Opening(), "an entry of contracts needs both an adoption id and a pack digest")
			continue
		}
		if seen[e.Adoption] {
			c.report(buildrecord.CodeContractPack, e.AdoptionSpan, fmt.Sprintf("adoption %s has two entries in contracts; keep one", e.Adoption))
			continue
		}
		seen[e.Adoption] = true
		pk := checked[e.Adoption]
		if pk == nil {
			if !known {
				continue
			}
			msg := fmt.Sprintf("%q is not a checked adoption of the source package", e.Adoption)
			if a := c.P.Adoption(e.Adoption); a != nil {
				msg = fmt.Sprintf("adoption %s is promised (its package has no pack for it), so it has no entry in contracts; remove it", e.Adoption)
			} else if n := Nearest(e.Adoption, ids); n != "" {
				msg += fmt.Sprintf("; did you mean %q?", n)
			}
			c.report(buildrecord.CodeContractPack, e.AdoptionSpan, msg)
			continue
		}
		if e.Pack != pk.Digest() {
			c.report(buildrecord.CodeContractPack, e.PackSpan, fmt.Sprintf("the pack digest of %s is not the digest of its source pack %s (%s); record the digest of the pack the build was verified against", e.Adoption, filepath.Base(pk.File), pk.Digest()),
				source.Related{File: pk.File, Message: "the pack of " + e.Adoption})
		}
	}
	for _, id := range ids {
		if !seen[id] {
			c.report(buildrecord.CodeContractPack, rec.Contracts.Value.Opening(), fmt.Sprintf("contracts has no entry for the checked adoption %s; add {\"adoption\": %q, \"pack\": %q}", id, id, checked[id].Digest()))
		}
	}
}

// checkBuildRecords checks every build record of the snapshot against its
// package (Options.BuildRecords, for the editor; see BuildRecordPackage);
// a record without one is checked alone.
func (b *builder) checkBuildRecords() {
	for _, f := range b.snap.files.all() {
		if filepath.Base(f.Path) != buildrecord.FileName || f.Skipped != "" {
			continue
		}
		p := b.snap.BuildRecordPackage(f.Path)
		if p == nil {
			b.findings = append(b.findings, checkRecord(f.Path, f.Content, true, nil, nil, "", false).out...)
			continue
		}
		b.findings = append(b.findings, checkRecord(f.Path, f.Content, true, b.snap, p, p.Root, false).out...)
	}
}

// besidePackage returns the package whose root is a folder of dir, when
// there is exactly one.
func (s *Snapshot) besidePackage(dir string) *Package {
	var found *Package
	for _, p := range s.Packages {
		if filepath.Dir(p.Root) != dir {
			continue
		}
		if found != nil {
			return nil
		}
		found = p
	}
	return found
}

// BuildRecordPackage returns the package a build record of the snapshot is
// checked against in the editor: the package holding it, else the one
// package in a folder beside it (game/ for ./opengdd-build.json), else the
// one package in a folder beside the record's folder (game/ for
// builds/opengdd-build.json); nil when there is none or more than one.
func (s *Snapshot) BuildRecordPackage(path string) *Package {
	if p := s.PackageOf(path); p != nil {
		return p
	}
	dir := filepath.Dir(path)
	if p := s.besidePackage(dir); p != nil {
		return p
	}
	return s.besidePackage(filepath.Dir(dir))
}

// Plural returns one when n is 1 and many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
