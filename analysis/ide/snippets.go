package ide

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// Snippet completions write a whole new answer or row with tab stops (LSP
// snippet syntax), where nothing follows the cursor on its line. The
// protocol layer uses them only for clients with snippet support.

// snippetText escapes s for the text of a snippet.
func snippetText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}

// snippetChoice is a tab stop offering choices, or a placeholder when
// there is one choice.
func snippetChoice(n int, choices []string) string {
	esc := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `|`, `\|`, `$`, `\$`, `}`, `\}`)
	for i, c := range choices {
		choices[i] = esc.Replace(c)
	}
	if len(choices) == 1 {
		return fmt.Sprintf("${%d:%s}", n, choices[0])
	}
	return fmt.Sprintf("${%d|%s|}", n, strings.Join(choices, ","))
}

// snippetSpan returns the span a snippet replaces: the token under the
// cursor (nothing, or an empty or half-typed string) when nothing follows
// it on its line.
func (q *adoptionQuery) snippetSpan() (source.Span, bool) {
	c := q.ctx
	content := q.file.Content
	if c.Token.End > len(content) {
		return source.Span{}, false
	}
	rest := content[c.Token.End:]
	if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
		rest = rest[:i]
	}
	if len(bytes.TrimSpace(rest)) > 0 || (!c.InString && c.Token.Len() > 0) {
		return source.Span{}, false
	}
	return c.Token, true
}

// answerSnippets gives each item of an asked question a snippet edit that
// writes the whole member, its value a choice of the question's options.
func (q *adoptionQuery) answerSnippets(items []CompletionItem) []CompletionItem {
	span, ok := q.snippetSpan()
	if !ok {
		return items
	}
	for i := range items {
		qu := q.a.Question(items[i].Label)
		if qu == nil || !q.st.Asked(qu.Name.Text) || len(qu.Options) == 0 {
			continue
		}
		var opts []string
		for _, o := range qu.Options {
			opts = append(opts, jsonEscape(o.Name.Text))
		}
		text := `"` + snippetText(jsonEscape(qu.Name.Text)) + `": "` + snippetChoice(1, opts) + `"$0`
		items[i].SnippetEdit = &TextEdit{Span: span, NewText: text}
	}
	return items
}

// rowSnippet proposes, where a new row of a row set stands, the row with
// every field required of every row: for a snippet client each field is a
// tab stop with its placeholder or a choice of its options; otherwise the
// placeholders are written.
func (q *adoptionQuery) rowSnippet(setName string) []CompletionItem {
	set := q.a.RowSet(setName)
	span, ok := q.snippetSpan()
	if set == nil || !ok || q.ctx.InString {
		return nil
	}
	var plain, snip strings.Builder
	n := 0
	for _, f := range set.Fields {
		if f.When != nil || !f.Required {
			continue
		}
		n++
		sep := ","
		if n == 1 {
			sep = ""
		}
		ph := fieldPlaceholder(f)
		var stop string
		switch v, _ := jsonsrc.Parse([]byte(ph)); {
		case f.Type == contracts.TypeString && len(f.Options) > 0:
			opts := make([]string, len(f.Options))
			for i, o := range f.Options {
				opts[i] = jsonEscape(o.Text)
			}
			stop = `"` + snippetChoice(n, opts) + `"`
		case v != nil && v.Kind() == jsonsrc.String:
			stop = fmt.Sprintf(`"${%d}"`, n)
		default:
			stop = fmt.Sprintf("${%d:%s}", n, snippetText(ph))
		}
		name := jsonEscape(f.Name.Text)
		fmt.Fprintf(&plain, "%s\n\t\"%s\": %s", sep, name, ph)
		fmt.Fprintf(&snip, "%s\n\t\"%s\": %s", sep, snippetText(name), stop)
	}
	if n == 0 {
		return nil
	}
	return []CompletionItem{{
		Label: "new " + setName + " row", Kind: CompleteKeyword,
		Detail:      fmt.Sprintf("a row with its %d required fields", n),
		SortText:    "0",
		Edit:        &TextEdit{Span: span, NewText: "{" + plain.String() + "\n}"},
		SnippetEdit: &TextEdit{Span: span, NewText: "{" + snip.String() + "\n}$0"},
	}}
}
