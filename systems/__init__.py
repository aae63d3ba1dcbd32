"""pydrake.systems-compatible systems framework: framework, analysis, primitives, and
autodiff (pydrake.autodiffutils: the AutoDiffXd scalar the framework also runs on)."""
