package grid

import (
	"fmt"
	"github.com/gddls/gddls/analysis/analysistest"
	"reflect"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

func TestLayers(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{"two layers in schema order", `{"record": {"terrain": {"type": "grid"}, "hp": {"type": "number"}, "entities": {"type": "grid", "required": true}}}`, []string{"terrain", "entities"}},
		{"no record", `{}`, nil},
		{"record not an object", `{"record": []}`, nil},
		{"annotation is no field", `{"record": {"_board": {"type": "grid"}, "b": {"type": "grid"}}}`, []string{"b"}},
		{"type not grid", `{"record": {"a": {"type": "list", "of": {"g": {"type": "grid"}}}, "b": {"type": "string"}}}`, nil},
		{"type not a string", `{"record": {"a": {"type": ["grid"]}, "b": "grid"}}`, nil},
		{"last shape counts", `{"record": {"a": {"type": "grid"}, "b": {"type": "grid"}, "a": {"type": "string"}}}`, []string{"b"}},
		{"last shape counts, grid", `{"record": {"a": {"type": "string"}, "a": {"type": "grid"}}}`, []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Layers(analysistest.ParseJSON(t, tc.schema)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Layers = %q, want %q", got, tc.want)
			}
		})
	}
	if got := Layers(nil); got != nil {
		t.Errorf("Layers(nil) = %q", got)
	}
}

func TestColumns(t *testing.T) {
	for _, tc := range []struct {
		row  string
		want int
	}{
		{"", 0},
		{"#.#", 3},
		{"é.", 2},       // one precomposed scalar value
		{"e\u0301.", 3}, // a combining mark is a cell of its own
		{"😀😀", 2},       // a surrogate pair in UTF-16 is one cell
		{"\uFFFD#", 2},  // what a lone surrogate escape decodes to
		{"👩\u200d👩", 3}, // a ZWJ sequence is three scalar values
		{"日本", 2},
	} {
		if got := Columns(tc.row); got != tc.want {
			t.Errorf("Columns(%q) = %d, want %d", tc.row, got, tc.want)
		}
	}
}

// at renders findings as "CODE@text" with the source text of each span,
// and the related place's text after "->".
func at(src string, v *jsonsrc.Value, names []string) []string {
	var out []string
	for _, f := range Check("r.json", v, names) {
		s := f.Code[len("CONTENT_LAYER_"):] + "@" + src[f.Span.Start:f.Span.End]
		for _, r := range f.Related {
			s += "->" + src[r.Span.Start:r.Span.End]
		}
		out = append(out, s)
	}
	return out
}

func TestCheck(t *testing.T) {
	two := []string{"terrain", "entities"}
	for _, tc := range []struct {
		name, record string
		names        []string
		want         []string
	}{
		{"congruent", `{"terrain": ["#.#", "..."], "entities": ["-o-", "---"]}`, two, nil},
		{"2 by 5 is valid", `{"terrain": ["#...#", "#####"]}`, []string{"terrain"}, nil},
		{"one cell", `{"terrain": ["#"], "entities": ["o"]}`, two, nil},
		{"counted in scalar values", `{"terrain": ["😀.e\u0301"], "entities": ["abcd"]}`, two, nil},
		{"escape is one cell", `{"terrain": ["\u00e9\ud83d\ude00"], "entities": ["ab"]}`, two, nil},
		{"more rows", `{"terrain": ["#.#", "..."], "entities": ["-o-", "---", "---"]}`, two,
			[]string{`ROW_MISMATCH@"entities"->"terrain"`}},
		{"fewer rows", `{"terrain": ["#.#", "..."], "entities": ["-o-"]}`, two,
			[]string{`ROW_MISMATCH@"entities"->"terrain"`}},
		{"zero rows", `{"terrain": ["#.#"], "entities": []}`, two,
			[]string{`ROW_MISMATCH@[]`}},
		{"zero rows first: the next layer sets the grid", `{"terrain": [], "entities": ["-o-"]}`, two,
			[]string{`ROW_MISMATCH@[]`}},
		{"single layer with zero rows", `{"terrain": []}`, []string{"terrain"},
			[]string{`ROW_MISMATCH@[]`}},
		{"ragged row", `{"terrain": ["#.#", "..", "..."]}`, []string{"terrain"},
			[]string{`COLUMN_MISMATCH@".."->"#.#"`}},
		{"column mismatch across layers", `{"terrain": ["#.#", "..."], "entities": ["-o-", "----"]}`, two,
			[]string{`COLUMN_MISMATCH@"----"->"#.#"`}},
		{"empty row", `{"terrain": ["#.#", ""], "entities": ["-o-", "---"]}`, two,
			[]string{`COLUMN_MISMATCH@""`}},
		{"empty first row: the first row with a cell sets the width", `{"terrain": ["", "..."], "entities": ["-o-", "--"]}`, two,
			[]string{`COLUMN_MISMATCH@""`, `COLUMN_MISMATCH@"--"->"..."`}},
		{"the layer order is the schema's", `{"entities": ["-o", "--"], "terrain": ["#.#", "..."]}`, two,
			[]string{`COLUMN_MISMATCH@"-o"->"#.#"`, `COLUMN_MISMATCH@"--"->"#.#"`}},
		{"rows and columns both", `{"terrain": ["#.#"], "entities": ["-o", "---"]}`, two,
			[]string{`ROW_MISMATCH@"entities"->"terrain"`, `COLUMN_MISMATCH@"-o"->"#.#"`}},
		{"a layer of another shape takes no part", `{"terrain": ["#.#"], "entities": "-o-"}`, two, nil},
		{"a layer with a non-string row takes no part", `{"terrain": ["#.#"], "entities": ["-o", 3]}`, two, nil},
		{"a missing layer takes no part", `{"terrain": ["#.#"]}`, two, nil},
		{"null layer", `{"terrain": ["#.#"], "entities": null}`, two, nil},
		{"a field that is no layer", `{"terrain": ["#.#"], "notes": ["a", "bc"]}`, []string{"terrain"}, nil},
		{"last member counts", `{"terrain": ["#.#"], "entities": ["--"], "entities": ["---"]}`, two, nil},
		{"no layers", `{"terrain": []}`, nil, nil},
		{"record not an object", `[["#"]]`, two, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := at(tc.record, analysistest.ParseJSON(t, tc.record), tc.names); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("findings\n got %q\nwant %q", got, tc.want)
			}
		})
	}
	if got := Check("r.json", nil, two); got != nil {
		t.Errorf("Check(nil) = %v", got)
	}
}

