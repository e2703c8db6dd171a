package generated_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPromptIsDescribesPrompt holds Dispatcher.Prompt, which `permgen
// preview` prints in text mode, to the prompt of Describe on every call of
// the realistic corpora.
func TestPromptIsDescribesPrompt(t *testing.T) {
	calls := corpusCalls(t)
	d, _ := stockDispatcher(t)
	for _, c := range calls {
		assert.Equal(t, d.Describe(c).Prompt, d.Prompt(c), "%s %s", c.Tool, c.Input)
	}
}
