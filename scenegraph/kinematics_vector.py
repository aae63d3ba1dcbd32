"""FramePoseVector: FrameId -> X_PF, the pose of each frame F in its parent P."""
from __future__ import annotations

import math
import operator

import numpy as np

from scenegraph.identifiers import FrameId, id_type_error
from scenegraph.math.rigid_transform import RigidTransform

_new_transform = object.__new__


class FramePoseVector:
    """Poses reported by a geometry source on its ``<source>_pose`` port.

    ``FramePoseVector()`` is empty; ``FramePoseVector({frame_id: X_PF, ...})``
    fills it. Values are RigidTransforms, held by value as in pydrake:
    set_value stores its own copy and value() hands out a copy, so changing a
    transform after setting it (a controller reusing one RigidTransform for
    every frame) or changing a transform read back leaves the vector as it
    was. The copies are new RigidTransform objects around the same (3, 3)
    and (3,) arrays: RigidTransform never writes its arrays in place (its
    setters replace them and its getters return copies), so sharing them is
    safe and costs no array copy.

    Storage: poses keyed by the frames' integer id values (``_values``, an
    int-keyed dict: hashing an int is done in C, where a FrameId's hash is a
    Python call, on every set_value and every gather of a pose change), with the
    FrameIds themselves in ``_ids`` (same keys, same insertion order).

    Packed poses (a producer's fast path, e.g. MultibodyPlant's geometry
    poses): ``_set_packed(keys, R, p)`` replaces every pose at once with the
    rows of R (3M, 3) and p (3M,) [m] — frame ``keys[i]`` (the vector's own
    keys, in order) posed by R[3i:3i+3], p[3i:3i+3] — without making a
    RigidTransform per frame; PoseComposer reads those arrays as they are,
    and ``_values`` makes the RigidTransforms (views of the rows) the first
    time anything else reads the vector.
    """

    __slots__ = ("_dict", "_ids", "_packed")

    def __init__(self, values=None):
        self._dict: dict[int, RigidTransform] = {}
        self._ids: dict[int, FrameId] = {}
        self._packed = None
        if values is not None:
            items = values.items() if hasattr(values, "items") else values
            for k, v in items:
                self.set_value(k, v)

    def set_value(self, id: FrameId, value: RigidTransform) -> None:
        """Sets X_PF, the pose of frame `id` in its parent frame P.

        Raises:
          TypeError: `id` is not a FrameId, or `value` is not a RigidTransform.
        """
        if type(id) is not FrameId and not isinstance(id, FrameId):
            raise id_type_error(id, FrameId, "FramePoseVector.set_value: id")
        if type(value) is not RigidTransform and not isinstance(value, RigidTransform):
            raise TypeError(f"FramePoseVector.set_value: value must be a RigidTransform, "
                            f"got {type(value).__name__}")
        key = id._value
        # RigidTransform._make, inlined: a copy of the transform around its
        # (never written) arrays (class docstring).
        X = _new_transform(RigidTransform)
        X._R = value._R
        X._p = value._p
        self._values[key] = X
        self._ids[key] = id

    @property
    def _values(self) -> dict:
        """The poses keyed by the frames' id values (made from the packed
        rows first, if the vector holds packed poses)."""
        if self._packed is not None:
            keys, R, p = self._packed
            self._dict = dict(zip(keys, map(RigidTransform._make, R.reshape(-1, 3, 3),
                                            p.reshape(-1, 3))))
            self._packed = None
        return self._dict

    def _set_packed(self, keys: tuple, R: np.ndarray, p: np.ndarray) -> None:
        """Sets every pose from packed rows (class docstring). Unchecked: the
        caller guarantees that `keys` is the tuple of this vector's keys in
        order, and that R (3M, 3) and p (3M,) are C-contiguous float64 arrays
        never written afterwards."""
        self._packed = (keys, R, p)

    def value(self, id: FrameId) -> RigidTransform:
        """X_PF for frame ``id``.

        Raises:
          RuntimeError: if ``id`` is not in the vector.
        """
        if isinstance(id, FrameId):
            found = self._values.get(id._value)
            if found is not None:
                return RigidTransform._make(found._R, found._p)   # a copy (class docstring)
        raise RuntimeError(f"No such FrameId {id}.")

    def has_id(self, id: FrameId) -> bool:
        """True if frame `id` has a pose."""
        return isinstance(id, FrameId) and id._value in self._values

    def ids(self) -> list:
        """The FrameIds with a pose."""
        return list(self._ids.values())

    def size(self) -> int:
        """The number of frames with a pose."""
        return len(self._ids)

    def clear(self) -> None:
        """Removes every pose."""
        self._packed = None
        self._dict.clear()
        self._ids.clear()

    def items(self):
        """(frame_id, X_PF) pairs (library extension, for fast iteration;
        each X_PF a copy, as value() gives)."""
        return zip(self._ids.values(),
                   (RigidTransform._make(X._R, X._p) for X in self._values.values()))

    def __len__(self) -> int:
        return len(self._ids)

    def __copy__(self):
        out = FramePoseVector()
        out._dict = dict(self._values)
        out._ids = dict(self._ids)
        return out

    def __deepcopy__(self, memo):
        out = FramePoseVector()
        out._dict = {k: RigidTransform._make(v._R.copy(), v._p.copy())
                     for k, v in self._values.items()}
        out._ids = dict(self._ids)
        return out

    def __repr__(self) -> str:
        return f"FramePoseVector(size={len(self._ids)})"


