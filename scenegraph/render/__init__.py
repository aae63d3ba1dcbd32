"""Rendering of the perception role: pydrake's render API (cameras, labels, the
RenderEngine interface, the engine factories) over this library's compiled
CPU renderer (RenderEngineCpu). See docs/render.md."""
from scenegraph.render.camera_info import CameraInfo
from scenegraph.render.cameras import (ClippingRange, ColorRenderCamera, DepthRange,
                                       DepthRenderCamera, RenderCameraCore)
from scenegraph.render.engine import (MakeRenderEngineGl, MakeRenderEngineVtk, RenderEngine,
                                      RenderEngineCpu)
from scenegraph.render.images import (ConvertDepth16UTo32F, ConvertDepth32FTo16U, Image,
                                      ImageBgr8U, ImageBgra8U, ImageDepth16U, ImageDepth32F,
                                      ImageFileFormat, ImageGrey8U, ImageLabel16I, ImageRgb8U,
                                      ImageRgba8U, ImageTraits, PixelFormat, PixelScalar,
                                      PixelType)
from scenegraph.render.params import (EnvironmentMap, EquirectangularMap, GltfExtension,
                                      LightParameter, NullTexture, RenderEngineGlParams,
                                      RenderEngineVtkParams, SsaoParameter)
from scenegraph.render.render_label import RenderLabel

__all__ = ["CameraInfo", "ClippingRange", "ColorRenderCamera", "DepthRange", "DepthRenderCamera",
           "RenderCameraCore", "MakeRenderEngineGl", "MakeRenderEngineVtk", "RenderEngine",
           "RenderEngineCpu", "ConvertDepth16UTo32F", "ConvertDepth32FTo16U", "Image",
           "ImageBgr8U", "ImageBgra8U", "ImageDepth16U", "ImageDepth32F", "ImageFileFormat",
           "ImageGrey8U", "ImageLabel16I", "ImageRgb8U", "ImageRgba8U", "ImageTraits",
           "PixelFormat", "PixelScalar", "PixelType", "EnvironmentMap", "EquirectangularMap",
           "GltfExtension", "LightParameter", "NullTexture", "RenderEngineGlParams",
           "RenderEngineVtkParams", "SsaoParameter", "RenderLabel"]
