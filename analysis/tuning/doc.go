// Package tuning reads a package's tuning.json (SPEC §4) and reports every
// finding about the file by itself: the JSON and its shape, the tuning keys
// and their reserved segments, the numbers of values and open, the ranges,
// and the rules with their evaluation over decided numbers and over guesses.
//
// Each finding carries the byte span of the token at fault: the key, the
// value, or, inside a rule line, the offending token of the JSON string.
// When the string holds escapes its raw text differs from the decoded rule
// line, and such findings fall back to the span of the whole string.
//
// TUNING_SCHEMA is not reported as a code of its own. Every constraint of
// tuning.schema.json is also one of the specific §4 checks (the top-level
// shape, the key grammar, the entry types, the range pairs, the rule names
// and lines), so a schema break is reported under that specific code
// (TUNING_SHAPE, TUNING_KEY, TUNING_NUMBER, TUNING_RANGE or
// TUNING_RULE_INVALID) and never twice.
//
// Limits of this version:
//
//   - Rules are checked over the authored environment only. The package
//     defaults of personalization.json are not applied, so an open key that
//     a default would decide is still treated as undecided.
//   - Record-field operands (collections.<collection>.<record>.<field>) are
//     not resolved here, because that needs the collections/ folder. A rule
//     that names one is skipped without a finding, and pins are therefore
//     not derived. The rule's RecordFields flag lets a later check that
//     knows the collections evaluate it.
//   - A key that appears twice in one JSON object counts once, with its
//     last value, as JSON readers do; the earlier member is ignored.
package tuning
