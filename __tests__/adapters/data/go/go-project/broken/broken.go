package broken

// Answer does not compile: a string is not an int.
func Answer() int { return "forty-two" }
