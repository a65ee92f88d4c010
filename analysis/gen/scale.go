package gen

// Scaled returns c with its repository n times as large: n times the
// adoptions, chapters and tuning keys (so about n times the citations and
// bytes), with the shape of each file unchanged. Zero fields take their
// defaults first; n below 1 counts as 1.
func (c Config) Scaled(n int) Config {
	c = c.withDefaults()
	n = max(n, 1)
	c.Adoptions *= n
	c.Chapters *= n
	c.TuningKeys *= n
	return c
}

// Scaled returns c with n times as many documents (n times the areas, each
// of the same shape), so n times the links and bytes. Zero fields take
// their defaults first; n below 1 counts as 1.
func (c DocsConfig) Scaled(n int) DocsConfig {
	c = c.withDefaults()
	c.Areas *= max(n, 1)
	return c
}