class PoseTopology:
    """Frame tree and geometry placement of a GeometryState, as arrays.

    Built by ``GeometryState.pose_topology()`` and cached until the topology
    changes. Index 0 of the frame arrays is the world frame.

    Attributes:
      frame_ids: list[FrameId], world first, then registration order.
      frame_index: dict FrameId -> int.
      frame_source: list[SourceId] per frame.
      parent_index: (nF,) int, index of each frame's parent (-1 for world).
      levels: list of int arrays, the non-world frames grouped by depth
        (depth 1 = child of the world), for batched composition.
      source_frames: dict SourceId -> list[FrameId] (every frame of a source).
      geometry_ids: list[GeometryId] in increasing id order.
      geometry_index: dict GeometryId -> int.
      geometry_frame_index: (nG,) int frame index of each geometry.
      R_FG: (nG, 3, 3) and p_FG: (nG, 3) [m], pose of each geometry in its frame.
    """

    def __getstate__(self):
        # The PoseComposer memo holds local and compiled functions, which do
        # not pickle; it is rebuilt on demand.
        state = dict(self.__dict__)
        state.pop("_composer", None)
        return state

    def __init__(self, frame_ids, frame_parent_ids, frame_sources, geometry_ids,
                 geometry_frame_ids, X_FGs):
        import numpy as np

        self.frame_ids = list(frame_ids)
        self.frame_index = {f: i for i, f in enumerate(self.frame_ids)}
        self.frame_source = list(frame_sources)
        n = len(self.frame_ids)
        self.parent_index = np.array(
            [-1 if p is None else self.frame_index[p] for p in frame_parent_ids], dtype=np.int64)
        depth = np.zeros(n, dtype=np.int64)
        for i in range(1, n):  # parents are registered before children
            depth[i] = depth[self.parent_index[i]] + 1
        self.levels = [np.flatnonzero(depth == d) for d in range(1, int(depth.max(initial=0)) + 1)]
        self.source_frames = {}
        for f, s in zip(self.frame_ids[1:], self.frame_source[1:]):
            self.source_frames.setdefault(s, []).append(f)
        self.geometry_ids = list(geometry_ids)
        self.geometry_index = {g: i for i, g in enumerate(self.geometry_ids)}
        self.geometry_frame_index = np.array([self.frame_index[f] for f in geometry_frame_ids],
                                             dtype=np.int64)
        m = len(self.geometry_ids)
        X_FGs = list(X_FGs)
        # One gather each (not two row assignments per geometry).
        self.R_FG = np.array([X._R for X in X_FGs], dtype=float).reshape(m, 3, 3)
        self.p_FG = np.array([X._p for X in X_FGs], dtype=float).reshape(m, 3)


