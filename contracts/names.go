package contracts

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

func isAnnotation(key string) bool { return strings.HasPrefix(key, "_") }

// valueForm returns "number" for a finite number, "citation" for a string
// shaped like a dotted citation, and "" for anything else.
func valueForm(v *jsonsrc.Value) string {
	if v == nil {
		return ""
	}
	if v.Finite() {
		return "number"
	}
	if v.Kind() == jsonsrc.String && citationShaped(v.Str()) {
		return "citation"
	}
	return ""
}

// citationShaped reports whether s looks like a dotted citation: no space,
// '#', ':', '{' or '}', and two or more non-empty segments.
func citationShaped(s string) bool {
	if strings.TrimSpace(s) == "" || strings.ContainsAny(s, " \t\r\n#:{}") || !strings.Contains(s, ".") {
		return false
	}
	for _, seg := range strings.Split(s, ".") {
		if seg == "" {
			return false
		}
	}
	return true
}

// reservedFirst are the reserved first segments of SPEC §12.2.
var reservedFirst = map[string]bool{
	"pillars": true, "mood": true, "anti": true, "must_keep": true, "colors": true,
	"contrast": true, "timing": true, "values": true, "ranges": true, "rules": true,
	"runtime": true, "clocks": true, "manifest": true, "build": true, "contracts": true,
	"palette": true, "collections": true,
}

// tuningKeyProblem returns why s is not a tuning key (SPEC §4), or "".
func tuningKeyProblem(s string) string {
	segs := strings.Split(s, ".")
	if len(segs) < 2 {
		return "a tuning key has two or more segments joined by dots"
	}
	letter := false
	for _, seg := range segs {
		if seg == "" {
			return "a tuning key has no empty segment"
		}
		if seg[0] == '-' || seg[len(seg)-1] == '-' {
			return "a tuning key segment does not begin or end with '-'"
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			switch {
			case c >= '0' && c <= '9':
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '-':
				letter = true
			default:
				return "a tuning key segment holds only letters, digits, '_' and '-'"
			}
		}
		if seg == "json" || seg == "md" {
			return "a tuning key segment is not \"json\" or \"md\""
		}
	}
	if reservedFirst[segs[0]] {
		return "\"" + segs[0] + "\" is a reserved first segment, not a tuning key"
	}
	if !letter {
		return "a tuning key needs a character that is not a digit"
	}
	return ""
}

// nearest returns the candidate closest to s by edit distance, or "" when
// none is reasonably close.
func nearest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := source.EditDistance(s, c)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(2, len(s)/2) {
		return ""
	}
	return best
}

// suggest formats " (did you mean "x"?)" for the nearest candidate, or "".
func suggest(s string, candidates []string) string {
	if n := nearest(s, candidates); n != "" && n != s {
		return "; did you mean " + strconv.Quote(n) + "?"
	}
	return ""
}

// quoteList formats names as "a, b, c".
func quoteList(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
