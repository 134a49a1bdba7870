"""What an install lacks, said in one sentence: each module maumau may miss, and what brings it.

A bare ``pip install maumau`` brings what a teacher's commands need (pyproject.toml's
``dependencies``); JupyterLab, JupyterHub, the learning environments' Gymnasium and PettingZoo and
dask come with an extra (``lab``, ``hub``, ``env``, ``dask``).  ``MODULES`` is the one table of
module -> the name a person knows it by and what to ``pip install``.  A lazy import calls
``need(module, what)``: the module, or ``MissingModule`` whose message is the sentence, e.g.
"maumau serve --hub needs JupyterHub: pip install 'maumau[hub]'".  The command line's ``main``
says that sentence (also for any other ``ModuleNotFoundError`` of a module of the table) and exits
2, with no traceback (``what_to_install``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .text.i18n import check_language

__all__ = ["MODULES", "MissingModule", "need", "missing", "what_to_install", "install_line"]

#: module (as imported) -> (its name in a sentence, what ``pip install`` brings it).
MODULES: dict[str, tuple[str, str]] = {
    # the extras: what only some teachers and learners need
    "jupyterlab": ("JupyterLab", "maumau[lab]"),
    "jupyterhub": ("JupyterHub", "maumau[hub]"),
    "gymnasium": ("Gymnasium", "maumau[env]"),
    "pettingzoo": ("PettingZoo", "maumau[env]"),
    # with matplotlib on a computer; where matplotlib is not (Pyodide), the learning environments bring it
    "numpy": ("numpy", "maumau[env]"),
    "distributed": ("dask", "maumau[dask]"),
    # maumau serve --lti: the LTI 1.3 tool checks the LMS's signed launches (tornado comes with ipykernel)
    "jwt": ("PyJWT", "maumau[lti]"),
    "cryptography": ("cryptography", "maumau[lti]"),
    "tornado": ("tornado", "maumau[lti]"),
    # maumau lti scores|roster: the LMS's grade and roster services over https
    "requests": ("requests", "maumau[lti]"),
    "dask": ("dask", "maumau[dask]"),
    # Simulation.to_dataframe(): a table for those who work with pandas anyway (rows() needs nothing)
    "pandas": ("pandas", "pandas"),
    # the default install's: missing only where maumau was installed without its dependencies
    # (pip install --no-deps, a copied folder) or where a platform leaves them out (the browser's Pyodide)
    "nbformat": ("nbformat", "nbformat"),
    "nbclient": ("nbclient", "nbclient"),
    "jupyter_client": ("jupyter_client", "jupyter-client"),
    "jupyter_core": ("jupyter_core", "jupyter-core"),
    "ipykernel": ("ipykernel", "ipykernel"),
    "websockets": ("websockets", "websockets"),
    "confusable_homoglyphs": ("confusable-homoglyphs", "confusable-homoglyphs"),
    "openskill": ("openskill", "openskill"),
    "cloudpickle": ("cloudpickle", "cloudpickle"),
    "matplotlib": ("matplotlib", "matplotlib"),
    "networkx": ("networkx", "networkx"),
    "ipywidgets": ("ipywidgets", "ipywidgets"),
    "anywidget": ("anywidget", "anywidget"),
    "tqdm": ("tqdm", "tqdm"),
}

#: "{what} needs {name}: pip install {install}" in the course's languages (``what`` is code: a
#: command or a function, the same in every language).
WORDS: dict[str, str] = {
    "en": "{what} needs {name}: pip install {install}",
    "de": "{what} braucht {name}: pip install {install}",
    "hu": "{what} nem fut {name} nélkül: pip install {install}",
}


class MissingModule(ModuleNotFoundError):
    """A module maumau needs here is not installed; the message says what to install.

    A ``ModuleNotFoundError`` (and so an ``ImportError``): code that already falls back when an
    import fails goes on doing so."""


def install_line(module: str) -> str:
    """What to type after ``pip install`` for ``module`` (quoted where a shell would read the brackets)."""
    install = MODULES[_top(module)][1]
    return f"'{install}'" if "[" in install else install


def what_to_install(module: str, what: str, lang: str | None = None) -> str:
    """The one sentence: ``what`` needs ``module``'s package, and the ``pip install`` that brings it."""
    name = MODULES[_top(module)][0]
    return WORDS[check_language(lang)].format(what=what, name=name, install=install_line(module))


def need(module: str, what: str, lang: str | None = None) -> ModuleType:
    """``import module``; where it (or a module it needs) is missing, ``MissingModule`` with the
    sentence of the first missing module the table knows (``what`` is the command or function
    that needs it, e.g. ``"maumau serve --hub"`` or ``"maumau.env.gym()"``)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        said = missing(err, what, lang)
        if said is None:
            raise
        raise said from None


def missing(err: ModuleNotFoundError, what: str, lang: str | None = None) -> MissingModule | None:
    """``err`` as a ``MissingModule`` of ``what`` when the table knows its module, else None (a
    module the table does not know is a bug to show, not an install to ask for)."""
    if isinstance(err, MissingModule):
        return err
    if not err.name or _top(err.name) not in MODULES:
        return None
    return MissingModule(what_to_install(err.name, what, lang), name=_top(err.name))


def _top(module: str) -> str:
    return module.split(".")[0]
