#!/usr/bin/env python3
"""Prints the loops in the folder-level include graph of core/, dialects/ and backends/; exits 1 if any.

Folder A depends on folder B when a file in A includes a file in B. A loop (A reaches B and B
reaches A) means neither folder can be read, built or replaced without the other. An include of a
file in an enclosing folder (core/array -> core/backend.hpp) is the layer below and is not counted.
"""
import os
import re
import sys

ROOTS = ("core", "dialects", "backends")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def source_files(repo):
    for root in ROOTS:
        for directory, _, names in os.walk(os.path.join(repo, root)):
            for name in names:
                if name.endswith((".cpp", ".hpp", ".h")):
                    yield os.path.relpath(os.path.join(directory, name), repo)


def resolve(repo, including, included):
    """The repository-relative path of an include, or None when it is outside ROOTS."""
    for base in (os.path.dirname(including), ""):
        candidate = os.path.normpath(os.path.join(base, included))
        if os.path.isfile(os.path.join(repo, candidate)):
            return candidate if candidate.split(os.sep)[0] in ROOTS else None
    return None


def is_within(folder, ancestor):
    return folder == ancestor or folder.startswith(ancestor + os.sep)


def folder_edges(repo):
    """{(from folder, to folder): an example 'file -> included file'}."""
    edges = {}
    for path in source_files(repo):
        with open(os.path.join(repo, path), encoding="utf-8") as source:
            text = source.read()
        for included in INCLUDE.findall(text):
            target = resolve(repo, path, included)
            if target is None:
                continue
            source_folder, target_folder = os.path.dirname(path), os.path.dirname(target)
            if is_within(source_folder, target_folder):
                continue
            edges.setdefault((source_folder, target_folder), f"{path} -> {target}")
    return edges


def strongly_connected(nodes, successors):
    """Tarjan's algorithm: the components with more than one folder."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in successors.get(node, ()):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return components


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    edges = folder_edges(repo)
    successors = {}
    for source_folder, target_folder in edges:
        successors.setdefault(source_folder, set()).add(target_folder)
    nodes = {folder for edge in edges for folder in edge}
    components = strongly_connected(nodes, successors)
    for component in components:
        print("folder loop: " + ", ".join(component))
        members = set(component)
        for (source_folder, target_folder), example in sorted(edges.items()):
            if source_folder in members and target_folder in members:
                print(f"  {source_folder} -> {target_folder}: {example}")
    if components:
        return 1
    print(f"no folder loops among {len(nodes)} folders of {', '.join(ROOTS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
