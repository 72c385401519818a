package passing

import "testing"

func TestSumOfNothing(t *testing.T) {
	if got := Sum(); got != 0 {
		t.Errorf("Sum() = %d, want 0", got)
	}
}

func TestSumTable(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []int
		want   int
	}{{"one value", []int{4}, 4}, {"two values", []int{4, 5}, 9}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Sum(c.values...); got != c.want {
				t.Errorf("Sum(%v) = %d, want %d", c.values, got, c.want)
			}
		})
	}
}
