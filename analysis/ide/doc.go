// Package ide answers the questions an editor asks about an OpenGDD
// workspace: completion, hover, definitions, references, highlights,
// renames of names and of files, code actions and quick fixes, code lenses,
// document links, symbols, inlay hints, folding and selection ranges, and
// semantic tokens; and the per-format query code behind them (adoptions,
// chapters, general Markdown, clocks, direction, personalization,
// collections, the build plan and build records).
//
// It plays the part of rust-analyzer's ide crate. Every query is a function
// of an immutable *analysis.Snapshot, a file's absolute path and a byte
// offset (or span) into that file's content; results carry byte spans, which
// a caller converts with the file's Lines. The package reads snapshots only
// through the exported, documented API of package analysis (files, packages,
// their parsed models, findings, the parse cache's accessors) and keeps its
// own caches on the snapshot through the hooks analysis offers for them
// (Snapshot.CitationIndex, Snapshot.FileRefs).
//
// It speaks no protocol: no go.lsp.dev type appears here, and package lsp
// turns these answers into LSP messages. It never writes a file; edits are
// returned as TextEdits and FileCreates for the editor to apply. Checks
// live below it in analysis and cannot call a query; TestLayers in
// analysis/layers_test.go keeps the imports so.
package ide
