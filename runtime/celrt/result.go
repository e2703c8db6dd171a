package celrt

import "github.com/permgen/permgen/runtime/value"

// ResultOf is the object the variable result of the result, error and
// expand slots holds for a request's result: the result itself, or an
// empty object when there is none (runtime.Request.Result is nil).
func ResultOf(result *value.Object) *value.Object {
	if result == nil {
		return value.ObjectOf(nil, nil)
	}
	return result
}