class WorldPoses:
    """World poses of every frame and geometry for one set of pose inputs.

    Attributes:
      topology: the PoseTopology the arrays are indexed by.
      R_WF (nF, 3, 3), p_WF (nF, 3): pose of each frame in the world [m].
      R_WG (nG, 3, 3), p_WG (nG, 3): pose of each geometry in the world [m].
      R_PF (nF, 3, 3), p_PF (nF, 3): pose of each frame in its parent (world:
        identity), unpacked from the inputs at the first read.
      all_finite: True if every X_WG entry is known finite and every
        geometry within ±1.3e150 m of the origin (the compiled composition
        checks), None if unknown.
    """

    __slots__ = ("topology", "_frames", "R_WG", "p_WG", "all_finite", "_inputs",
                 "_in_parents", "__weakref__")

    def __init__(self, topology, inputs, R_WF, p_WF, R_WG, p_WG, all_finite=None):
        """inputs: (R_in (3M, 3), p_in (3M,), rows (M,)), the frames' poses in
        their parents as PoseComposer gathers them (kept, never written).
        R_WF, p_WF: the frames' world poses, or None for both: composed from
        the inputs at the first read (a pose change computes the
        geometries' only)."""
        self.topology = topology
        self._inputs = inputs
        self._in_parents = None
        self._frames = None if R_WF is None else (R_WF, p_WF)
        self.R_WG, self.p_WG = R_WG, p_WG
        #: True when every entry of R_WG and p_WG is known finite, None when unknown.
        self.all_finite = all_finite

    def _frame_poses(self) -> tuple:
        """(R_WF (nF, 3, 3), p_WF (nF, 3)), composed once from the inputs
        (kinematics_kernels.world_poses: the same products as the pose
        change's, so the same numbers)."""
        frames = self._frames
        if frames is None:
            frames = self._frames = composer_of(self.topology).frames(*self._inputs)
        return frames

    @property
    def R_WF(self) -> np.ndarray:
        """(nF, 3, 3) R_WF of each frame (world: identity)."""
        return self._frame_poses()[0]

    @property
    def p_WF(self) -> np.ndarray:
        """(nF, 3) p_WF [m] of each frame (world: zero)."""
        return self._frame_poses()[1]

    def _poses_in_parents(self) -> tuple:
        """(R_PF (nF, 3, 3), p_PF (nF, 3)), built once from the inputs."""
        if self._in_parents is None:
            R_in, p_in, rows = self._inputs
            nF = len(self.topology.parent_index)
            R_PF, p_PF = np.zeros((nF, 3, 3)), np.zeros((nF, 3))
            R_PF[0] = np.eye(3)
            R_PF[rows] = np.asarray(R_in, dtype=float).reshape(-1, 3, 3)
            p_PF[rows] = np.asarray(p_in, dtype=float).reshape(-1, 3)
            self._in_parents = (R_PF, p_PF)
        return self._in_parents

    @property
    def R_PF(self) -> np.ndarray:
        """(nF, 3, 3) R_PF of each frame (world: identity)."""
        return self._poses_in_parents()[0]

    @property
    def p_PF(self) -> np.ndarray:
        """(nF, 3) p_PF [m] of each frame (world: zero)."""
        return self._poses_in_parents()[1]

    def X_WF(self, frame_id) -> RigidTransform:
        """X_WF of frame ``frame_id`` (a new RigidTransform)."""
        i = self.topology.frame_index[frame_id]
        return RigidTransform._make(self.R_WF[i].copy(), self.p_WF[i].copy())

    def X_PF(self, frame_id) -> RigidTransform:
        """X_PF of frame ``frame_id`` in its parent frame."""
        i = self.topology.frame_index[frame_id]
        R_PF, p_PF = self._poses_in_parents()
        return RigidTransform._make(R_PF[i].copy(), p_PF[i].copy())

    def X_WG(self, geometry_id) -> RigidTransform:
        """X_WG of geometry ``geometry_id`` (a new RigidTransform)."""
        k = self.topology.geometry_index[geometry_id]
        return RigidTransform._make(self.R_WG[k].copy(), self.p_WG[k].copy())

    def X_WGs(self) -> dict:
        """dict GeometryId -> X_WG for every geometry."""
        return {g: RigidTransform._make(self.R_WG[k].copy(), self.p_WG[k].copy())
                for k, g in enumerate(self.topology.geometry_ids)}


_KERNELS = []


