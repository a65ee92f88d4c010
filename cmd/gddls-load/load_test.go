package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	s := summarize(ds)
	if s.N != 100 || s.P50 != 50 || s.P95 != 95 || s.Max != 100 {
		t.Errorf("summarize = %+v", s)
	}
	if s := summarize(nil); s.N != 0 {
		t.Errorf("empty summarize = %+v", s)
	}
}

func TestPosition(t *testing.T) {
	tests := []struct {
		text      string
		offset    int
		line, chr int
	}{
		{"abc", 2, 0, 2},
		{"a\nbc", 3, 1, 1},
		{"é\nx😀y", 8, 1, 3},
	}
	for _, tc := range tests {
		p := position([]byte(tc.text), tc.offset)
		if p["line"] != tc.line || p["character"] != tc.chr {
			t.Errorf("position(%q, %d) = %v", tc.text, tc.offset, p)
		}
	}
}

func TestCountItems(t *testing.T) {
	tests := []struct {
		raw  string
		want int
	}{
		{`[{"label":"a"},{"label":"b"}]`, 2},
		{`{"isIncomplete":false,"items":[{"label":"a"}]}`, 1},
		{`null`, 0},
	}
	for _, tc := range tests {
		if got := countItems(json.RawMessage(tc.raw)); got != tc.want {
			t.Errorf("countItems(%s) = %d, want %d", tc.raw, got, tc.want)
		}
	}
}

func TestPickTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "contracts", "a.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "{\n  \"answers\": {},\n  \"rows\": {\"r\": [{\"c\": \"02-mechanics.md#loop\"}]}\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	found, err := findAdoption(dir)
	if err != nil || found != path {
		t.Fatalf("findAdoption = %q, %v", found, err)
	}
	tg, err := pickTarget(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tg.error), answerProbe) || strings.Count(string(tg.error), "\n") != strings.Count(src, "\n") {
		t.Errorf("the error edit is not a one-line insertion: %s", tg.error)
	}
	if !strings.HasPrefix(src[tg.complete:], "loop") {
		t.Errorf("completion site at %q", src[tg.complete:])
	}
	if _, err := findAdoption(t.TempDir()); err == nil {
		t.Error("findAdoption found an adoption in an empty folder")
	}
}
