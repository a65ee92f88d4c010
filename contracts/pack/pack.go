// Package pack reads OpenGDD verification packs (SPEC §10.7) and checks them
// against the adoptions they serve: the pack's own shape, its digest, the
// names its templates use, which templates are live for one adoption, and the
// acceptance tests the live templates generate.
//
// ParsePack and IsPackFileName need nothing but the pack file. CheckSet looks
// at every pack and adoption of a package together. Check, Live and Render
// take one adoption, its evaluated state and its pack.
//
// # Where findings are filed
//
// A finding is filed in the file where its token at fault is written, and
// points at the other side through Related:
//
//   - Findings about the pack's own text (its shape, a placeholder or name it
//     uses, a placeholder left unresolved, direction_claims in a test) carry
//     File = the pack's file and a span inside the pack. When the finding
//     depends on an adoption, Related points at that adoption's `contract`
//     key, and the message does not name the adoption, so identical findings
//     from several adoptions of one pack can be merged by the caller.
//   - Findings about something the adoption wrote (its `pack` digest, a
//     `verification` entry, a missing input, an answer or row value that a
//     binding has no phrase for, an injected delimiter, the row set that
//     lacks `id`) carry File = the adoption's file, with Related pointing into
//     the pack where that helps.
package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Finding codes this package reports.
const (
	CodePackShape       = "CONTRACT_PACK_SHAPE"
	CodePackHash        = "CONTRACT_PACK_HASH"
	CodePackOrphan      = "CONTRACT_PACK_ORPHAN"
	CodeBindingShape    = "CONTRACT_BINDING_SHAPE"
	CodeBindingMap      = "CONTRACT_BINDING_MAP"
	CodePlaceholder     = "CONTRACT_PLACEHOLDER"
	CodeInjection       = "CONTRACT_INJECTION"
	CodeReference       = "CONTRACT_REFERENCE"
	CodeRowID           = "CONTRACT_ROW_ID"
	CodeWhenDomain      = "CONTRACT_WHEN_DOMAIN"
	CodeDirectionClaims = "CONTRACT_TEST_DIRECTION_CLAIMS"
	// CodeEnvelopeUnknown and CodeEnvelopeType are the §10.2 codes that SPEC
	// assigns to an unknown field in, and a malformed, template `when`.
	CodeEnvelopeUnknown = "CONTRACT_ENVELOPE_UNKNOWN"
	CodeEnvelopeType    = "CONTRACT_ENVELOPE_TYPE"
)

// Expand values of a template.
const (
	ExpandOnce   = "once"
	ExpandPerRow = "per-row"
)

// Pack is one parsed pack file.
type Pack struct {
	// File is the path the pack was parsed under; findings about the pack
	// carry it.
	File string
	// Root is the parsed JSON, nil when the file held no value.
	Root *jsonsrc.Value
	// Unparsed is set when the file is not valid JSON: its syntax error is
	// its only finding, and it serves no adoption until it parses.
	Unparsed bool
	// Contract and Version are the definition identity the pack serves. They
	// come from the file name when it has the pack form, otherwise from the
	// pack's fields. NameOK reports that the file name had the pack form.
	Contract string
	Version  int
	NameOK   bool
	// FieldContract and FieldVersion are the pack's `contract` and `version`
	// members, nil when absent.
	FieldContract *jsonsrc.Value
	FieldVersion  *jsonsrc.Value
	// Templates are the template objects in authored order. An element of
	// `templates` that is not an object is reported and left out.
	Templates []*Template
	// Findings are the pack's own findings: syntax, shape, unknown
	// placeholders and the names that need no adoption to resolve.
	Findings []source.Finding

	digest string
	byID   map[string]*Template
	// scans holds what a rendering needs to know of each value of the
	// pack it reads (the parts of every template and the phrases of its
	// bindings, and every value inside them): the values are the same for
	// every test of every adoption, so they are scanned once, when the pack
	// is parsed, and those without placeholders rendered once. Filled by
	// ParsePack and only read afterwards, so the checks of several
	// adoptions read it at once.
	scans map[*jsonsrc.Value]*scanned
	// renders holds, by adoption file, the last rendering of that
	// adoption's tests that found nothing (*renderMemo, memo.go).
	renders *sync.Map
}

