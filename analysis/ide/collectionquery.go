package ide

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/collections"
	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// This file answers editor queries about collections (SPEC §1b): the
// shape of a record file for completion and hover (shapedFile), the ids a
// link field may hold, the collections.<c>.<r>.<f> addresses of prose, and
// the hover of a record citation.

// recordFile returns the collection and record id of a record file, and
// false for any other file.
func recordFile(p *analysis.Package, f *analysis.File) (*analysis.Collection, string, bool) {
	if f == nil || p == nil {
		return nil, "", false
	}
	parts := strings.Split(p.Rel(f.Path), "/")
	if len(parts) != 3 || parts[0] != "collections" || parts[2] == "_collection.json" || !strings.HasSuffix(parts[2], ".json") {
		return nil, "", false
	}
	c := p.Collections[parts[1]]
	if c == nil {
		return nil, "", false
	}
	return c, strings.TrimSuffix(parts[2], ".json"), true
}

// recordShape returns the record schema of the record file f as a shape,
// and false when f is no record file or its collection has no usable
// record schema.
func recordShape(p *analysis.Package, f *analysis.File) (shapedKind, bool) {
	c, _, ok := recordFile(p, f)
	if !ok {
		return shapedKind{}, false
	}
	r, usable := c.RecordSchema()
	if !usable || r == nil {
		return shapedKind{}, false
	}
	return shapedKind{shape: r.Shape(), code: collections.CodeRecordSchema}, true
}

// linkFieldAt returns the link field whose value the member path keys (as
// PathKeys gives it) stands in, or nil.
func linkFieldAt(r *collections.Record, keys []string) *collections.Field {
	var f *collections.Field
	for i := 0; i < len(keys); i++ {
		if r == nil {
			return nil
		}
		f = r.Field(keys[i])
		if f == nil {
			return nil
		}
		if f.Type == collections.TypeLink {
			rest := keys[i+1:]
			if len(rest) == 0 || len(rest) == 1 && rest[0] == "[]" {
				return f
			}
			return nil
		}
		if f.Type != collections.TypeList || i+1 >= len(keys) || keys[i+1] != "[]" {
			return nil
		}
		i++
		r = f.Of
	}
	return nil
}

// completeLink proposes the record ids of the target collection at a value
// of a link field of a record file, and false elsewhere.
func completeLink(s *analysis.Snapshot, f *analysis.File, offset int) ([]CompletionItem, bool) {
	c, _, ok := recordFile(s.PackageFor(f), f)
	if !ok {
		return nil, false
	}
	r, usable := c.RecordSchema()
	if !usable || r == nil {
		return nil, false
	}
	ctx := jsonsrc.ContextAt(f.Content, offset)
	if ctx.Pos != jsonsrc.PosValue && ctx.Pos != jsonsrc.PosElement {
		return nil, false
	}
	lf := linkFieldAt(r, PathKeys(contextPath(ctx.Path)))
	if lf == nil {
		return nil, false
	}
	target := s.PackageFor(f).Collections[lf.To]
	if target == nil {
		return nil, true
	}
	var out []CompletionItem
	for _, id := range sortedRecords(target) {
		out = append(out, CompletionItem{
			Label: id, Kind: CompleteOption, Detail: "record of " + lf.To,
			SortText: fmt.Sprintf("%06d", len(out)), Edit: valueEditAt(ctx, id, true),
		})
	}
	return out, true
}

