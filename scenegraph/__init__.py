"""pydrake.geometry-compatible SceneGraph. Public names are re-exported here."""
