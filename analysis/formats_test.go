package analysis

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis/analysistest"
)

func TestFormatJSONKind(t *testing.T) {
	for _, tc := range []struct {
		rel, code string
	}{
		{"manifest.json", "MANIFEST_JSON"},
		{"tuning.json", "TUNING_JSON"},
		{"clocks.json", "CLOCKS_JSON"},
		{"personalization.json", "PERSONALIZATION_JSON"},
		{"direction.json", "DIRECTION_JSON"},
		{"contracts/lamp.json", "CONTRACT_INSTANCE_JSON"},
		{"contracts/lamp-1.pack.json", "CONTRACT_PACK_SHAPE"},
		{"contracts/lamp-x.pack.json", "CONTRACT_INSTANCE_JSON"}, // not a pack name: an adoption file
		{"collections/moths/_collection.json", "COLLECTION_LABEL_JSON"},
		{"collections/moths/dusk-moth.json", "COLLECTION_RECORD_JSON"},
		{"collections/moths.json", ""},
		{"contracts/old/lamp.json", ""},
		{"assets/data.json", ""},
		{"02-mechanics.md", ""},
	} {
		k, ok := FormatJSONKind(tc.rel)
		if ok != (tc.code != "") || k.code != tc.code {
			t.Errorf("formatJSONKind(%q) = %q, %v; want %q", tc.rel, k.code, ok, tc.code)
		}
	}
}

// TestLenientContracts checks the two readings of SPEC §10.1 rule 8: for
// `gddls check` a sole adoption that does not parse makes contracts/ a
// reserved folder; in the editor (Options.Lenient) a half-typed adoption
// that already names its contract still counts, so only its syntax error
// is shown.
func TestLenientContracts(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"manifest.json":       `{}`,
		"tuning.json":         `{ "values": {} }`,
		"contracts/lamp.json": `{ "contract": "lamp", "version": 1, `,
	}
	analysistest.WriteFiles(t, dir, files)
	codes := func(opts Options) string {
		var out []string
		for _, d := range Load([]string{dir}, opts).AllDiagnostics() {
			if strings.HasPrefix(d.Code, "CONTRACT_") {
				out = append(out, d.Code)
			}
		}
		return strings.Join(out, " ")
	}
	if got, want := codes(Options{}), "CONTRACT_INSTANCE_JSON CONTRACT_FOLDER_RESERVED"; got != want {
		t.Errorf("check reading: %s, want %s", got, want)
	}
	if got, want := codes(Options{Lenient: true}), "CONTRACT_INSTANCE_JSON"; got != want {
		t.Errorf("editor reading: %s, want %s", got, want)
	}
}

