"""pydrake.systems-compatible systems framework: framework, analysis, primitives."""
