"""Oracle tests: isalens results checked against real compilers (clang/llc)."""
