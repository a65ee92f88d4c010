package analysis

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

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
		k, ok := formatJSONKind(tc.rel)
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
	dir := writeHostile(t, map[string][]byte{"02-mechanics.md": []byte(mechanics)})
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