def _kernels():
    """(kinematics_kernels.geometry_world_poses, .world_poses), imported at
    the first use (numba is loaded only when world poses are first
    computed)."""
    if not _KERNELS:
        from scenegraph.kinematics_kernels import geometry_world_poses, world_poses
        _KERNELS.extend((geometry_world_poses, world_poses))
    return _KERNELS


_F64 = np.dtype(np.float64)
# numpy's concatenate without its __array_function__ dispatch (its
# `_implementation`, numpy >= 1.25; the public function where it is
# missing), for a pose change's RigidTransform arrays: plain ndarrays, which
# override nothing; the dispatch costs ~0.3 µs per call.
_concatenate = getattr(np.concatenate, "_implementation", np.concatenate)
_STRIDES_33, _STRIDES_3 = (24, 8), (8,)


class PoseComposer:
    """World-pose composition of one PoseTopology, with everything a pose
    change needs prepared once (SceneGraph's world-pose cache entry calls it
    at every pose change): each source's frame count and a getter of its
    RigidTransforms from FramePoseVector._values, the frames' rows, the
    topology's arrays, and the compiled kernel's entry (_jit.entry_point,
    taken at the first composition). Built by `composer_of` and kept on the
    topology (immutable once built).

    Attributes:
      topology: the PoseTopology.
      sources: [(source_id, number of frames, getter)] in the order of
        topology.source_frames; getter(d) returns (d[f._value] for each
        frame f of the source) as a tuple (FramePoseVector._values is keyed
        by the frames' id values).
      rows: (nF−1,) int64, the frames' rows, source after source.
    """

    __slots__ = ("topology", "sources", "rows", "_count", "_getter", "_entry", "_nF", "_nG",
                 "_arrays", "_packed_keys")

    def __init__(self, topology: PoseTopology):
        self.topology = topology
        sources, rows = [], []
        for sid, frame_ids in topology.source_frames.items():
            rows.extend(topology.frame_index[f] for f in frame_ids)
            if len(frame_ids) == 1:
                only = frame_ids[0]._value

                def getter(d, only=only):
                    return (d[only],)
            else:
                getter = operator.itemgetter(*[f._value for f in frame_ids])
            sources.append((sid, len(frame_ids), getter))
        self.sources = sources
        self.rows = np.array(rows, dtype=np.int64)
        # One source (the common case): compose_one's count and getter.
        self._count, self._getter = (sources[0][1], sources[0][2]) if len(sources) == 1 \
            else (-1, None)
        self._entry = None
        self._nF, self._nG = len(topology.parent_index), len(topology.R_FG)
        self._arrays = (topology.parent_index, topology.geometry_frame_index, topology.R_FG,
                        topology.p_FG)
        # Per source, the keys tuple of the last packed FramePoseVector found
        # in this topology's order (compared by identity).
        self._packed_keys = [None] * len(sources)

    def __reduce__(self):
        # Its getters are local functions and its entry compiled code: a
        # pickle or copy holds the topology and rebuilds the rest from it.
        return composer_of, (self.topology,)

    def compose_one(self, poses):
        """compose() of a topology with exactly one source, `poses` its
        FramePoseVector: the path of every pose change of a one-source scene
        (gathered here, and a single frame's arrays used as they are: they
        are never written to)."""
        if type(poses) is not FramePoseVector:
            return None
        entry = self._entry
        packed = poses._packed
        if packed is not None and entry is not None and (
                packed[0] is self._packed_keys[0] or self._takes_packed(0, packed[0])):
            # Packed rows in this topology's frame order (FramePoseVector's
            # docstring): used as they are.
            R_in, p_in = packed[1], packed[2]
            if not (R_in.dtype is _F64 and R_in.strides == _STRIDES_33 and p_in.dtype is _F64
                    and p_in.strides == _STRIDES_3):
                return self.compose_frames(R_in, p_in, self.rows, True)
        else:
            values = poses._values
            count = self._count
            if len(values) != count:
                return None
            try:
                Xs = self._getter(values)
            except KeyError:
                return None
            if count == 1 or entry is None:
                R_in, p_in = Xs[0]._R, Xs[0]._p
                if count > 1:
                    R_in = np.concatenate([X._R for X in Xs])
                    p_in = np.concatenate([X._p for X in Xs])
                return self.compose_frames(R_in, p_in, self.rows, True)
            R_in = _concatenate([X._R for X in Xs])
            p_in = _concatenate([X._p for X in Xs])
        # A concatenation is C-contiguous: its dtype and number of dimensions
        # are all the compiled entry needs checked (RigidTransform holds (3, 3)
        # and (3,) float64 arrays; anything else takes compose_frames' way).
        if not (R_in.dtype is _F64 and R_in.ndim == 2 and p_in.dtype is _F64
                and p_in.ndim == 1):
            return self.compose_frames(R_in, p_in, self.rows, True)
        # compose_frames' body, written out: one Python call less per pose
        # change.
        nG = self._nG
        R_WG, p_WG = np.empty((nG, 3, 3)), np.empty((nG, 3))
        parent_index, geometry_frame_index, R_FG, p_FG = self._arrays
        rows = self.rows
        status = entry(parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG, True,
                       R_WG, p_WG)
        if status == 1:
            return None
        return WorldPoses(self.topology, (R_in, p_in, rows), None, None, R_WG, p_WG,
                          status == 0)

    def _takes_packed(self, i: int, keys: tuple) -> bool:
        """True if `keys` (a packed FramePoseVector's frame id values) are
        the frames of source i (of `sources`) in this topology's order
        (remembered)."""
        source_id, count, _ = self.sources[i]
        if len(keys) != count or keys != tuple(
                f._value for f in self.topology.source_frames[source_id]):
            return False
        self._packed_keys[i] = keys
        return True

    def compose(self, vectors: list):
        """World poses from the sources' FramePoseVectors, in one compiled
        call.

        Args:
          vectors: the FramePoseVector of each source in the order of
            `sources` (None for a missing one).
        Returns:
          WorldPoses with X_WF = X_WP·X_PF down each chain and X_WG =
          X_WF·X_FG (kinematics_kernels.py; numba is imported at the first
          call), or None when a vector is missing, is of another type,
          misses a frame or holds an extra one, or a pose is not finite: the
          caller then checks frame by frame and reports the exact problem.
        """
        if self._count >= 0:
            return self.compose_one(vectors[0])
        Rs, ps = [], []
        for i, ((sid, count, getter), poses) in enumerate(zip(self.sources, vectors)):
            packed = poses._packed if type(poses) is FramePoseVector else None
            if packed is not None and (packed[0] is self._packed_keys[i]
                                       or self._takes_packed(i, packed[0])):
                Rs.append(packed[1])
                ps.append(packed[2])
                continue
            Xs = _source_poses(poses, count, getter)
            if Xs is None:
                return None
            Rs.extend([X._R for X in Xs])
            ps.extend([X._p for X in Xs])
        if Rs:
            R_in, p_in = np.concatenate(Rs, dtype=float), np.concatenate(ps, dtype=float)
        else:
            R_in, p_in = np.zeros((0, 3)), np.zeros(0)
        return self.compose_frames(R_in, p_in, self.rows, True)

    def compose_frames(self, R_in: np.ndarray, p_in: np.ndarray, rows: np.ndarray,
                       check: bool):
        """WorldPoses from one compiled call (kinematics_kernels.
        geometry_world_poses: the geometries' poses; the frames' are composed
        when first read, see frames) on the frames rows (M,) int64 posed in
        their parents by R_in (3M, 3), p_in (3M,) [m]; None if `check` found
        a non-finite input. The inputs are made contiguous float64 here and
        the outputs allocated here, so the argument types never vary (the
        kernel's entry is called without numba's type resolution)."""
        # Strides pin down dimensions and C order in one comparison each; the
        # dtype is float64's own descriptor (any other goes the slow way).
        if not (R_in.dtype is _F64 and R_in.strides == _STRIDES_33 and p_in.dtype is _F64
                and p_in.strides == _STRIDES_3):
            R_in = np.ascontiguousarray(R_in, dtype=float).reshape(-1, 3)
            p_in = np.ascontiguousarray(p_in, dtype=float).reshape(-1)
        nG = self._nG
        R_WG, p_WG = np.empty((nG, 3, 3)), np.empty((nG, 3))
        parent_index, geometry_frame_index, R_FG, p_FG = self._arrays
        entry = self._entry
        if entry is None:
            from scenegraph._jit import entry_point
            entry = self._entry = entry_point(_kernels()[0], (
                parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG, True, R_WG,
                p_WG))
        status = entry(parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG,
                       check, R_WG, p_WG)
        if status == 1:
            return None
        return WorldPoses(self.topology, (R_in, p_in, rows), None, None, R_WG, p_WG,
                          status == 0)

    def frames(self, R_in: np.ndarray, p_in: np.ndarray, rows: np.ndarray) -> tuple:
        """(R_WF (nF, 3, 3), p_WF (nF, 3)) of the inputs of a WorldPoses
        (checked and converted by compose_frames): kinematics_kernels.
        world_poses, the same products in the same order as the pose
        change's composition, so the same numbers (its geometries' poses
        are recomputed into scratch and dropped)."""
        nF, nG = self._nF, self._nG
        R_WF, p_WF = np.empty((nF, 3, 3)), np.empty((nF, 3))
        parent_index, geometry_frame_index, R_FG, p_FG = self._arrays
        _kernels()[1](parent_index, R_in, p_in, rows, geometry_frame_index, R_FG, p_FG, False,
                      R_WF, p_WF, np.empty((nG, 3, 3)), np.empty((nG, 3)))
        return R_WF, p_WF


