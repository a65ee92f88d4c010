package contracts

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// definitionFields are the definition fields in the order of the table of
// SPEC §10.2.
var definitionFields = []string{"contract", "version", "origin", "summary", "mechanism", "questions", "declares", "rules", "pack"}

// DefinitionText returns the canonical text of a's definition part (SPEC
// §10.11 rule 2): the definition fields in the order of the §10.2 table,
// the designer fields, unknown top-level fields and every annotation
// removed, written as JSON indented with two spaces, the order of members
// inside each field kept. It returns "" when a holds no object.
func DefinitionText(a *Adoption) string {
	if a == nil || a.Root == nil || a.Root.Kind() != jsonsrc.Object {
		return ""
	}
	return definitionText(a)
}

// definitionDigest returns the SHA-256 digest of DefinitionText(a),
// computed once per adoption. Copies are compared by digest: an adoption
// keeps 32 bytes instead of the text of its definition, which a server
// would hold for every adoption of every snapshot.
func definitionDigest(a *Adoption) [sha256.Size]byte {
	a.definitionOnce.Do(func() { writeDefinitionDigest(a) })
	return a.definitionDigest
}

// writeDefinitionDigest computes a.definitionDigest. The text is written
// through a buffer into the hash, never held whole: it is as large as the
// definition, for every adoption.
func writeDefinitionDigest(a *Adoption) {
	h := sha256.New()
	if a.Root != nil && a.Root.Kind() == jsonsrc.Object {
		w := bufio.NewWriterSize(h, 512) // a few SHA-256 blocks a write
		writeDefinition(w, a)
		_ = w.Flush() // a hash takes every write
	}
	h.Sum(a.definitionDigest[:0])
}

// DigestCache shares the definition digests of adoptions whose definition
// fields are written byte for byte the same: copies of one definition, the
// usual case, are then serialised once instead of once each. Its zero
// value is ready; it is safe for concurrent use.
type DigestCache struct {
	m sync.Map // rawDefinitionKey -> [sha256.Size]byte
	n atomic.Int64
}

// Len returns the number of definitions as written that c holds.
func (c *DigestCache) Len() int { return int(c.n.Load()) }

// DefinitionDigest is the package's DefinitionDigest, shared through c
// between adoptions that write their definition fields the same.
func (c *DigestCache) DefinitionDigest(a *Adoption) [sha256.Size]byte {
	a.definitionOnce.Do(func() {
		key, ok := rawDefinitionKey(a)
		if ok {
			if d, found := c.m.Load(key); found {
				a.definitionDigest = d.([sha256.Size]byte)
				return
			}
		}
		writeDefinitionDigest(a)
		if ok {
			if _, loaded := c.m.LoadOrStore(key, a.definitionDigest); !loaded {
				c.n.Add(1)
			}
		}
	})
	return a.definitionDigest
}

// rawDefinitionKey is the SHA-256 digest of a's definition fields as
// written in its file, in the order of the §10.2 table, each with its name
// and length: two adoptions with the same key have the same canonical
// definition text, which is a function of those bytes. ok is false when
// the spans do not lie in a.Data.
func rawDefinitionKey(a *Adoption) (key [sha256.Size]byte, ok bool) {
	if a.Root == nil || a.Root.Kind() != jsonsrc.Object {
		return key, false
	}
	h := sha256.New()
	var n [8]byte
	for _, k := range definitionFields {
		v := a.Root.Get(k)
		if v == nil {
			continue
		}
		if v.Span().Start < 0 || v.Span().End > len(a.Data) || v.Span().Start > v.Span().End {
			return key, false
		}
		raw := a.Data[v.Span().Start:v.Span().End]
		binary.LittleEndian.PutUint64(n[:], uint64(len(raw)))
		h.Write([]byte(k))
		h.Write(n[:])
		h.Write(raw)
	}
	h.Sum(key[:0])
	return key, true
}

// DefinitionDigest returns the digest the divergence checks compare for a
// (see definitionDigest). It is computed once per adoption and is safe for
// concurrent use, so a caller may compute the digests of many adoptions in
// parallel ahead of CheckDivergentGroup.
func DefinitionDigest(a *Adoption) [sha256.Size]byte { return definitionDigest(a) }

