"""pydrake.math-compatible math: rigid transforms and rotations (with AngleAxis and
Quaternion, pydrake.common.eigen_geometry's), quaternion and random-rotation helpers,
matrix utilities with the Riccati and Lyapunov equations, numerical gradients,
B-spline bases, barycentric meshes and the scalar functions."""
import types as _types

from scenegraph.math.angle_axis import AngleAxis
from scenegraph.math.barycentric import BarycentricMesh
from scenegraph.math.bspline import BsplineBasis, KnotVectorType
from scenegraph.math.gradient import (ComputeNumericalGradient, NumericalGradientMethod,
                                      NumericalGradientOption)
from scenegraph.math.matrix_util import (BalanceQuadraticForms,
                                         ContinuousAlgebraicRiccatiEquation,
                                         DecomposePositiveQuadraticForm,
                                         DecomposePSDmatrixIntoXtransposeTimesX,
                                         DiscreteAlgebraicRiccatiEquation,
                                         ExtractPrincipalSubmatrix, IsPositiveDefinite,
                                         IsSymmetric, RealContinuousLyapunovEquation,
                                         RealDiscreteLyapunovEquation,
                                         ToLowerTriangularColumnsFromMatrix,
                                         ToSymmetricMatrixFromLowerTriangularColumns,
                                         VectorToSkewSymmetric)
from scenegraph.math.numerics import (SoftOverMax, SoftOverMin, SoftUnderMax, SoftUnderMin,
                                      abs, acos, arccos, arcsin, arctan, arctan2, asin, atan,
                                      atan2, ceil, cos, cosh, eq, exp, floor, ge, gt, inv,
                                      isnan, le, log, lt, matmul, max, min, ne, pow, sin,
                                      sinh, sqrt, tan, tanh, wrap_to)
from scenegraph.math.quaternion import Quaternion
from scenegraph.math.quaternion_util import (
    AreQuaternionsEqualForOrientation, CalculateAngularVelocityExpressedInBFromQuaternionDt,
    CalculateQuaternionDtConstraintViolation,
    CalculateQuaternionDtFromAngularVelocityExpressedInB, ClosestQuaternion,
    IsBothQuaternionAndQuaternionDtOK, IsQuaternionValid, QuaternionToCanonicalForm,
    UniformlyRandomAngleAxis, UniformlyRandomQuaternion, UniformlyRandomRotationMatrix,
    UniformlyRandomRPY, is_quaternion_in_canonical_form)
from scenegraph.math.rigid_transform import RigidTransform
from scenegraph.math.roll_pitch_yaw import RollPitchYaw
from scenegraph.math.rotation_matrix import RotationMatrix
from scenegraph.math.templates import (BsplineBasis_, RigidTransform_, RollPitchYaw_,
                                       RotationMatrix_)

__all__ = [_name for _name, _value in dict(globals()).items()
           if not _name.startswith("_") and not isinstance(_value, _types.ModuleType)]
