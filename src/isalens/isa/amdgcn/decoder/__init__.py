"""Our own AMDGPU machine-code decoder: dwords -> instruction text in LLVM's spelling (docs/decoder.md)."""

from isalens.isa.amdgcn.decoder.text import DONE_FORMATS, Diagnostic, Text, decode_stream, decode_text

__all__ = ["DONE_FORMATS", "Diagnostic", "Text", "decode_stream", "decode_text"]
