"""Sync/async twins: the pairs a ``# twin: <name>`` marker declares, compared with the
async differences normalised away.

A marker is a comment on the lines right above a ``def`` or ``class`` (above its
decorators): ``# twin: AsyncSender._attempt`` names the other twin by its qualified name
in the same module. A statement (or a whole member of a twin class) that differs on purpose
carries ``# twin: differs (why)`` at the end of its first line or on the line above it; it
is left out of the comparison on that side.

Normalising: ``async def``/``async with``/``async for``/``await x`` become their sync
forms; ``Async``/``Sync`` leave class names (``AsyncSender`` and ``SyncSender`` are both
``Sender``); ``__aenter__``, ``__aexit__``, ``__aiter__``, ``__anext__`` and
``StopAsyncIteration`` become the sync ones; ``Awaitable[X]`` becomes ``X``; a name used on
one side only becomes the other side's name when that is it without an ``a`` prefix or an
``async`` part (``aclose`` -> ``close``, ``_arun_hooked`` -> ``_run_hooked``,
``_run_async`` -> ``_run_sync``, ``load_async_stream`` -> ``load_stream``). Docstrings
are not compared.
"""

from __future__ import annotations

import ast
import difflib
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_MARK = re.compile(r"#\s*twin:\s*(.*?)\s*$")
_DIFFERS = re.compile(r"differs\s*\((.+)\)$")
_DUNDERS = {
    "__aenter__": "__enter__",
    "__aexit__": "__exit__",
    "__aiter__": "__iter__",
    "__anext__": "__next__",
    "StopAsyncIteration": "StopIteration",
    "aiter": "iter",
    "anext": "next",
}
_CAMEL = re.compile(r"(?<![a-z])(?:Async|Sync)(?=[A-Z])")
_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True)
class Twin:
    """One side of a pair: where it is and its definition."""

    path: Path
    qualname: str
    node: _Def

    def where(self, root: Path) -> str:
        """``path:line qualname``, as a reader looks it up."""
        return f"{self.path.relative_to(root)}:{self.node.lineno} {self.qualname}"


@dataclass
class Module:
    """One parsed module: its definitions by qualified name and its twin markers."""

    path: Path
    defs: dict[str, _Def]
    names: dict[int, str]  # first line of a def/class -> the twin it names
    differs: set[int]  # first lines of statements that differ on purpose
    problems: list[str]


def _comments(source: str) -> Iterator[tuple[int, bool, str]]:
    """``(line, after code?, marker text)`` of each ``# twin:`` comment."""
    lines = source.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and (m := _MARK.match(tok.string)):
            row, col = tok.start
            yield row, bool(lines[row - 1][:col].strip()), m.group(1)


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    return min([d.lineno for d in decorators] + [node.lineno]) if decorators else node.lineno


def parse(path: Path, source: str | None = None) -> Module:
    """Parse ``path`` (or ``source`` as if it were there) and read its twin markers."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text)
    lines = text.splitlines()
    defs: dict[str, _Def] = {}
    starts: dict[int, int] = {}  # first line of a def (its decorators) -> its def line

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, _Def):
                defs[prefix + node.name] = node
                starts[_first_line(node)] = node.lineno
                walk(node.body, f"{prefix}{node.name}.")

    walk(tree.body, "")
    stmt_starts = {_first_line(n) for n in ast.walk(tree) if isinstance(n, ast.stmt)}
    names: dict[int, str] = {}
    differs: set[int] = set()
    problems: list[str] = []
    for row, trailing, text_ in _comments(text):
        target = row
        if not trailing:  # a comment line: it marks the next statement
            target = row + 1
            while target <= len(lines) and (
                not lines[target - 1].strip() or lines[target - 1].lstrip().startswith("#")
            ):
                target += 1
        where = f"{path}:{row}"
        if text_.startswith("differs"):
            if not _DIFFERS.match(text_):
                problems.append(f"{where}: write `# twin: differs (why)`, with the why")
            elif target not in stmt_starts:
                problems.append(f"{where}: `# twin: differs` marks no statement")
            else:
                differs.add(target)
        elif target in starts and not trailing:
            names[starts[target]] = text_
        else:
            problems.append(f"{where}: `# twin: {text_}` is not right above a def or class")
    return Module(path, defs, names, differs, problems)


def pairs(module: Module) -> tuple[list[tuple[Twin, Twin]], list[str]]:
    """The declared pairs of ``module`` (each once) and what is wrong with its markers."""
    problems = list(module.problems)
    by_line = {node.lineno: q for q, node in module.defs.items()}
    found: list[tuple[Twin, Twin]] = []
    seen: set[frozenset[str]] = set()
    for line, other in module.names.items():
        mine = by_line[line]
        where = f"{module.path}:{line} {mine}"
        if other not in module.defs:
            problems.append(f"{where}: its twin {other!r} is not defined in this module")
            continue
        back = module.names.get(module.defs[other].lineno)
        if back is not None and back != mine:
            problems.append(f"{where}: names {other} as its twin, which names {back}")
            continue
        key = frozenset((mine, other))
        if key not in seen:
            seen.add(key)
            found.append(
                (Twin(module.path, mine, module.defs[mine]),
                 Twin(module.path, other, module.defs[other]))
            )  # fmt: skip
    return found, problems


def _identifiers(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
        elif isinstance(n, _Def):
            out.add(n.name)
        elif isinstance(n, ast.arg | ast.keyword) and n.arg:
            out.add(n.arg)
    return {_CAMEL.sub("", _DUNDERS.get(i, i)) for i in out}


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _renames(mine: set[str], theirs: set[str]) -> dict[str, str]:
    """Names used only on this side that are the other side's name with an async mark."""
    out = {}
    for name in mine - theirs:
        bare = name.lstrip("_")
        under = name[: len(name) - len(bare)]
        candidates = [
            under + bare[1:] if bare.startswith("a") else "",
            under + bare[1:] if bare[:1] == "A" and bare[1:2].isupper() else "",  # AS -> S
            name.replace("_async", "_sync"),
            name.replace("async_", ""),
            name.replace("_async", ""),
        ]
        for candidate in candidates:
            if candidate and candidate != name and candidate in theirs:
                out[name] = candidate
                break
    return out