// scanned is what a rendering needs to know of one pack value, kept per
// pack (Pack.scans).
type scanned struct {
	// phs are the placeholders in the value, in the order of a rendering
	// (annotations skipped); shared, never to be modified.
	phs []*Placeholder
	// static is the rendering of a value with no placeholder anywhere
	// inside (annotations removed): the same for every test of every
	// adoption, so made once and shared by all, never to be modified.
	static *jsonsrc.Value
	// parts are, for an array or object that is not static, the scans of
	// what its rendering reads (its elements, or its members but
	// annotations), in order: a rendering reads them here, not in the
	// pack's map.
	parts []*scanned
}

// scanOf returns what the pack value v holds, worked out once per pack.
func (p *Pack) scanOf(v *jsonsrc.Value) *scanned {
	if p != nil {
		if sc := p.scans[v]; sc != nil {
			return sc
		}
	}
	return newScanned(v)
}

// newScanned scans v on its own.
func newScanned(v *jsonsrc.Value) *scanned {
	phs := scanValue(nil, v, "")
	if len(phs) == 0 {
		return &scanned{static: copyValue(v)}
	}
	return &scanned{phs: phs}
}

// placeholderRun is the run of a template's placeholders, all[lo:hi], in
// one value, as prepare finds them.
type placeholderRun struct {
	all    []*Placeholder
	lo, hi int
}

// prepare fills p.scans for v and every value inside it (annotations
// skipped) and returns what it holds for v. runs holds the run of
// placeholders of each string that has any, and prepare adds those of
// the containers: the run from their first placeholder to their last.
// The rendering of a value without placeholders is made of those of its
// elements or members, shared.
func (p *Pack) prepare(v *jsonsrc.Value, runs map[*jsonsrc.Value]placeholderRun) *scanned {
	if sc := p.scans[v]; sc != nil {
		return sc
	}
	sc := &scanned{}
	switch v.Kind() {
	case jsonsrc.String:
		run := runs[v]
		if sc.phs = run.all[run.lo:run.hi:run.hi]; len(sc.phs) == 0 {
			sc.static = jsonsrc.NewString(v.Str())
		}
	case jsonsrc.Array, jsonsrc.Object:
		var parts []*jsonsrc.Value // what a rendering reads, in order
		var keys []string
		if v.Kind() == jsonsrc.Array {
			parts = v.Elems()
		} else {
			for _, m := range v.Members() {
				if !strings.HasPrefix(m.Key, "_") {
					parts = append(parts, m.Value)
					keys = append(keys, m.Key)
				}
			}
		}
		var run placeholderRun
		static := true
		scans := make([]*scanned, len(parts))
		for i, x := range parts {
			scans[i] = p.prepare(x, runs)
			static = scans[i].static != nil && static
			if xr := runs[x]; xr.hi > xr.lo {
				if run.hi == run.lo {
					run = xr
				} else {
					run.hi = xr.hi
				}
			}
		}
		runs[v] = run
		sc.phs = run.all[run.lo:run.hi:run.hi]
		if !static {
			sc.parts = scans
			break
		}
		if v.Kind() == jsonsrc.Array {
			elems := make([]*jsonsrc.Value, 0, len(parts))
			for _, x := range parts {
				elems = append(elems, p.scans[x].static)
			}
			sc.static = jsonsrc.NewArray(elems)
		} else {
			members := make([]jsonsrc.Member, 0, len(parts))
			for i, x := range parts {
				members = append(members, jsonsrc.Member{Key: keys[i], Value: p.scans[x].static})
			}
			sc.static = jsonsrc.NewObject(members)
		}
	default:
		sc.static = copyValue(v)
	}
	p.scans[v] = sc
	return sc
}

