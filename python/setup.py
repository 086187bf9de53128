# The wheel carries the widget's module: built by `npm run build` (scripts/build-widget.mjs: one ES
# module with the core's SIMD .wasm inside) into web/build/, copied here into the package at build
# time, so git holds no copy. pyproject.toml holds the rest.
import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

WIDGET = pathlib.Path(__file__).resolve().parent.parent / "web" / "build" / "attention-widget.js"


class BuildWithWidget(build_py):
    def run(self):
        super().run()
        if not WIDGET.is_file():
            raise SystemExit(f"{WIDGET} is missing: run `npm run build` first (scripts/build-widget.mjs)")
        static = pathlib.Path(self.build_lib) / "attention_lab" / "static"
        static.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(WIDGET, static / "attention-widget.js")


setup(cmdclass={"build_py": BuildWithWidget})
