package reproduction

// Sealed by hand from oracle/original/reproduction/last_page_test.go: each check observes the
// value the code returns; the expected values are in oracle/expected.json, never in the container.

import (
	"testing"

	"example.com/paginate"
)

var ten = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

// Ten items in pages of three: the fourth page holds the tenth item alone.
func TestCountIncludesThePartialLastPage(t *testing.T) {
	observe(t, "reproduction:count/10/3", func() any {
		got, err := paginate.Count(len(ten), 3)
		return []any{got, obsErr(err)}
	})
}

func TestPartialLastPage(t *testing.T) {
	observe(t, "reproduction:page/10/4/3", func() any {
		got, err := paginate.Page(ten, 4, 3)
		return []any{append([]int{}, got...), obsErr(err)}
	})
}
