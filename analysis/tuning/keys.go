package tuning

import (
	"fmt"
	"strings"
)

// ReservedFirstSegments returns the segments that no tuning key may begin
// with, because prose citations read them as format mechanisms (SPEC §4,
// §12.2). The slice is new on every call.
func ReservedFirstSegments() []string {
	return []string{
		"pillars", "mood", "anti", "must_keep", "colors", "contrast", "timing",
		"values", "ranges", "rules", "runtime", "clocks", "manifest", "build",
		"contracts", "palette", "collections",
	}
}

// ReservedExtensions returns the segments that no tuning key may hold in
// any position, because they mark a file mention. The slice is new on every
// call.
func ReservedExtensions() []string { return []string{"json", "md"} }

// IsReservedFirstSegment reports whether seg is a reserved first segment.
func IsReservedFirstSegment(seg string) bool {
	switch seg {
	case "pillars", "mood", "anti", "must_keep", "colors", "contrast", "timing",
		"values", "ranges", "rules", "runtime", "clocks", "manifest", "build",
		"contracts", "palette", "collections":
		return true
	}
	return false
}

// IsReservedExtension reports whether seg is a reserved extension segment.
func IsReservedExtension(seg string) bool { return seg == "json" || seg == "md" }

// ReservedRevision returns the format revision that reserved seg: 0.6 for
// palette and collections, 0.7 for values, ranges, rules, runtime, colors,
// contrast and timing, and the current revision, 0.9, for every other
// reserved segment.
func ReservedRevision(seg string) string {
	switch seg {
	case "palette", "collections":
		return "0.6"
	case "values", "ranges", "rules", "runtime", "colors", "contrast", "timing":
		return "0.7"
	}
	return "0.9"
}

// ValidSegment reports whether s follows the tuning-key segment grammar:
// one or more of a-z, A-Z, 0-9, "_" and "-", not beginning or ending with
// "-".
func ValidSegment(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !segmentChar(s[i]) {
			return false
		}
	}
	return true
}

func segmentChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// CheckKey checks key against the tuning-key rules of SPEC §4. problem
// describes a break of rules 1, 2 or 4 (the shape of the key); reserved is
// the reserved segment that breaks rule 3, checked only when the shape is
// right (a reserved first segment is named before a reserved extension).
// ok is true when the key is a valid tuning key.
func CheckKey(key string) (problem, reserved string, ok bool) {
	if problem = keyShapeProblem(key); problem != "" {
		return problem, "", false
	}
	if first, ext := reservedSegments(key); first != "" {
		return "", first, false
	} else if ext != "" {
		return "", ext, false
	}
	return "", "", true
}

// keyShapeProblem describes how key breaks tuning-key rules 1, 2 or 4, or
// returns "".
func keyShapeProblem(key string) string {
	segs := strings.Split(key, ".")
	if len(segs) < 2 {
		return fmt.Sprintf("%q is a single segment; a tuning key joins two or more segments with dots, such as %q", key, suggestDotted(key))
	}
	hasNonDigit := false
	for _, s := range segs {
		switch {
		case s == "":
			return fmt.Sprintf("%q has an empty segment; join segments with single dots and do not begin or end the key with a dot", key)
		case s[0] == '-' || s[len(s)-1] == '-':
			return fmt.Sprintf("%q has the segment %q, which begins or ends with a hyphen; move the hyphen inside the segment or drop it", key, s)
		}
		for i := 0; i < len(s); i++ {
			if !segmentChar(s[i]) {
				return fmt.Sprintf("%q has the segment %q, which holds %q; a segment uses only letters, digits, \"_\" and \"-\"", key, s, badRune(s[i:]))
			}
			if s[i] < '0' || s[i] > '9' {
				hasNonDigit = true
			}
		}
	}
	if !hasNonDigit {
		return fmt.Sprintf("%q holds only digits; at least one segment needs a letter, \"_\" or \"-\"", key)
	}
	return ""
}

func badRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

func suggestDotted(key string) string {
	if key == "" || !ValidSegment(key) {
		return "dash.speed"
	}
	return key + ".value"
}

// reservedSegments returns the reserved first segment and the first
// reserved extension segment of a well-shaped key, each "" when absent.
func reservedSegments(key string) (first, ext string) {
	segs := strings.Split(key, ".")
	if IsReservedFirstSegment(segs[0]) {
		first = segs[0]
	}
	for _, s := range segs {
		if IsReservedExtension(s) {
			ext = s
			break
		}
	}
	return first, ext
}

// reservedMessages returns one message per reserved segment of a
// well-shaped key; role is "values", "open" or "ranges".
func reservedMessages(role, key string) []string {
	first, ext := reservedSegments(key)
	var out []string
	if first != "" {
		rest := strings.TrimPrefix(key, first+".")
		out = append(out, fmt.Sprintf("%s key %q begins with %q, a segment the format reserved in revision %s for its own citations; rename the key, for example to %q",
			role, key, first, ReservedRevision(first), "feel."+rest))
	}
	if ext != "" {
		out = append(out, fmt.Sprintf("%s key %q holds the segment %q, which the format reserved in revision %s for file names; rename that segment",
			role, key, ext, ReservedRevision(ext)))
	}
	return out
}
