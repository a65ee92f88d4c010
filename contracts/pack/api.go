package pack

import (
	"sort"
	"strings"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/source"
)

func newCtx(a *contracts.Adoption, s *contracts.State) *ctx {
	if s == nil {
		s = contracts.Evaluate(a, nil)
	}
	return &ctx{a: a, asked: s.Asked, active: s.Active, required: s.FieldRequired}
}

// Check reports everything about one adoption with its pack, except the
// pack's own findings (Pack.Findings), which the caller reports once per
// pack: the digest (CONTRACT_PACK_HASH), the names the pack uses that the
// definition does not declare, the row set a per-row template expands
// (CONTRACT_ROW_ID), `verification` entries for missing or dead templates,
// the findings of rendering (see Render) and injected delimiters in the
// adoption's strings (CONTRACT_INJECTION).
//
// With p == nil the adoption is promised: only CONTRACT_INJECTION is
// checked. s may be nil; the adoption is then evaluated without a
// resolver. Findings are deduplicated and sorted by file and position.
func Check(a *contracts.Adoption, s *contracts.State, p *Pack) []source.Finding {
	if a == nil {
		return nil
	}
	c := newCtx(a, s)
	var out []source.Finding
	if p == nil {
		r := &renderer{c: c, seen: map[string]bool{}}
		c.injection(r)
		out = r.findings
	} else {
		out, _ = c.check(p)
	}
	sortFindings(out)
	return out
}

// CheckTests is Check for a checked adoption (p != nil) that also returns
// the tests Render generates, for a caller that checks them further
// without rendering twice.
func CheckTests(a *contracts.Adoption, s *contracts.State, p *Pack) ([]source.Finding, []Test) {
	if a == nil || p == nil {
		return Check(a, s, p), nil
	}
	out, tests := newCtx(a, s).check(p)
	sortFindings(out)
	return out, tests
}

// Live decides for every template of p, in authored order, whether it is
// live for adoption a (SPEC §10.7 rules 3–6) and why not.
func Live(a *contracts.Adoption, s *contracts.State, p *Pack) []TemplateStatus {
	if a == nil || p == nil {
		return nil
	}
	return newCtx(a, s).statuses(p)
}

// Render generates the tests of adoption a from pack p: one test per live
// once template and one per matching row of a live per-row template,
// named <adoption>/<template>[/<row-id>], in authored template and row
// order. The findings are those of rendering: missing inputs
// (CONTRACT_REFERENCE, dependent), bindings without a phrase
// (CONTRACT_BINDING_MAP), placeholders left unresolved or putting an array
// or object inside a string (CONTRACT_PLACEHOLDER) and direction_claims in
// a generated test (CONTRACT_TEST_DIRECTION_CLAIMS). Check reports them
// too.
func Render(a *contracts.Adoption, s *contracts.State, p *Pack) ([]Test, []source.Finding) {
	if a == nil || p == nil {
		return nil, nil
	}
	c := newCtx(a, s)
	r := &renderer{c: c, p: p, seen: map[string]bool{}}
	tests := r.render(c.statuses(p))
	sortFindings(r.findings)
	return tests, r.findings
}

func sortFindings(fs []source.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].File != fs[j].File {
			return fs[i].File < fs[j].File
		}
		return fs[i].Span.Start < fs[j].Span.Start
	})
}

// Markdown renders tests for reading, as `gddls check --render-tests` and
// the server's gddls.renderTests command show them: each test as a heading
// `### AT <name> — <title>`, its test block in a fence tagged `test`, then
// its text. The templates in statuses that are not live follow in a list
// with the reason each generates no test. statuses may be nil.
func Markdown(tests []Test, statuses []TemplateStatus) string {
	var b strings.Builder
	for i, t := range tests {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("### AT " + t.Name)
		if title := oneLine(t.Title); title != "" {
			b.WriteString(" — " + title)
		}
		js := t.JSON()
		fence := fenceFor(js)
		b.WriteString("\n\n" + fence + "test\n" + js + "\n" + fence + "\n")
		if text := strings.TrimSpace(t.Text); text != "" {
			b.WriteString("\n" + text + "\n")
		}
	}
	var dead []TemplateStatus
	for _, st := range statuses {
		if !st.Live {
			dead = append(dead, st)
		}
	}
	if len(dead) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("### Templates that generate no test\n\n")
		for _, st := range dead {
			id := st.ID
			if id == "" {
				id = "(template without id)"
			}
			b.WriteString("- `" + id + "`: " + oneLine(st.Reason) + "\n")
		}
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// fenceFor returns a backtick fence longer than any backtick run in body,
// at least three long.
func fenceFor(body string) string {
	longest, run := 0, 0
	for i := 0; i < len(body); i++ {
		if body[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
