package pack

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// renderMemo is what a rendering of one adoption file that found nothing
// read (renderKey), kept in the pack (Pack.renders), so that the next
// check of that file, while the pack and those inputs are the same, knows
// that rendering again would find nothing too.
type renderMemo struct {
	key renderKey
}

// renderKey is everything the rendering of an adoption with a pack reads
// besides the pack, as text without positions: head holds the short
// items, length-prefixed, and parts the source text of the adoption's
// values the rendering reads, as offset pairs into data, the adoption's
// content (not copied: the content is never modified once parsed). The
// pairs take a third of the room slices of data would, in every memo the
// server keeps.
type renderKey struct {
	head  []byte
	data  []byte
	parts []uint32
	// opaque marks a key of a content too large for its offsets; it
	// equals no key.
	opaque bool
}

func (k *renderKey) equal(o *renderKey) bool {
	if k.opaque || o.opaque || !bytes.Equal(k.head, o.head) || len(k.parts) != len(o.parts) {
		return false
	}
	for i := 0; i < len(k.parts); i += 2 {
		if !bytes.Equal(k.data[k.parts[i]:k.parts[i+1]], o.data[o.parts[i]:o.parts[i+1]]) {
			return false
		}
	}
	return true
}

// compact returns the key with no spare capacity, as a memo keeps it.
func (k *renderKey) compact() renderKey {
	c := *k
	c.head = slices.Clone(k.head)
	c.parts = slices.Clone(k.parts)
	return c
}

func (k *renderKey) len(n int) { k.head = binary.AppendVarint(k.head, int64(n)) }

func (k *renderKey) str(s string) {
	k.len(len(s))
	k.head = append(k.head, s...)
}

// raw adds the source text of v in k.data (a part of its own), or a mark
// for a missing value.
func (k *renderKey) raw(v *jsonsrc.Value) {
	if v == nil {
		k.len(-1)
		return
	}
	k.len(-3) // a part follows
	s := v.Span()
	switch {
	case s.Start < 0 || s.Start > s.End || s.End > len(k.data):
		k.parts = append(k.parts, 0, 0)
	case uint64(s.End) > math.MaxUint32:
		k.opaque = true
		k.parts = append(k.parts, 0, 0)
	default:
		k.parts = append(k.parts, uint32(s.Start), uint32(s.End))
	}
}

// renderKey returns what the rendering of c's adoption with p reads: the
// adoption's id and file, and for each template whether it is live and,
// when it is, the source text of its rows, of the adoption's verification
// entry for it and of the row set it expands, and the answers its
// bindings select by. Two adoptions with equal keys render the same
// tests, and the same findings up to their positions; the memo is kept
// only for a rendering that found nothing, so positions never matter.
func (c *ctx) renderKey(statuses []TemplateStatus) *renderKey {
	a := c.a
	k := &renderKey{head: make([]byte, 0, 64+len(a.ID)+len(a.File)), data: a.Data}
	k.str(a.ID)
	k.str(a.File)
	for _, st := range statuses {
		if !st.Live {
			k.len(0)
			continue
		}
		k.len(1)
		t := st.Template
		k.len(len(st.Rows))
		for _, row := range st.Rows {
			k.raw(row.Value)
		}
		if rs := a.RowSet(t.Collection); rs != nil {
			k.raw(rs.Value)
		} else {
			k.len(-2)
		}
		if e := c.verification(t.ID); e != nil {
			k.raw(e.Value)
		} else {
			k.len(-2)
		}
		for _, b := range t.Bindings {
			if b.Flag == nil {
				continue
			}
			if ans, ok := c.answer(b.Flag.Text); ok {
				k.str(ans.Option)
			} else {
				k.len(-1)
			}
		}
	}
	return k
}

// memoClean reports whether the last rendering for the adoption file
// from p that found nothing had an equal key.
func (p *Pack) memoClean(file string, key *renderKey) bool {
	if p == nil || p.renders == nil {
		return false
	}
	m, ok := p.renders.Load(file)
	return ok && m.(*renderMemo).key.equal(key)
}

// CheckTestsMemo is Check followed by the caller's own check of the tests
// the adoption's templates generate (checkTests), whose findings it
// appends: the findings are those of CheckTests and of checkTests on its
// tests in every case. It renders only what those findings need:
//
//   - When the rendering and checkTests found nothing, the pack keeps what
//     the rendering read for the adoption's file; a later call for that
//     file that would read the same inputs (renderKey) neither renders
//     nor checks again.
//   - The tests given to checkTests have their Block, not their Title and
//     Text, and checkTests is called only when there is a test to check.
//   - Of a template whose blocks for one adoption are alike (blocksAlike:
//     they differ only in the text of strings with placeholders, which is
//     never empty), checkTests is given the first block alone; when it
//     finds something there, it is given them all. When the blocks are
//     alike for every adoption and checkTests has found one sound, none
//     is given to it again, for any adoption.
//
// So checkTests must judge a block by its members, kinds, array lengths,
// and strings, but read the text of a string that holds placeholders in
// the template for whether it is empty alone, and it must be the same
// function in every call with a pack.
func CheckTestsMemo(a *contracts.Adoption, s *contracts.State, p *Pack, checkTests func([]Test) []source.Finding) []source.Finding {
	return checkTestsMemo(a, s, p, checkTests, true)
}

// CheckTestsOnce is CheckTestsMemo for a pack that will not check the
// adoption's file again (a check that exits after one build): it neither
// reads nor keeps what a rendering read, which would cost a key per
// adoption that no later call compares. Its findings are those of
// CheckTestsMemo.
func CheckTestsOnce(a *contracts.Adoption, s *contracts.State, p *Pack, checkTests func([]Test) []source.Finding) []source.Finding {
	return checkTestsMemo(a, s, p, checkTests, false)
}

// checkTestsMemo is CheckTestsMemo, and with memo false CheckTestsOnce.
func checkTestsMemo(a *contracts.Adoption, s *contracts.State, p *Pack, checkTests func([]Test) []source.Finding, memo bool) []source.Finding {
	if a == nil || p == nil {
		return Check(a, s, p)
	}
	c := newCtx(a, s)
	r, statuses := c.begin(p)
	var key *renderKey
	if memo {
		key = c.renderKey(statuses)
		if p.memoClean(a.File, key) {
			c.injection(r)
			sortFindings(r.findings)
			return r.findings
		}
	}
	before := r.added
	tests, fewer := r.renderFor(statuses, planFewBlocks)
	rendered := r.added - before
	c.injection(r)
	sortFindings(r.findings)
	var more []source.Finding
	if len(tests) > 0 {
		more = checkTests(tests)
	}
	if len(more) > 0 && fewer {
		// A block found unsound stands for the blocks alike with it that
		// were left out, each of which has a finding of its own.
		all := &renderer{c: c, p: p, seen: map[string]bool{}}
		tests, _ = all.renderFor(statuses, planBlocks)
		more = checkTests(tests)
	}
	if len(more) == 0 {
		for _, x := range tests {
			if t := p.Template(x.Template); t != nil && t.alike {
				t.checked.Store(true)
			}
		}
		if memo && rendered == 0 && p.renders != nil {
			p.renders.Store(a.File, &renderMemo{key: key.compact()})
		}
	}
	return append(r.findings, more...)
}
