// Package grid reads the grid encoding of authored layouts, the
// parallel-string-layers-1 family of OpenGDD §7a: the layers a collection's
// record schema declares (its top-level fields of type "grid") and the
// congruence of the layers one record carries. Every layer of a record is
// an array of strings, one string a row, and all layers share one grid:
// the same number of rows, every row the same number of columns, at least
// one of each, columns counted in Unicode scalar values.
//
// The package is pure: it reads parsed JSON values and returns findings.
// Whether a grid field is present and is an array of strings is the record
// schema's check (§1b); a layer whose value has another shape is left to
// it and takes no part in the congruence.
package grid

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The finding codes of §7a.
const (
	CodeRowMismatch    = "CONTENT_LAYER_ROW_MISMATCH"
	CodeColumnMismatch = "CONTENT_LAYER_COLUMN_MISMATCH"
)

// Layers returns the names of the layers a collection schema file declares:
// the fields of its record schema whose shape is an object with "type":
// "grid", in the schema's order. Annotations (keys starting with "_") are
// no fields. A field written twice counts with its last shape. Layers
// returns nil when the schema has no record schema or no grid field.
func Layers(schema *jsonsrc.Value) []string {
	record := schema.Get("record")
	if record == nil || record.Kind() != jsonsrc.Object {
		return nil
	}
	var names []string
	last := lastValues(record)
	seen := map[string]bool{}
	for _, m := range record.Members() {
		if strings.HasPrefix(m.Key, "_") || seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		if t := last[m.Key].Get("type"); t != nil && t.Kind() == jsonsrc.String && t.Str() == "grid" {
			names = append(names, m.Key)
		}
	}
	return names
}

// lastValues maps each key of object v to the value of its last member.
func lastValues(v *jsonsrc.Value) map[string]*jsonsrc.Value {
	out := make(map[string]*jsonsrc.Value, len(v.Members()))
	for _, m := range v.Members() {
		out[m.Key] = m.Value
	}
	return out
}

// Columns returns the column count of a row: its length in Unicode scalar
// values. (A lone surrogate escape, which decodes to U+FFFD, counts as
// one.)
func Columns(row string) int { return utf8.RuneCountInString(row) }

// layer is one layer a record carries as an array of strings.
type layer struct {
	name  string
	key   source.Span
	value *jsonsrc.Value
}

// carried returns the layers of the record that hold an array of strings,
// in the order of names.
func carried(record *jsonsrc.Value, names []string) []layer {
	var out []layer
	members := map[string]*jsonsrc.Member{}
	for i := range record.Members() {
		members[record.Members()[i].Key] = &record.Members()[i] // the last one counts
	}
	for _, name := range names {
		m := members[name]
		if m == nil || m.Value == nil || m.Value.Kind() != jsonsrc.Array {
			continue
		}
		ok := true
		for _, e := range m.Value.Elems() {
			if e == nil || e.Kind() != jsonsrc.String {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, layer{name: name, key: m.KeySpan(), value: m.Value})
		}
	}
	return out
}

// Check returns the §7a findings of one record: each carried layer with no
// row, each layer whose row count differs from the record's grid, and each
// row with no column or with a column count that differs from the
// record's grid. The record's grid takes its row count from the first
// layer, in the order of names, that has a row, and its column count from
// the first row with a column, searched in that order; the related place
// of a mismatch points there. file names the record in the findings.
func Check(file string, record *jsonsrc.Value, names []string) []source.Finding {
	if record == nil || record.Kind() != jsonsrc.Object || len(names) == 0 {
		return nil
	}
	layers := carried(record, names)
	var rowsRef, colsRef *layer
	colsRow := -1
	for i := range layers {
		l := &layers[i]
		if rowsRef == nil && len(l.value.Elems()) > 0 {
			rowsRef = l
		}
		if colsRef == nil {
			for r, e := range l.value.Elems() {
				if Columns(e.Str()) > 0 {
					colsRef, colsRow = l, r
					break
				}
			}
		}
	}
	var out []source.Finding
	for _, l := range layers {
		rows := l.value.Elems()
		switch {
		case len(rows) == 0:
			out = append(out, source.Finding{
				Code: CodeRowMismatch, Severity: source.Error, File: file, Span: l.value.Span(),
				Message: fmt.Sprintf("the layer %q has no row; a grid has at least one row: write its rows as strings in the array", l.name),
			})
		case len(rows) != len(rowsRef.value.Elems()):
			f := source.Finding{
				Code: CodeRowMismatch, Severity: source.Error, File: file, Span: l.key,
				Message: fmt.Sprintf("the layer %q has %s but the record's grid has %d (the layer %q); every layer of a record has the same number of rows: %s",
					l.name, plural(len(rows), "row"), len(rowsRef.value.Elems()), rowsRef.name, rowFix(len(rows), len(rowsRef.value.Elems()))),
				Related: []source.Related{{File: file, Span: rowsRef.key,
					Message: fmt.Sprintf("the layer %q sets the record's grid at %s", rowsRef.name, plural(len(rowsRef.value.Elems()), "row"))}},
			}
			out = append(out, f)
		}
		for r, e := range rows {
			n := Columns(e.Str())
			switch {
			case n == 0:
				out = append(out, source.Finding{
					Code: CodeColumnMismatch, Severity: source.Error, File: file, Span: e.Span(),
					Message: fmt.Sprintf("row %d of the layer %q is empty; every row holds at least one cell: write one character for each column", r, l.name),
				})
			case colsRef != nil && n != Columns(colsRef.value.Elems()[colsRow].Str()):
				want := Columns(colsRef.value.Elems()[colsRow].Str())
				out = append(out, source.Finding{
					Code: CodeColumnMismatch, Severity: source.Error, File: file, Span: e.Span(),
					Message: fmt.Sprintf("row %d of the layer %q has %s but the record's grid has %d (row %d of the layer %q); %s, counting one per Unicode character",
						r, l.name, plural(n, "column"), want, colsRow, colsRef.name, columnFix(n, want)),
					Related: []source.Related{{File: file, Span: colsRef.value.Elems()[colsRow].Span(),
						Message: fmt.Sprintf("row %d of the layer %q sets the record's grid at %s", colsRow, colsRef.name, plural(want, "column"))}},
				})
			}
		}
	}
	return out
}

func rowFix(have, want int) string {
	if have > want {
		return "remove " + plural(have-want, "row")
	}
	return "add " + plural(want-have, "row")
}

func columnFix(have, want int) string {
	if have > want {
		return fmt.Sprintf("remove %s", plural(have-want, "cell"))
	}
	return fmt.Sprintf("add %s", plural(want-have, "cell"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
