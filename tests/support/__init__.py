"""Helpers the tests and benchmarks share (real servers on loopback); never shipped in kb's wheel."""
