package jsonsrc

import (
	"reflect"
	"strings"
	"testing"
)

// cursor removes the ‸ marker from s and returns the text and the marker's
// byte offset.
func cursor(t testing.TB, s string) ([]byte, int) {
	t.Helper()
	i := strings.Index(s, "‸")
	if i < 0 {
		t.Fatalf("no cursor marker in %q", s)
	}
	return []byte(s[:i] + s[i+len("‸"):]), i
}

func TestContextAt(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		path     string // keys joined by "/"
		pos      Position
		inString bool
		closed   bool
		partial  string
		text     string
		present  []string
	}{
		{
			name: "unclosed citation",
			src:  "{\n \"rows\": {\"cues\": [{\"label\": \"a\", \"cite\": \"02-mechanics.md#‸\n}]}}",
			path: "rows/cues/[]/cite", pos: PosValue, inString: true,
			partial: "02-mechanics.md#", text: "02-mechanics.md#",
			present: []string{"label", "cite"},
		},
		{
			name: "closed string, cursor in the middle",
			src:  `{"answers": {"overflow": "cl‸amp"}}`,
			path: "answers/overflow", pos: PosValue, inString: true, closed: true,
			partial: "cl", text: "clamp", present: []string{"overflow"},
		},
		{
			name: "trailing colon with no value",
			src:  "{\"answers\": {\n  \"overflow\": ‸\n}}",
			path: "answers/overflow", pos: PosValue, present: []string{"overflow"},
		},
		{
			name: "trailing colon, CRLF and a following member",
			src:  "{\r\n\"answers\": {\r\n  \"overflow\": ‸\r\n  \"speed\": \"fast\"\r\n}}",
			path: "answers/overflow", pos: PosValue, present: []string{"overflow", "speed"},
		},
		{
			name: "empty object being filled",
			src:  `{"answers": {‸}}`,
			path: "answers", pos: PosKey,
		},
		{
			name: "key typed in quotes, other keys after the cursor",
			src:  "{\"values\": {\"ma‸\n \"minimum\": 1}, \"x\": 2}",
			path: "values", pos: PosKey, inString: true, partial: "ma", text: "ma",
			present: []string{"minimum"},
		},
		{
			name: "missing comma between members",
			src:  "{\"answers\": {\"a\": \"x\"\n \"‸\"}}",
			path: "answers", pos: PosKey, inString: true, closed: true,
			present: []string{"a"},
		},
		{
			name: "missing comma before a value member",
			src:  "{\"rows\": {\"cues\": [{\"label\": \"a\" \"kind\": \"‸\"}]}}",
			path: "rows/cues/[]/kind", pos: PosValue, inString: true, closed: true,
			present: []string{"label", "kind"},
		},
		{
			name: "second array element",
			src:  `{"rows": {"cues": [{"a": 1}, {‸}]}}`,
			path: "rows/cues/[]", pos: PosKey,
		},
		{
			name: "array element position",
			src:  `{"seeds": ["a", ‸]}`,
			path: "seeds/[]", pos: PosElement,
		},
		{
			name: "bare word in value position",
			src:  `{"values": {"maximum": 1‸0}}`,
			path: "values/maximum", pos: PosValue, partial: "1", text: "10",
			present: []string{"maximum"},
		},
		{
			name: "byte order mark",
			src:  "\xEF\xBB\xBF{\"answers\": {\"‸\"}}",
			path: "answers", pos: PosKey, inString: true, closed: true,
		},
		{
			name: "after a name without colon",
			src:  `{"answers": {"overflow"‸}}`,
			path: "answers", pos: PosNone, present: []string{"overflow"},
		},
		{
			name: "outside everything",
			src:  `‸{"a": 1}`,
			pos:  PosNone,
		},
		{
			name: "unclosed array closed by its object",
			src:  `{"a": {"x": [1, 2}, "b": {‸}}`,
			path: "b", pos: PosKey,
		},
		{
			name: "escaped quote inside the string",
			src:  `{"a": "x\"y‸z"}`,
			path: "a", pos: PosValue, inString: true, closed: true,
			partial: `x\"y`, text: `x\"yz`, present: []string{"a"},
		},
		{
			name: "top-level key",
			src:  "{\n  \"contract\": \"x\",\n  ‸\n}",
			pos:  PosKey, present: []string{"contract"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, off := cursor(t, tt.src)
			c := ContextAt(data, off)
			if got := strings.Join(c.Keys(), "/"); got != tt.path {
				t.Errorf("path = %q, want %q", got, tt.path)
			}
			if c.Pos != tt.pos {
				t.Errorf("pos = %v, want %v", c.Pos, tt.pos)
			}
			if c.InString != tt.inString || c.Closed != tt.closed {
				t.Errorf("inString, closed = %v, %v; want %v, %v", c.InString, c.Closed, tt.inString, tt.closed)
			}
			if c.Partial != tt.partial || c.Text != tt.text {
				t.Errorf("partial, text = %q, %q; want %q, %q", c.Partial, c.Text, tt.partial, tt.text)
			}
			if !reflect.DeepEqual(c.Present, tt.present) {
				t.Errorf("present = %q, want %q", c.Present, tt.present)
			}
			if c.InString {
				if got := string(data[c.Content.Start:c.Content.End]); got != c.Text {
					t.Errorf("content span holds %q, want %q", got, c.Text)
				}
				if data[c.Token.Start] != '"' {
					t.Errorf("token span %v does not start at a quote", c.Token)
				}
			}
		})
	}
}

func TestContextAtIndex(t *testing.T) {
	data, off := cursor(t, `{"r": [{"a": 1}, {"b": 2} {"c": ‸}]}`)
	c := ContextAt(data, off)
	want := []Step{{Key: "r", IsKey: true}, {Index: 2}, {Key: "c", IsKey: true}}
	if !reflect.DeepEqual(c.Path, want) {
		t.Errorf("path = %+v, want %+v", c.Path, want)
	}
}

func TestContextAtOutOfRange(t *testing.T) {
	for _, off := range []int{-5, 0, 1000} {
		c := ContextAt([]byte(`{"a": `), off)
		_ = c
	}
	c := ContextAt(nil, 3)
	if c.Pos != PosNone {
		t.Errorf("empty input: pos = %v", c.Pos)
	}
}

func FuzzContextAt(f *testing.F) {
	seeds := []string{
		`{"a": "b`, `{"a": 1 "b": 2}`, "{\"a\":\r\n", `[[[{`, `}}]]`, `{"a\"`, "\xEF\xBB\xBF{", `{"a": [1 2, {"b": "c"}]}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), len(s)/2)
	}
	f.Fuzz(func(t *testing.T, data []byte, off int) {
		c := ContextAt(data, off)
		for _, sp := range []struct{ s, e int }{{c.Token.Start, c.Token.End}, {c.Content.Start, c.Content.End}} {
			if sp.s < 0 || sp.e > len(data) || sp.s > sp.e {
				t.Fatalf("span %d..%d outside 0..%d", sp.s, sp.e, len(data))
			}
		}
	})
}
