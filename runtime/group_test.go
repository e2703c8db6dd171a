package runtime

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func groupEntries(owner string, text string, keys ...string) []Entry {
	var entries []Entry
	for _, k := range keys {
		entries = append(entries, Entry{Key: k, Owner: owner + "#" + k, Formatter: textFormatter(text)})
	}
	return entries
}

func textFormatter(s string) Formatter {
	return FormatterFunc(func(Request) (string, bool, error) { return s, true, nil })
}

func previewOf(t *testing.T, reg *Registry, tool string) string {
	t.Helper()
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	return d.Preview(Call{Tool: tool, Input: `{}`}).Text
}

func TestReplaceGroup(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("host", "host-app", textFormatter("host"))
	require.NoError(t, err)
	_, err = reg.ReplaceGroup("other.yaml", groupEntries("other.yaml", "other", "lint"))
	require.NoError(t, err)

	disposeV1, err := reg.ReplaceGroup("team.yaml", groupEntries("team.yaml", "v1", "deploy", "rollback"))
	require.NoError(t, err)
	assert.Equal(t, "v1", previewOf(t, reg, "deploy"))
	info, _ := reg.Lookup("deploy")
	assert.Equal(t, "team.yaml", info.Group)

	// Loaded again: deploy changes, rollback goes, status comes; the other
	// owners are untouched.
	disposeV2, err := reg.ReplaceGroup("team.yaml", groupEntries("team.yaml", "v2", "deploy", "status"))
	require.NoError(t, err)
	assert.Equal(t, "v2", previewOf(t, reg, "deploy"))
	assert.Equal(t, "v2", previewOf(t, reg, "status"))
	_, ok := reg.Lookup("rollback")
	assert.False(t, ok, "a key the new version dropped is gone")
	assert.Equal(t, "host", previewOf(t, reg, "host"))
	assert.Equal(t, "other", previewOf(t, reg, "lint"))

	// The replaced version's disposer does nothing.
	disposeV1()
	assert.Equal(t, "v2", previewOf(t, reg, "deploy"))
	assert.Equal(t, 4, reg.Len())

	// A version that takes another owner's key is refused whole: v2 stays.
	_, err = reg.ReplaceGroup("team.yaml", groupEntries("team.yaml", "v3", "deploy", "host"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrDuplicate))
	assert.Contains(t, err.Error(), `tool "host" (team.yaml#host) is already registered by host-app`)
	assert.Equal(t, "v2", previewOf(t, reg, "deploy"))
	assert.Equal(t, "v2", previewOf(t, reg, "status"))

	// A group cannot take keys of a registration in no group either way
	// round, nor can another group's keys be replaced.
	_, err = reg.ReplaceGroup("other.yaml", groupEntries("other.yaml", "x", "deploy"))
	assert.ErrorIs(t, err, ErrDuplicate)
	_, err = reg.ReplaceGroup("", groupEntries("", "x", "y"))
	assert.ErrorIs(t, err, ErrInvalidKey)

	disposeV2()
	disposeV2()
	_, ok = reg.Lookup("deploy")
	assert.False(t, ok)
	assert.Equal(t, 2, reg.Len())
}

// TestReplaceGroupIsAtomic: readers never see a mix of two versions of a
// group, nor a moment without it, while it is reloaded.
func TestReplaceGroupIsAtomic(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.ReplaceGroup("team.yaml", groupEntries("team.yaml", "v0", "a", "b"))
	require.NoError(t, err)
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				a := d.Preview(Call{Tool: "a", Input: `{}`}).Text
				b := d.Preview(Call{Tool: "b", Input: `{}`}).Text
				if a == "" || b == "" {
					t.Errorf("a moment without the group: %q %q", a, b)
					return
				}
				// b is read after a: it is the same version or a later one.
				if b < a {
					t.Errorf("an older b (%s) after a newer a (%s)", b, a)
					return
				}
			}
		}()
	}
	for i := 1; i <= 9; i++ {
		_, err := reg.ReplaceGroup("team.yaml", groupEntries("team.yaml", "v"+string(rune('0'+i)), "a", "b"))
		require.NoError(t, err)
	}
	close(stop)
	wg.Wait()
	assert.Equal(t, "v9", previewOf(t, reg, "a"))
}
