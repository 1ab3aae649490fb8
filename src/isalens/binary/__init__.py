"""Readers for the binaries GPU programmers ship: AMDGPU code objects, clang offload bundles (plain and
compressed), and the ``.hip_fatbin`` sections of host executables and shared objects.

This is an input layer beside the text dialects: it imports only :mod:`isalens.ir` and :mod:`isalens.errors`
and hands out bytes and plain figures; disassembly (an external tool) is wired in by the API.

Submodules: :mod:`~isalens.binary.container` (find code objects in a file), :mod:`~isalens.binary.bundle`,
:mod:`~isalens.binary.codeobject`, :mod:`~isalens.binary.descriptor`, :mod:`~isalens.binary.metadata`. Only
``bundle`` works without the ``binary`` extra (pyelftools, msgpack, zstandard), so nothing is imported here.
"""
