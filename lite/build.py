"""Build the course as a static JupyterLite site (``make site``): nothing to install for a learner.

JupyterLite runs JupyterLab and a Python kernel (Pyodide, CPython compiled to WebAssembly) in the
browser from static files.  This script stages what the site needs, then hands over to
``jupyter lite build``:

1. a pure-Python maumau wheel (``py3-none-any``: the Cython engine is for CPython only;
   ``MAUMAU_PURE_PYTHON=1`` builds without it);
2. the pure-Python wheels maumau and the kernel need, from PyPI, for the Python of the Pyodide
   the kernel pins (matplotlib is not among them: maumau draws Vega-Lite where it is missing);
3. the Pyodide runtime from the npm package ``pyodide`` of that version (its core only: the npm
   package holds no package wheels);
4. a ``pyodide-lock.json`` that lists exactly these wheels (with their hashes, the names they
   import and what they depend on in the browser), so that the kernel preloads maumau and its
   dependencies from the site itself: ``import maumau`` works offline, with no ``%pip``, and no
   request leaves the site's host (the kernel's PyPI fallback is off);
5. the course notebooks and the student versions of the exercises (``maumau release``) as the
   site's files.

Usage: ``python lite/build.py [--out site]`` from the repository root, in the environment of
``make site`` (jupyterlite-core, jupyterlite-pyodide-kernel, pip, npm on the PATH).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LITE = ROOT / "lite"
STAGE = ROOT / ".site-build"

#: The packages the kernel imports at start; with maumau they are preloaded from the lock.
KERNEL_PACKAGES = ["micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython"]
#: Course notebooks the public site leaves out, and why (lite/README.md, the site's README, says so too).
NOT_ON_SITE = {
    "08_for_teachers.ipynb": "the teacher's notebook: it shows the exercises' solutions and hidden tests, and grades "
                             "in sandboxed kernels (processes a browser does not have)",
    "09_play_together.ipynb": "it starts the class table server (sockets and threads a browser tab does not have); "
                              "learners join a class table through its web page, with nothing to install",
    "10_class_league.ipynb": "it runs every bot in a bubblewrap sandbox process (processes a browser tab does "
                             "not have); learners enter their bots on the class server's league page or with "
                             "classroom.enter_league from their notebook",
    "11_teach_the_computer.ipynb": "it needs numpy, Gymnasium and PettingZoo (the extra maumau[env]): numpy has no "
                                   "pure wheel, and the site ships Pyodide's core runtime without its numpy",
}
#: JupyterLab for the course, the REPL app for the table on a projector (docs/howto/browser-site.md).
APPS = ["--apps", "lab", "--apps", "repl"]
#: Shipped inside jupyterlite-pyodide-kernel (browser shims of ipykernel and widgetsnbextension).
KERNEL_WHEELS = ["ipykernel", "piplite", "pyodide-kernel", "widgetsnbextension"]


def run(*command: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], cwd=cwd, check=True, env=env)


def pyodide_versions() -> tuple[str, str]:
    """The Pyodide (npm) version the installed kernel pins, and its Python (major.minor)."""
    from jupyterlite_pyodide_kernel import constants

    return constants.PYODIDE_VERSION, constants.PYODIDE_PYTHON_VERSION


def browser_environment(python: str) -> dict[str, str]:
    """The PEP 508 marker environment of Pyodide's Python, to read Requires-Dist as the browser would."""
    env = default_environment()
    env.update(sys_platform="emscripten", platform_system="Emscripten", platform_machine="wasm32",
               os_name="posix", implementation_name="cpython", platform_python_implementation="CPython",
               python_version=python, python_full_version=f"{python}.0")
    return env


# --- wheels -----------------------------------------------------------------------------------------

def build_maumau_wheel(into: Path) -> Path:
    """maumau as a pure wheel, from the files git knows (a working tree's compiled modules stay out)."""
    source = STAGE / "source"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    env = {**os.environ, "MAUMAU_PURE_PYTHON": "1"}
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", into, source, env=env)
    (wheel,) = into.glob("maumau-*-py3-none-any.whl")
    return wheel


def metadata(wheel: Path) -> tuple[str, str, list[str]]:
    """A wheel's name, version and Requires-Dist lines."""
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(z.read(name).decode())
    return meta["Name"], meta["Version"], meta.get_all("Requires-Dist") or []


def browser_requirements(wheel: Path, env: dict[str, str]) -> list[Requirement]:
    """What a wheel needs in the browser: its Requires-Dist whose markers hold there (no extras)."""
    wanted = []
    for line in metadata(wheel)[2]:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
            wanted.append(req)
    return wanted


def download(requirements: list[str], python: str, into: Path) -> None:
    """Pure wheels (py3-none-any) for Pyodide's Python, from PyPI."""
    run(sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "--platform", "any",
        "--implementation", "py", "--abi", "none", "--python-version", python, "--dest", into, *requirements)


