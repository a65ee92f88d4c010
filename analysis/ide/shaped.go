package ide

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/buildrecord"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/analysis/manifest"
	"github.com/gddls/gddls/analysis/personalization"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// This file answers the editor's queries in the JSON files of a package
// whose shape is a jsonshape.Shape: completion of the members an object
// may still take (required ones first, with what each holds), of the
// values a member allows and of an object value with its required members,
// hover on a member, and the quick fixes that add
// a missing required member or replace a string outside its member's value
// set. A format joins by naming its file, its shape and its schema code in
// shapedFile.

// shapedKind is a package file checked against a jsonshape shape.
type shapedKind struct {
	shape jsonshape.Shape
	// code is the file's schema code, whose findings the quick fixes
	// answer.
	code string
}

// shapedFile returns the shape of f when f is a package file that has one:
// the manifest, personalization.json, or a record of a collection with a
// usable record schema (collectionquery.go).
func shapedFile(p *analysis.Package, f *analysis.File) (shapedKind, bool) {
	if isBuildRecord(f) {
		// In a package or beside one.
		return shapedKind{buildrecord.Shape(), buildrecord.CodeSchema}, true
	}
	if f == nil || p == nil {
		return shapedKind{}, false
	}
	switch p.Rel(f.Path) {
	case "manifest.json":
		return shapedKind{manifest.Shape(), manifest.CodeSchema}, true
	case "personalization.json":
		return shapedKind{personalization.Shape, personalization.CodeSchema}, true
	case "direction.json":
		return shapedKind{direction.Shape, direction.CodeSchema}, true
	}
	if schemaFile(f) {
		return shapedKind{shape: schemaFileShape(p)}, true // completion and hover only
	}
	return recordShape(p, f)
}

// completeShaped proposes, at offset in a shaped file that may be half
// typed, the members the object around the cursor does not hold yet, or
// the values the member under the cursor allows (for an object member not
// written yet, the object with its required members).
func completeShaped(k shapedKind, content []byte, offset int) []CompletionItem {
	c := jsonsrc.ContextAt(content, offset)
	keys := c.Keys()
	switch c.Pos {
	case jsonsrc.PosKey:
		obj, ok := jsonshape.At(k.shape, keys).(jsonshape.Object)
		if !ok {
			return nil
		}
		// The object being typed picks its variant (a question's members
		// follow its type).
		var out []CompletionItem
		for _, f := range jsonshape.Missing(obj, valueAt(draftJSON(content, c), contextPath(c.Path))) {
			if c.HasKey(f.Name) {
				continue
			}
			detail := f.Shape.Describe()
			if f.Required {
				detail = "required: " + detail
			}
			out = append(out, CompletionItem{
				Label: f.Name, Kind: CompleteField, Detail: detail, Documentation: f.Doc,
				SortText: fmt.Sprintf("%03d", len(out)), Edit: keyEditAt(c, f.Name),
			})
		}
		return out
	case jsonsrc.PosValue, jsonsrc.PosElement:
		s := jsonshape.At(k.shape, keys)
		var out []CompletionItem
		for i, v := range jsonshape.Values(s) {
			out = append(out, CompletionItem{
				Label: v, Kind: CompleteOption, Detail: "value of " + strings.Join(keys, "."),
				SortText: fmt.Sprintf("%03d", i), Edit: valueEditAt(c, v, true),
			})
		}
		if obj, ok := s.(jsonshape.Object); ok && c.Pos == jsonsrc.PosValue && !c.InString && c.Token.Start == c.Token.End {
			// An object value to write: offer it with its required members.
			text := jsonshape.Placeholder(jsonshape.Field{Shape: obj})
			out = append(out, CompletionItem{
				Label: text, Kind: CompleteKeyword, Detail: strings.Join(keys, ".") + " with its required members",
				Edit: &TextEdit{Span: c.Token, NewText: text},
			})
		}
		return out
	}
	return nil
}

// shapedField returns the field of shape s at the member path of a
// document whose root is root; the path's last step is the member's name.
// The object holding the member picks its variant.
func shapedField(s jsonshape.Shape, root *jsonsrc.Value, path []PathStep) (*jsonshape.Field, bool) {
	if len(path) == 0 {
		return nil, false
	}
	keys := PathKeys(path)
	obj, ok := jsonshape.At(s, keys[:len(keys)-1]).(jsonshape.Object)
	if !ok {
		return nil, false
	}
	f := obj.For(valueAt(root, path[:len(path)-1])).Field(keys[len(keys)-1])
	return f, f != nil
}

// draftJSON reads a JSON text that may be half typed at the cursor of c:
// the first repaired copy that parses (see repairJSON), else the tree
// parsed before the syntax error. Its offsets after the cursor may differ
// from the text's; its names, values and array indices do not.
func draftJSON(content []byte, c jsonsrc.Context) *jsonsrc.Value {
	for _, fixed := range repairJSON(content, c) {
		if v, errs := jsonsrc.Parse(fixed); len(errs) == 0 {
			return v
		}
	}
	v, _ := jsonsrc.Parse(content)
	return v
}

