package analysis

import (
	"path/filepath"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

func TestDependsOn(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string]string{
		"doc.md":                   "# Doc\n\n![logo](assets/logo.png) and `.github/ci.yml`\n",
		"assets/logo.png":          "png",
		"assets/unused.bin":        "x",
		"game/manifest.json":       "{}\n",
		"game/tuning.json":         "{}\n",
		"game/direction.json":      `{"moods": [{"image": "media/mood.jpg"}]}` + "\n",
		"game/media/other.jpg":     "jpg",
		"node_modules/pkg/x.js":    "x",
		".github/ci.yml":           "on: push\n",
		".github/other/ignored.sh": "x",
	})
	snap := Load([]string{dir}, Options{})
	for _, tc := range []struct {
		path    string
		listing bool
		want    bool
	}{
		{"doc.md", false, true},
		{"new.md", true, true},
		{"game/new.json", false, true},
		{"assets/logo.png", false, true},          // linked
		{"assets/logo.png", true, true},           // linked, deleted
		{"assets", true, true},                    // a walked folder, deleted
		{"assets/unused.bin", false, false},       // nothing reads its content
		{"assets/unused.bin", true, true},         // its folder's listing changes
		{"game/media/mood.jpg", true, true},       // an image of direction.json, created
		{"game/media/other.jpg", false, false},    // no image of direction.json
		{".github/ci.yml", false, true},           // cited, in a folder the walk skips
		{".github", true, true},                   // holds a cited file
		{".github/other/ignored.sh", true, false}, // skipped folder, cited by none
		{"node_modules/pkg/x.js", true, false},
		{"../outside.md", true, false},
	} {
		path := filepath.Join(dir, filepath.FromSlash(tc.path))
		if got := snap.DependsOn(path, tc.listing); got != tc.want {
			t.Errorf("DependsOn(%s, listing %v) = %v, want %v", tc.path, tc.listing, got, tc.want)
		}
	}
}

func TestSingleFileRoot(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", map[string]string{
		"repo/game/manifest.json":        "{}\n",
		"repo/game/01-overview.md":       "# Overview\n",
		"repo/game/contracts/meter.json": "{}\n",
		"notes/todo.md":                  "# Todo\n",
	})
	at := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	for _, tc := range []struct {
		roots []string
		path  string
		want  string
	}{
		{nil, at("repo/game/01-overview.md"), at("repo/game")},
		{nil, at("repo/game/contracts/meter.json"), at("repo/game")},
		{nil, at("notes/todo.md"), at("notes")},
		{[]string{at("elsewhere")}, at("notes/todo.md"), at("notes")},
		{[]string{at("repo")}, at("repo/game/01-overview.md"), ""},
		{[]string{dir}, at("notes/todo.md"), ""},
	} {
		if got := SingleFileRoot(tc.roots, tc.path); got != tc.want {
			t.Errorf("SingleFileRoot(%v, %s) = %q, want %q", tc.roots, tc.path, got, tc.want)
		}
	}
}
