package jsonsrc

import (
	"strings"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{1, "1"}, {1.5, "1.5"}, {-0.25, "-0.25"}, {1e21, "1e+21"}, {123456789012345680000, "123456789012345680000"},
		{1e-7, "1e-7"}, {0.000001, "0.000001"}, {1.5e-10, "1.5e-10"}, {0, "0"}, {100, "100"}, {123456789012, "123456789012"},
	} {
		if got := FormatNumber(tc.in); got != tc.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWrite(t *testing.T) {
	v, _ := Parse([]byte(`{"b": 1.50, "_note": "x", "a": ["q\"", {}], "b": 2e0}`))
	tests := []struct {
		name string
		opt  WriteOptions
		want string
	}{
		{"compact", WriteOptions{}, `{"b":1.5,"_note":"x","a":["q\"",{}],"b":2}`},
		{"raw numbers", WriteOptions{RawNumbers: true}, `{"b":1.50,"_note":"x","a":["q\"",{}],"b":2e0}`},
		{"JSON.parse keys without annotations", WriteOptions{SkipAnnotations: true, JSONParseKeys: true}, `{"b":2,"a":["q\"",{}]}`},
		{"indented", WriteOptions{Indent: true, SkipAnnotations: true}, "{\n  \"b\": 1.5,\n  \"a\": [\n    \"q\\\"\",\n    {}\n  ],\n  \"b\": 2\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			Write(&b, v, tt.opt)
			if b.String() != tt.want {
				t.Errorf("got  %s\nwant %s", b.String(), tt.want)
			}
		})
	}
	if got := Quote("a\x01\n\"é"); got != `"a\u0001\n\"é"` {
		t.Errorf("Quote = %s", got)
	}
}
