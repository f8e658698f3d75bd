#!/usr/bin/env python3
"""Checks schemas/flow.schema.json against the schema corpus under both JSON Schema drafts.

Every document under Tests/SchemaCorpus/valid/ must be valid and every document under
Tests/SchemaCorpus/invalid/ must be invalid, under Draft 2020-12 (what the schema declares) and under
Draft 7 (what the VS Code YAML extension applies). The two drafts must agree on every document. Documents
in each `--flows DIR` must be valid too.

Also checks that the schema is a valid 2020-12 schema and uses only keywords that mean the same under
Draft 7 (no prefixItems, unevaluated*, $dynamicRef, dependentSchemas, ... and no validating keywords beside
a $ref, which Draft 7 ignores).

An invalid document starts with `# invalid: WHAT IS WRONG`; a line `# error-at: /json/pointer` may say
where the violation is, and then every error both validators report must lie at or under that pointer.

YAML is read with the YAML 1.2 core schema, like the flow loader: only true/false are booleans, `7:30` and
`2024-01-01` are strings, duplicate keys are errors, mapping keys are strings.

Usage: python3 scripts/schema_agreement.py [--flows DIR ...] [--schema PATH] [--corpus DIR] [-v]
Needs only jsonschema and PyYAML.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

try:
    import jsonschema
    import yaml
except ImportError as error:  # pragma: no cover
    sys.exit(f"schema_agreement: {error}; install with `pip install jsonschema pyyaml`")

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCHEMA = ROOT / "schemas" / "flow.schema.json"
DEFAULT_CORPUS = ROOT / "Tests" / "SchemaCorpus"
DOCUMENT_SUFFIXES = {".yaml", ".yml", ".json"}
MODELINE = "# yaml-language-server: $schema="


# --------------------------------------------------------------------------------------------------
# YAML 1.2 core schema loader


class CoreSchemaLoader(yaml.SafeLoader):
    """A SafeLoader that resolves plain scalars by the YAML 1.2 core schema and rejects duplicate keys."""


# Start from no implicit resolvers at all (SafeLoader's are YAML 1.1: yes/no/on/off booleans,
# sexagesimal ints, timestamps, `=`, `<<` merge keys) and add the core schema's.
CoreSchemaLoader.yaml_implicit_resolvers = {}
CoreSchemaLoader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
CoreSchemaLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
CoreSchemaLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    list("-+0123456789"))
CoreSchemaLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
               r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+.0123456789"))


def _construct_core_bool(loader: yaml.SafeLoader, node: yaml.Node) -> bool:
    return loader.construct_scalar(node).lower() == "true"


def _construct_core_int(loader: yaml.SafeLoader, node: yaml.Node) -> int:
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def _construct_core_float(loader: yaml.SafeLoader, node: yaml.Node) -> float:
    text = loader.construct_scalar(node).lower()
    if text.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    if text == ".nan":
        return float("nan")
    return float(text)


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict:
    if not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(None, None, "expected a mapping", node.start_mark)
    result: dict = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, "a key must be a scalar", key_node.start_mark)
        key = key_node.value  # keys are strings (JSON's data model), spelled as written
        if key in result:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, f"duplicate key '{key}'", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
    return result


CoreSchemaLoader.add_constructor("tag:yaml.org,2002:bool", _construct_core_bool)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", _construct_core_int)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:float", _construct_core_float)
CoreSchemaLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)


def load_document(path: Path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return json.loads(text)
    documents = list(yaml.load_all(text, Loader=CoreSchemaLoader))
    if len(documents) != 1:
        raise ValueError(f"expected exactly one YAML document, found {len(documents)}")
    return documents[0]


# --------------------------------------------------------------------------------------------------
# Draft 7 compatibility of the schema itself

# Keywords whose meaning differs between Draft 7 and 2020-12, or that only one of them knows.
FORBIDDEN_KEYWORDS = {
    "prefixItems", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor",
    "$recursiveRef", "$recursiveAnchor", "dependentSchemas", "dependentRequired", "dependencies",
    "$anchor", "additionalItems", "minContains", "maxContains", "contentSchema", "definitions", "$vocabulary",
}
# Keywords that may stand beside a $ref: annotations, which no validator acts on.
REF_SIBLINGS = {"$ref", "description", "title", "examples", "default", "$comment", "deprecated"}
SCHEMA_MAPS = {"properties", "patternProperties", "$defs"}
SCHEMA_VALUES = {"items", "additionalProperties", "not", "if", "then", "else", "propertyNames", "contains"}
SCHEMA_LISTS = {"allOf", "anyOf", "oneOf"}


def draft7_compatibility_problems(schema, pointer: str = "#") -> list[str]:
    problems: list[str] = []
    if isinstance(schema, bool):
        return problems
    if not isinstance(schema, dict):
        return [f"{pointer}: a schema must be an object or a boolean"]
    for keyword in sorted(FORBIDDEN_KEYWORDS & schema.keys()):
        problems.append(f"{pointer}: keyword '{keyword}' does not mean the same in Draft 7 and 2020-12")
    if "$ref" in schema:
        for keyword in sorted(schema.keys() - REF_SIBLINGS):
            problems.append(f"{pointer}: '{keyword}' beside '$ref' is ignored by Draft 7")
    if isinstance(schema.get("items"), list):
        problems.append(f"{pointer}: 'items' as an array is a tuple in Draft 7 but invalid in 2020-12")
    for keyword, value in schema.items():
        if keyword in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                problems += draft7_compatibility_problems(sub, f"{pointer}/{keyword}/{name}")
        elif keyword in SCHEMA_VALUES and not isinstance(value, list):
            problems += draft7_compatibility_problems(value, f"{pointer}/{keyword}")
        elif keyword in SCHEMA_LISTS and isinstance(value, list):
            for index, sub in enumerate(value):
                problems += draft7_compatibility_problems(sub, f"{pointer}/{keyword}/{index}")
    return problems


def undescribed_properties(schema: dict) -> list[str]:
    """Properties without a description of their own or on the definition they refer to (editors show it)."""
    problems: list[str] = []

    def described(sub) -> bool:
        if not isinstance(sub, dict):
            return True
        if "description" in sub:
            return True
        target = sub.get("$ref", "")
        if target.startswith("#/$defs/"):
            return "description" in schema.get("$defs", {}).get(target[len("#/$defs/"):], {})
        return False

    def walk(node, pointer: str) -> None:
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                if not described(sub):
                    problems.append(f"{pointer}/properties/{name}: no description")
            for key, value in node.items():
                # `properties` under if/then/else narrow a property described where it is declared.
                if key not in {"if", "then", "else"} and isinstance(value, (dict, list)):
                    walk(value, f"{pointer}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{pointer}/{index}")

    walk(schema, "#")
    return problems


# --------------------------------------------------------------------------------------------------
# Checking documents


def pointer_of(path) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def is_under(pointer: str, prefix: str) -> bool:
    return pointer == prefix or pointer.startswith(prefix.rstrip("/") + "/")


def header(path: Path) -> list[str]:
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return lines


def check_document(path: Path, expect_valid: bool, validators, corpus: bool, verbose: bool) -> list[str]:
    """Returns the problems with one document (empty when it behaves as its folder says)."""
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    problems: list[str] = []
    comments = header(path)
    expected_at = None
    if corpus and path.suffix != ".json":
        if expect_valid and not any(line.startswith(MODELINE) for line in comments[:1]):
            problems.append(f"{name}: the first line must be the editor hint `{MODELINE}...`")
        if not expect_valid:
            if not comments or not comments[0].startswith("# invalid: "):
                problems.append(f"{name}: the first line must be `# invalid: WHAT IS WRONG`")
            for line in comments:
                if line.startswith("# error-at: "):
                    expected_at = line[len("# error-at: "):].strip()
    try:
        document = load_document(path)
    except (yaml.YAMLError, ValueError) as error:
        return problems + [f"{name}: cannot be read: {error}".replace("\n", " ")]

    verdicts = {}
    for draft, validator in validators.items():
        errors = list(validator.iter_errors(document))
        verdicts[draft] = not errors
        if verbose:
            for error in errors:
                print(f"  {name} [{draft}] {pointer_of(error.absolute_path) or '/'}: {error.message}")
        if expected_at is not None:
            for error in errors:
                # A oneOf/anyOf failure is reported where the alternatives start; its cause is the
                # most relevant error inside the alternative that came closest.
                at = pointer_of(jsonschema.exceptions.best_match([error]).absolute_path)
                if not is_under(at, expected_at):
                    problems.append(f"{name}: [{draft}] error at '{at or '/'}' is not under "
                                    f"'# error-at: {expected_at}': {error.message}")
    if len(set(verdicts.values())) > 1:
        said = ", ".join(f"{d} says {'valid' if v else 'invalid'}" for d, v in verdicts.items())
        problems.append(f"{name}: DISAGREEMENT: {said}")
    for draft, valid in verdicts.items():
        if valid != expect_valid:
            problems.append(f"{name}: {draft} says {'valid' if valid else 'invalid'}, "
                            f"expected {'valid' if expect_valid else 'invalid'}")
    return problems


def documents_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in DOCUMENT_SUFFIXES)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schema", type=Path, default=DEFAULT_SCHEMA, help="the schema (default: %(default)s)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="folder with valid/ and invalid/ (default: %(default)s)")
    parser.add_argument("--flows", type=Path, action="append", default=[], metavar="DIR",
                        help="a folder of flows that must all be valid (repeatable)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every validation error")
    args = parser.parse_args(argv)

    schema = json.loads(args.schema.read_text(encoding="utf-8"))
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        print(f"{args.schema}: not a valid schema: {error.message}", file=sys.stderr)
        return 1
    problems = [f"{args.schema.name}: {p}"
                for p in draft7_compatibility_problems(schema) + undescribed_properties(schema)]

    validators = {
        "2020-12": jsonschema.Draft202012Validator(schema),
        "draft-07": jsonschema.Draft7Validator(schema),
    }
    work: list[tuple[Path, bool, bool]] = []
    for sub, expect_valid in (("valid", True), ("invalid", False)):
        folder = args.corpus / sub
        if not folder.is_dir():
            problems.append(f"{folder}: missing")
            continue
        work += [(p, expect_valid, True) for p in documents_in(folder)]
    for folder in args.flows:
        if not folder.is_dir():
            problems.append(f"{folder}: not a folder")
            continue
        work += [(p, True, False) for p in documents_in(folder)]

    disagreements = 0
    for path, expect_valid, corpus in work:
        found = check_document(path, expect_valid, validators, corpus, args.verbose)
        disagreements += sum("DISAGREEMENT" in p for p in found)
        problems += found

    for problem in problems:
        print(problem, file=sys.stderr)
    valid_count = sum(1 for _, v, _ in work if v)
    print(f"schema agreement: {len(work)} documents ({valid_count} valid, {len(work) - valid_count} invalid), "
          f"{disagreements} disagreements, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
