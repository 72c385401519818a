package hidden

// Sealed by hand from oracle/original/hidden/pages_test.go: each check observes the value the code
// returns; the expected values are in oracle/expected.json, never in the container.

import (
	"fmt"
	"testing"

	"example.com/paginate"
)

func TestCount(t *testing.T) {
	for _, c := range [][2]int{{9, 3}, {10, 3}, {1, 3}, {3, 3}, {100, 10}, {101, 10}, {5, 1}, {0, 4}} {
		observe(t, fmt.Sprintf("hidden:count/%d/%d", c[0], c[1]), func() any {
			got, err := paginate.Count(c[0], c[1])
			return []any{got, obsErr(err)}
		})
	}
}

// For 0 to 12 items in pages of 1 to 5: the count, and pages 1 to total/size+2 (past the end
// included), each page as a list (an empty page as []).
func TestEveryItemOnExactlyOnePage(t *testing.T) {
	for total := 0; total <= 12; total++ {
		items := make([]int, total)
		for i := range items {
			items[i] = i
		}
		for size := 1; size <= 5; size++ {
			observe(t, fmt.Sprintf("hidden:pages/%d/%d", total, size), func() any {
				count, err := paginate.Count(total, size)
				pages := []any{}
				for n := 1; n <= total/size+2; n++ {
					page, err := paginate.Page(items, n, size)
					pages = append(pages, []any{append([]int{}, page...), obsErr(err)})
				}
				return map[string]any{"count": count, "count_error": obsErr(err), "pages": pages}
			})
		}
	}
}

func TestPartialPageDoesNotExposeSpareCapacity(t *testing.T) {
	observe(t, "hidden:page/spare-capacity", func() any {
		items := make([]string, 5, 16)
		copy(items, []string{"a", "b", "c", "d", "e"})
		page, err := paginate.Page(items, 2, 4)
		return []any{append([]string{}, page...), obsErr(err)}
	})
}
