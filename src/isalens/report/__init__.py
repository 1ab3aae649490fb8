"""Reports: a model collected once from analysis results, and renderers that only format it."""
