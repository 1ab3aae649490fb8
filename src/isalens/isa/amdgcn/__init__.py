"""AMDGPU GCN/CDNA/RDNA: parsers for every listing dialect and the semantics tables."""
