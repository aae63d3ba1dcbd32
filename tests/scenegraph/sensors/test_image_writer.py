"""ImageWriter writes its images to files named from the format."""

import numpy as np
import pytest
from PIL import Image as PILImage

from scenegraph.sensors import ImageDepth32F, ImageRgba8U, ImageWriter, PixelType
from systems.analysis import Simulator


def test_image_writer_writes_named_files(tmp_path):
    writer = ImageWriter()
    color_port = writer.DeclareImageInputPort(PixelType.kRgba8U, "color",
                                              str(tmp_path / "{image_type}_{count:03}"), 0.5,
                                              0.0)
    depth_port = writer.DeclareImageInputPort(PixelType.kDepth32F, "depth",
                                              str(tmp_path / "d_{time_msec:05}"), 1.0, 0.25)
    context = writer.CreateDefaultContext()
    color_port.FixValue(context, ImageRgba8U(5, 4, 200))
    depth = ImageDepth32F(5, 4, 1.5)
    depth_port.FixValue(context, depth)
    simulator = Simulator(writer, context)
    simulator.AdvanceTo(1.3)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["color_000.png", "color_001.png", "color_002.png", "d_00250.tiff",
                     "d_01250.tiff"]
    assert np.asarray(PILImage.open(tmp_path / "color_001.png")).shape == (4, 5, 4)
    assert np.asarray(PILImage.open(tmp_path / "d_00250.tiff")).tolist()[0][0] == 1.5
    writer.ResetAllImageCounts()
    with pytest.raises(RuntimeError, match="already exists"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "color", str(tmp_path / "x"), 1.0, 0)
    with pytest.raises(RuntimeError, match="doesn't exist"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "c2", str(tmp_path / "no" / "x"), 1, 0)
    with pytest.raises(RuntimeError, match="positive"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "c3", str(tmp_path / "x"), 0.0, 0)
    with pytest.raises(RuntimeError, match="only on port_name and image_type"):
        writer.DeclareImageInputPort(PixelType.kRgba8U, "c4", str(tmp_path / "{count}" / "x"),
                                     1, 0)
    with pytest.raises(RuntimeError, match="does not support"):
        writer.DeclareImageInputPort(PixelType.kBgr8U, "c5", str(tmp_path / "x"), 1, 0)