def composer_of(topology: PoseTopology) -> PoseComposer:
    """The topology's PoseComposer (built at the first call, kept on it)."""
    composer = topology.__dict__.get("_composer")
    if composer is None:
        composer = topology._composer = PoseComposer(topology)
    return composer


def calc_world_poses(topology: PoseTopology, X_PFs: dict) -> WorldPoses:
    """Composes frame chains and places geometries in one compiled call.

    Args:
      topology: from GeometryState.pose_topology().
      X_PFs: dict FrameId -> RigidTransform for every non-world frame
        (validated by the caller).
    Returns:
      WorldPoses with X_WF = X_WP·X_PF down each chain and X_WG = X_WF·X_FG
      (see PoseComposer.compose).
    """
    Xs = [X_PFs[f] for f in topology.frame_ids[1:]]
    rows = np.arange(1, len(topology.frame_ids), dtype=np.int64)
    R = np.concatenate([X._R for X in Xs], dtype=float) if Xs else np.zeros((0, 3))
    p = np.concatenate([X._p for X in Xs], dtype=float) if Xs else np.zeros(0)
    return composer_of(topology).compose_frames(R, p, rows, False)


def _source_poses(poses, count: int, getter):
    """The RigidTransforms of a source's `count` frames (a PoseComposer
    source) from its FramePoseVector `poses`, or None if that is not one or
    holds other frames."""
    values = poses._values if type(poses) is FramePoseVector else None
    if values is None or len(values) != count:
        return None
    try:
        return getter(values)
    except KeyError:
        return None


