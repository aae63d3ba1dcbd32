"""docs/proximity.md's accuracy table is the characterization's output: each
pair's documented error is within a factor of 10 of what is measured now
(rounding noise aside), and Drake's columns are Drake's figures."""
import pathlib
import re

from tests.scenegraph.proximity.characterization import _rows

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "proximity.md"


def _doc_table() -> dict:
    text = DOC.read_text()
    body = text.split("<!-- characterization table: begin -->")[1].split(
        "<!-- characterization table: end -->")[0]
    rows = {}
    for line in body.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[tuple(cells[0].split("–"))] = cells[1:]
    return rows


def _value(cell):
    return None if cell == "throws" else float(cell)


def _close(documented, measured):
    if documented is None or measured is None:
        return documented is None and measured is None
    floor = 1e-16
    return max(documented, floor) / 10 <= max(measured, floor) <= max(documented, floor) * 10


def test_documented_table_matches_the_characterization():
    documented = _doc_table()
    rows = _rows()
    assert set(documented) == {tuple(r["pair"]) for r in rows}
    for row in rows:
        ours_pen, drake_pen, ours_dist, drake_dist, witness, normal = map(
            _value, documented[tuple(row["pair"])])
        assert _close(ours_pen, row["penetration_error"]), row["pair"]
        assert _close(ours_dist, row["distance_error"]), row["pair"]
        assert _close(witness, row["witness_error"]) or (witness or 0) < 1e-15, row["pair"]
        assert _close(normal, row["normal_error"]) or (normal or 0) < 1e-12, row["pair"]
        assert drake_pen == (None if row["drake_penetration"] is None
                             else float(f"{row['drake_penetration']:.0e}"))
        assert drake_dist == (None if row["drake_distance"] is None
                              else float(f"{row['drake_distance']:.0e}"))
