package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

const renderPack = `{
  "contract": "tiny-gate",
  "version": 2,
  "templates": [
    {
      "id": "gate-opens",
      "title": "{{instance}} opens",
      "type": "scenario",
      "expand": "once",
      "when": { "flag": { "mode": ["open"] } },
      "test": { "type": "scenario", "given": "{{instance}} is shut", "when": "a key turns", "then": "{{instance}} opens" },
      "text": "The gate opens."
    },
    {
      "id": "lane-clear",
      "title": "{{row.id}} clears",
      "type": "scenario",
      "expand": "per-row",
      "collection": "lanes",
      "test": { "type": "scenario", "given": "{{row.id}} is busy", "when": "a turn ends", "then": "{{row.id}} is clear" },
      "text": "Each lane clears."
    }
  ]
}
`

const renderAdoption = `{
  "contract": "tiny-gate",
  "version": 2,
  "origin": "https://example.test/tiny-gate-2",
  "summary": "A gate.",
  "mechanism": ["The gate opens or stays shut."],
  "questions": {
    "mode": { "asks": "How does the gate behave?", "options": { "open": { "meaning": "It opens." }, "shut": { "meaning": "It stays shut." } } }
  },
  "declares": {
    "rows": {
      "lanes": { "record": { "id": { "type": "string", "required": true, "pattern": "kebab-case", "unique": true } } }
    }
  },
  "pack": "@PACK@",
  "answers": { "mode": "open" },
  "values": {},
  "rows": { "lanes": [ { "id": "north" }, { "id": "south" } ] }
}
`

// writeRenderPackage writes a complete package with one adoption and, when
// withPack is set, its pack. Edits are old/new pairs applied to the
// adoption.
func writeRenderPackage(t *testing.T, withPack bool, edits ...string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(renderPack))
	adoption := strings.ReplaceAll(renderAdoption, "@PACK@", "sha256:"+hex.EncodeToString(sum[:]))
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(adoption, edits[i]) {
			t.Fatalf("adoption lacks %q", edits[i])
		}
		adoption = strings.Replace(adoption, edits[i], edits[i+1], 1)
	}
	files := map[string]string{
		"manifest.json":       `{ "opengdd": "0.9", "id": "gates", "version": "1.0.0", "title": "Gates", "designer": { "name": "Test Desk" }, "target": { "platform": "web-2d", "genre": "puzzle" } }`,
		"tuning.json":         `{ "values": { "feel.pace": 1 } }`,
		"01-overview.md":      "# Overview\n\n```fantasy\nYou keep the gates of a busy crossing.\nFeel: calm, watchful, steady\nNOT: frantic\n```\n\nGates.\n",
		"02-mechanics.md":     "# Mechanics\n\nGates open.\n",
		"05-build-plan.md":    "# Build plan\n\nBuild gates.\n",
		"contracts/gate.json": adoption,
	}
	if withPack {
		files["contracts/tiny-gate-2.pack.json"] = renderPack
	}
	return analysistest.WriteFiles(t, "", files)
}

func TestRenderTestsCommand(t *testing.T) {
	cases := []struct {
		name     string
		withPack bool
		edits    []string
		file     bool // check the adoption file instead of the folder
		code     int
		stdout   []string
		noStdout bool
		stderr   string
	}{
		{name: "checked", withPack: true, code: 0,
			stdout: []string{"## gate (", "### AT gate/gate-opens — gate opens", "### AT gate/lane-clear/north", "### AT gate/lane-clear/south"}},
		{name: "checked file argument", withPack: true, file: true, code: 0, stdout: []string{"### AT gate/gate-opens"}},
		{name: "template not live", withPack: true, code: 0,
			edits:  []string{`"mode": "open"`, `"mode": "shut"`},
			stdout: []string{"### AT gate/lane-clear/north", "- `gate-opens`: "}},
		{name: "errors still render", withPack: true, code: 1,
			edits:  []string{`"values": {}`, `"values": { "speed": 1 }`},
			stdout: []string{"### AT gate/gate-opens"}, stderr: "1 error found"},
		{name: "promised only", withPack: false, code: 0, noStdout: true, stderr: "the one adoption is promised"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeRenderPackage(t, tc.withPack, tc.edits...)
			arg := dir
			if tc.file {
				arg = filepath.Join(dir, "contracts", "gate.json")
			}
			var stdout, stderr bytes.Buffer
			code := run([]string{"check", "--render-tests", arg}, nil, &stdout, &stderr)
			if code != tc.code {
				t.Fatalf("exit status %d, want %d; stderr: %s\nstdout: %s", code, tc.code, stderr.String(), stdout.String())
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
			if tc.noStdout && stdout.Len() != 0 {
				t.Errorf("stdout is not empty:\n%s", stdout.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.stderr)
			}
		})
	}
}

func TestRenderTestsUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--render-tests", filepath.Join(t.TempDir(), "missing")}, nil, &stdout, &stderr); code != 2 {
		t.Errorf("exit status %d for an unreadable PATH, want 2", code)
	}
}
