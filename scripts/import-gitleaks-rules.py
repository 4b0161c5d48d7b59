#!/usr/bin/env python3
"""Converts gitleaks' rule set (config/gitleaks.toml, MIT) into the "gitleaks" entries of
rules/secrets.json, keeping every other entry as it is.

    python3 scripts/import-gitleaks-rules.py path/to/gitleaks.toml [gitleaks commit]

A rule is converted when its pattern fits the dialect both of our engines read (Rust `regex`
and JavaScript without the `u` flag): no look-around, no inline flags but `(?i)` (which makes the whole
rule `ignore_case`; `(?-i:...)` inside such a pattern becomes a plain group, so the rule matches a
little more), no POSIX or Unicode classes; `\\d` and `\\w` are written out as
ASCII classes. Path-only rules, the generic assignment rule (redact.rs has its own) and rules
that do not convert are listed on stderr and left out. Per-rule allowlists other than stop
words are dropped: redaction would rather remove a documented example key than keep it.
"""

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "rules" / "secrets.json"
SKIP = {"generic-api-key"}


def convert(p: str):
    """(pattern, ignore_case) in the shared dialect, or None with a reason."""
    ignore_case = "(?i)" in p
    if ignore_case:
        p = p.replace("(?i)", "").replace("(?-i:", "(?:")
    if re.search(r"\(\?(?![:])", p):
        return None, "inline flag, named group or look-around"
    if "[[:" in p or re.search(r"\\[pPzAQE]", p):
        return None, "POSIX/Unicode class or \\z/\\A/\\Q"
    if re.search(r"\\[DWSB]", p.replace("\\\\", "")):
        return None, "negated shorthand class"
    out, in_class, i = [], False, 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            e = p[i + 1]
            if e == "d":
                out.append("0-9" if in_class else "[0-9]")
            elif e == "w":
                out.append("A-Za-z0-9_" if in_class else "[A-Za-z0-9_]")
            else:
                out.append(c + e)
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            if p[i + 1 : i + 2] == "^":
                out.append("^")
                i += 1
            if p[i + 1 : i + 2] == "]":
                out.append("\\]")
                i += 1
        elif c == "]" and in_class:
            in_class = False
            out.append(c)
        elif c == "{" and not in_class and not re.match(r"\{[0-9]+(,[0-9]*)?\}", p[i:]):
            out.append("\\{")
        elif c == "}" and not in_class and not re.search(r"\{[0-9]+(,[0-9]*)?$", "".join(out)[-12:]):
            out.append("\\}")
        else:
            out.append(c)
        i += 1
    return ("".join(out), ignore_case), None


def groups(p: str) -> int:
    n, in_class, i = 0, False, 0
    while i < len(p):
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "(" and not in_class and p[i + 1 : i + 2] != "?":
            n += 1
        i += 1
    return n


def js_compiles(rules):
    src = "const r=JSON.parse(require('fs').readFileSync(0,'utf8'));const bad=[];for(const x of r){try{new RegExp(x.pattern,'gd'+(x.ignore_case?'i':''))}catch(e){bad.push(x.id+': '+e.message)}}console.log(JSON.stringify(bad))"
    out = subprocess.run(["node", "-e", src], input=json.dumps(rules), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    src = tomllib.load(open(sys.argv[1], "rb"))
    commit = sys.argv[2] if len(sys.argv) > 2 else "unknown"
    converted, skipped = [], []
    for r in src["rules"]:
        if "regex" not in r or r["id"] in SKIP:
            skipped.append((r["id"], "path rule or replaced by our own"))
            continue
        res, why = convert(r["regex"])
        if res is None:
            skipped.append((r["id"], why))
            continue
        pattern, ignore_case = res
        group = r.get("secretGroup", 1 if groups(pattern) else 0)
        rule = {"id": r["id"], "source": "gitleaks", "category": "api_key", "replace": "[API_KEY]", "pattern": pattern}
        if ignore_case:
            rule["ignore_case"] = True
        if group:
            rule["group"] = group
        if r.get("keywords"):
            rule["keywords"] = sorted({k.lower() for k in r["keywords"]})
        if "entropy" in r:
            rule["entropy"] = r["entropy"]
        stop = sorted({w.lower() for a in r.get("allowlists", []) for w in a.get("stopwords", [])})
        if stop:
            rule["stopwords"] = stop
        converted.append(rule)
    bad = {b.split(":")[0] for b in js_compiles(converted)}
    for b in bad:
        skipped.append((b, "JavaScript rejects it"))
    converted = [r for r in converted if r["id"] not in bad]
    data = json.loads(TARGET.read_text())
    data["rules"] = [r for r in data["rules"] if r.get("source") != "gitleaks"] + converted
    data["gitleaks_commit"] = commit
    TARGET.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    for i, why in skipped:
        print(f"skipped {i}: {why}", file=sys.stderr)
    print(f"{len(converted)} gitleaks rules converted, {len(skipped)} skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
