package analysis

import "github.com/gddls/gddls/analysis/markdown"

// SpecBase is the published OpenGDD v0.9 specification; a section is
// linked by the GitHub anchor of its heading.
const SpecBase = "https://opengdd.org/spec/"

// specSections are the headings of the specification's sections that
// define finding codes, by section number.
var specSections = map[string]string{
	"1":     "1. Package layout",
	"1b":    "1b. Structured content collections",
	"2":     "2. The three authority levels",
	"2c":    "2c. Rulesets",
	"3":     "3. manifest.json",
	"4":     "4. tuning.json",
	"4b.2":  "4b.2 Time modes and clocks",
	"5":     "5. Build personalization (`personalization.json`)",
	"9":     "9. Art direction (`direction.json`)",
	"9.9":   "9.9 Images",
	"10.1":  "10.1 What a contract is",
	"10.2":  "10.2 The adoption file",
	"10.3":  "10.3 Questions and answers",
	"10.4":  "10.4 Values",
	"10.5":  "10.5 Row sets and rows",
	"10.6":  "10.6 Rules",
	"10.7":  "10.7 The pack",
	"10.8":  "10.8 Checked and promised",
	"10.10": "10.10 Citations in a contract",
	"10.11": "10.11 Forking and definition identity",
}

// codeSections maps each finding code of the specification to the section
// whose table defines it. The DOC_* codes and FILE_NOT_ANALYSED are gddls'
// own (DESIGN §5) and have no section.
var codeSections = map[string]string{
	"AUTHORITY_TAG_OVERLAP":            "2",
	"PERSONALIZATION_TAG_DANGLING":     "2",
	"RULESET_TAG_OVERLAP":              "2c",
	"CHAPTER_NAME_RESERVED":            "1",
	"PACKAGE_REQUIRED_FILE":            "1",
	"MEDIA_PATH_MISSING":               "9.9",
	"MANIFEST_JSON":                    "3",
	"CLOCKS_JSON":                      "4b.2",
	"PERSONALIZATION_JSON":             "5",
	"DIRECTION_JSON":                   "9",
	"COLLECTION_LABEL_JSON":            "1b",
	"COLLECTION_RECORD_JSON":           "1b",
	"COLLECTION_RECORD_SHAPE":          "1b",
	"PROSE_CITATION_DANGLING":          "4",
	"TUNING_JSON":                      "4",
	"TUNING_KEY":                       "4",
	"TUNING_KEY_RESERVED":              "4",
	"TUNING_NUMBER":                    "4",
	"TUNING_OPEN_OVERLAP":              "4",
	"TUNING_PIN_CONFLICT":              "4",
	"TUNING_RANGE":                     "4",
	"TUNING_RANGE_KEY":                 "4",
	"TUNING_RANGE_VALUE":               "4",
	"TUNING_RULE_FAILED":               "4",
	"TUNING_RULE_GUESS_FAILED":         "4",
	"TUNING_RULE_GUESS_UNCOMPUTABLE":   "4",
	"TUNING_RULE_INVALID":              "4",
	"TUNING_SHAPE":                     "4",
	"CONTRACT_FOLDER_CASE":             "10.1",
	"CONTRACT_FOLDER_ENTRY":            "10.1",
	"CONTRACT_FOLDER_RESERVED":         "10.1",
	"CONTRACT_INSTANCE_FILENAME":       "10.1",
	"CONTRACT_INSTANCE_JSON":           "10.1",
	"CONTRACT_ENVELOPE_REQUIRED":       "10.2",
	"CONTRACT_ENVELOPE_TYPE":           "10.2",
	"CONTRACT_ENVELOPE_UNKNOWN":        "10.2",
	"CONTRACT_NAME_GRAMMAR":            "10.2",
	"CONTRACT_ORIGIN_ABSENT":           "10.2",
	"CONTRACT_ANSWER_MISSING":          "10.3",
	"CONTRACT_ANSWER_NOT_ASKED":        "10.3",
	"CONTRACT_ANSWER_UNKNOWN":          "10.3",
	"CONTRACT_QUESTION_CONDITION":      "10.3",
	"CONTRACT_QUESTION_CYCLE":          "10.3",
	"CONTRACT_QUESTION_OTHERWISE":      "10.3",
	"CONTRACT_NAME_UNIQUE":             "10.4",
	"CONTRACT_VALUE_CONDITION":         "10.4",
	"CONTRACT_VALUE_FORM":              "10.4",
	"CONTRACT_VALUE_INACTIVE":          "10.4",
	"CONTRACT_VALUE_MISSING":           "10.4",
	"CONTRACT_VALUE_RANGE":             "10.4",
	"CONTRACT_VALUE_TYPE":              "10.4",
	"CONTRACT_VALUE_UNKNOWN":           "10.4",
	"CONTRACT_ROWS_BINDING":            "10.5",
	"CONTRACT_ROWS_SHAPE":              "10.5",
	"CONTRACT_ROW_CHOICE":              "10.5",
	"CONTRACT_ROW_FIELD":               "10.5",
	"CONTRACT_ROW_FIELD_SHAPE":         "10.5",
	"CONTRACT_ROW_RANGE":               "10.5",
	"CONTRACT_ROW_WHEN_EMPTY":          "10.5",
	"CONTRACT_RULE_FAILED":             "10.6",
	"CONTRACT_RULE_FORBIDDEN":          "10.6",
	"CONTRACT_RULE_INVALID":            "10.6",
	"CONTRACT_BINDING_MAP":             "10.7",
	"CONTRACT_BINDING_SHAPE":           "10.7",
	"CONTRACT_INJECTION":               "10.7",
	"CONTRACT_PACK_SHAPE":              "10.7",
	"CONTRACT_PLACEHOLDER":             "10.7",
	"CONTRACT_REFERENCE":               "10.7",
	"CONTRACT_ROW_ID":                  "10.7",
	"CONTRACT_TEST_DIRECTION_CLAIMS":   "10.7",
	"CONTRACT_WHEN_DOMAIN":             "10.7",
	"CONTRACT_BLOCK_RETIRED":           "10.8",
	"CONTRACT_PACK_HASH":               "10.8",
	"CONTRACT_PACK_ORPHAN":             "10.8",
	"CONTRACT_CITATION_AMBIGUOUS":      "10.10",
	"CONTRACT_CITATION_AUTHORITY":      "10.10",
	"CONTRACT_CITATION_CROSS_ADOPTION": "10.10",
	"CONTRACT_CITATION_CYCLE":          "10.10",
	"CONTRACT_CITATION_DANGLING":       "10.10",
	"CONTRACT_CITATION_GRAMMAR":        "10.10",
	"CONTRACT_CITATION_NON_NUMERIC":    "10.10",
	"CONTRACT_CITATION_OPEN":           "10.10",
	"CONTRACT_DEFINITION_DIVERGENT":    "10.11",
}

// SpecSection returns the number of the specification section that
// defines a finding code and the address of that section in the published
// specification; ok is false for a code of gddls' own.
func SpecSection(code string) (section, href string, ok bool) {
	section, ok = codeSections[code]
	if !ok {
		return "", "", false
	}
	return section, SpecBase + "#" + markdown.GitHubAnchor(specSections[section]), true
}
