"""Code that is close: winnowed fingerprints of the learners' solution code, compared pair by pair.

The measure is the one of MOSS and copydetect (Schleimer, Wilkerson and Aiken, *Winnowing: local
algorithms for document fingerprinting*, SIGMOD 2003), over Python tokens:

1. The learner's solution cells are read as tokens (``tokenize``); comments, blank lines and
   layout are dropped, every name the learner binds (variables, parameters, their own functions
   and classes) becomes ``N``, every string ``S``, every number ``0``.  Names the learner did
   not choose (maumau's API, attributes, built-ins) stay: they say what the code does.
   Renaming variables or rewriting comments changes nothing.
2. Each function (and the code around them) is cut into overlapping runs of ``K`` tokens
   (k-grams), each hashed; winnowing keeps the smallest hash of every ``WINDOW`` consecutive
   ones.  The fingerprints of a learner's exercise are a *set*, so the order of the functions
   does not matter, and any match of ``K + WINDOW - 1`` tokens or more is always found.
3. What everybody has is no evidence: every k-gram of the code the student version gives
   (the template) and of the instructor's solution is removed, and so is a fingerprint found in
   the code of more than ``max(2, MAX_SHARE)`` of the class (as MOSS's ``-m``).
4. Two learners are close when they share at least ``MIN_SHARED`` of the fingerprints left, over
   all their exercises, and these are at least ``MIN_SCORE`` of the smaller one's.

Nothing here runs the learners' code, and nothing they wrote can stop it: code that does not
tokenize (a syntax error, binary junk) is read as words and signs instead; only the first
``MAX_CHARS`` of a learner's code for an exercise are read.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import io
import keyword
import re
import tokenize
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import NamedTuple

__all__ = ["K", "WINDOW", "MAX_CHARS", "MAX_TOKENS", "MAX_SHARE", "MIN_SHARED", "MIN_SCORE", "Token", "tokens",
           "bound_names", "normalised", "kgrams", "winnow", "Code", "fingerprint_code", "common_kgrams", "CodeMatch",
           "code_matches", "close_pairs"]

#: Tokens in a k-gram: a shared run shorter than this is noise (``return N . rank`` is in every solution).
K = 6
#: Hashes in a winnowing window: a shared run of K + WINDOW - 1 = 9 tokens or more is always found.
WINDOW = 4
#: What is read of one learner's code for one exercise (a huge cell costs no more than this): the
#: longest solution of the course is about 2,000 characters and 500 tokens.
MAX_CHARS = 50_000
MAX_TOKENS = 10_000
#: A fingerprint in the code of more than this share of the class (and more than 2) is common.
MAX_SHARE = 0.1
#: Flagged: at least this many distinctive fingerprints shared (about three lines of code) ...
MIN_SHARED = 12
#: ... and at least this share of the smaller learner's distinctive fingerprints.
MIN_SCORE = 0.5

_DROPPED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER, tokenize.TYPE_COMMENT}
# Python 3.12 splits an f-string into parts: its start is one string, the rest is dropped
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_REST = {getattr(tokenize, "FSTRING_MIDDLE", -1), getattr(tokenize, "FSTRING_END", -1)} - {-1}
_BUILTINS = frozenset(dir(builtins))
#: The end of a statement and a block's start and end, as one sign each (their layout is dropped).
_LAYOUT = {tokenize.NEWLINE: ";", tokenize.INDENT: "{", tokenize.DEDENT: "}"}
_WORDS = re.compile(r"[^\W\d]\w*|\d[\w.]*|\S")


class Token(NamedTuple):
    """A normalised token and the line (from 1) of the code it stands for."""

    text: str
    line: int


def _python_tokens(source: str) -> list[tuple[int, str, int]]:
    """(type, text, line) of ``source`` by Python's tokenizer; ValueError where it gives up."""
    found = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type not in _DROPPED and not (tok.type == tokenize.ERRORTOKEN and not tok.string.strip()):
                found.append((tok.type, tok.string, tok.start[0]))
                if len(found) >= MAX_TOKENS:
                    break
    except (tokenize.TokenError, SyntaxError, RecursionError, MemoryError) as err:
        raise ValueError(str(err)) from None
    return found