// TestOversizedFilesHoldBack checks that a file over the size limit is
// reported once, with its kind's code when it is a JSON file of the format,
// and that citations into it are not called dangling: nothing could be read.
func TestOversizedFilesHoldBack(t *testing.T) {
	mechanics := "# Mechanics\n\n## Burning\n\n" + strings.Repeat("The lantern burns. ", 200) + "\n"
	dir := analysistest.WriteHostile(t, map[string][]byte{"02-mechanics.md": []byte(mechanics)})
	s := Load([]string{dir}, Options{MaxFileSize: 2000})
	var got []string
	for _, d := range s.AllDiagnostics() {
		rel, _ := filepath.Rel(dir, d.File)
		got = append(got, filepath.ToSlash(rel)+" "+d.Code)
	}
	want := "02-mechanics.md FILE_NOT_ANALYSED"
	if strings.Join(got, "\n") != want {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestLinksAboveSubfolder checks a subfolder of a repository (the .git is
// above the checked folder): links that climb out of the checked folder may
// reach files of the repository, so they are neither read nor reported,
// while a link that leaves the repository itself would be.
func TestLinksAboveSubfolder(t *testing.T) {
	top := analysistest.WriteFiles(t, "", map[string]string{
		".git/HEAD":          "ref: refs/heads/main\n",
		"README.md":          "# Top\n",
		"part/README.md":     "# Part\n\n[up](../README.md) and [gone](docs/missing.md).\n",
		"part/docs/a.md":     "# A\n\n[top](../../README.md)\n",
		"other/unrelated.md": "# Other\n",
	})
	var got []string
	for _, d := range Load([]string{filepath.Join(top, "part")}, Options{}).AllDiagnostics() {
		rel, _ := filepath.Rel(top, d.File)
		got = append(got, fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), d.Range.Start.Line+1, d.Code))
	}
	if want := "part/README.md:3 DOC_LINK_FILE"; strings.Join(got, "\n") != want {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestSkippedChapterCitations: a chapter that is not analysed (here over
// the size limit) contributes no citation, so the entries only it cites
// are reported uncited (DIRECTION_UNMENTIONED, PALETTE_UNREACHED,
// COLLECTION_UNCITED). That is what the package gives with the chapter
// absent or empty, the containment rule: apart from the chapter's own
// FILE_NOT_ANALYSED, the findings are exactly those of the package
// without it. A near miss: read, the chapter cites them all.
func TestSkippedChapterCitations(t *testing.T) {
	look := "# Look\n\nThe look keeps `pillars.calm` and `mood.quiet`, drawn in `palette.ink`; the lamp is `collections.lamps.brass`.\n"
	files := minimalPackage(map[string]string{
		"direction.json": `{"pillars": {"calm": "calm first"}, "mood": {"quiet": {"intent": "quiet", "anti": ["not loud"]}},
  "palette": {"ink": [{"black": "#000000"}]}}`,
		"collections/lamps/brass.json": `{}`,
	})
	findings := func(look *string, limit int64) []string {
		dir := t.TempDir()
		fs := maps.Clone(files)
		if look != nil {
			fs["06-look.md"] = *look
		}
		analysistest.WriteFiles(t, dir, fs)
		var got []string
		for _, d := range Load([]string{dir}, Options{MaxFileSize: limit}).AllDiagnostics() {
			rel, _ := filepath.Rel(dir, d.File)
			got = append(got, filepath.ToSlash(rel)+" "+d.Code)
		}
		sort.Strings(got)
		return got
	}
	if got := findings(&look, 0); len(got) != 0 {
		t.Fatalf("read, the chapter cites every entry; findings: %v", got)
	}
	big := look + strings.Repeat("The lantern burns. ", 200) + "\n"
	skipped := findings(&big, 2000)
	var rest []string
	for _, f := range skipped {
		if f != "06-look.md FILE_NOT_ANALYSED" {
			rest = append(rest, f)
		}
	}
	if len(rest) != len(skipped)-1 {
		t.Fatalf("the skipped chapter should have FILE_NOT_ANALYSED once: %v", skipped)
	}
	want := []string{"direction.json DIRECTION_UNMENTIONED", "direction.json DIRECTION_UNMENTIONED", "direction.json PALETTE_UNREACHED", "manifest.json COLLECTION_UNCITED"}
	if !reflect.DeepEqual(rest, want) {
		t.Errorf("with the chapter skipped: %v, want %v", rest, want)
	}
	empty := ""
	for name, other := range map[string][]string{"absent": findings(nil, 2000), "empty": findings(&empty, 2000)} {
		if !reflect.DeepEqual(rest, other) {
			t.Errorf("with the chapter skipped: %v; with it %s: %v", rest, name, other)
		}
	}
}

// TestInvalidUTF8JSON: the format names no encoding for its JSON files,
// and gddls reads them as RFC 8259 JSON texts (UTF-8): a byte that is not
// UTF-8 inside a string is the kind's syntax error, at that byte. The
// near miss: the same string with the character well encoded.
func TestInvalidUTF8JSON(t *testing.T) {
	for _, tc := range []struct{ rel, code string }{
		{"tuning.json", "TUNING_JSON"},
		{"clocks.json", "CLOCKS_JSON"},
		{"personalization.json", "PERSONALIZATION_JSON"},
		{"direction.json", "DIRECTION_JSON"},
		{"collections/lamps/brass.json", "COLLECTION_RECORD_JSON"},
	} {
		for _, text := range []string{"a\xffb", "a\u00e9b"} {
			files := minimalPackage(map[string]string{tc.rel: `{"x": "` + text + `"}`})
			dir := analysistest.WriteFiles(t, "", files)
			var got []string
			for _, d := range Load([]string{dir}, Options{}).AllDiagnostics() {
				if d.Code == tc.code {
					rel, _ := filepath.Rel(dir, d.File)
					got = append(got, fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), d.Range.Start.Line, d.Range.Start.Character))
				}
			}
			want := []string{tc.rel + ":0:8"}
			if utf8.ValidString(text) {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s holding %q: %s at %v, want %v", tc.rel, text, tc.code, got, want)
			}
		}
	}
}

// minimalPackage returns the files of a small valid package (manifest,
// tuning, overview with its fantasy block, mechanics, build plan) with
// extra added or put in their place.
func minimalPackage(extra map[string]string) map[string]string {
	files := map[string]string{
		"manifest.json": `{"opengdd": "0.9", "id": "ink-lantern", "version": "1.0.0", "title": "Ink Lantern",
  "designer": {"name": "Test Desk"}, "target": {"platform": "web-2d", "genre": "puzzle"}}`,
		"tuning.json":      `{"values": {}}`,
		"01-overview.md":   "# Overview\n\n```fantasy\nYou keep a small lantern lit on a long walk home.\nFeel: quiet, careful, calm\nNOT: frantic\n```\n",
		"02-mechanics.md":  "# Mechanics\n",
		"05-build-plan.md": "# Build plan\n",
	}
	maps.Copy(files, extra)
	return files
}