def kernel_wheels(into: Path) -> None:
    """The browser shims the kernel ships (ipykernel, piplite, pyodide_kernel, widgetsnbextension 4)."""
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    shipped = share / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    if not shipped.is_dir():
        raise SystemExit(f"the kernel's wheels are not where jupyterlite-pyodide-kernel puts them: {shipped}")
    for wheel in shipped.glob("*.whl"):
        if wheel.name.startswith("widgetsnbextension-3"):
            continue  # for ipywidgets 7; maumau uses 8
        for old in into.glob(f"{wheel.name.split('-')[0]}-*.whl"):
            old.unlink()  # the shim replaces PyPI's release of the same package
        shutil.copy2(wheel, into / wheel.name)


# --- the lock -----------------------------------------------------------------------------------------

def top_level_imports(wheel: Path) -> list[str]:
    """The names a wheel makes importable (its top-level packages and modules)."""
    with zipfile.ZipFile(wheel) as z:
        names = set()
        for entry in z.namelist():
            first, _, rest = entry.partition("/")
            if first.endswith((".dist-info", ".data")):
                continue
            if rest or first.endswith(".py"):
                names.add(first.removesuffix(".py"))
    return sorted(n for n in names if n.isidentifier())


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lock_entries(wheels: Path, env: dict[str, str]) -> dict[str, dict[str, object]]:
    """pyodide-lock entries of the wheels in ``wheels``: depends read with the browser's markers,
    limited to the wheels at hand (a dependency the browser cannot have is the package's loss, not the lock's)."""
    found = {canonicalize_name(metadata(w)[0]): w for w in sorted(wheels.glob("*.whl"))}
    entries: dict[str, dict[str, object]] = {}
    for key, wheel in found.items():
        name, version, _ = metadata(wheel)
        depends = sorted({canonicalize_name(r.name) for r in browser_requirements(wheel, env)} & found.keys())
        entries[key] = {"name": key, "version": version, "file_name": wheel.name, "install_dir": "site",
                        "sha256": sha256(wheel), "package_type": "package", "imports": top_level_imports(wheel),
                        "depends": depends, "unvendored_tests": False}
    return entries


def reachable(entries: dict[str, dict[str, object]], roots: list[str]) -> dict[str, dict[str, object]]:
    """The entries the roots need, transitively (pip's host-side resolution brings a few the browser does not)."""
    seen: list[str] = []
    todo = [canonicalize_name(r) for r in roots]
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        if key not in entries:
            raise SystemExit(f"no wheel for {key!r}, which the browser kernel needs")
        seen.append(key)
        todo += entries[key]["depends"]  # type: ignore[operator]
    return {key: entries[key] for key in sorted(seen)}


def write_pyodide(npm_tarball: Path, wheels: Path, entries: dict[str, dict[str, object]], into: Path) -> None:
    """The Pyodide runtime (npm's core files) with our wheels and the lock that names them."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    with tarfile.open(npm_tarball) as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix("package/")
            if member.isfile() and not name.endswith((".map", ".d.ts", ".html", "README.md")):
                (into / name).write_bytes(tar.extractfile(member).read())  # type: ignore[union-attr]
    lock = json.loads((into / "pyodide-lock.json").read_text())
    lock["packages"] = entries
    (into / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    for entry in entries.values():
        shutil.copy2(wheels / str(entry["file_name"]), into / str(entry["file_name"]))


def npm_pyodide(version: str, into: Path) -> Path:
    """The npm package pyodide@version as a tarball (cached in the stage)."""
    tarball = into / f"pyodide-{version}.tgz"
    if not tarball.exists():
        run("npm", "pack", "--silent", "--pack-destination", into, f"pyodide@{version}")
    return tarball


# --- the site -------------------------------------------------------------------------------------------

#: The courses on the site: English at the top, each translation in a folder of its language.
COURSE_LANGUAGES = {"en": "English", "de": "Deutsch", "hu": "magyar"}


def stage_contents(into: Path) -> None:
    """The learner's files: the English course notebooks at the top (not the teacher's), the student
    exercises in exercises/, a README that says what is here; the German and Hungarian courses the
    same way in de/ and hu/ (docs/howto/languages.md)."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    run(Path(sys.executable).parent / "maumau", "release", ROOT / "exercises", "--out", into / "exercises")
    left_out = "\n".join(f"- `{name}`: {why}." for name, why in NOT_ON_SITE.items())
    for lang in COURSE_LANGUAGES:
        folder = into if lang == "en" else into / lang
        source = ROOT / "notebooks" if lang == "en" else ROOT / "notebooks" / lang
        folder.mkdir(exist_ok=True)
        for notebook in sorted(source.glob("*.ipynb")):
            if notebook.name in NOT_ON_SITE:
                print(f"not on the site ({lang}): {notebook.name}: {NOT_ON_SITE[notebook.name]}")
                continue
            (folder / notebook.name).write_text(joined(notebook.read_text(encoding="utf-8")), encoding="utf-8")
        if lang != "en" and (into / "exercises" / lang).is_dir():  # `maumau release` writes exercises/<lang>/
            shutil.move(into / "exercises" / lang, folder / "exercises")
        for notebook in (folder / "exercises").glob("*.ipynb"):
            notebook.write_text(joined(notebook.read_text(encoding="utf-8")), encoding="utf-8")
        readme = LITE / ("README.md" if lang == "en" else f"README.{lang}.md")
        (folder / "README.md").write_text(readme.read_text(encoding="utf-8").replace("{left_out}", left_out),
                                          encoding="utf-8")


