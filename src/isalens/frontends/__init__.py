"""Optional front ends: run real compilers (clang, llc) to produce ISA for analysis."""
