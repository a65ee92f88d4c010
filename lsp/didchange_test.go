package lsp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// referenceDidChange decodes didChange params with encoding/json alone, as
// the server did before quickDidChange.
func referenceDidChange(raw []byte) (versionedDocument, []contentChange, error) {
	var p struct {
		TextDocument   versionedDocument `json:"textDocument"`
		ContentChanges []struct {
			Range *wireRange `json:"range"`
			Text  string     `json:"text"`
		} `json:"contentChanges"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return versionedDocument{}, nil, err
	}
	var changes []contentChange
	for _, c := range p.ContentChanges {
		changes = append(changes, contentChange{Range: c.Range, Text: []byte(c.Text)})
	}
	return p.TextDocument, changes, nil
}

// TestDecodeDidChange: the params of didChange decode to what encoding/json
// makes of them, through the quick path where it reads them (quick) and
// through encoding/json where it does not.
func TestDecodeDidChange(t *testing.T) {
	const doc = `"textDocument":{"uri":"file:///a.json","version":7}`
	tests := []struct {
		name, params string
		quick        bool
	}{
		{"full text", `{` + doc + `,"contentChanges":[{"text":"{\n  \"a\": \"b\\\\c\/d\"\t\r\b\f\n}"}]}`, true},
		{"changes first", `{"contentChanges":[{"text":"x"}],` + doc + `}`, true},
		{"ranges and several changes", `{` + doc + `,"contentChanges":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},"rangeLength":2,"text":"é😀"},{"range":null,"text":""}]}`, true},
		{"empty text", `{` + doc + `,"contentChanges":[{"text":""}]}`, true},
		{"no change", `{` + doc + `,"contentChanges":[]}`, true},
		{"spaces", "{ \"textDocument\" : {\"uri\":\"file:///a.json\"} ,\n \"contentChanges\" : [ { \"text\" : \"a\" } ] }", true},
		{"\\u escapes", `{` + doc + `,"contentChanges":[{"text":"a\u00e9\ud83d\ude00 \ud800 b \ud800\u0041 \udc00\ud800 \u003C\u2028"}]}`, true},
		{"invalid UTF-8", `{` + doc + `,"contentChanges":[{"text":"a` + "\xff" + `b"}]}`, false},
		{"text missing", `{` + doc + `,"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]}`, false},
		{"text null", `{` + doc + `,"contentChanges":[{"text":null}]}`, false},
		{"changes not an array", `{` + doc + `,"contentChanges":{"text":"a"}}`, false},
		{"a member in other case", `{` + doc + `,"ContentChanges":[{"text":"a"}]}`, false},
		{"a version that is not a number", `{"textDocument":{"uri":"file:///a.json","version":"7"},"contentChanges":[{"text":"a"}]}`, false},
		{"a range that is not an object", `{` + doc + `,"contentChanges":[{"range":3,"text":"a"}]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := []byte(tt.params)
			_, _, quick := quickDidChange(raw)
			if quick != tt.quick {
				t.Errorf("quick path taken: %v, want %v", quick, tt.quick)
			}
			gotDoc, gotChanges, gotErr := decodeDidChange(raw)
			wantDoc, wantChanges, wantErr := referenceDidChange(raw)
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("error %v, encoding/json's %v", gotErr, wantErr)
			}
			if gotErr == nil && (gotDoc != wantDoc || !reflect.DeepEqual(gotChanges, wantChanges) && len(gotChanges)+len(wantChanges) > 0) {
				t.Errorf("decoded %+v %s, encoding/json %+v %s", gotDoc, texts(gotChanges), wantDoc, texts(wantChanges))
			}
			for _, c := range gotChanges {
				if c.Text == nil {
					t.Errorf("a change's text is nil, which would remove the document's buffer")
				}
			}
		})
	}
}

// FuzzDecodeDidChange: any text, written by encoding/json, decodes to what
// encoding/json reads back.
func FuzzDecodeDidChange(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\"\\/\t", "é😀\u2028<>&", "\xff\xfe", "\x00\x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		raw, err := json.Marshal(map[string]any{
			"textDocument":   map[string]any{"uri": "file:///a.md", "version": 2},
			"contentChanges": []any{map[string]any{"text": text}},
		})
		if err != nil {
			t.Skip()
		}
		// A hand-written escape too: encoding/json writes none of \/, \b, \f.
		alt := []byte(strings.Replace(string(raw), `"text":"`, `"text":"\/\b\f`, 1))
		for _, raw := range [][]byte{raw, alt} {
			_, got, err := decodeDidChange(raw)
			_, want, _ := referenceDidChange(raw)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: decoded %s (%v), encoding/json %s", raw, texts(got), err, texts(want))
			}
		}
	})
}

// texts shows the texts of changes.
func texts(changes []contentChange) string {
	var b strings.Builder
	for _, c := range changes {
		b.WriteString(strings.ReplaceAll(string(c.Text), "\n", `\n`) + "|")
	}
	return b.String()
}

// FuzzDecodeDidChangeParams: any params decode without a panic, and valid
// JSON (which is all jsonrpc2 lets through) decodes to what encoding/json
// makes of it, or fails where it fails.
func FuzzDecodeDidChangeParams(f *testing.F) {
	f.Add(`{"textDocument":{"uri":"file:///a.md","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"text":"a\"b\\"}]}`)
	f.Add(`{"contentChanges":[{"text":"\ud83d\ude00","rangeLength":1,"x":[{"y":"]"}]}],"textDocument":{"uri":"u"},"z":null}`)
	f.Add(`{"textDocument":{},"contentChanges":[{"text":"a"},{"text":"b","text":"c"}]}`)
	f.Add(`{"textDocument" :1 , "contentChanges":[ ] }`)
	f.Fuzz(func(t *testing.T, params string) {
		raw := []byte(params)
		gotDoc, got, gotErr := decodeDidChange(raw)
		if !json.Valid(raw) {
			return
		}
		wantDoc, want, wantErr := referenceDidChange(raw)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("error %v, encoding/json's %v", gotErr, wantErr)
		}
		if gotErr == nil && (gotDoc != wantDoc || !reflect.DeepEqual(got, want) && len(got)+len(want) > 0) {
			t.Fatalf("decoded %+v %s, encoding/json %+v %s", gotDoc, texts(got), wantDoc, texts(want))
		}
	})
}
