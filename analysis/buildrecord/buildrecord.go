// Package buildrecord reads a build record, opengdd-build.json (SPEC §7):
// the builder's report of one build of a package. Parse takes the bytes and
// returns a typed model with spans and every finding the record allows by
// itself:
//
//   - BUILD_JSON when the bytes are not one JSON text (at the error);
//   - BUILD_SCHEMA for every break of the published shape of the record,
//     written here with jsonshape (closed objects, required members, types,
//     patterns and bounds; result_hash and payload when a test ran), with
//     one focused finding for each member retired by earlier versions;
//   - BUILD_ACCEPTANCE_SHAPE when acceptance.passed or acceptance.total is
//     not a number (instead of BUILD_SCHEMA for the same value);
//   - BUILD_PAYLOAD_PATH for a payload.file that is absolute, starts with a
//     URL scheme, holds a backslash or climbs out of the record's folder;
//   - BUILD_ACCEPTANCE_ACCOUNTING when passed plus the number of not_passed
//     entries is not total (§7 check 6, the one check that needs no
//     package).
//
// The checks against the source package (§7 checks 1 to 8 and the rules)
// belong to the analysis package, which reads this model. Outcome derives
// the build outcome of §7. A member written twice counts with its last
// value, as JSON readers take it. Pure: no file system, no globals beyond
// the compiled shape.
package buildrecord

