"""Named codes and positions of the packed arrays that the compiled kernels
and their Python callers share: the one place they are defined.

Module-level integers are compile-time constants in numba, so kernels index
with these names at no cost. A change here recompiles every kernel whose
module imports it (scenegraph/_jit.py stamps each kernel with the files its
module imports, transitively).
"""
from __future__ import annotations

import numpy as np

from scenegraph.proximity.routes import KIND_NAMES, ROUTES, Route

# --- narrow-phase shape kinds: PackedShapes.kind, positions in routes.KIND_NAMES
# --- (= shape_data.KINDS; a Mesh is packed as its hull, CONVEX)
BOX, CAPSULE, CONVEX, CYLINDER, ELLIPSOID, HALFSPACE, SPHERE = range(7)
NUM_KINDS = 7
assert KIND_NAMES == ("Box", "Capsule", "Convex", "Cylinder", "Ellipsoid", "HalfSpace", "Sphere")

# --- broadphase shape kinds: AabbModel.packed's kind codes, positions in
# --- broadphase.SHAPE_KINDS (Convex and Mesh apart, both boxed by their vertices)
BP_SPHERE, BP_BOX, BP_CAPSULE, BP_CYLINDER, BP_ELLIPSOID, BP_HALFSPACE, BP_CONVEX, BP_MESH = \
    range(8)
NUM_BP_KINDS = 8

# --- broadphase methods (compiled codes): test all pairs, sweep and prune,
# --- sweep inside grid columns, choose by N, the boxes only, a given pair list
NXN, SWEEP, GRID, AUTO, BOXES_ONLY, EXPLICIT = range(6)

# --- narrow-phase routes (routes.Route), and the table the kernels read:
# --- ROUTE_TABLE[ka, kb] for kind codes ka <= kb (routes.ROUTES as an array)
ROUTE_HALFSPACE_PAIR = int(Route.HALFSPACE_PAIR)
ROUTE_HALFSPACE = int(Route.HALFSPACE)
ROUTE_SPHERE = int(Route.SPHERE)
ROUTE_GJK_EPA_REFINED = int(Route.GJK_EPA_REFINED)
#: A pair answered without any routine (HasCollisions' overlapping inner balls).
ROUTE_NONE = -1
ROUTE_TABLE = np.full((NUM_KINDS, NUM_KINDS), ROUTE_NONE, dtype=np.int64)
for (_a, _b), _route in ROUTES.items():
    ROUTE_TABLE[KIND_NAMES.index(_a), KIND_NAMES.index(_b)] = int(_route)
ROUTE_TABLE.setflags(write=False)
assert (ROUTE_TABLE[np.triu_indices(NUM_KINDS)] >= 0).all()

# --- per-pair status (narrow_phase.solve_pairs' status output)
EXACT, UNCERTIFIED, FARTHER = 0, 1, 2

# --- a pair query's values block (K, NUM_VALUES): [φ | Ca | Cb | nhat_BA_W]
VALUE_PHI = 0           # φ [m], or the depth −φ with FLAG_NEGATE
VALUE_CA = 1            # 1:4 witness on A (W, or A's frame with FLAG_IN_FRAMES)
VALUE_CB = 4            # 4:7 witness on B (W, or B's frame with FLAG_IN_FRAMES)
VALUE_NHAT = 7          # 7:10 nhat_BA_W
NUM_VALUES = 10
# QUERY_SOLVE's block (K, NUM_SOLVE_VALUES): the same ten, then per pair
VALUE_STATUS = 10       # EXACT, UNCERTIFIED or FARTHER
VALUE_ROUTE = 11        # the Route that answered it (ROUTE_NONE: none ran)
NUM_SOLVE_VALUES = 12

# --- a pair query's stats (NUM_STATS,) int64, written by pair_queries.query
STAT_COUNT = 0          # rows kept
STAT_UNCERTIFIED = 1    # pairs not certified exact
STAT_UNCERTIFIED_A = 2  # the first such pair's rows A, B (−1: none)
STAT_UNCERTIFIED_B = 3
STAT_NAN_A = 4          # the first pair with a non-finite answer: rows A, B (−1: none)
STAT_NAN_B = 5
STAT_BAD_ROW = 6        # a row whose pose is not finite (−1: none); nothing else computed
STAT_HALFSPACE_PAIR = 7  # 1: two half spaces are a candidate pair (FLAG_REFUSE_HALFSPACE_PAIRS)
STAT_HIT_A = 8          # QUERY_FIRST_HIT: the colliding pair's rows (−1: none)
STAT_HIT_B = 9
NUM_STATS = 10

# --- pair_queries.query's modes (the low bits of its `mode` argument) and flags
QUERY_CANDIDATES = 0    # the broadphase's candidate pairs (rows); the boxes on request
QUERY_SELECT = 1        # broadphase, narrow phase, the pairs within max_distance
QUERY_SELECT_ROWS = 2   # narrow phase and selection of the given pairs
QUERY_FIRST_HIT = 3     # broadphase and narrow phase until a pair collides (HasCollisions)
QUERY_BOXES = 4         # the world boxes only (into the `boxes` argument)
QUERY_SOLVE = 5         # every given pair's answer in W, with status and route
QUERY_MODE_MASK = 7
FLAG_IN_FRAMES = 8      # witnesses in the geometries' frames (p_ACa, p_BCb), else in W
FLAG_NEGATE = 16        # report the depth −φ
FLAG_REFUSE_HALFSPACE_PAIRS = 32  # two half spaces among the pairs: STAT_HALFSPACE_PAIR

# --- PackedShapes.refs columns (raw addresses into a geometry's PackedHulls data)
REF_VERTICES = 0        # first vertex row
REF_NUM_VERTICES = 1
REF_NEIGHBOR_START = 2  # its neighbor_start entries
REF_NEIGHBORS = 3       # PackedHulls.neighbors
REF_FACET_NORMALS = 4
REF_FACET_OFFSETS = 5
REF_NUM_FACETS = 6
REF_EDGES = 7
REF_NUM_EDGES = 8
REF_TOPOLOGY = 9        # the hull's topology block
NUM_REFS = 10
