# Not a test module: discovery must not load it.
raise RuntimeError("helpers.py must never be imported by discovery")
