"""Images agree with pydrake 1.51.1's RenderEngineVtk on the same scenes and cameras.

The reference images (tests/reference_data/render/drake_render_reference.npz) are
written by tools/render_drake_reference.py from the scenes of render_scenes.py;
each scene is rebuilt here with this library and rendered with the same cameras.

Criteria, per image: depth within 3 mm on ≥ 97 % of the pixels both
renderers hit, the same hit/miss on ≥ 99 % of the pixels; per geometry: label IoU
≥ 0.97 and colour mean absolute difference ≤ 40/255 where both show it. Drake
tessellates curved shapes (50 facets) where this library intersects them exactly,
so curved surfaces differ by up to r·(1 − cos(π/50)) plus silhouette pixels at
grazing angles; the per-geometry depth bound is therefore checked at 95 %.
docs/render.md holds the measured numbers (tools/render_agreement_table.py --write);
``test_the_guide_holds_the_current_table`` checks they are the current ones.
"""
import json
import pathlib

import numpy as np
import pytest

from tests.scenegraph.render import agreement, render_scenes as rs

REFERENCE = np.load(rs.REFERENCE)
SCENES = json.loads(str(REFERENCE["scenes"]))
GUIDE = pathlib.Path(__file__).resolve().parents[3] / "docs" / "render.md"
_IMAGES = {}


def _rendered(scene):
    """This library's images of `scene` (rendered once per test session)."""
    if scene["name"] not in _IMAGES:
        ns = rs.scenegraph_namespace()
        sg, context, _, _, cameras = rs.build(scene, ns)
        color, depth, label = rs.render_all(sg, context, cameras, ns)
        _IMAGES[scene["name"]] = {"color": color, "depth": depth, "label": label}
    return _IMAGES[scene["name"]]


def _reference(scene):
    return {kind: REFERENCE[f"{scene['name']}/{kind}"] for kind in ("color", "depth", "label")}


def test_reference_was_rendered_by_pydrake_1_51():
    assert str(REFERENCE["pydrake_version"]) == "1.51.1"
    assert [s["name"] for s in SCENES] == [s["name"] for s in rs.reference_scenes()]


@pytest.mark.parametrize("scene", SCENES, ids=[s["name"] for s in SCENES])
def test_images_agree_with_pydrake(scene):
    ours, theirs = _rendered(scene), _reference(scene)
    result = agreement.per_label(ours, theirs)
    image = result.pop("image")
    assert image["depth"]["hit_miss"] >= 0.99, image
    assert image["depth"]["within"] >= 0.97, image
    names = {g["label"]: g["name"] for g in scene["geometries"]}
    assert set(result) == set(names), "labels seen differ from the scene's"
    for label, r in result.items():
        what = f"{scene['name']}/{names[label]}"
        assert r["iou"] >= 0.97, (what, r)
        assert r["depth"]["hit_miss"] >= 0.99, (what, r)
        assert r["depth"]["within"] >= 0.95, (what, r)
        assert r["color"] <= 40.0, (what, r)


def test_background_and_empty_pixels_are_drakes():
    scene = SCENES[0]
    ours, theirs = _rendered(scene), _reference(scene)
    empty = theirs["label"] == agreement.EMPTY
    assert empty.any()
    assert (ours["label"][empty] == agreement.EMPTY).mean() >= 0.995
    assert np.isinf(ours["depth"][empty]).mean() >= 0.995
    np.testing.assert_array_equal(ours["color"][empty][:20], theirs["color"][empty][:20])


def test_the_guide_holds_the_current_table():
    results = {scene["name"]: agreement.per_label(_rendered(scene), _reference(scene))
               for scene in SCENES}
    table = agreement.markdown_table(results, SCENES)
    text = GUIDE.read_text(encoding="utf-8")
    assert agreement.BEGIN + "\n" + table + agreement.END in text, \
        "docs/render.md's agreement table is stale: run tools/render_agreement_table.py --write"