// valueAt returns the value of the document whose root is root at path,
// or nil when the path leaves it.
func valueAt(root *jsonsrc.Value, path []PathStep) *jsonsrc.Value {
	v := root
	for _, st := range path {
		switch {
		case v == nil:
			return nil
		case st.IsKey:
			v = v.Get(st.Key)
		case v.Kind() == jsonsrc.Array && st.Index >= 0 && st.Index < len(v.Elems()):
			v = v.Elems()[st.Index]
		default:
			return nil
		}
	}
	return v
}

// contextPath converts the path of a JSON context.
func contextPath(steps []jsonsrc.Step) []PathStep {
	out := make([]PathStep, len(steps))
	for i, st := range steps {
		out[i] = PathStep{Key: st.Key, Index: st.Index, IsKey: st.IsKey}
	}
	return out
}

// hoverShaped explains the member under offset in a shaped file: its path,
// whether it is required, what it holds and what it means. It answers on a
// member's key and on a value that is not an object or an array.
func hoverShaped(k shapedKind, root *jsonsrc.Value, offset int) *HoverInfo {
	hit := LocateJSON(root, offset)
	if hit.Member == nil {
		return nil
	}
	span := hit.Member.KeySpan()
	if !hit.OnKey {
		if hit.Value == nil || hit.Value.Kind() == jsonsrc.Object || hit.Value.Kind() == jsonsrc.Array {
			return nil
		}
		span = hit.Value.Span()
	}
	keys := PathKeys(hit.Path)
	f, ok := shapedField(k.shape, root, hit.Path)
	if !ok {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", strings.Join(keys, "."))
	if f.Required {
		b.WriteString(" · required")
	} else {
		b.WriteString(" · optional")
	}
	fmt.Fprintf(&b, "\n\nHolds %s.", f.Shape.Describe())
	if obj, ok := f.Shape.(jsonshape.Object); ok && len(obj.Fields) > 0 {
		names := make([]string, len(obj.Fields))
		for i, m := range obj.Fields {
			names[i] = "`" + m.Name + "`"
			if m.Required {
				names[i] += " (required)"
			}
		}
		fmt.Fprintf(&b, " Its members: %s.", strings.Join(names, ", "))
	}
	if f.Doc != "" {
		b.WriteString("\n\n" + f.Doc)
	}
	return &HoverInfo{Markdown: b.String(), Span: span}
}

// fixShaped answers a schema finding of a shaped file: at the opening brace
// of an object, it adds the required members the object lacks; on a string
// outside its member's value set, it replaces the string with the allowed
// values, the nearest first.
func (x *fixer) fixShaped(k shapedKind, ds source.Span) {
	root, errs := x.f.JSONParse()
	if len(errs) > 0 || root == nil {
		return
	}
	hit := LocateJSON(root, ds.Start)
	v := hit.Value
	if v == nil || v.Span().Start != ds.Start || hit.OnKey {
		return
	}
	switch v.Kind() {
	case jsonsrc.Object:
		x.missingMembers(k, root, v, PathKeys(hit.Path))
	case jsonsrc.String:
		if vals := jsonshape.Values(jsonshape.At(k.shape, PathKeys(hit.Path))); len(vals) > 0 {
			x.replaceWithChoices(k.code, v.Str(), vals, v.Span(), true)
		}
	}
}

// missingMembers offers to add each required member that obj, the object
// at the path keys of a shaped file, lacks, with a placeholder value of the
// right type, and all of them at once when several are missing.
func (x *fixer) missingMembers(k shapedKind, root, obj *jsonsrc.Value, keys []string) {
	var missing []jsonKV
	for _, f := range jsonshape.Missing(jsonshape.At(k.shape, keys), obj) {
		if f.Required {
			missing = append(missing, jsonKV{f.Name, jsonshape.Placeholder(f)})
		}
	}
	where := ""
	if len(keys) > 0 {
		where = " to " + strconv.Quote(strings.Join(keys, "."))
	}
	e := newJSONEditor(x.f.Content, root)
	expand := e.multiline(root)
	names := make([]string, len(missing))
	for i, kv := range missing {
		names[i] = strconv.Quote(kv.key)
		if edit, ok := e.insertMembers(obj, []jsonKV{kv}, expand); ok {
			x.add(fmt.Sprintf("Add the missing required field %s%s", names[i], where), k.code, len(missing) == 1, edit)
		}
	}
	if len(missing) > 1 {
		if edit, ok := e.insertMembers(obj, missing, expand); ok {
			x.add(fmt.Sprintf("Add the missing required fields %s%s", strings.Join(names, ", "), where), k.code, true, edit)
		}
	}
}
