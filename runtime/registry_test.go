package runtime

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRegisterDuplicateNamesOwner(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("read", "formatters.yaml:42:5", text("a"))
	require.NoError(t, err)

	_, err = reg.Register("read", "host-app", text("b"))
	require.ErrorIs(t, err, ErrDuplicate)
	assert.EqualError(t, err, `tool "read" (host-app) is already registered by formatters.yaml:42:5`)
	var conflict *ConflictError
	require.ErrorAs(t, err, &conflict)
	assert.Equal(t, "formatters.yaml:42:5", conflict.Taken)
}

func TestRegisterAllIsAtomic(t *testing.T) {
	reg := NewRegistry()
	_, err := reg.Register("read", "first", text("a"))
	require.NoError(t, err)
	_, err = reg.Register("ls", "first", text("a"))
	require.NoError(t, err)

	_, err = reg.RegisterAll([]Entry{
		{Key: "edit", Owner: "cat.yaml:3:5", Formatter: text("e")},
		{Key: "read", Owner: "cat.yaml:6:5", Formatter: text("r")},
		{Key: "ls", Owner: "cat.yaml:9:5", Formatter: text("l")},
		{Key: "edit", Owner: "cat.yaml:12:5", Formatter: text("e2")},
	})
	require.ErrorIs(t, err, ErrDuplicate)
	assert.EqualError(t, err, `tool "read" (cat.yaml:6:5) is already registered by first`+"\n"+
		`tool "ls" (cat.yaml:9:5) is already registered by first`+"\n"+
		`tool "edit" (cat.yaml:12:5) is already registered by cat.yaml:3:5`)
	_, ok := reg.Lookup("edit")
	assert.False(t, ok, "nothing of a failed batch is registered")
	assert.Equal(t, 2, reg.Len())
}

func TestRegisterAllDisposesItsOwn(t *testing.T) {
	reg := NewRegistry()
	dispose, err := reg.RegisterAll([]Entry{
		{Key: "a", Owner: "cat", Formatter: text("a")},
		{Key: "b", Owner: "cat", Formatter: text("b")},
	})
	require.NoError(t, err)
	_, err = reg.Register("c", "other", text("c"))
	require.NoError(t, err)
	dispose()
	assert.Equal(t, []Info{{Key: "c", Owner: "other"}}, reg.List())
}

func TestStaleDisposerKeepsNewerRegistration(t *testing.T) {
	reg := NewRegistry()
	dispose1, err := reg.Register("read", "first", text("1"))
	require.NoError(t, err)
	dispose1()
	dispose1() // twice is fine
	_, err = reg.Register("read", "second", text("2"))
	require.NoError(t, err)
	dispose1() // stale: must not remove "second"
	info, ok := reg.Lookup("read")
	require.True(t, ok)
	assert.Equal(t, "second", info.Owner)
}

func TestInvalidKeys(t *testing.T) {
	reg := NewRegistry()
	for _, key := range []string{"", "two words", "tab\t", "a\u202eb", "*", "read*", ":tool", "server:", "*:tool", "server:to*l",
		string(make([]byte, 300)), "bad\xff"} {
		_, err := reg.Register(key, "o", text("x"))
		assert.ErrorIs(t, err, ErrInvalidKey, "%q", key)
	}
	for _, key := range []string{"read", "my-tool", "mcp", "github:create_issue", "github:*", "a.b_c/d", "Ünïcode"} {
		_, err := reg.Register(key, "o", text("x"))
		assert.NoError(t, err, "%q", key)
	}
	_, err := reg.Register("nobody", "", text("x"))
	assert.ErrorIs(t, err, ErrInvalidKey)
	_, err = reg.Register("nothing", "o", nil)
	assert.ErrorIs(t, err, ErrInvalidKey)
}

func TestListIsSorted(t *testing.T) {
	reg := NewRegistry()
	for _, k := range []string{"write", "edit", "mcp", "github:*"} {
		_, err := reg.Register(k, "owner of "+k, text(k))
		require.NoError(t, err)
	}
	var keys []string
	for _, info := range reg.List() {
		keys = append(keys, info.Key)
		assert.Equal(t, "owner of "+info.Key, info.Owner)
	}
	assert.Equal(t, []string{"edit", "github:*", "mcp", "write"}, keys)
}

func TestZeroRegistryIsUsable(t *testing.T) {
	var reg Registry
	assert.Empty(t, reg.List())
	_, ok := reg.Lookup("x")
	assert.False(t, ok)
	_, err := reg.Register("x", "o", text("x"))
	require.NoError(t, err)
	assert.Equal(t, 1, reg.Len())
}

// TestConcurrentRegisterDisposePreview has goroutines register, preview and
// dispose at once, each on keys of its own and all on one shared key. A
// holder of a key must always see its own formatter (nothing lost, no stale
// disposer evicting it) and after disposing it must never see it again
// (nothing resurrected).
func TestConcurrentRegisterDisposePreview(t *testing.T) {
	reg := NewRegistry()
	d, err := NewDispatcher(reg, Options{})
	require.NoError(t, err)
	const workers, rounds = 8, 300
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			own := fmt.Sprintf("tool-%d", w)
			for i := range rounds {
				want := fmt.Sprintf("%s round %d", own, i)
				dispose, err := reg.Register(own, own, text(want))
				if err != nil {
					errs <- err
					return
				}
				if got := d.Preview(Call{Tool: own, Input: `{"a":1}`}).Text; got != want {
					errs <- fmt.Errorf("%s: registered %q, previewed %q", own, want, got)
					return
				}
				dispose()
				if got := d.Preview(Call{Tool: own, Input: `{"a":1}`}).Text; got != `with input {"a":1}` {
					errs <- fmt.Errorf("%s: disposed, previewed %q", own, got)
					return
				}

				shared, err := reg.Register("shared", want, text(want))
				switch {
				case errors.Is(err, ErrDuplicate):
				case err != nil:
					errs <- err
					return
				default:
					if got := d.Preview(Call{Tool: "shared"}).Text; got != want {
						errs <- fmt.Errorf("shared held by %q previewed %q", want, got)
						return
					}
					shared()
					shared() // a stale call must not evict the next holder
				}
				reg.List()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, 0, reg.Len(), "every registration was disposed")
}
