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


BEGIN = "<!-- BEGIN GENERATED AGREEMENT TABLE (tools/render_agreement_table.py --write) -->"
END = "<!-- END GENERATED AGREEMENT TABLE -->"


def _shape_name(geometry: dict) -> str:
    shape = geometry["shape"]["type"]
    if geometry.get("diffuse_map"):
        shape += " (texture)"
    if shape == "Mesh" and geometry["shape"]["file"] == "cube_tex.obj":
        shape = "Mesh (OBJ+MTL texture)"
    return shape


def markdown_table(results: dict, scenes: list) -> str:
    """The agreement table of docs/render.md: per scene, the whole image's depth
    and label agreement, then per geometry (its shape) the label IoU, depth
    within 3 mm and hit/miss over the pixels either renderer gives it, and the
    colour MAE where both show it. `results`: {scene name: per_label(...)}."""
    lines = ["| scene | geometry | shape | label IoU | depth ≤ 3 mm | same hit/miss | "
             "colour MAE (/255) |", "| --- | --- | --- | --: | --: | --: | --: |"]
    for scene in scenes:
        result = dict(results[scene["name"]])
        image = result.pop("image")
        lines.append(f"| {scene['name']} | whole image | – | {image['label']:.4f} (pixels "
                     f"equal) | {image['depth']['within']:.4f} | "
                     f"{image['depth']['hit_miss']:.4f} | – |")
        names = {g["label"]: g for g in scene["geometries"]}
        if len(result) <= 8:
            for label, r in result.items():
                g = names[label]
                lines.append(f"| {scene['name']} | {g['name']} | {_shape_name(g)} | "
                             f"{r['iou']:.3f} | {r['depth']['within']:.3f} | "
                             f"{r['depth']['hit_miss']:.3f} | {r['color']:.1f} |")
            continue
        by_shape = {}
        for label, r in result.items():
            by_shape.setdefault(_shape_name(names[label]), []).append(r)
        for shape, rows in sorted(by_shape.items()):
            lines.append(f"| {scene['name']} | worst of {len(rows)} | {shape} | "
                         f"{min(r['iou'] for r in rows):.3f} | "
                         f"{min(r['depth']['within'] for r in rows):.3f} | "
                         f"{min(r['depth']['hit_miss'] for r in rows):.3f} | "
                         f"{max(r['color'] for r in rows):.1f} |")
    return "\n".join(lines) + "\n"


def compute_all(reference, ns, render_scenes) -> tuple:
    """({scene name: per_label(ours, pydrake's)}, scenes) for the stored reference."""
    import json
    scenes = json.loads(str(reference["scenes"]))
    results = {}
    for scene in scenes:
        sg, context, _, _, cameras = render_scenes.build(scene, ns)
        color, depth, label = render_scenes.render_all(sg, context, cameras, ns)
        ours = {"color": color, "depth": depth, "label": label}
        theirs = {k: reference[f"{scene['name']}/{k}"] for k in ("color", "depth", "label")}
        results[scene["name"]] = per_label(ours, theirs)
    return results, scenes
