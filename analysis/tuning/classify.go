package tuning

import "strings"

// TokenClass is what an inline-code token of chapter prose is, by the
// classification of SPEC §12.2.
type TokenClass int

// The classes of an inline-code token.
const (
	// NotDotted is inline code that is not a dotted token: prose, a
	// command, anything with a colon or spaces.
	NotDotted TokenClass = iota
	// MechanismPath starts with a reserved first segment.
	MechanismPath
	// VersionString has only digit segments.
	VersionString
	// FileMention has a json or md segment.
	FileMention
	// TuningCitation is every other dotted token: a bare tuning key.
	TuningCitation
)

// ClassifyToken classifies the whole content of one inline code span and
// returns its dotted segments.
func ClassifyToken(text string) (TokenClass, []string) {
	if text == "runtime" {
		return MechanismPath, []string{"runtime"}
	}
	if strings.ContainsAny(text, ": \t\n") || !strings.Contains(text, ".") {
		return NotDotted, nil
	}
	segs := strings.Split(text, ".")
	if IsReservedFirstSegment(segs[0]) {
		return MechanismPath, segs
	}
	for _, s := range segs {
		if !ValidSegment(s) {
			return NotDotted, nil
		}
	}
	allDigits := true
	for _, s := range segs {
		if strings.Trim(s, "0123456789") != "" {
			allDigits = false
		}
	}
	if allDigits {
		return VersionString, segs
	}
	for _, s := range segs {
		if IsReservedExtension(s) {
			return FileMention, segs
		}
	}
	return TuningCitation, segs
}
