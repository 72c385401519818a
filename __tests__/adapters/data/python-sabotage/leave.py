"""Importing this module raises SystemExit, which unittest's loader catches."""
import sys

sys.exit(0)
