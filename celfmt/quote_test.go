package celfmt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuotedThenMore(t *testing.T) {
	for _, tc := range []struct {
		line string
		at   int // where the text after the closing quote starts; 0: no hint
	}{
		{`    preview: "to " + input.env`, 18},
		{`  - tool: "a:b" x`, 15},
		{`    preview: 'it''s ' + input.env`, 21},
		{`    preview: "a \" b" + c`, 21},
		{`    preview: "to"`, 0},
		{`    preview: "to"  # the target`, 0},
		{`    preview: input.a + "b" + c`, 0},
		{`    preview: "unterminated`, 0},
	} {
		at, hint := quotedThenMore(tc.line)
		assert.Equal(t, tc.at, at, tc.line)
		assert.Equal(t, tc.at != 0, hint != "", tc.line)
	}
}
