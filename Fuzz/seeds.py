#!/usr/bin/env python3
"""Writes each fuzz target's seed corpus from the project's own files into DIR/<target>/.

Usage: Fuzz/seeds.py DIR [TARGET...]

yaml, flow, schema: flows/, Tests/SchemaCorpus, Tests/LintFixtures, Tests/Scenarios, schemas/
json, schema, store: schemas/*.json and small JSON documents
scenario: Tests/Scenarios
expression: every expression-valued string in flows/ and Tests/SchemaCorpus (keys such as when, skipIf,
value, initial, valid, prefill, language, enabled), plus string literals of Tests/FlowCoreTests/Expression*.swift
Every target also gets the regression inputs in Tests/FuzzRegressions/<target>/.
"""
import hashlib, os, re, shutil, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1]
all_targets = ["yaml", "json", "expression", "schema", "flow", "scenario", "store"]
seeds = {t: set() for t in all_targets}
targets = sys.argv[2:] or all_targets  # only these directories are rewritten

def files(*dirs, ext=(".yaml", ".yml", ".json")):
    for d in dirs:
        for base, _, names in os.walk(os.path.join(root, d)):
            for n in sorted(names):
                if n.endswith(ext):
                    yield os.path.join(base, n)

def data(path):
    with open(path, "rb") as f:
        return f.read()

documents = [data(p) for p in files("flows", "Tests/SchemaCorpus", "Tests/LintFixtures", "Tests/Scenarios", "schemas")]
for d in documents:
    seeds["yaml"].add(d)
    seeds["flow"].add(d)
    seeds["schema"].add(d)
for p in files("schemas"):
    seeds["json"].add(data(p))
for p in files("Tests/Scenarios"):
    seeds["scenario"].add(data(p))
small_json = [b'{}', b'{"onboardingStep": 3, "SelectedLanguage": "ja", "done": true, "list": [1, "a", null]}',
              b'[1, 2.5, -0, 1e3, "\\u00e9\\ud83d\\ude00", {"a": {"b": []}}]', b'{"a": 9223372036854775807}']
for j in small_json:
    seeds["json"].add(j)
    seeds["store"].add(j)
    seeds["schema"].add(j)

keys = ("when", "skipIf", "value", "initial", "valid", "prefill", "language", "enabled", "visible", "if",
        "hidden", "unless", "condition", "rawValue", "args")
try:
    import yaml

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, str) and (k in keys or any(c in v for c in "=<>!&|?(")):
                    seeds["expression"].add(v.encode())
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for p in files("flows", "Tests/SchemaCorpus", ext=(".yaml", ".yml")):
        try:
            walk(yaml.safe_load(data(p)))
        except yaml.YAMLError:
            pass
except ImportError:  # without PyYAML: the `key: value` lines
    line = re.compile(r"^\s*-?\s*(%s):\s*(.+?)\s*$" % "|".join(keys))
    for p in files("flows", "Tests/SchemaCorpus", ext=(".yaml", ".yml")):
        for text in data(p).decode("utf-8", "replace").splitlines():
            m = line.match(text)
            if m:
                seeds["expression"].add(m.group(2).strip("'").encode())
literal = re.compile(r'(?:parse|Expression)\(\s*"((?:[^"\\]|\\.)*)"')
for p in files("Tests/FlowCoreTests", ext=(".swift",)):
    for m in literal.finditer(data(p).decode()):
        seeds["expression"].add(m.group(1).replace('\\"', '"').replace("\\\\", "\\").encode())

for t in targets:
    regressions = os.path.join(root, "Tests/FuzzRegressions", t)
    if os.path.isdir(regressions):
        for n in sorted(os.listdir(regressions)):
            seeds[t].add(data(os.path.join(regressions, n)))
    d = os.path.join(out, t)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for s in seeds[t]:
        with open(os.path.join(d, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)
    print(f"seeds: {t}: {len(seeds[t])}", file=sys.stderr)
