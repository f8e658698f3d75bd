#!/usr/bin/env python3
"""Checks that FlowCore.docc/FlowCore.md lists every public top-level symbol of FlowCore in a topic group, so a
new public type gets a place on the landing page instead of an automatic "Structures" group. Reads the symbol
graph the DocC step extracted (run it first). Usage: scripts/check-docc-topics.py"""
import glob, json, os, re, sys

os.chdir(os.path.join(os.path.dirname(__file__), ".."))
graphs = glob.glob(".build/*/extracted-symbols/*/FlowCore/FlowCore.symbols.json")
if not graphs:
    sys.exit("no FlowCore symbol graph under .build: run the DocC step first")
symbols = json.load(open(graphs[0], encoding="utf-8"))["symbols"]
public = {s["pathComponents"][0] for s in symbols if len(s["pathComponents"]) == 1}
landing = open("Sources/FlowCore/FlowCore.docc/FlowCore.md", encoding="utf-8").read()
listed = set(re.findall(r"^- ``([A-Za-z]+)``$", landing, re.M))
missing, stale = sorted(public - listed), sorted(listed - public)
if missing or stale:
    sys.exit(f"FlowCore.md topics: not listed {missing}, not public {stale}")
print(f"FlowCore.md lists all {len(public)} public top-level symbols of FlowCore in its topic groups")
