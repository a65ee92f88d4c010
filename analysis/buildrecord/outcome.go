package buildrecord

// Outcome is the derived outcome of a build record (§7, "Derived build
// outcomes and exit codes").
type Outcome string

// The outcomes, as the JSON report spells them.
const (
	Conforming  Outcome = "conforming"
	Invalid     Outcome = "invalid"
	Incomplete  Outcome = "incomplete"
	NotVerified Outcome = "not-verified"
	NotChecked  Outcome = "not-checked"
)

// Derive returns the outcome: the first of §7's rows that applies. errors
// is the number of errors of the check; checked says whether the source
// package was given; tests is the number of tests of the package; and
// notPassed the number of not_passed entries of the record.
func Derive(errors int, checked bool, tests, notPassed int) Outcome {
	switch {
	case errors > 0:
		return Invalid
	case !checked:
		return NotChecked
	case tests == 0:
		return NotVerified
	case notPassed > 0:
		return Incomplete
	}
	return Conforming
}

// ExitCode is the exit status of build mode for the outcome: 0 only for
// conforming, 1 for invalid, 3 for the others.
func (o Outcome) ExitCode() int {
	switch o {
	case Conforming:
		return 0
	case Invalid:
		return 1
	}
	return 3
}

// Verdict is the outcome as the text report states it.
func (o Outcome) Verdict() string {
	switch o {
	case Conforming:
		return "PASS"
	case Invalid:
		return "FAIL"
	case Incomplete:
		return "INCOMPLETE"
	case NotVerified:
		return "NOT VERIFIED"
	}
	return "NOT CHECKED"
}