// Template is one template of a pack.
type Template struct {
	// Index is the position in the pack's `templates` array.
	Index int
	Node  *jsonsrc.Value
	// ID is the template id; IDSpan covers its string. ID is empty when
	// absent or not a string.
	ID     string
	IDSpan source.Span
	Title  *jsonsrc.Value
	Type   string
	Expand string
	Test   *jsonsrc.Value
	Text   *jsonsrc.Value
	// Collection is the row set a per-row template expands.
	Collection     string
	CollectionSpan source.Span
	// When is the parsed `when`; nil when absent.
	When *When
	// Bindings are the well-formed bindings, in authored order.
	Bindings []*Binding
	// Inputs are the declared inputs (`scope`, `seeds`) in authored order.
	Inputs []*Input
	// Placeholders are every placeholder in the title, text, test and
	// binding phrases, in source order (annotations skipped).
	Placeholders []*Placeholder
	// Usable is false when a shape fault makes the template impossible to
	// render: a bad or repeated id, a bad `type` or `expand`, a test type
	// unlike the template's, a missing `collection` on a per-row template,
	// a `test` that is not an object, a title or text that is not a string,
	// or a malformed `when`. A template that is not usable is never live.
	Usable bool

	// alike reports that the test blocks the template renders are alike
	// (blocksAlike), and alikeInAdoption that those it renders for one
	// adoption are. checked records that a check of one of its blocks
	// found it sound (CheckTestsMemo), which then holds for every one
	// when they are alike.
	alike, alikeInAdoption bool
	checked                atomic.Bool
}

// When is a template condition: `flag`, and on a per-row template `row`.
type When struct {
	Node *jsonsrc.Value
	Flag []*FlagTerm
	Row  []*RowTerm
}

// FlagTerm is one question of a `flag` condition with its allowed options.
type FlagTerm struct {
	Question     string
	QuestionSpan source.Span
	Options      []Name
}

// RowTerm is one field of a `row` condition with its allowed values.
type RowTerm struct {
	Field     string
	FieldSpan source.Span
	Values    []*jsonsrc.Value
}

// Name is a string with the span of its token.
type Name struct {
	Text string
	Span source.Span
}

// Binding is one well-formed binding of a template.
type Binding struct {
	ID     string
	IDSpan source.Span
	Node   *jsonsrc.Value
	// Exactly one of Flag and RowField is set.
	Flag     *Name
	RowField *Name
	// Map holds the phrases in authored order.
	Map []Phrase
}

// Phrase is one entry of a binding map.
type Phrase struct {
	Key     string
	KeySpan source.Span
	Value   *jsonsrc.Value
}

// phrase returns the phrase for key, or nil.
func (b *Binding) phrase(key string) *jsonsrc.Value {
	for i := len(b.Map) - 1; i >= 0; i-- {
		if b.Map[i].Key == key {
			return b.Map[i].Value
		}
	}
	return nil
}

// Input is one input declaration of a template.
type Input struct {
	Name     string
	NameSpan source.Span
	// Default is the declared default, nil when absent or malformed.
	Default *jsonsrc.Value
}

// Identity returns "<contract>-<version>", the definition identity the pack
// serves.
func (p *Pack) Identity() string {
	return p.Contract + "-" + strconv.Itoa(p.Version)
}

// Digest returns "sha256:" followed by the lowercase hexadecimal SHA-256 of
// the exact file bytes.
func (p *Pack) Digest() string { return p.digest }

// Template returns the usable template with the given id, or nil.
func (p *Pack) Template(id string) *Template {
	if p == nil {
		return nil
	}
	return p.byID[id]
}

// IsPackFileName reports whether name (a base name, or a path whose last
// element is taken) has the pack form `<contract>-<version>.pack.json` with
// a version of ASCII digits. The contract part is returned as written; it
// may still break kebab-case, which ParsePack reports.
func IsPackFileName(name string) (contract, version string, ok bool) {
	name = baseName(name)
	stem, found := strings.CutSuffix(name, ".pack.json")
	if !found {
		return "", "", false
	}
	dash := strings.LastIndexByte(stem, '-')
	if dash < 0 || dash == len(stem)-1 {
		return "", "", false
	}
	for _, c := range stem[dash+1:] {
		if c < '0' || c > '9' {
			return "", "", false
		}
	}
	return stem[:dash], stem[dash+1:], true
}