def _word_tokens(source: str) -> list[tuple[int, str, int]]:
    """(type, text, line) of ``source`` read as words, numbers and signs: code Python cannot tokenize."""
    found, line, at = [], 1, 0
    for match in _WORDS.finditer(source):
        line += source.count("\n", at, match.start())
        at = match.start()
        text = match.group()
        kind = tokenize.NAME if text[0].isalpha() or text[0] == "_" else \
            tokenize.NUMBER if text[0].isdigit() else tokenize.OP
        found.append((kind, text, line))
        if len(found) >= MAX_TOKENS:
            break
    return found


def tokens(source: str) -> list[tuple[int, str, int]]:
    """The tokens of ``source`` (at most MAX_TOKENS of its first MAX_CHARS) as (type, text, line): Python's,
    else words and signs."""
    source = source[:MAX_CHARS]
    try:
        return _python_tokens(source)
    except ValueError:
        return _word_tokens(source)


def bound_names(sources: Iterable[str]) -> set[str] | None:
    """The names the code binds itself (assigned, parameters, its functions, classes, imports as,
    loop and comprehension variables, ``self.x`` attributes); None when a source does not parse
    (then every name counts as the learner's but keywords, built-ins and attributes)."""
    names: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source[:MAX_CHARS])
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return None
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return names


def _text(kind: int, text: str, theirs: set[str] | None, after_dot: bool) -> str:
    """A token as the measure sees it: the learner's names N, strings S, numbers 0, the rest as written."""
    if kind == tokenize.NAME and not keyword.iskeyword(text):
        if theirs is None:
            return text if after_dot or text in _BUILTINS else "N"
        return "N" if text in theirs else text
    if kind == tokenize.STRING:
        return "S"
    if kind == tokenize.NUMBER:
        return "0"
    return text


def normalised(source: str, theirs: set[str] | None) -> list[Token]:
    """The tokens of ``source`` normalised (``theirs``: the names its author bound, ``bound_names``).
    An f-string is one string; a docstring, like any string, is S."""
    out: list[Token] = []
    previous = ""
    for kind, text, line in tokens(source):
        after_dot = previous == "."
        if kind in _FSTRING_REST:
            continue
        kind = tokenize.STRING if kind == _FSTRING_START else kind
        out.append(Token(_LAYOUT.get(kind) or _text(kind, text, theirs, after_dot), line))
        previous = text
    return out


def _chunks(toks: list[Token]) -> list[list[Token]]:
    """``toks`` cut before each ``def`` and ``class``: no k-gram spans two functions, so reordering
    them changes no fingerprint."""
    chunks: list[list[Token]] = [[]]
    for tok in toks:
        if tok.text in ("def", "class", "@") and chunks[-1]:
            chunks.append([])
        chunks[-1].append(tok)
    return [c for c in chunks if c]


def _hash(words: Iterable[str]) -> int:
    """A k-gram's hash, the same in every process (Python's ``hash`` of a string is not)."""
    joined = "\x1f".join(words).encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(joined, digest_size=8).digest(), "big")


def kgrams(toks: list[Token]) -> list[tuple[int, int]]:
    """(hash, index of its first token) of every k-gram of ``toks`` (one for a shorter run)."""
    if not toks:
        return []
    if len(toks) < K:
        return [(_hash(t.text for t in toks), 0)]
    words = [t.text for t in toks]
    return [(_hash(words[i:i + K]), i) for i in range(len(toks) - K + 1)]