func definitionText(a *Adoption) string {
	var b strings.Builder
	writeDefinition(&b, a)
	return b.String()
}

// writeDefinition prints the canonical text of a's definition part to b.
func writeDefinition(b jsonsrc.Writer, a *Adoption) {
	b.WriteString("{")
	n := 0
	for _, k := range definitionFields {
		v := a.Root.Get(k)
		if v == nil {
			continue
		}
		if n > 0 {
			b.WriteString(",")
		}
		n++
		b.WriteString("\n  ")
		jsonsrc.WriteString(b, k)
		b.WriteString(": ")
		jsonsrc.Write(b, v, jsonsrc.WriteOptions{Indent: true, Depth: 1, SkipAnnotations: true, JSONParseKeys: true})
	}
	if n > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}")
}

// maxDivergentRelated and maxDivergentNamed bound how many other adoptions
// one CONTRACT_DEFINITION_DIVERGENT finding points at and names.
const (
	maxDivergentRelated = 10
	maxDivergentNamed   = 5
)

// CheckDivergence compares the definition parts of adoptions that share a
// definition identity (SPEC §10.11) and reports
// CONTRACT_DEFINITION_DIVERGENT on the `contract` key of each adoption
// whose definition part differs from another's, with the others as
// Related.
func CheckDivergence(adoptions []*Adoption) []source.Finding {
	ids, groups := DivergenceGroups(adoptions)
	var out []source.Finding
	for _, id := range ids {
		out = append(out, CheckDivergentGroup(id, groups[id])...)
	}
	return out
}

// DivergenceGroups groups the adoptions that parse by definition identity,
// each group in the order of adoptions, and returns the identities sorted.
// CheckDivergence is CheckDivergentGroup of each group in that order.
func DivergenceGroups(adoptions []*Adoption) (ids []string, groups map[string][]*Adoption) {
	groups = map[string][]*Adoption{}
	for _, a := range adoptions {
		if a == nil || a.ParseError != nil {
			continue
		}
		id := a.Identity()
		if id == "" {
			continue
		}
		if _, ok := groups[id]; !ok {
			ids = append(ids, id)
		}
		groups[id] = append(groups[id], a)
	}
	sort.Strings(ids)
	return ids, groups
}

// CheckDivergentGroup reports CONTRACT_DEFINITION_DIVERGENT for the
// adoptions of one definition identity id whose definition parts differ
// (see CheckDivergence). The findings depend only on the adoptions' parses
// and their order.
func CheckDivergentGroup(id string, g []*Adoption) []source.Finding {
	if len(g) < 2 {
		return nil
	}
	var out []source.Finding
	// Bucket the copies by their canonical text: adoptions in one
	// bucket agree, and each disagrees with every other bucket.
	var texts [][sha256.Size]byte
	buckets := map[[sha256.Size]byte][]*Adoption{}
	for _, a := range g {
		t := definitionDigest(a)
		if _, ok := buckets[t]; !ok {
			texts = append(texts, t)
		}
		buckets[t] = append(buckets[t], a)
	}
	if len(texts) < 2 {
		return nil
	}
	for _, a := range g {
		mine := definitionDigest(a)
		var rel []source.Related
		var others []string
		for _, t := range texts {
			if t == mine {
				continue
			}
			for _, b := range buckets[t] {
				others = append(others, b.ID)
				if len(rel) < maxDivergentRelated {
					rel = append(rel, source.Related{File: b.File, Span: b.ContractKey, Message: "adoption " + strconv.Quote(b.ID) + " holds a different copy"})
				}
			}
		}
		if len(others) > maxDivergentNamed {
			others = append(others[:maxDivergentNamed], fmt.Sprintf("%d more", len(others)-maxDivergentNamed))
		}
		out = append(out, source.Finding{Code: "CONTRACT_DEFINITION_DIVERGENT", Severity: source.Error, File: a.File, Span: a.ContractKey,
			Message: "the definition " + id + " in this adoption differs from its copy in " + strings.Join(others, ", ") +
				"; copies of one contract and version must be identical (publish a changed copy under a new contract or version)",
			Related: rel})
	}
	return out
}
