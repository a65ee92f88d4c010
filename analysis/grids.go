package analysis

import (
	"sort"

	"github.com/gddls/gddls/analysis/grid"
)

// checkGrids reports the §7a congruence of every record of a collection
// whose schema declares grid fields (analysis/grid). A schema file that
// does not parse declares no layer, and a record that does not parse is
// not read: their own findings stand alone.
func (b *builder) checkGrids(p *Package) {
	ids := make([]string, 0, len(p.Collections))
	for id := range p.Collections {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := p.Collections[id]
		layers := grid.Layers(c.Schema)
		if len(layers) == 0 {
			continue
		}
		records := make([]string, 0, len(c.Records))
		for r := range c.Records {
			records = append(records, r)
		}
		sort.Strings(records)
		for _, r := range records {
			f := p.files.get("collections/" + id + "/" + r + ".json")
			if f == nil || c.Records[r] == nil {
				continue
			}
			b.findings = append(b.findings, grid.Check(f.Path, c.Records[r], layers)...)
		}
	}
}