func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// ParsePack parses one pack file and checks its own shape. It never panics;
// every problem becomes a finding in Pack.Findings.
func ParsePack(file string, data []byte) *Pack {
	sum := sha256.Sum256(data)
	p := &Pack{File: file, digest: "sha256:" + hex.EncodeToString(sum[:]), byID: map[string]*Template{}, scans: map[*jsonsrc.Value]*scanned{}, renders: &sync.Map{}}
	nameContract, nameVersion, nameOK := IsPackFileName(file)
	if nameOK {
		p.NameOK = true
		p.Contract = nameContract
		if v, err := strconv.Atoi(nameVersion); err == nil {
			p.Version = v
		} else {
			p.Version = -1
		}
	}
	root, errs := jsonsrc.Parse(data)
	p.Root = root
	for _, e := range errs {
		p.add(CodePackShape, e.Span, "the pack is not valid JSON: "+e.Msg)
	}
	if len(errs) > 0 {
		// A partial tree would produce findings about members that were
		// never read; report the syntax error alone.
		p.Unparsed = true
		p.fillIdentityFromFields()
		return p
	}
	if root.Kind() != jsonsrc.Object {
		p.add(CodePackShape, root.Span(), "a pack is one JSON object with contract, version and templates; this file holds "+root.Describe())
		return p
	}
	p.closed(root, "the pack", []string{"contract", "version", "templates"})
	p.FieldContract = root.Get("contract")
	p.FieldVersion = root.Get("version")
	p.checkIdentityFields(nameOK, nameContract)
	p.fillIdentityFromFields()

	tv := root.Get("templates")
	if tv == nil {
		p.add(CodePackShape, root.Opening(), `the pack lacks "templates"; add an array of templates`)
	} else if tv.Kind() != jsonsrc.Array {
		p.add(CodePackShape, tv.Span(), `"templates" must be an array of templates, not `+tv.Describe())
	} else {
		for i, e := range tv.Elems() {
			if e.Kind() != jsonsrc.Object {
				p.add(CodePackShape, e.Span(), "template "+strconv.Itoa(i)+" must be an object, not "+e.Describe())
				continue
			}
			t := p.parseTemplate(i, e)
			p.Templates = append(p.Templates, t)
		}
	}
	return p
}

// fillIdentityFromFields sets Contract and Version from the fields when the
// file name did not have the pack form.
func (p *Pack) fillIdentityFromFields() {
	if p.NameOK {
		return
	}
	if c := p.FieldContract; c != nil && c.Kind() == jsonsrc.String {
		p.Contract = c.Str()
	}
	if v, ok := intValue(p.FieldVersion); ok {
		p.Version = v
	}
}

func (p *Pack) checkIdentityFields(nameOK bool, nameContract string) {
	root := p.Root
	c, v := p.FieldContract, p.FieldVersion
	if nameOK && !source.IsKebab(nameContract) {
		p.add(CodePackShape, source.Span{Start: 0, End: 0}, "the file name's contract part "+strconv.Quote(nameContract)+" is not kebab-case; rename the file to <contract>-<version>.pack.json")
	}
	switch {
	case c == nil:
		p.add(CodePackShape, root.Opening(), `the pack lacks "contract"; add the definition's kebab-case id`)
	case c.Kind() != jsonsrc.String || !source.IsKebab(c.Str()):
		p.add(CodePackShape, c.Span(), `"contract" must be the definition's kebab-case id`)
	case nameOK && c.Str() != nameContract:
		p.add(CodePackShape, c.Span(), "the pack names contract "+strconv.Quote(c.Str())+" but its file name names "+strconv.Quote(nameContract)+"; make them agree")
	}
	switch n, ok := intValue(v); {
	case v == nil:
		p.add(CodePackShape, root.Opening(), `the pack lacks "version"; add the definition's integer version`)
	case !ok:
		p.add(CodePackShape, v.Span(), `"version" must be an integer`)
	case nameOK && n != p.Version:
		p.add(CodePackShape, v.Span(), "the pack names version "+strconv.Itoa(n)+" but its file name names version "+strconv.Itoa(p.Version)+"; make them agree")
	}
}

// intValue returns the integer held by v when v is a finite whole number
// that fits an int.
func intValue(v *jsonsrc.Value) (int, bool) {
	if v == nil || !v.Finite() || v.Num() != float64(int64(v.Num())) || v.Num() > 1<<53 || v.Num() < -(1<<53) {
		return 0, false
	}
	return int(v.Num()), true
}

func (p *Pack) add(code string, span source.Span, msg string) {
	p.Findings = append(p.Findings, source.Finding{Code: code, File: p.File, Span: span, Message: msg})
}

// closed reports every member of obj that is neither allowed nor an
// annotation.
func (p *Pack) closed(obj *jsonsrc.Value, what string, allowed []string) {
	for _, m := range obj.Members() {
		if strings.HasPrefix(m.Key, "_") || contains(allowed, m.Key) {
			continue
		}
		p.add(CodePackShape, m.KeySpan(), what+" has no field "+strconv.Quote(m.Key)+"; allowed fields are "+strings.Join(allowed, ", "))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
