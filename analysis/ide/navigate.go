package ide

import (
	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Definition returns where the token at offset is defined: the heading a
// chapter citation or link names, the tuning key in tuning.json, the
// adoption file, the declaration of a contract value, the question of an
// answer, or the record field of a row field key.
func Definition(s *analysis.Snapshot, path string, offset int) []Location {
	f := s.File(path)
	if f == nil {
		return nil
	}
	idx := citeIndex(s)
	if r, ok := idx.refAt(path, offset); ok {
		return targetLocations(s, r.Target)
	}
	if locs := claimDefinition(s, f, offset); locs != nil {
		return locs // a direction claim of a test block (planquery.go)
	}
	if locs := docDefinition(s, f, offset); locs != nil {
		return locs // an inline-code path or a quoted test name (docfeatures.go)
	}
	if _, a := s.AdoptionAt(path); a != nil {
		return adoptionDefinition(a, offset)
	}
	if pq := newPersQuery(s, f, offset); pq != nil {
		return pq.definition() // personalize_query.go
	}
	return nil
}

// References returns every place that cites the target at offset: a
// heading (cursor on its line), a tuning key, an adoption's value, a rule,
// or any citation of them. With includeDeclaration the declaration itself
// is listed first.
func References(s *analysis.Snapshot, path string, offset int, includeDeclaration bool) []Location {
	if f := s.File(path); f != nil {
		if locs, ok := claimReferences(s, f, offset, includeDeclaration); ok {
			return locs // a measured promise and the tests claiming it (planquery.go)
		}
	}
	t, ok := targetAt(s, path, offset)
	if !ok {
		return nil
	}
	var out []Location
	seen := map[Location]bool{}
	addLoc := func(l Location) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	if includeDeclaration {
		for _, l := range targetLocations(s, t) {
			if t.kind == targetHeading || t.kind == targetFile || t.kind == targetAdoption || t.kind == targetRecord || t.kind == targetCollection {
				addLoc(l)
			}
		}
	}
	for _, r := range citeIndex(s).byTarget[t] {
		if r.Kind == refDecl && !includeDeclaration {
			continue
		}
		addLoc(Location{File: r.File, Span: r.span()})
	}
	return out
}

// targetAt returns the target named or declared at offset.
func targetAt(s *analysis.Snapshot, path string, offset int) (targetKey, bool) {
	return targetIn(s, citeIndex(s), path, offset)
}

// targetIn is targetAt over the references of idx, which holds at least
// those of the file at path.
func targetIn(s *analysis.Snapshot, idx *citationIndex, path string, offset int) (targetKey, bool) {
	f := s.File(path)
	if f == nil {
		return targetKey{}, false
	}
	if r, ok := idx.refAt(path, offset); ok {
		return r.Target, true
	}
	if f.Markdown != nil {
		for _, h := range f.Markdown.Headings {
			if h.Span().Contains(offset) {
				return targetKey{kind: targetHeading, scope: f.Path, name: headingAnchor(f, h)}, true
			}
		}
	}
	return targetKey{}, false
}

// targetLocations returns where a target is declared.
func targetLocations(s *analysis.Snapshot, t targetKey) []Location {
	if t.kind == targetRuleset {
		return rulesetLocations(s, t)
	}
	switch t.kind {
	case targetHeading:
		f := s.File(t.scope)
		if f == nil || f.Markdown == nil {
			return nil
		}
		var out []Location
		for _, i := range f.Markdown.FindAnchor(t.name, analysis.UsesGitHubAnchors(f)) {
			out = append(out, Location{File: f.Path, Span: f.Markdown.Headings[i].Span()})
		}
		return out
	case targetFile:
		if s.File(t.scope) == nil {
			return nil
		}
		return []Location{{File: t.scope}}
	}
	p := packageAt(s, t.scope)
	if p == nil {
		return nil
	}
	switch t.kind {
	case targetTuningKey:
		if p.Tuning == nil || p.TuningFile == nil {
			return nil
		}
		if e, ok := p.Tuning.Lookup(t.name); ok {
			return []Location{{File: p.TuningFile.Path, Span: e.KeySpan}}
		}
		if r, ok := p.Tuning.Range(t.name); ok {
			return []Location{{File: p.TuningFile.Path, Span: r.KeySpan}}
		}
	case targetTuningRule:
		if p.Tuning == nil || p.TuningFile == nil {
			return nil
		}
		if r, ok := p.Tuning.Rule(t.name); ok {
			return []Location{{File: p.TuningFile.Path, Span: r.NameSpan}}
		}
	case targetAdoption:
		if a := p.Adoption(t.name); a != nil {
			return []Location{{File: a.File}}
		}
	case targetClock, targetMode, targetRuntime:
		return clockLocations(p, t)
	case targetQuestion:
		return questionLocations(s, p, t.name)
	case targetDirection, targetPalette, targetColor:
		return directionLocations(p, t)
	case targetCollection:
		if c := p.Collections[t.name]; c != nil {
			if c.HasSchema {
				return []Location{{File: c.SchemaPath()}}
			}
			if ids := sortedRecords(c); len(ids) > 0 {
				return []Location{{File: c.RecordPath(ids[0])}}
			}
		}
	case targetRecord:
		if c := p.Collections[t.name]; c != nil {
			if _, ok := c.Records[t.sub]; ok {
				return []Location{{File: c.RecordPath(t.sub), Span: recordSpan(c, t.sub)}}
			}
		}
	case targetValue:
		a := p.Adoption(t.name)
		if a == nil {
			return nil
		}
		if d := a.Declaration(t.sub); d != nil {
			return []Location{{File: a.File, Span: d.Name.Span}}
		}
		if sup := a.SuppliedValue(t.sub); sup != nil {
			return []Location{{File: a.File, Span: sup.Name.Span}}
		}
	}
	return nil
}

// packageAt returns the package whose root is root, or nil.
func packageAt(s *analysis.Snapshot, root string) *analysis.Package {
	for _, p := range s.Packages {
		if p.Root == root {
			return p
		}
	}
	return nil
}

// adoptionDefinition answers a definition query inside an adoption that
// is not on a citation: an answer leads to its question (or the chosen
// option), a row field key to its record field, a value name to its
// declaration, a row-set name to its declaration.
func adoptionDefinition(a *contracts.Adoption, offset int) []Location {
	if a.Root == nil {
		return nil
	}
	hit := LocateJSON(a.Root, offset)
	keys := PathKeys(hit.Path)
	loc := func(sp source.Span) []Location { return []Location{{File: a.File, Span: sp}} }
	switch {
	case len(keys) == 2 && keys[0] == "answers":
		q := a.Question(keys[1])
		if q == nil {
			return nil
		}
		if !hit.OnKey && hit.Value != nil && hit.Value.Kind() == jsonsrc.String {
			if o := q.Option(hit.Value.Str()); o != nil {
				return loc(o.Name.Span)
			}
		}
		return loc(q.Name.Span)
	case len(keys) == 2 && keys[0] == "values" && hit.OnKey:
		if d := a.Declaration(keys[1]); d != nil {
			return loc(d.Name.Span)
		}
	case len(keys) == 2 && keys[0] == "rows" && hit.OnKey:
		if set := a.RowSet(keys[1]); set != nil {
			return loc(set.Name.Span)
		}
	case len(keys) == 4 && keys[0] == "rows" && keys[2] == "[]":
		set := a.RowSet(keys[1])
		fd := set.Field(keys[3])
		if fd == nil {
			return nil
		}
		if !hit.OnKey && hit.Value != nil && hit.Value.Kind() == jsonsrc.String {
			for _, o := range fd.Options {
				if o.Text == hit.Value.Str() {
					return loc(o.Span)
				}
			}
		}
		return loc(fd.Name.Span)
	}
	return nil
}
