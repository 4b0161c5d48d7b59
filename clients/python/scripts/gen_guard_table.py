"""Writes src/knowhub/_guard_table.py: the prompt-injection patterns of the hub's screen, read
from crates/knowhub-core/src/guard.rs, so the Python screen runs the table the server and the
OpenClaw plugin run. `--check` exits 1 when the file on disk differs (the tests run it when the
repository is there)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUARD = ROOT.parent.parent / "crates" / "knowhub-core" / "src" / "guard.rs"
OUT = ROOT / "src" / "knowhub" / "_guard_table.py"


def generate() -> str:
    rust = GUARD.read_text(encoding="utf-8")
    names = dict(re.findall(r'pub const ([A-Z_]+): &str = "([a-z_]+)";', rust))
    start = rust.index("const SOURCES: &[(&str, &str)] = &[")
    end = rust.index("\n];", start)
    body = rust[start:end]
    rows = re.findall(r'\(\s*([A-Z_]+),\s*r(#*)"(.*?)"\2\s*,?\s*\)', body, flags=re.S)
    if not rows:
        raise SystemExit("gen_guard_table: no patterns found in guard.rs")
    lines = [
        '"""The prompt-injection patterns of the hub\'s screen (`(category, pattern)`, Rust regex syntax).',
        "",
        "Generated from crates/knowhub-core/src/guard.rs by scripts/gen_guard_table.py: do not edit.",
        '"""',
        "",
        "SOURCES: list[tuple[str, str]] = [",
    ]
    for const, _, pattern in rows:
        lines.append(f"    ({names[const]!r}, {pattern!r}),")
    lines += ["]", ""]
    # The patterns of the unconsented-destruction check (`unconsented_destruction`).
    one = re.search(r'const DESTRUCTIVE: &str = r(#*)"(.*?)"\1;', rust, flags=re.S)
    if not one:
        raise SystemExit("gen_guard_table: DESTRUCTIVE not found in guard.rs")
    lines += [f"DESTRUCTIVE = {one.group(2)!r}", ""]
    for name in ("UNCONSENTED", "FORBIDDEN"):
        start = rust.index(f"const {name}: &[&str] = &[")
        body = rust[start : rust.index("\n];", start)]
        pats = [p for _, p in re.findall(r'r(#*)"(.*?)"\1,', body, flags=re.S)]
        if not pats:
            raise SystemExit(f"gen_guard_table: no {name} patterns in guard.rs")
        lines += [f"{name}: list[str] = ["] + [f"    {p!r}," for p in pats] + ["]", ""]
    return "\n".join(lines)


def main() -> None:
    out = generate()
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != out:
            print("src/knowhub/_guard_table.py is stale: run python scripts/gen_guard_table.py", file=sys.stderr)
            raise SystemExit(1)
        return
    OUT.write_text(out, encoding="utf-8")


if __name__ == "__main__":
    main()
