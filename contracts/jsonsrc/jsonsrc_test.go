package jsonsrc

import (
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

func TestParseSpans(t *testing.T) {
	src := "\ufeff{\r\n  \"answers\": {\"overflow\": \"clamp\"},\r\n  \"n\": [1, -0, 1e400, true, null]\r\n}"
	v, errs := Parse([]byte(src))
	// The byte-order mark is the one syntax error; the tree past it is whole.
	if len(errs) != 1 || errs[0].Span != (source.Span{Start: 0, End: 3}) {
		t.Fatalf("errors = %v, want the byte-order mark alone", errs)
	}
	m := v.Get("answers").Member("overflow")
	if got := src[m.KeySpan().Start:m.KeySpan().End]; got != `"overflow"` {
		t.Errorf("key span = %q", got)
	}
	if got := src[m.Value.Span().Start:m.Value.Span().End]; got != `"clamp"` || m.Value.Str() != "clamp" {
		t.Errorf("value span = %q (%q)", got, m.Value.Str())
	}
	n := v.Get("n")
	if len(n.Elems()) != 5 {
		t.Fatalf("elements = %d", len(n.Elems()))
	}
	if !n.Elems()[0].Finite() || n.Elems()[2].Finite() {
		t.Errorf("finite: 1=%v 1e400=%v", n.Elems()[0].Finite(), n.Elems()[2].Finite())
	}
	if n.Elems()[1].Raw() != "-0" || n.Elems()[3].Kind() != Bool || n.Elems()[4].Kind() != Null {
		t.Errorf("elements parsed wrong: %+v", n.Elems())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, wantAt string // wantAt: the text the error span starts at
		wantMsg           string
	}{
		{"empty", "", "", "empty"},
		{"truncated object", `{"a": 1`, `{`, "not closed"},
		{"missing comma", `{"a": 1 "b": 2}`, `"b"`, "expected ','"},
		{"trailing comma", `[1, 2,]`, `,]`, "trailing comma"},
		{"unclosed string", "{\"a\": \"abc\n}", `"abc`, "not closed"},
		{"bad word", `{"a": tru}`, `tru`, "unknown word"},
		{"leading zero", `[01]`, `01`, "leading zero"},
		{"bad escape", `["\x"]`, `\x`, "unknown escape"},
		{"trailing text", `{} x`, `x`, "after the JSON value"},
		{"invalid utf8", "[\"\xff\"]", "\xff", "UTF-8"},
		{"missing colon", `{"a" 1}`, `"a"`, "expected ':'"},
		{"byte-order mark", "\ufeff{}", "\ufeff{}", "byte-order mark"},
		{"byte-order mark alone", "\ufeff", "\ufeff", "byte-order mark"},
		{"byte-order mark before an error", "\ufeff{\"a\" 1}", "\ufeff", "Notepad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Parse([]byte(tt.src))
			if len(errs) != 1 {
				t.Fatalf("got %d errors, want 1", len(errs))
			}
			e := errs[0]
			if !strings.HasPrefix(tt.src[e.Span.Start:], tt.wantAt) {
				t.Errorf("error at %q, want at %q", tt.src[e.Span.Start:], tt.wantAt)
			}
			if !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("message %q lacks %q", e.Msg, tt.wantMsg)
			}
		})
	}
}

func TestPartialTreeAndDepth(t *testing.T) {
	v, errs := Parse([]byte(`{"rows": {"w": [{"id": "a"}, {"id": `))
	if len(errs) != 1 || v == nil || !v.Incomplete() {
		t.Fatalf("want a partial tree and one error, got %v %v", v, errs)
	}
	if got := v.Get("rows").Get("w").Elems()[0].Get("id").Str(); got != "a" {
		t.Errorf("partial tree lost parsed data: %q", got)
	}
	deep := strings.Repeat("[", 100000)
	if _, errs := Parse([]byte(deep)); len(errs) != 1 || !strings.Contains(errs[0].Msg, "nested too deeply") {
		t.Errorf("deep nesting: %v", errs)
	}
}

func TestStringEscapes(t *testing.T) {
	v, errs := Parse([]byte(`"a\u00e9\ud83d\ude00\ud800z\n"`))
	if errs != nil {
		t.Fatal(errs)
	}
	if v.Str() != "aé😀\ufffdz\n" {
		t.Errorf("decoded %q", v.Str())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `[`, `"\u12`, "\ufeff{}", `{"a":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, errs := Parse(data)
		if len(errs) == 0 && v == nil {
			t.Fatal("no value and no error")
		}
		for _, e := range errs {
			if e.Span.Start < 0 || e.Span.End > len(data) || e.Span.Start > e.Span.End {
				t.Fatalf("bad error span %v for %d bytes", e.Span, len(data))
			}
		}
	})
}
