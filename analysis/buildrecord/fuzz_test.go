package buildrecord

import (
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text to Parse: it must not panic, every finding
// must lie inside the text and carry one of the codes the record alone
// decides, and a text that is not JSON gives BUILD_JSON alone.
func FuzzParse(f *testing.F) {
	f.Add(valid)
	f.Add(`{"evidence": {"acceptance": {"passed": 1e400, "total": -0, "not_passed": {"": 3}}, "payload": {"file": "../\\x"}}}`)
	f.Add(`{"resolved_tuning": {"tunables": {}, "values": []}, "evidence": {"algorithm": 1, "contracts": [1, {}]}}`)
	f.Fuzz(func(t *testing.T, src string) {
		r := Parse(FileName, []byte(src))
		own := map[string]bool{CodeJSON: true, CodeSchema: true, CodePayloadPath: true, CodeAcceptanceShape: true, CodeAccounting: true}
		for _, fd := range r.Findings {
			if !own[fd.Code] {
				t.Fatalf("code %s is not one the record alone decides", fd.Code)
			}
			if fd.Span.Start < 0 || fd.Span.End > len(src) || fd.Span.Start > fd.Span.End {
				t.Fatalf("finding %v outside the text (%d bytes)", fd, len(src))
			}
			if fd.Code == CodeJSON && len(r.Findings) != 1 {
				t.Fatalf("BUILD_JSON beside other findings: %v", r.Findings)
			}
			if strings.TrimSpace(fd.Message) == "" {
				t.Fatalf("finding without a message: %v", fd)
			}
		}
		_ = r.Ran()
	})
}
