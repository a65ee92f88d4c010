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
// A break of the published tuning.schema.json is TUNING_SCHEMA (schema.go,
// the schema written with analysis/jsonshape), reported alongside the more
// specific code of the same fault (TUNING_SHAPE, TUNING_KEY, TUNING_NUMBER,
// TUNING_RANGE, TUNING_RULE_INVALID), as Appendix A pairs TUNING_KEY with it.
//
// Parse evaluates, over the authored numbers, the rules that name no record
// field. The rest of the rule check needs the package around the file and
// is done by File.CheckEnvironments: the rules that name a record field
// (collections.<collection>.<record>.<field>), resolved against the
// collections and their record schemas, with the pins computed from the
// authored base; and every rule again over the package defaults of
// personalization.json when a default answer changes a number. A finding of
// the defaults environment that the authored one gives identically is left
// out, so each problem is reported once.
//
// Limits of this version:
//
//   - A default assignment that §5 forbids (a target that is neither a
//     ranged values key nor an open key, or a number outside the key's
//     range) is left out of the defaults environment; its own
//     PERSONALIZATION_* finding covers it. A personalization.json that does
//     not parse completely gives no defaults.
//   - A rule whose record field lives in a record file or a schema file
//     that cannot be read, or whose field shape in the schema is malformed,
//     is not evaluated; that file's own finding covers it.
//   - A key that appears twice in one JSON object counts once, with its
//     last value, as JSON readers do; the earlier member is ignored.
package tuning
