"""Internal package; public names are re-exported from scenegraph."""