import (
	"math"
	"sort"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// FileName is the name of a build record.
const FileName = "opengdd-build.json"

// The codes of SPEC §7. The first group is what the record alone decides
// (Parse); the others need the source package.
const (
	CodeFileMissing        = "BUILD_FILE_MISSING"
	CodeJSON               = "BUILD_JSON"
	CodeSchema             = "BUILD_SCHEMA"
	CodePayloadPath        = "BUILD_PAYLOAD_PATH"
	CodeAcceptanceShape    = "BUILD_ACCEPTANCE_SHAPE"
	CodeAccounting         = "BUILD_ACCEPTANCE_ACCOUNTING"
	CodeCrossChecksSkipped = "BUILD_SPEC_CROSS_CHECKS_SKIPPED"

	CodeSpecMissing       = "BUILD_SPEC_MISSING"
	CodeSpecTuningMissing = "BUILD_SPEC_TUNING_MISSING"
	CodeSpecPlanMissing   = "BUILD_SPEC_PLAN_MISSING"
	CodeSpecID            = "BUILD_SPEC_ID"
	CodeSpecVersion       = "BUILD_SPEC_VERSION"
	CodeDesignerName      = "BUILD_DESIGNER_NAME"
	CodeDesignerField     = "BUILD_DESIGNER_FIELD"
	CodeCommerceMismatch  = "BUILD_COMMERCE_MISMATCH"
	CodeAnswerMissing     = "BUILD_ANSWER_MISSING"
	CodeAnswerUnknown     = "BUILD_ANSWER_UNKNOWN"
	CodeAnswerType        = "BUILD_ANSWER_TYPE"
	CodeAnswerOption      = "BUILD_ANSWER_OPTION"
	CodeAnswerRejected    = "BUILD_ANSWER_REJECTED"
	CodeTuningKeys        = "BUILD_TUNING_KEYS"
	CodeTuningRange       = "BUILD_TUNING_RANGE"
	CodeTuningValue       = "BUILD_TUNING_VALUE"
	CodeTuningRule        = "BUILD_TUNING_RULE"
	CodeRecordValue       = "BUILD_RECORD_VALUE"
	CodeContractRule      = "BUILD_CONTRACT_RULE"
	CodeAcceptanceTotal   = "BUILD_ACCEPTANCE_TOTAL"
	CodeSampledUnknown    = "BUILD_SAMPLED_UNKNOWN"
	CodeSampledType       = "BUILD_SAMPLED_TYPE"
	CodeSampledNotRun     = "BUILD_SAMPLED_NOT_RUN"
	CodeNotPassedUnknown  = "BUILD_NOT_PASSED_UNKNOWN"
	CodeRunnerRequired    = "BUILD_RUNNER_REQUIRED"
	CodeContractsMissing  = "BUILD_CONTRACTS_MISSING"
	CodeContractsExtra    = "BUILD_CONTRACTS_UNEXPECTED"
	CodeContractPack      = "BUILD_CONTRACT_PACK"
)

// Entry is one member of a map of the record (answers, values): its key and
// value with their spans.
type Entry struct {
	Key     string
	KeySpan source.Span
	Value   *jsonsrc.Value
}

// Result is one entry of acceptance.not_passed.
type Result struct {
	Name     string
	NameSpan source.Span
	// Result is "failed", "partial" or "not-run" when the entry says so
	// with a string, else "".
	Result string
	Value  *jsonsrc.Value
}

// Contract is one entry of evidence.contracts; a member that is not a
// string has an empty text.
type Contract struct {
	Value    *jsonsrc.Value
	Adoption string
	// AdoptionSpan and PackSpan are the spans of the two strings, or the
	// entry's opening when a member is absent.
	AdoptionSpan source.Span
	Pack         string
	PackSpan     source.Span
}

// Record is a parsed build record.
type Record struct {
	// File is the path given to Parse, used in findings.
	File string
	// Data are the record's bytes.
	Data []byte
	// Root is the parsed JSON; nil when the bytes do not parse.
	Root *jsonsrc.Value

	// Spec, Designer, Personalization, ResolvedTuning, Evidence,
	// Acceptance and Commerce are the members' values, nil when absent.
	Spec, Designer, Commerce, Evidence, Acceptance *jsonsrc.Value
	// Answers and Values are the members of personalization.answers and
	// resolved_tuning.values, last one first written when repeated; the
	// objects are AnswersObject and ValuesObject (nil when absent or not
	// objects).
	Answers       []Entry
	AnswersObject *jsonsrc.Value
	Values        []Entry
	ValuesObject  *jsonsrc.Value
	// Passed and Total are acceptance.passed and total, nil when absent.
	Passed, Total *jsonsrc.Value
	// Sampled are the string entries of acceptance.sampled.
	Sampled []Entry
	// NotPassed are the entries of acceptance.not_passed, in order.
	NotPassed       []Result
	NotPassedObject *jsonsrc.Value
	// Runner is evidence.runner, nil when absent.
	Runner *jsonsrc.Member
	// Contracts is the evidence.contracts member, nil when absent;
	// ContractEntries its object entries.
	Contracts       *jsonsrc.Member
	ContractEntries []Contract

	// Findings are the findings of the record by itself, in source order.
	Findings []source.Finding

	// answerAt, valueAt and notPassedAt index Answers, Values and
	// NotPassed by key, so that lookups stay cheap in a huge record.
	answerAt, valueAt, notPassedAt map[string]int
}

// index returns the position of each entry's key.
func index[E any](list []E, key func(*E) string) map[string]int {
	m := make(map[string]int, len(list))
	for i := range list {
		m[key(&list[i])] = i
	}
	return m
}

// Parse reads and checks a build record.
func Parse(file string, data []byte) *Record {
	r := &Record{File: file, Data: data}
	root, errs := jsonsrc.Parse(data)
	if len(errs) > 0 {
		e := errs[0]
		r.Findings = append(r.Findings, source.Finding{Code: CodeJSON, Severity: source.Error, File: file, Span: e.Span,
			Message: "the build record is not valid JSON: " + e.Msg + "; fix the syntax so the record can be read"})
		return r
	}
	if root == nil {
		r.Findings = append(r.Findings, source.Finding{Code: CodeJSON, Severity: source.Error, File: file,
			Message: "the build record is empty; it must be one JSON object"})
		return r
	}
	r.Root = root
	r.read()
	r.Findings = append(r.Findings, r.shapeFindings()...)
	r.checkPayloadPath()
	r.checkAccounting()
	sort.SliceStable(r.Findings, func(i, j int) bool { return r.Findings[i].Span.Start < r.Findings[j].Span.Start })
	return r
}

// object returns v when it is an object, else nil.
func object(v *jsonsrc.Value) *jsonsrc.Value {
	if v != nil && v.Kind() == jsonsrc.Object {
		return v
	}
	return nil
}

// get returns the last member named key of an object v, or nil.
func get(v *jsonsrc.Value, key string) *jsonsrc.Member {
	if object(v) == nil {
		return nil
	}
	var last *jsonsrc.Member
	for i := range v.Members() {
		if v.Members()[i].Key == key && v.Members()[i].Value != nil {
			last = &v.Members()[i]
		}
	}
	return last
}

func value(v *jsonsrc.Value, key string) *jsonsrc.Value {
	if m := get(v, key); m != nil {
		return m.Value
	}
	return nil
}

// entries returns the members of a map, each key once with its last value,
// at the position of its last writing.
func entries(v *jsonsrc.Value) []Entry {
	var out []Entry
	for _, m := range v.LastMembers() {
		if m.Value != nil {
			out = append(out, Entry{Key: m.Key, KeySpan: m.KeySpan(), Value: m.Value})
		}
	}
	return out
}

func (r *Record) read() {
	root := r.Root
	r.Spec = value(root, "spec")
	r.Designer = value(root, "designer")
	r.Commerce = value(root, "commerce")
	r.Evidence = value(root, "evidence")
	r.AnswersObject = object(value(value(root, "personalization"), "answers"))
	r.Answers = entries(r.AnswersObject)
	r.ValuesObject = object(value(value(root, "resolved_tuning"), "values"))
	r.Values = entries(r.ValuesObject)
	r.Acceptance = object(value(r.Evidence, "acceptance"))
	r.Passed = value(r.Acceptance, "passed")
	r.Total = value(r.Acceptance, "total")
	if s := value(r.Acceptance, "sampled"); s != nil && s.Kind() == jsonsrc.Array {
		for _, e := range s.Elems() {
			if e.Kind() == jsonsrc.String {
				r.Sampled = append(r.Sampled, Entry{Key: e.Str(), KeySpan: e.Span(), Value: e})
			}
		}
	}
	r.NotPassedObject = object(value(r.Acceptance, "not_passed"))
	for _, e := range entries(r.NotPassedObject) {
		res := Result{Name: e.Key, NameSpan: e.KeySpan, Value: e.Value}
		if v := value(e.Value, "result"); v != nil && v.Kind() == jsonsrc.String {
			res.Result = v.Str()
		}
		r.NotPassed = append(r.NotPassed, res)
	}
	r.answerAt = index(r.Answers, func(e *Entry) string { return e.Key })
	r.valueAt = index(r.Values, func(e *Entry) string { return e.Key })
	r.notPassedAt = index(r.NotPassed, func(n *Result) string { return n.Name })
	r.Runner = get(r.Evidence, "runner")
	r.Contracts = get(r.Evidence, "contracts")
	if r.Contracts != nil && r.Contracts.Value.Kind() == jsonsrc.Array {
		for _, e := range r.Contracts.Value.Elems() {
			if e.Kind() != jsonsrc.Object {
				continue
			}
			c := Contract{Value: e, AdoptionSpan: e.Opening(), PackSpan: e.Opening()}
			if a := value(e, "adoption"); a != nil && a.Kind() == jsonsrc.String {
				c.Adoption, c.AdoptionSpan = a.Str(), a.Span()
			}
			if p := value(e, "pack"); p != nil && p.Kind() == jsonsrc.String {
				c.Pack, c.PackSpan = p.Str(), p.Span()
			}
			r.ContractEntries = append(r.ContractEntries, c)
		}
	}
}

// Answer returns the recorded answer to a question, or nil.
func (r *Record) Answer(id string) *Entry {
	if i, ok := r.answerAt[id]; ok {
		return &r.Answers[i]
	}
	return nil
}

// Value returns the recorded entry of a key of resolved_tuning.values, or
// nil.
func (r *Record) Value(key string) *Entry {
	if i, ok := r.valueAt[key]; ok {
		return &r.Values[i]
	}
	return nil
}

// NotPassedEntry returns the not_passed entry of a test, or nil.
func (r *Record) NotPassedEntry(name string) *Result {
	if i, ok := r.notPassedAt[name]; ok {
		return &r.NotPassed[i]
	}
	return nil
}

// Count returns v as a whole number of 0 or more (a count of tests), and
// false when it is not one.
func Count(v *jsonsrc.Value) (float64, bool) {
	if !v.Finite() || v.Num() < 0 || v.Num() != math.Trunc(v.Num()) {
		return 0, false
	}
	return v.Num(), true
}

// Ran reports whether the record says a test ran (§7 rule 1): passed is
// greater than zero, or a not_passed entry is failed or partial.
func (r *Record) Ran() bool {
	if r.Passed.Finite() && r.Passed.Num() > 0 {
		return true
	}
	for _, n := range r.NotPassed {
		if n.Result == "failed" || n.Result == "partial" {
			return true
		}
	}
	return false
}

// checkAccounting reports BUILD_ACCEPTANCE_ACCOUNTING: passed plus the
// number of not_passed entries must be total. It needs two whole counts;
// a not_passed that is not an object is a schema finding and counts no
// entry.
func (r *Record) checkAccounting() {
	passed, ok1 := Count(r.Passed)
	total, ok2 := Count(r.Total)
	if !ok1 || !ok2 {
		return
	}
	n := float64(len(r.NotPassed))
	if passed+n == total {
		return
	}
	r.report(CodeAccounting, r.Total.Span(), accountingMessage(r.Passed.Raw(), len(r.NotPassed), r.Total.Raw(), passed+n))
}

func (r *Record) report(code string, span source.Span, msg string, related ...source.Related) {
	r.Findings = append(r.Findings, source.Finding{Code: code, Severity: source.Error, File: r.File, Span: span, Message: msg, Related: related})
}
