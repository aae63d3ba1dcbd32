"""Agreement measures between two renderings of one scene (this library's and
pydrake's RenderEngineVtk), per geometry label: the issue's criteria."""
from __future__ import annotations

import numpy as np

EMPTY = 32766


def label_agreement(ours: np.ndarray, theirs: np.ndarray) -> dict:
    """{label: IoU} for every label either image shows (kEmpty excluded)."""
    out = {}
    for label in sorted(set(np.unique(ours).tolist()) | set(np.unique(theirs).tolist())):
        if label == EMPTY:
            continue
        a, b = ours == label, theirs == label
        out[int(label)] = float((a & b).sum() / max(1, (a | b).sum()))
    return out


def depth_agreement(ours, theirs, mask=None, tol: float = 3e-3) -> dict:
    """Fractions of the pixels (of `mask`, default all) with the same hit/miss
    (finite depth or not) and, of those both hit, within `tol` [m]; plus the
    median and max |difference| of the hits."""
    if mask is None:
        mask = np.ones(ours.shape, dtype=bool)
    hit_a, hit_b = np.isfinite(ours) & (ours > 0), np.isfinite(theirs) & (theirs > 0)
    same = (hit_a == hit_b)[mask]
    both = hit_a & hit_b & mask
    diff = np.abs(ours[both].astype(float) - theirs[both].astype(float))
    return {"hit_miss": float(same.mean()) if same.size else 1.0,
            "within": float((diff <= tol).mean()) if diff.size else 1.0,
            "median": float(np.median(diff)) if diff.size else 0.0,
            "max": float(diff.max()) if diff.size else 0.0, "pixels": int(both.sum())}


def color_agreement(ours, theirs, mask) -> float:
    """Mean absolute difference per channel (0-255) over the pixels of `mask`."""
    if not mask.any():
        return 0.0
    return float(np.abs(ours[mask].astype(int) - theirs[mask].astype(int))[:, :3].mean())


def per_label(ours: dict, theirs: dict) -> dict:
    """{label: {"iou", "depth": depth_agreement over the label's pixels in either
    image, "color": MAE where both show the label}} and {"image": whole-image
    depth and label agreement}. `ours`/`theirs`: {"color", "depth", "label"}."""
    ious = label_agreement(ours["label"], theirs["label"])
    out = {}
    for label, iou in ious.items():
        either = (ours["label"] == label) | (theirs["label"] == label)
        both = (ours["label"] == label) & (theirs["label"] == label)
        out[label] = {"iou": iou, "depth": depth_agreement(ours["depth"], theirs["depth"],
                                                           either),
                      "color": color_agreement(ours["color"], theirs["color"], both)}
    out["image"] = {"depth": depth_agreement(ours["depth"], theirs["depth"]),
                    "label": float((ours["label"] == theirs["label"]).mean())}
    return out
