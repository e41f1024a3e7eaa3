"""Two import-linter contract types the built-in ones do not express (pyproject.toml's
[tool.importlinter] names them; `make lint` runs `lint-imports`).

- `acyclic_modules`: no module of the listed packages reaches itself through imports, across
  apps too (lobby -> games -> lobby counts). import-linter's graph (grimp) records every
  import statement, those inside function bodies included, so an import moved into a
  function to dodge an import-order error still closes the circle here.
- `allowed_imports`: a module may import, of the project's own packages, only its own
  subtree and the allowed modules (a game's rules: only games.rules.base).
"""
from __future__ import annotations

from collections import deque

import grimp
from importlinter.application import contract_utils, output
from importlinter.application.contract_utils import AlertLevel
from importlinter.domain import fields, helpers
from importlinter.domain.contract import Contract, ContractCheck


def _line_numbers(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    details = graph.get_import_details(importer=importer, imported=imported)
    return ", ".join(str(detail["line_number"]) for detail in details) or "?"


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def strongly_connected(modules: set[str], imports: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the groups of two or more modules that reach each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(imports[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, pending = work[-1]
            step = next(pending, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(imports[step]))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def shortest_circle(start: str, group: set[str], imports: dict[str, set[str]]) -> list[str]:
    """The shortest path start -> ... -> start inside one strongly connected group."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for imported in sorted(imports[module] & group):
            if imported == start:
                path = [module]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if imported not in came_from:
                came_from[imported] = module
                queue.append(imported)
    raise AssertionError(f"{start} is in no circle")  # unreachable for a strongly connected group


class AcyclicModulesContract(Contract):
    type_name = "acyclic_modules"

    packages = fields.ListField(subfield=fields.StringField())
    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)
    unmatched_ignore_imports_alerting = fields.EnumField(AlertLevel, default=AlertLevel.ERROR)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph, ignore_imports=self.ignore_imports,  # type: ignore[arg-type]
            unmatched_alerting=self.unmatched_ignore_imports_alerting)  # type: ignore[arg-type]
        modules = {m for m in graph.modules
                   if any(_within(m, p) for p in self.packages) and ".migrations" not in m}  # type: ignore[attr-defined]
        imports = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
        circles = []
        for group in strongly_connected(modules, imports):
            path = shortest_circle(group[0], set(group), imports)
            circles.append({"modules": group, "path": [(a, b, _line_numbers(graph, a, b))
                                                       for a, b in zip(path, path[1:], strict=False)]})
        return ContractCheck(kept=not circles, warnings=list(removal.warnings),
                             ignored_import_count=removal.ignored_import_count, metadata={"circles": circles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for circle in check.metadata["circles"]:
            output.print_error(f"{len(circle['modules'])} modules import each other in a circle: "
                               f"{', '.join(circle['modules'])}", bold=False)
            output.new_line()
            for importer, imported, lines in circle["path"]:
                output.print_error(f"- {importer} -> {imported} (l.{lines})", bold=False)
            output.new_line()


class AllowedImportsContract(Contract):
    type_name = "allowed_imports"

    source_modules = fields.SetField(subfield=fields.ModuleExpressionField())
    allowed_modules = fields.SetField(subfield=fields.ModuleExpressionField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        roots = self.session_options["root_packages"]
        allowed = [m.name for m in helpers.module_expressions_to_modules(graph, self.allowed_modules or [])]
        sources = sorted(m.name for m in helpers.module_expressions_to_modules(
            graph, self.source_modules, raise_if_unmatched=True))  # type: ignore[arg-type]
        illegal = []
        for source in sources:
            for importer in sorted({source} | graph.find_descendants(source)):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    own = any(_within(imported, root) for root in roots)
                    if own and not _within(imported, source) and not any(_within(imported, a) for a in allowed):
                        illegal.append((importer, imported, _line_numbers(graph, importer, imported)))
        return ContractCheck(kept=not illegal, warnings=[], metadata={"illegal": illegal})

    def render_broken_contract(self, check: ContractCheck) -> None:
        allowed = ", ".join(sorted(m.expression for m in self.allowed_modules or [])) or "nothing"  # type: ignore
        output.print_error(f"Only their own package and {allowed} may be imported here:", bold=False)
        output.new_line()
        for importer, imported, lines in check.metadata["illegal"]:
            output.print_error(f"- {importer} -> {imported} (l.{lines})", bold=False)
        output.new_line()
