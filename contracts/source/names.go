package source

// IsKebab reports whether s is kebab-case as OpenGDD defines it: one or more
// groups of lowercase ASCII letters and digits joined by single hyphens
// (^[a-z0-9]+(-[a-z0-9]+)*$). Adoption ids, question and option ids, value
// names, row-set and field names, rule names and template ids use it.
func IsKebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}
