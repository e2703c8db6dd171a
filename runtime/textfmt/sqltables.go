package textfmt

import "sync"

// sqlTableSet holds the lookup tables of the SQL classifier.
type sqlTableSet struct {
	rank              map[string]int // each keyword's place in sqlKeywords
	names             map[string]sqlName
	nameHint          [64][32]uint32
	functionTier      map[string]string
	functionByName    map[string]string
	kindRank          map[string]int
	functionsOfLength map[int][]sqlFunction
	kinds             []string // sqlKindsTable
}

// sqlTables returns the classifier's tables, built on first use: a process
// that reads no SQL (a hook answering for one shell command) builds none
// of them as it starts.
var sqlTables = sync.OnceValue(func() *sqlTableSet {
	names := sqlNamesTable()
	kinds := sqlKindsTable()
	return &sqlTableSet{
		kinds:             kinds,
		rank:              sqlRankTable(),
		names:             names,
		nameHint:          sqlNameHintOf(names),
		functionTier:      sqlFunctionTierTable(),
		functionByName:    sqlFunctionByNameTable(),
		kindRank:          sqlKindRankTable(kinds),
		functionsOfLength: sqlFunctionsOfLengthTable(),
	}
})

// sqlRankTable is each keyword's place in sqlKeywords.
func sqlRankTable() map[string]int {
	m := make(map[string]int, len(sqlKeywords))
	for i, k := range sqlKeywords {
		m[k] = i
	}
	return m
}

// sqlWordsTable is the words that matter after a statement's first, in lower
// case.
func sqlWordsTable() map[string]sqlWord {
	m := map[string]sqlWord{
		"into": sqlInto, "to": sqlTo, "from": sqlFrom, "outfile": sqlOutfile, "dumpfile": sqlDumpfile,
		"program": sqlProgram, "stdin": sqlStdin, "stdout": sqlStdout, "infile": sqlInfile, "local": sqlLocal,
		"analyze": sqlAnalyze, "analyse": sqlAnalyze,
	}
	for _, w := range []string{"ignore", "low_priority", "delayed", "high_priority", "rollback", "abort", "fail", "copy"} {
		m[w] = sqlBeforeInto
	}
	for _, w := range []string{"insert", "replace", "merge", "upsert"} {
		m[w] = sqlStartsBeforeInto
	}
	for _, w := range []string{"select", "update", "delete", "values", "table", "with", "create", "execute", "declare"} {
		m[w] = sqlStarts
	}
	return m
}

// sqlNamesTable is the words of sqlWordsTable and the names of the listed
// functions, in one table so that a word is looked up once.
func sqlNamesTable() map[string]sqlName {
	m := make(map[string]sqlName, 32+len(sqlFunctions))
	for w, role := range sqlWordsTable() {
		m[w] = sqlName{word: role}
	}
	for _, f := range sqlFunctions {
		n := m[f.name]
		if n.word == sqlNoWord {
			n.word = sqlOtherWord
		}
		n.kind = sqlFunctionKind(f)
		m[f.name] = n
	}
	return m
}

// sqlNameHintOf has, for each length of a name in names and each first
// letter, a bit for each second letter that a name of that length starts
// with: most words are none of the names, and this tells so without
// hashing them.
func sqlNameHintOf(names map[string]sqlName) (h [64][32]uint32) {
	for name := range names {
		h[len(name)][name[0]&31] |= 1 << (name[1] & 31)
	}
	return h
}

// sqlFunctionTierTable is the tier of each function's kind.
func sqlFunctionTierTable() map[string]string {
	m := make(map[string]string, len(sqlFunctions))
	for _, f := range sqlFunctions {
		m[sqlFunctionKind(f)] = f.tier
	}
	return m
}

// sqlFunctionByNameTable finds a listed function by its name in lower case.
func sqlFunctionByNameTable() map[string]string {
	m := make(map[string]string, len(sqlFunctions))
	for _, f := range sqlFunctions {
		m[f.name] = sqlFunctionKind(f)
	}
	return m
}

// sqlKindRankTable is each kind's place in kinds.
func sqlKindRankTable(kinds []string) map[string]int {
	if len(kinds) > 4*64 {
		panic("textfmt: more SQL kinds than sqlStatement.seen holds")
	}
	m := make(map[string]int, len(kinds))
	for i, k := range kinds {
		m[k] = i
	}
	return m
}

// sqlFunctionsOfLengthTable is the listed functions by the length of their
// names.
func sqlFunctionsOfLengthTable() map[int][]sqlFunction {
	m := map[int][]sqlFunction{}
	for _, f := range sqlFunctions {
		m[len(f.name)] = append(m[len(f.name)], f)
	}
	return m
}
