"""The project's former numpy narrow phase, kept as an independent oracle for
the compiled one (scenegraph/proximity/compiled/): vectorised closed forms
(sphere, box, capsule, half-space pairs) and a pure-Python GJK/SAT/EPA
solver with exact local refinement for the other pairs. Tests compare the
library's answers against it; the library never imports it."""