def gather_and_compose(topology: PoseTopology, pose_vectors: dict):
    """PoseComposer.compose with the sources' FramePoseVectors given as a
    dict SourceId -> FramePoseVector, or None (see there)."""
    return composer_of(topology).compose([pose_vectors.get(sid)
                                          for sid in topology.source_frames])


def compose_source_poses(topology: PoseTopology, vectors: list):
    """World poses from the sources' frame poses (PoseComposer.compose)."""
    return composer_of(topology).compose(vectors)


def frame_poses_valid(frame_ids: list, poses) -> bool:
    """True if `poses` (a FramePoseVector) holds exactly the frames
    `frame_ids` with finite values (one batched check); False means "look
    frame by frame" (it may also be a vector of another type)."""
    values = getattr(poses, "_values", None) if type(poses) is FramePoseVector else None
    if values is None or len(values) != len(frame_ids):
        return False
    if not frame_ids:
        return True
    try:
        Xs = [values[f._value] for f in frame_ids]
    except KeyError:
        return False
    # A finite sum proves every entry finite (NaN and ±inf propagate); an
    # overflowing sum only sends the caller to its per-frame check.
    return (math.isfinite(np.concatenate([X._R for X in Xs]).sum())
            and math.isfinite(np.concatenate([X._p for X in Xs]).sum()))
