// Package duplicates divides; its test runs three subtests under one name.
package duplicates

// Divide returns a / b.
func Divide(a, b int) int {
	return a / b
}