def write_first_page(site: Path) -> None:
    """The site's first page: the course in three languages, each a link into JupyterLab at its
    notebook 01 (lite/index.html). It replaces the page that would send a visitor on to JupyterLab at
    once, before they chose a language, but keeps that page's configuration script: every app of the
    site reads the root ``index.html``'s ``jupyter-config-data`` as it starts (JupyterLite's
    config-utils.js), and without it JupyterLab stays blank."""
    built = (site / "index.html").read_text(encoding="utf-8")
    config = re.search(r'<script id="jupyter-config-data".*?</script>', built, re.S)
    if config is None:
        raise SystemExit(f"{site / 'index.html'}: no jupyter-config-data script (a JupyterLite that works otherwise?)")
    page = (LITE / "index.html").read_text(encoding="utf-8")
    (site / "index.html").write_text(page.replace("<!-- jupyter-config-data -->", config.group(0)), encoding="utf-8")


def joined(text: str) -> str:
    """A notebook with every multi-line string as one string, not a list of lines: nbformat allows
    both, but JupyterLite shows a committed list-of-lines output joined with commas."""
    nb = json.loads(text)
    for cell in nb["cells"]:
        cell["source"] = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for output in cell.get("outputs", []):
            if isinstance(output.get("text"), list):
                output["text"] = "".join(output["text"])
            for mime, value in output.get("data", {}).items():
                if isinstance(value, list) and not mime.endswith("json"):
                    output["data"][mime] = "".join(value)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def stage_lite_dir(into: Path, pyodide: Path) -> None:
    """The lite dir of ``jupyter lite build``: our Pyodide in static/, the settings overrides."""
    shutil.rmtree(into, ignore_errors=True)
    (into / "static").mkdir(parents=True)
    shutil.copytree(pyodide, into / "static" / "pyodide")
    shutil.copy2(LITE / "overrides.json", into / "overrides.json")


def configure(site: Path, preload: list[str]) -> None:
    """The site's jupyter-lite.json, after the build's addons wrote theirs: the kernel preloads maumau
    and the kernel's own packages from our lock and never falls back to PyPI (lite/jupyter-lite.json)."""
    path = site / "jupyter-lite.json"
    config = json.loads(path.read_text())
    ours = json.loads((LITE / "jupyter-lite.json").read_text())["jupyter-config-data"]
    data = config["jupyter-config-data"]
    plugins = ours.pop("litePluginSettings")
    data.update(ours)
    for plugin, settings in plugins.items():
        data.setdefault("litePluginSettings", {}).setdefault(plugin, {}).update(settings)
    kernel = data["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    kernel["loadPyodideOptions"]["packages"] = preload
    path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="the site's folder (default: site/)")
    out = parser.parse_args().out.resolve()
    version, python = pyodide_versions()
    env = browser_environment(python)
    wheels = STAGE / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir(parents=True)

    maumau = build_maumau_wheel(wheels)
    needs = [str(r) for r in browser_requirements(maumau, env)]
    download([*needs, *(k for k in KERNEL_PACKAGES if k not in KERNEL_WHEELS)], python, wheels)
    kernel_wheels(wheels)
    roots = ["maumau", *KERNEL_PACKAGES]
    entries = reachable(lock_entries(wheels, env), roots)
    print(f"{len(entries)} packages in the browser kernel's lock: {', '.join(entries)}")

    write_pyodide(npm_pyodide(version, STAGE), wheels, entries, STAGE / "pyodide")
    stage_contents(STAGE / "contents")
    stage_lite_dir(STAGE / "lite", STAGE / "pyodide")
    shutil.rmtree(out, ignore_errors=True)
    run(Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", STAGE / "lite",
        "--contents", STAGE / "contents", "--output-dir", out, *APPS, "--no-sourcemaps",
        "--no-unused-shared-packages", cwd=STAGE)
    configure(out, roots)
    write_first_page(out)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"site: {out} ({size / 1e6:.1f} MB in {sum(1 for f in out.rglob('*') if f.is_file())} files)")


if __name__ == "__main__":
    main()
