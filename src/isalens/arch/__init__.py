"""Hardware facts as data: TOML files per family, loaded into frozen :class:`ArchSpec` objects."""
