"""Reading a notebook file without trusting it: a regular file, under a size limit, JSON that
is a notebook (nbformat 4, or 3 converted to 4).  Nothing here runs notebook code.

Both the instructor's notebooks and the learners' submissions (``submissions``) are read here,
so a named pipe, a device, a huge or a malformed file costs the grader one NotebookError.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import nbformat

__all__ = ["NotebookError", "MAX_NOTEBOOK_BYTES", "read_regular_file", "notebook_from_bytes", "read_notebook"]

#: A submitted notebook larger than this is not read (status "invalid notebook").
MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024


class NotebookError(ValueError):
    """A notebook that cannot be read, or an instructor notebook with broken markers."""


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a plain file"


def read_regular_file(path: str | Path, max_bytes: int, *, dir_fd: int | None = None,
                      follow_links: bool = True) -> bytes:
    """The bytes of the regular file ``path`` (relative to ``dir_fd`` if given).

    It is opened without blocking (a named pipe would otherwise wait for a writer forever),
    checked on the open file (no race between the check and the read) and read up to
    ``max_bytes + 1`` bytes (a file that grows, or a device, cannot fill the memory).
    NotebookError naming the file for a symbolic link (unless ``follow_links``), anything
    but a regular file, a file larger than ``max_bytes``, or one that cannot be read."""
    name = Path(path).name
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as err:
        if err.errno == errno.ELOOP and not follow_links:
            raise NotebookError(f"{name} is a symbolic link: it was not read") from None
        raise NotebookError(f"{name} cannot be read ({err.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotebookError(f"{name} is not a regular file ({_kind(info.st_mode)}): it was not read")
        too_big = NotebookError(f"{name} is larger than {_size(max_bytes)}, the limit: it was not read")
        if info.st_size > max_bytes:
            raise too_big
        chunks, left = [], max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:  # it grew while being read
            raise too_big
        return b"".join(chunks)
    except OSError as err:
        raise NotebookError(f"{name} cannot be read ({err.strerror})") from None
    finally:
        os.close(fd)


def notebook_from_bytes(raw: bytes, name: str) -> nbformat.NotebookNode:
    """The notebook (nbformat 4; nbformat 3 is converted) in ``raw``, the contents of the file
    ``name``, without running anything; NotebookError if it is not one."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise NotebookError(f"{name} is not a readable notebook (not valid JSON: {err})") from None
    if not isinstance(data, dict):
        raise NotebookError(f"{name} is JSON but not a notebook (no list of cells)")
    major = data.get("nbformat", 4)
    # nbformat 3 keeps its cells in worksheets; it is converted below
    if not (major == 3 and isinstance(data.get("worksheets"), list)) and not isinstance(data.get("cells"), list):
        raise NotebookError(f"{name} is JSON but not a notebook (no list of cells)")
    if major not in (3, 4):
        raise NotebookError(f"{name} is a notebook of nbformat {major!r}; the grader reads nbformat 3 and 4")
    try:
        nb: nbformat.NotebookNode = nbformat.from_dict(data)
        if major != 4:
            nb = nbformat.convert(nb, 4)
        for cell in nb.cells:
            if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
                raise NotebookError(f"{name} has a cell of unknown type")
            source = cell.get("source", "")
            cell["source"] = "".join(source) if isinstance(source, list) else str(source)
            if not isinstance(cell.get("metadata"), dict):
                cell["metadata"] = nbformat.NotebookNode()
    except NotebookError:
        raise
    except Exception as err:  # a malformed structure, whatever nbformat makes of it
        raise NotebookError(f"{name} is not a valid notebook: {err}") from None
    return nb


def read_notebook(path: str | Path, max_bytes: int = MAX_NOTEBOOK_BYTES, *,
                  follow_links: bool = True) -> nbformat.NotebookNode:
    """Read a notebook file (nbformat 4, or 3 converted to 4) without running anything;
    NotebookError if it is not one, is not a regular file, is larger than ``max_bytes``, or is
    a symbolic link and ``follow_links`` is false (submissions: ``submissions.read_submission``)."""
    return notebook_from_bytes(read_regular_file(path, max_bytes, follow_links=follow_links), Path(path).name)
