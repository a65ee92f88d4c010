// Package ruleline parses and evaluates rule lines: one comparison between
// two arithmetic sides, the grammar that tuning.json rules (SPEC §4) and the
// numeric rules of contract definitions (SPEC §10.6) share.
//
// A rule line reads
//
//	side op side
//
// where op is one of ==, !=, <, <=, >, >= and each side is built from
// numbers, names, the binary operators + - * / (the usual precedence, equal
// operators applying from left to right), unary minus, parentheses and the
// three functions min (one or more arguments), max (one or more arguments)
// and floor (exactly one argument).
//
// A name is a run of letters, digits, underscores and dots, with hyphens
// inside it: dotted tuning keys such as dash.cooldown_seconds or level.2,
// record-field addresses such as collections.enemies.swarmer.hull, and the
// bare kebab-case value names of a contract such as cap-seconds. A hyphen
// that sits between two name characters belongs to the name, so a-b is one
// name while a - b and a -b subtract. A token made only of digits and dots
// is a number (1, 0.15; an exponent as in 1e3 is also read), and an
// all-digit token with a misplaced dot such as 1.2.3 is a syntax error.
//
// The package does not know which names exist: Parse checks the grammar and
// the function names, and Eval asks the caller for the value of each name.
// Arithmetic is IEEE 754 binary64 with exact comparisons; division by zero
// and any result that is not finite are evaluation errors.
//
// The package is pure: it uses only the standard library, never panics and
// bounds its work on any input.
package ruleline
