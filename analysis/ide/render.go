package ide

import (
	"fmt"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/pack"
)

// RenderTests renders the generated tests of the checked adoption at path
// as Markdown: every test its pack generates under the current answers,
// named <adoption>/<template>[/<row-id>], then the templates that generate
// no test with the reason. It fails for a file that is not an adoption and
// for a promised adoption, which has no pack.
func RenderTests(s *analysis.Snapshot, path string) (string, error) {
	p, a := s.AdoptionAt(path)
	if a == nil {
		return "", fmt.Errorf("%s is not a contract adoption of a package, so it has no tests to render", path)
	}
	pk := p.PackFor(a)
	if pk == nil {
		identity := a.Identity()
		if identity == "" {
			identity = "<contract>-<version>"
		}
		return "", fmt.Errorf("%s is promised: there is no contracts/%s.pack.json, so no tests are generated", a.ID, identity)
	}
	st := p.State(a)
	tests, _ := pack.Render(a, st, pk)
	statuses := pack.Live(a, st, pk)
	md := pack.Markdown(tests, statuses)
	if md == "" {
		md = fmt.Sprintf("The pack %s has no templates, so %s has no generated tests.\n", pk.Identity(), a.ID)
	}
	return md, nil
}
