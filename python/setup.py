"""Builds the `sift` package: the cffi extension `sift._native` on libsiftc.so.

The library comes from SIFT_LIBRARY (a path to a libsiftc.so) when that is set, and is
otherwise built from the Swift package one directory up with
`swift build -c release --product siftc` (incremental: quick when it is up to date). It is
copied into the package, next to the extension, which finds it through its rpath ($ORIGIN).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from sift_ffi_build import ROOT, make_ffi  # noqa: E402


def library():
    given = os.environ.get("SIFT_LIBRARY")
    if given:
        path = Path(given).resolve()
        if not path.is_file():
            sys.exit(f"sift: SIFT_LIBRARY={given} is not a file")
        return path
    if shutil.which("swift") is None:
        sys.exit("sift: no libsiftc.so: install the Swift toolchain, or set SIFT_LIBRARY to a built libsiftc.so")
    command = ["swift", "build", "-c", "release", "--product", "siftc", "--package-path", str(ROOT)]
    print("sift: building libsiftc.so:", " ".join(command), flush=True)
    subprocess.run(command, check=True)
    bin_path = subprocess.run(command + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout
    return Path(bin_path.strip()) / "libsiftc.so"


class BuildExt(build_ext):
    """Finds or builds libsiftc.so, links the extension to it and ships it in the package."""

    def run(self):
        lib = library()
        for ext in self.extensions:
            ext.library_dirs = [str(lib.parent)]
        super().run()
        for destination in {Path(self.build_lib) / "sift", HERE / "sift"} if self.inplace else {Path(self.build_lib) / "sift"}:
            destination.mkdir(parents=True, exist_ok=True)
            shutil.copy2(lib, destination / "libsiftc.so")


setup(
    ext_modules=[make_ffi().distutils_extension(tmpdir=str(HERE / "build" / "cffi"))],
    cmdclass={"build_ext": BuildExt},
)
