package ide

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/gddls/gddls/contracts/source"
)

// wrongQueries is a query archive in which every expectation is wrong, one
// or more for each query kind.
const wrongQueries = `Every expectation here is wrong.
⟦@head references @nowhere⟧
-- manifest.json --
{ "name": "fixture" }
-- tuning.json --
⟦symbols >symbols⟧⟦workspace-symbols feel >ws⟧{
  "values": { ⟦@key⟧"feel.speed"⟦@key⟧: 4 }
}
-- 01-overview.md --
⟦links >links⟧# Overview

## ⟦@head⟧Ti⟦rename Clock >rename⟧⟦prepare-rename Timing Clock⟧⟦rename Twin !"already"⟧ming

The speed is ` + "`feel.sp⟦definition @head⟧⟦hover >hover⟧⟦complete feel.speed feel.slow⟧⟦hover⟧⟦complete⟧⟦definition⟧eed`" + `.

plain text, ⟦complete nothing ...⟧
-- 02-mechanics.md --
# Mechanics
-- 05-build-plan.md --
# Build plan
-- contracts/gate.json --
⟦lenses >lenses⟧⟦render >render⟧{
  "contract": "gate",
  "version": 1,
  "origin": "https://example.test/gate-1",
  "summary": "A gate.",
  "mechanism": ["It opens."],
  "questions": { "side": { "asks": "Which side?", "options": { "left": { "meaning": "Left." }, "right": { "meaning": "Right." } } } },
  "answers": { "side": ⟦actions "Replace with up" ...⟧⟦action "Replace \"lef\" with \"left\"" quickfix >action⟧⟦action "Replace \"lef\" with \"left\"" refactor⟧"lef" }
}
-- >hover --
covers: feel.speed
-- >symbols --
feel.speed (rule)
-- >ws --
-- >links --
nothing -> nowhere
-- >rename/01-overview.md --
# Overview
-- >rename/README.md --
# Readme
-- >lenses --
1:1 {: nothing
-- >render --
nothing
-- >action/contracts/gate.json --
{}
-- >orphan --
No marker compares with this section.
`

// TestQueryDriverFails runs the driver on wrongQueries and requires a
// failure for every marker, so that no query kind there can pass whatever
// it answers. A new kind should get a wrong marker here too.
func TestQueryDriverFails(t *testing.T) {
	qa := newQueryArchive("wrong.txtar", txtar.Parse([]byte(wrongQueries)))
	repos := qa.repos(t)
	kinds := map[string]bool{}
	for _, m := range repos[0].marks {
		kinds[m.kind] = true
		msg := repos[0].run(m)
		if msg == "" {
			t.Errorf("⟦%s⟧ passed", m.text)
			continue
		}
		if !strings.Contains(msg, "wrong.txtar:") || !strings.Contains(msg, m.file+":") || !strings.Contains(msg, "⟦"+m.text+"⟧") {
			t.Errorf("the message does not say where:\n%s", msg)
		}
	}
	for _, kind := range queryKindNames() {
		if !kinds[kind] {
			t.Logf("wrongQueries has no marker of kind %s: add one to show that it can fail", kind)
		}
	}
	if msgs := qa.run(t); !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, ">orphan: no marker compares") }) {
		t.Errorf("an unused golden section is not reported: %q", msgs)
	}
	if qa.updated {
		t.Error("a failing comparison rewrote a golden section without -update")
	}
}

func TestParseQueryMark(t *testing.T) {
	for _, text := range []string{"", "CONTRACT_ROW_FIELD", "nosuchkind", "references:nodecl", "rename", "hover >a >b", `rename "unclosed`} {
		if _, err := parseQueryMark(text); err == nil {
			t.Errorf("parseQueryMark(%q) accepted it", text)
		}
	}
	m, err := parseQueryMark(`rename "Venom Rules" !"no such" >g`)
	if err != nil {
		t.Fatal(err)
	}
	if m.kind != "rename" || m.golden != "g" || len(m.args) != 2 || m.args[0] != "Venom Rules" || m.args[1] != "!no such" {
		t.Errorf("parseQueryMark = %+v", m)
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc", "a\nx\nc")
	want := "\t  a\n\t- b\n\t+ x\n\t  c"
	if got != want {
		t.Errorf("lineDiff =\n%s\nwant\n%s", got, want)
	}
}

func TestMapOffset(t *testing.T) {
	edits := []TextEdit{{Span: source.Span{Start: 2, End: 4}, NewText: "xyz"}, {Span: source.Span{Start: 8, End: 9}}}
	for _, tc := range []struct{ off, want int }{{0, 0}, {2, 2}, {3, 3}, {5, 6}, {8, 9}, {10, 10}} {
		if got := mapOffset(tc.off, edits); got != tc.want {
			t.Errorf("mapOffset(%d) = %d, want %d", tc.off, got, tc.want)
		}
	}
}
