"""The wheel's platform tag (the rest is pyproject.toml, D-214).

The package bundles the C library (`libecaz_ffi`), which ctypes loads: the
wheel is platform-specific (installed as platform code, not pure Python) but
needs no particular Python ABI, so it is tagged `py3-none-<platform>`.
"""

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel


class NativeLibraryDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self) -> tuple[str, str, str]:
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(distclass=NativeLibraryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