def winnow(hashes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The fingerprints of ``hashes``: the smallest of each WINDOW consecutive (the rightmost of
    equal ones), each once (robust winnowing)."""
    if len(hashes) <= WINDOW:
        return [min(hashes, key=lambda h: (h[0], -h[1]))] if hashes else []
    chosen: list[tuple[int, int]] = []
    for start in range(len(hashes) - WINDOW + 1):
        best = min(hashes[start:start + WINDOW], key=lambda h: (h[0], -h[1]))
        if not chosen or chosen[-1] != best:
            chosen.append(best)
    return chosen


@dataclass
class Code:
    """One learner's code for one exercise: its text, and its fingerprints with the lines each covers."""

    text: str
    prints: dict[int, set[int]] = field(default_factory=dict)


def _all_kgrams(sources: Iterable[str]) -> set[int]:
    theirs = bound_names(sources := list(sources))
    return {h for s in sources for chunk in _chunks(normalised(s, theirs)) for h, _ in kgrams(chunk)}


def common_kgrams(sources: Iterable[str]) -> set[int]:
    """Every k-gram of ``sources`` (the template the student version gives, the instructor's solution):
    the code every learner has or would write, no evidence of copying."""
    return _all_kgrams(sources)


def fingerprint_code(sources: list[str], common: set[int]) -> Code:
    """The fingerprints of one learner's solution cells for one exercise, without ``common`` ones."""
    text = "\n\n".join(sources)[:MAX_CHARS]
    prints: dict[int, set[int]] = {}
    theirs = bound_names(sources)
    offset = 0
    for source in sources:
        source = source[:MAX_CHARS]
        for chunk in _chunks(normalised(source, theirs)):
            for h, at in winnow(kgrams(chunk)):
                if h not in common:
                    span = chunk[at:at + K]
                    prints.setdefault(h, set()).update(range(offset + span[0].line, offset + span[-1].line + 1))
        offset += source.count("\n") + 2  # the cells are shown joined by a blank line
    return Code(text, prints)


@dataclass(frozen=True)
class CodeMatch:
    """Two learners' code for one exercise: the distinctive fingerprints they share, of how many
    (the smaller one's), and the lines of each learner's code that the shared ones cover."""

    exercise: str
    shared: int
    of: int
    lines: tuple[tuple[int, ...], tuple[int, ...]]
    code: tuple[str, str]


def _distinctive(codes: Mapping[str, Code]) -> dict[str, set[int]]:
    """Each learner's fingerprints found in the code of at most max(2, MAX_SHARE of) the learners."""
    owners: dict[int, int] = defaultdict(int)
    for code in codes.values():
        for h in code.prints:
            owners[h] += 1
    cap = max(2, int(MAX_SHARE * len(codes)))
    return {who: {h for h in code.prints if owners[h] <= cap} for who, code in codes.items()}


def code_matches(codes: Mapping[str, Mapping[str, Code]], kept: Mapping[str, Mapping[str, set[int]]] | None = None,
                 ) -> dict[tuple[str, str], list[CodeMatch]]:
    """By pair of learners (in name order): their exercises whose code shares distinctive fingerprints.
    ``codes``: by exercise, by learner; ``kept``: their distinctive fingerprints, if already known."""
    found: dict[tuple[str, str], list[CodeMatch]] = defaultdict(list)
    for exercise, by_learner in sorted(codes.items()):
        mine = kept[exercise] if kept is not None else _distinctive(by_learner)
        holders: dict[int, list[str]] = defaultdict(list)
        for who in sorted(mine):
            for h in mine[who]:
                holders[h].append(who)
        pairs: dict[tuple[str, str], set[int]] = defaultdict(set)
        for h, owners in holders.items():
            for pair in combinations(owners, 2):  # at most max(2, MAX_SHARE) holders: few pairs
                pairs[pair].add(h)
        for (a, b), shared in pairs.items():
            lines = tuple(tuple(sorted({n for h in shared for n in by_learner[w].prints[h]})) for w in (a, b))
            found[(a, b)].append(CodeMatch(exercise, len(shared), min(len(mine[a]), len(mine[b])),
                                           (lines[0], lines[1]), (by_learner[a].text, by_learner[b].text)))
    return found


def close_pairs(codes: Mapping[str, Mapping[str, Code]]) -> dict[tuple[str, str], tuple[float, list[CodeMatch]]]:
    """The pairs whose code is close (MIN_SHARED and MIN_SCORE over all their exercises): their
    score (shared of the smaller one's, 0 to 1) and the exercises that match, closest first."""
    kept = {e: _distinctive(by) for e, by in codes.items()}
    out: dict[tuple[str, str], tuple[float, list[CodeMatch]]] = {}
    for (a, b), matches in code_matches(codes, kept).items():
        shared = sum(m.shared for m in matches)
        # the base counts every exercise both handed in, not only those that match
        base = sum(min(len(k[a]), len(k[b])) for k in kept.values() if a in k and b in k)
        if shared >= MIN_SHARED and base and shared / base >= MIN_SCORE:
            out[(a, b)] = (shared / base, sorted(matches, key=lambda m: (-m.shared, m.exercise)))
    return out
