"""Instruction-set readers: text -> ir.Module."""