// sortedRecords returns a collection's record ids in order.
func sortedRecords(c *analysis.Collection) []string {
	ids := make([]string, 0, len(c.Records))
	for id := range c.Records {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// collectionItems completes a collections. address in inline code: the
// collections, the records of the collection typed, the fields of the
// record typed (those it holds and those its schema declares). typed is
// the code span's text before the cursor.
func collectionItems(p *analysis.Package, typed string, edit func(string) *TextEdit) []CompletionItem {
	if p == nil || len(p.Collections) == 0 || !strings.HasPrefix("collections.", typed) && !strings.HasPrefix(typed, "collections.") {
		return nil
	}
	segs := strings.Split(typed, ".")
	var out []CompletionItem
	add := func(addr, detail, doc string) {
		out = append(out, CompletionItem{Label: addr, Kind: CompleteKeyword, Detail: detail, Documentation: doc,
			SortText: fmt.Sprintf("4%06d", len(out)), Edit: edit(addr)})
	}
	ids := make([]string, 0, len(p.Collections))
	for id := range p.Collections {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	switch {
	case len(segs) <= 2:
		for _, id := range ids {
			add("collections."+id, fmt.Sprintf("collection of %d records", len(p.Collections[id].Records)), "")
		}
	case len(segs) == 3:
		c := p.Collections[segs[1]]
		if c == nil {
			return nil
		}
		for _, rid := range sortedRecords(c) {
			add("collections."+c.ID+"."+rid, "record of "+c.ID, "")
		}
	default:
		c := p.Collections[segs[1]]
		if c == nil {
			return nil
		}
		rec, ok := c.Records[segs[2]]
		if !ok {
			return nil
		}
		schema, _ := c.RecordSchema()
		seen := map[string]bool{}
		prefix := "collections." + c.ID + "." + segs[2] + "."
		if schema != nil {
			for _, fd := range schema.Fields {
				seen[fd.Name] = true
				add(prefix+fd.Name, fd.Type+" field", fd.Description)
			}
		}
		if rec != nil {
			for _, m := range rec.Members() {
				if !seen[m.Key] && !collections.IsAnnotation(m.Key) {
					seen[m.Key] = true
					add(prefix+m.Key, "field of the record", "")
				}
			}
		}
	}
	return out
}

// collectionMarkdown explains a collections. token of prose: the
// collection with its records and schema, the record with its content, or
// the field with its value and shape.
func collectionMarkdown(p *analysis.Package, segs []string) string {
	if len(segs) < 2 {
		return ""
	}
	c := p.Collections[segs[1]]
	if c == nil {
		return ""
	}
	schema, _ := c.RecordSchema()
	if len(segs) == 2 {
		md := fmt.Sprintf("**collection `%s`**: %d records", c.ID, len(c.Records))
		if schema != nil && len(schema.Fields) > 0 {
			var names []string
			for _, fd := range schema.Fields {
				names = append(names, "`"+fd.Name+"`")
			}
			md += "; fields " + strings.Join(names, ", ")
		}
		return md
	}
	rec, ok := c.Records[segs[2]]
	if !ok {
		return ""
	}
	if len(segs) == 3 {
		md := fmt.Sprintf("**record `%s`** of collection `%s`", segs[2], c.ID)
		if rec != nil {
			md += "\n\n```json\n" + recordText(rec, 20) + "\n```"
		}
		return md
	}
	md := fmt.Sprintf("**field `%s`** of record `%s` (collection `%s`)", segs[3], segs[2], c.ID)
	if fd := schema.Field(segs[3]); fd != nil {
		md += "\n\n" + fd.Doc()
	}
	if v := rec.Get(segs[3]); v != nil {
		md += "\n\n```json\n" + recordText(v, 10) + "\n```"
	} else {
		md += "\n\nThe record does not hold the field."
	}
	return md
}

// recordText writes v indented, cut after at most lines lines.
func recordText(v *jsonsrc.Value, lines int) string {
	var b strings.Builder
	jsonsrc.Write(&b, v, jsonsrc.WriteOptions{Indent: true})
	out := strings.Split(b.String(), "\n")
	if len(out) > lines {
		out = append(out[:lines], "…")
	}
	return strings.Join(out, "\n")
}

// recordSpan is where a definition of a record lands: its file's opening
// brace, or the file's start.
func recordSpan(c *analysis.Collection, id string) source.Span {
	if v := c.Records[id]; v != nil {
		return v.Opening()
	}
	return source.Span{}
}

// hoverRecordLink shows the record a link field's id names, or nil when
// offset is on no such id.
func hoverRecordLink(s *analysis.Snapshot, f *analysis.File, offset int) *HoverInfo {
	if _, _, ok := recordFile(s.PackageFor(f), f); !ok {
		return nil
	}
	r, ok := citeIndex(s).refAt(f.Path, offset)
	if !ok || r.Kind != refRecordLink || r.Target.kind != targetRecord {
		return nil
	}
	p := packageAt(s, r.Target.scope)
	if p == nil {
		return nil
	}
	md := collectionMarkdown(p, []string{"collections", r.Target.name, r.Target.sub})
	if md == "" {
		return nil
	}
	return &HoverInfo{Markdown: md, Span: r.Whole}
}

// schemaFile reports whether f is the schema file of a collection.
func schemaFile(f *analysis.File) bool {
	if f == nil {
		return false
	}
	rel, ok := f.PackageRel()
	if !ok {
		return false
	}
	parts := strings.Split(rel, "/")
	return len(parts) == 3 && parts[0] == "collections" && parts[2] == "_collection.json"
}

// schemaFileShape describes _collection.json for completion and hover: the
// record schema and the members of a field shape, those of each type
// offered by its type, and the package's collection ids for to. It is not
// what checks the file (collections.ParseSchema does); nested of schemas
// are described to a few levels.
func schemaFileShape(p *analysis.Package) jsonshape.Object {
	var ids []string
	for id := range p.Collections {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return jsonshape.Object{Annotations: true, Fields: []jsonshape.Field{{
		Name: "record", Shape: recordSchemaShape(ids, 4, true),
		Doc: "The record schema: each field name mapped to its field shape. Every record of the collection is checked against it.",
	}}}
}

func recordSchemaShape(ids []string, depth int, top bool) jsonshape.Shape {
	return jsonshape.Object{Annotations: true, KeyDoc: "field names", Rest: fieldShapeShape(ids, depth, top)}
}

func fieldShapeShape(ids []string, depth int, top bool) jsonshape.Shape {
	var of jsonshape.Shape = jsonshape.Object{Annotations: true, Rest: jsonshape.Any{}}
	if depth > 0 {
		of = recordSchemaShape(ids, depth-1, false)
	}
	types := collections.Types
	if !top {
		types = []string{collections.TypeNumber, collections.TypeInteger, collections.TypeString, collections.TypeLink, collections.TypeList}
	}
	var to jsonshape.Shape = jsonshape.String{}
	if len(ids) > 0 {
		to = jsonshape.String{Enum: ids}
	}
	fields := []jsonshape.Field{
		{Name: "type", Shape: jsonshape.String{Enum: types}, Required: true, Doc: "What the field holds."},
		{Name: "required", Shape: jsonshape.Bool{}, Doc: "true: every record carries the field. Not with when."},
		{Name: "when", Shape: jsonshape.Object{Annotations: true, Fields: []jsonshape.Field{{Name: "row", Shape: jsonshape.Object{Rest: jsonshape.Array{MinItems: 1}, KeyDoc: "field names"}, Doc: "The fields the record must carry, each with its allowed values."}}}, Doc: "A row condition: the field is required when it holds and forbidden otherwise."},
		{Name: "open", Shape: jsonshape.Bool{}, Doc: "true: the number is an open number, which each build supplies; a record's value is a guess or null."},
		{Name: "options", Shape: jsonshape.Array{Elem: jsonshape.String{}, MinItems: 1}, Doc: "The closed set of kebab-case values."},
		{Name: "pattern", Shape: jsonshape.String{Enum: []string{"kebab-case"}}, Doc: "The value must be kebab-case."},
		{Name: "unique", Shape: jsonshape.Bool{}, Doc: "true: no two values of the field are equal across the records."},
		{Name: "description", Shape: jsonshape.String{}, Doc: "How the field is read."},
		{Name: "to", Shape: to, Doc: "The collection whose records the link names."},
		{Name: "many", Shape: jsonshape.Bool{}, Doc: "true: an array of record ids; otherwise one id."},
		{Name: "loops", Shape: jsonshape.Bool{}, Doc: "false: the links of the field may form no cycle."},
		{Name: "mirrored_by", Shape: jsonshape.String{}, Doc: "The link field of the target collection that links back."},
		{Name: "of", Shape: of, Doc: "The record schema of each entry of the list."},
	}
	var variants []jsonshape.Variant
	for _, t := range collections.Types {
		var forbid []string
		for _, m := range collections.Members {
			if !collections.MemberAllowed(m, t) || (m == "open" && !top) {
				forbid = append(forbid, m)
			}
		}
		v := jsonshape.Variant{Value: t, Forbid: forbid}
		for _, f := range fields {
			if f.Name == "to" && t == collections.TypeLink || f.Name == "of" && t == collections.TypeList {
				f.Required = true // required on the type that takes it
				v.Fields = append(v.Fields, f)
			}
		}
		variants = append(variants, v)
	}
	return jsonshape.Object{Annotations: true, What: "a field shape", Fields: fields, Tag: "type", Variants: variants}
}