class _Normaliser(ast.NodeTransformer):
    def __init__(self, renames: dict[str, str], differs: set[int]) -> None:
        self.renames = renames
        self.differs = differs

    def name(self, name: str) -> str:
        name = _CAMEL.sub("", _DUNDERS.get(name, name))
        return self.renames.get(name, name)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                kept = [s for s in value if _first_line(s) not in self.differs]
                if kept and _is_docstring(kept[0]):
                    kept = kept[1:]  # a docstring is not compared
                # What is left out shows as ``...`` (a body cannot be empty).
                setattr(node, field, kept or [ast.Expr(ast.Constant(...))])
        return super().generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        new = ast.FunctionDef(**{f: getattr(node, f) for f in node._fields})
        return self.visit_FunctionDef(ast.copy_location(new, node))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self.name(node.name)
        return self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = self.name(node.name)
        return self.generic_visit(node)

    def visit_AsyncWith(self, node: ast.AsyncWith) -> ast.AST:
        return self.generic_visit(ast.copy_location(ast.With(node.items, node.body), node))

    def visit_AsyncFor(self, node: ast.AsyncFor) -> ast.AST:
        new = ast.For(node.target, node.iter, node.body, node.orelse)
        return self.visit_For(ast.copy_location(new, node))

    def visit_alias(self, node: ast.alias) -> ast.AST:
        node.name = self.name(node.name)
        return node

    def visit_For(self, node: ast.For) -> ast.AST:
        # ``for x in it: yield x`` is ``yield from it`` (an async generator has no yield from)
        self.generic_visit(node)
        body = node.body
        if (
            not node.orelse
            and len(body) == 1
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Yield)
            and isinstance(node.target, ast.Name)
            and isinstance(body[0].value.value, ast.Name)
            and body[0].value.value.id == node.target.id
        ):
            return ast.copy_location(ast.Expr(ast.YieldFrom(node.iter)), node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        # ``x.__next__()`` is ``next(x)``, ``x.__iter__()`` is ``iter(x)`` (after renaming)
        self.generic_visit(node)
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in ("__next__", "__iter__")
            and not node.args
            and not node.keywords
        ):
            name = ast.Name(func.attr.strip("_"), ast.Load())
            return ast.copy_location(ast.Call(name, [func.value], []), node)
        return node

    def visit_Await(self, node: ast.Await) -> ast.AST:
        return self.visit(node.value)

    def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
        node.is_async = 0
        return self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == "Awaitable":
            return self.visit(node.slice)
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.name(node.id)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        node.attr = self.name(node.attr)
        return self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self.name(node.arg)
        return self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        if node.arg:
            node.arg = self.name(node.arg)
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str) and node.value.isidentifier():
            node.value = self.name(node.value)  # "AsyncKimi" in a message is "Kimi"
        return node


def _normal(node: _Def, renames: dict[str, str], differs: set[int]) -> list[str]:
    """``node``'s normalised source, a line per item; ``[]`` when all of it differs."""
    import copy

    if _first_line(node) in differs:
        return []
    tree = _Normaliser(renames, differs).visit(copy.deepcopy(node))
    return ast.unparse(ast.fix_missing_locations(tree)).splitlines()