// TestCheckMessages: each message names the layer, the row and the sizes,
// and says what to change.
func TestCheckMessages(t *testing.T) {
	src := `{"terrain": ["#.#", "..."], "entities": ["-o-", "-----", "---"]}`
	fs := Check("r.json", analysistest.ParseJSON(t, src), []string{"terrain", "entities"})
	var msgs []string
	for _, f := range fs {
		if f.File != "r.json" || f.Severity.String() != "error" {
			t.Errorf("%v: want an error in r.json", f)
		}
		msgs = append(msgs, f.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{`"entities" has 3 rows`, "grid has 2", "remove 1 row", `row 1 of the layer "entities" has 5 columns`, "remove 2 cells", `row 0 of the layer "terrain"`} {
		if !strings.Contains(all, want) {
			t.Errorf("messages lack %q:\n%s", want, all)
		}
	}
}

// FuzzCheck reads arbitrary bytes as a schema and a record: neither Layers
// nor Check panics, and every span lies inside the record.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"record": {"a": {"type": "grid"}, "b": {"type": "grid"}}}`), []byte(`{"a": ["#.", ".."], "b": ["o", "--", ""]}`))
	f.Add([]byte(`{"record": {"a": {"type": "grid"}}}`), []byte(`{"a": []}`))
	f.Add([]byte(`{"record": {"a": {"type": "grid"}}}`), []byte(`{"a": ["\ud800x", "😀\u0301"]}`))
	f.Fuzz(func(t *testing.T, schema, record []byte) {
		s, _ := jsonsrc.Parse(schema)
		r, _ := jsonsrc.Parse(record)
		names := Layers(s)
		for _, x := range Check("r.json", r, names) {
			spans := []struct{ Start, End int }{{x.Span.Start, x.Span.End}}
			for _, rel := range x.Related {
				spans = append(spans, struct{ Start, End int }{rel.Span.Start, rel.Span.End})
			}
			for _, sp := range spans {
				if sp.Start < 0 || sp.End > len(record) || sp.Start > sp.End {
					t.Fatalf("%s span %v outside %d bytes", x.Code, sp, len(record))
				}
			}
			if x.Code != CodeRowMismatch && x.Code != CodeColumnMismatch {
				t.Fatalf("unknown code %s", x.Code)
			}
			if x.Message == "" {
				t.Fatalf("%s without a message", x.Code)
			}
		}
	})
}

// BenchmarkManyLayers reads a schema of 20,000 grid fields and a record
// carrying all of them: finding each layer's shape and value is not
// quadratic in the number of fields.
func BenchmarkManyLayers(b *testing.B) {
	const n = 20000
	var schema, record strings.Builder
	schema.WriteString(`{"record": {`)
	record.WriteString(`{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			schema.WriteByte(',')
			record.WriteByte(',')
		}
		fmt.Fprintf(&schema, `"l%d": {"type": "grid"}`, i)
		fmt.Fprintf(&record, `"l%d": ["ab", "cd"]`, i)
	}
	schema.WriteString(`}}`)
	record.WriteString(`}`)
	sv, rv := analysistest.ParseJSON(b, schema.String()), analysistest.ParseJSON(b, record.String())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		layers := Layers(sv)
		if len(layers) != n {
			b.Fatalf("%d layers", len(layers))
		}
		if fs := Check("r.json", rv, layers); len(fs) != 0 {
			b.Fatalf("%d findings", len(fs))
		}
	}
}
