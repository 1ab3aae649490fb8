"""Analyses: ordered passes over one kernel, each a pure function returning a frozen result."""