def compare(a: Twin, b: Twin, differs: set[int], root: Path) -> str:
    """A unified diff of what differs between the twins (undeclared), or ``""``."""
    ids_a, ids_b = _identifiers(a.node), _identifiers(b.node)
    ren_a, ren_b = _renames(ids_a, ids_b), _renames(ids_b, ids_a)
    if isinstance(a.node, ast.ClassDef) and isinstance(b.node, ast.ClassDef):
        # Member by member (by normalised name), then the rest of the class body in order.
        members_a = _members(a.node, ren_a, differs)
        members_b = _members(b.node, ren_b, differs)
        lines_a: list[str] = []
        lines_b: list[str] = []
        for name in sorted(set(members_a) | set(members_b)):
            lines_a += members_a.get(name, [f"    # no {name} here"])
            lines_b += members_b.get(name, [f"    # no {name} here"])
    else:
        lines_a = _normal(a.node, ren_a, differs)
        lines_b = _normal(b.node, ren_b, differs)
    if lines_a == lines_b:
        return ""
    diff = difflib.unified_diff(lines_a, lines_b, a.where(root), b.where(root), lineterm="", n=2)
    return "\n".join(diff)


def _members(
    node: ast.ClassDef, renames: dict[str, str], differs: set[int]
) -> dict[str, list[str]]:
    normaliser = _Normaliser(renames, differs)
    out: dict[str, list[str]] = {}
    rest: list[str] = []
    for i, member in enumerate(node.body):
        if _first_line(member) in differs:
            continue
        if i == 0 and _is_docstring(member):
            continue
        if isinstance(member, _Def):
            key = normaliser.name(member.name)
            # Overloads share a name: their lines follow each other.
            lines = ["    " + line for line in _normal(member, renames, differs)]
            out.setdefault(key, []).extend(lines)
        else:
            rest.extend(_normal_stmt(member, renames, differs))
    out[" class body"] = [f"class {normaliser.name(node.name)}:", *rest]
    return out


def _normal_stmt(node: ast.stmt, renames: dict[str, str], differs: set[int]) -> list[str]:
    import copy

    tree = _Normaliser(renames, differs).visit(copy.deepcopy(node))
    return ["    " + line for line in ast.unparse(ast.fix_missing_locations(tree)).splitlines()]


def by_convention(module: Module) -> list[tuple[str, str]]:
    """The pairs the names make (``X``/``AsyncX``, ``SyncX``/``AsyncX``, ``f``/``af``,
    ``_f``/``_af``, ``f_sync``/``f_async``), in one scope of ``module``."""
    out = []
    for q in module.defs:
        scope, _, name = q.rpartition(".")
        prefix = f"{scope}." if scope else ""
        bare = name.lstrip("_")
        under = name[: len(name) - len(bare)]
        if name.startswith("__"):
            continue  # ``__aenter__`` beside ``__enter__`` is paired by its class, if at all
        if isinstance(module.defs[q], ast.ClassDef):
            if not bare.startswith("Sync") and f"{prefix}{under}Sync{bare}" in module.defs:
                continue  # ``_Resource`` is the base of ``_SyncResource``/``_AsyncResource``
            sync = bare[4:] if bare.startswith("Sync") else bare
            candidates = [f"{under}Async{sync}"]
        else:
            candidates = [f"{under}a{bare}", name.replace("_sync", "_async")]
        for candidate in candidates:
            if candidate != name and prefix + candidate in module.defs:
                out.append((q, prefix + candidate))
    return out


def check(
    paths: list[Path], root: Path, sources: dict[Path, str] | None = None
) -> tuple[int, list[str]]:
    """Every declared pair under ``paths`` compared: (how many pairs, the failures). A pair
    the names make but no marker declares, and a ``differs`` outside every twin, fail too."""
    failures: list[str] = []
    count = 0
    for path in paths:
        module = parse(path, (sources or {}).get(path))
        found, problems = pairs(module)
        failures += problems
        declared = {frozenset((a.qualname, b.qualname)) for a, b in found}
        for a_name, b_name in by_convention(module):
            if frozenset((a_name, b_name)) not in declared:
                failures.append(
                    f"{path.relative_to(root)}: {a_name} and {b_name} look like sync/async "
                    f"twins: mark each `# twin: <the other>` (above its def or class)"
                )
        spans = [(t.node.lineno, t.node.end_lineno or 0) for pair in found for t in pair]
        for line in sorted(module.differs):
            if not any(lo <= line <= hi for lo, hi in spans):
                failures.append(
                    f"{path.relative_to(root)}:{line}: `# twin: differs` outside any twin"
                )
        for a, b in found:
            count += 1
            if diff := compare(a, b, module.differs, root):
                failures.append(
                    f"twins {a.where(root)} and {b.where(root)} are out of step "
                    "(make the change in both, or mark a deliberate difference "
                    f"`# twin: differs (why)` on both sides):\n{diff}"
                )
    return count, failures
