package analysis

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/gddls/gddls/analysis/buildplan"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/pack"
	"github.com/gddls/gddls/contracts/source"
)

// checkBuildPlan reports the findings of the build plan's tests (§6): those
// of the file alone, and the direction_claims paths that name no measured
// entry of direction.json.
func (b *builder) checkBuildPlan(p *Package, f *File) {
	if f.entry == nil {
		return
	}
	plan := f.entry.getPlan()
	b.findings = append(b.findings, f.entry.getPlanFindings(f.Path)...)
	// The modes and values of each test's `unchanged` (§4b.3) are checked
	// with clocks.json and the runtime addresses the package declares.
	for _, t := range plan.Tests {
		b.findings = append(b.findings, p.checkUnchanged(t.Unchanged, f.Path, nil)...)
	}
	if p.Unreadable("direction.json") {
		return // its syntax error is reported; no claim is judged against it
	}
	var dir []byte
	var dirEntry *cacheEntry // nil when the package has no direction.json
	if d := p.files.get("direction.json"); d != nil && p.Direction != nil {
		dir, dirEntry = d.Content, d.entry
	}
	// The claims read the plan's content and direction.json's alone.
	if m := f.entry.claimsChecked; m != nil && m.direction == dirEntry {
		b.findings = append(b.findings, m.findings...)
		return
	}
	m := &claimFindings{direction: dirEntry}
	for _, t := range plan.Tests {
		for _, c := range t.Claims {
			if msg := claimProblem(dir, c.Path); msg != "" {
				m.findings = append(m.findings, source.Finding{Code: buildplan.CodeClaimsDangling, Severity: source.Error, File: f.Path, Span: c.Span,
					Message: fmt.Sprintf("%s claims %q, %s", t.ID, c.Path, msg)})
			}
		}
	}
	f.entry.claimsChecked = m
	b.findings = append(b.findings, m.findings...)
}

// claimFindings are the direction_claims findings of one build plan
// content against one direction.json content.
type claimFindings struct {
	direction *cacheEntry
	findings  []source.Finding
}

// claimProblem says why a claimed path does not resolve to a measured
// entry of direction.json (whose bytes are dir, nil when the package has
// none), or "" when it does.
func claimProblem(dir []byte, path string) string {
	section, key, ok := buildplan.SplitClaim(path)
	if !ok {
		return "which is not a path to a measured promise; write colors.<key>, contrast.<key> or timing.<key>"
	}
	if dir == nil {
		return "but the package has no direction.json to declare it"
	}
	entries := gjson.GetBytes(dir, section)
	if !entries.IsObject() {
		return fmt.Sprintf("but direction.json declares no %q entries", section)
	}
	if gjson.GetBytes(dir, section+"."+gjson.Escape(key)).Exists() {
		return ""
	}
	var keys []string
	entries.ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, section+"."+k.String())
		return true
	})
	msg := fmt.Sprintf("but direction.json has no %q entry %q", section, key)
	if near := Nearest(path, keys); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return msg
}

// ClaimTargets lists the paths a test may claim in direction.json (bytes
// dir), with the JSON of each entry, in section and file order.
func ClaimTargets(dir []byte) (paths, values []string) {
	for _, section := range buildplan.Measured {
		gjson.GetBytes(dir, section).ForEach(func(k, v gjson.Result) bool {
			paths = append(paths, section+"."+k.String())
			values = append(values, v.Raw)
			return true
		})
	}
	return paths, values
}

// checkGeneratedTests applies the field sets of §6 to tests, those the
// pack pk generates for adoption a (§6 "Checked contract tests", §10.7).
// A fault in a generated test comes from its template, but the test
// exists only for this adoption: it is filed in the adoption, pointing at
// the template, except VERIFICATION_GENERAL_SEEDS, which the format files
// in the pack and routes to the adoption.
func checkGeneratedTests(a *contracts.Adoption, pk *pack.Pack, tests []pack.Test) []source.Finding {
	var out []source.Finding
	for _, t := range tests {
		tmpl := pk.Template(t.Template)
		var test *jsonsrc.Value
		if tmpl != nil {
			test = tmpl.Test
		}
		what := "the generated test AT " + t.Name
		for _, pr := range buildplan.CheckBlock(t.Block, what) {
			if pr.Member == "direction_claims" {
				continue // the field itself is CONTRACT_TEST_DIRECTION_CLAIMS
			}
			where := test.Opening()
			if m := test.Member(pr.Member); m != nil {
				where = m.KeySpan()
			}
			msg := pr.Msg
			if !strings.HasPrefix(msg, what) {
				msg = what + ": " + msg
			}
			msg = fmt.Sprintf("%s; the test comes from template %q of %s, so fix the template", msg, t.Template, filepath.Base(pk.File))
			if pr.Code == buildplan.CodeGeneralSeeds {
				out = append(out, source.Finding{Code: pr.Code, Severity: source.Error, File: pk.File, Span: where, Message: msg,
					Related: []source.Related{{File: a.File, Span: a.ContractKey, Message: "for adoption " + strconv.Quote(a.ID)}}})
				continue
			}
			out = append(out, source.Finding{Code: pr.Code, Severity: source.Error, File: a.File, Span: a.ContractKey, Message: msg,
				Related: []source.Related{{File: pk.File, Span: where, Message: "the template's test block"}}})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
