"""The prompt-injection screen of the hub and its other clients, for text shown to a model.

The same engine as the server's `knowhub_core::guard` and the OpenClaw plugin's `security.ts`:
the text is normalised (invisible characters removed, NFKC, Cyrillic and Greek look-alikes in
Latin words and leetspeak digits folded, blanks collapsed, spelled-out letters joined), then the
shared table of patterns (`_guard_table.py`, generated from the server's) runs over it; base64
runs and text hidden in Unicode tag characters are decoded and screened too. Checked against the
shared cases in testdata/security-cases.jsonl.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ._guard_table import DESTRUCTIVE, FORBIDDEN, SOURCES, UNCONSENTED

INSTRUCTION_OVERRIDE = "instruction_override"
PROMPT_LEAK = "prompt_leak"
ROLE_MARKER = "role_marker"
WRAPPER_ESCAPE = "wrapper_escape"
EXFILTRATION = "exfiltration"
ENCODED_PAYLOAD = "encoded_payload"
HIDDEN_TEXT = "hidden_text"
DANGEROUS_COMMAND = "dangerous_command"
CATEGORIES = [
    INSTRUCTION_OVERRIDE,
    PROMPT_LEAK,
    ROLE_MARKER,
    WRAPPER_ESCAPE,
    EXFILTRATION,
    ENCODED_PAYLOAD,
    HIDDEN_TEXT,
    DANGEROUS_COMMAND,
]

# Zero-width characters, bidi controls, word joiners, BOM, soft hyphen, variation selectors and
# tag characters: a model would read them, a reviewer would not see them.
INVISIBLE = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\u034f\u180e\ufe00-\ufe0f"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)


def _ascii_words(p: str) -> str:
    # JavaScript's ASCII word boundaries and classes, as the server's table is compiled.
    return p.replace(r"\b", r"(?a:\b)").replace(r"\w", "[A-Za-z0-9_]")


@lru_cache(maxsize=1)
def _table() -> list[tuple[str, re.Pattern[str]]]:
    return [(c, re.compile(_ascii_words(p))) for c, p in SOURCES]


_CONFUSABLE = dict(
    zip(
        "аαвсϲԁеεһіιıјкκмпηоοσрρԛѕтτυѵνԝωхχуγАΑВΒСϹЕΕНΗІΙЈКΚМΜΝОΟРΡЅТΤХΧУΥΖ",
        "aabccdeehiiijkkmnnoooppqsttuvvwwxxyyAABBCCEEHHIIJKKMMNOOPPSTTXXYYZ",
        strict=True,
    )
)
_ALPHA_RUN = re.compile(r"[^\W\d_]+")
_LEET_WORD = re.compile(r"[A-Za-z0-9@]+")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "@": "a", "5": "s", "7": "t"})
_SPACED = re.compile(r"(?a:\b)(?:[A-Za-z] ){3,}[A-Za-z](?a:\b)")
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
MAX_BASE64_RUNS = 16
MAX_BASE64_LEN = 4096


def _fold_confusables(text: str) -> str:
    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        if any(c.isascii() for c in w) and any(c in _CONFUSABLE for c in w):
            return "".join(_CONFUSABLE.get(c, c) for c in w)
        return w

    return _ALPHA_RUN.sub(word, text)


def _fold_leet(text: str) -> str:
    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        letters = sum(1 for c in w if c.isascii() and c.isalpha())
        return w.translate(_LEET) if letters >= 2 and len(w) > letters else w

    return _LEET_WORD.sub(word, text)


def normalise(text: str) -> str:
    """The text as the patterns see it."""
    return _collapse(_fold_leet(_unfolded(text)))


def _unfolded(text: str) -> str:
    """The steps of `normalise` before the leetspeak fold (invisibles, NFKC, look-alikes)."""
    return _fold_confusables(unicodedata.normalize("NFKC", INVISIBLE.sub("", text)))


def _collapse(folded: str) -> str:
    """The steps of `normalise` after the leetspeak fold (blanks, spelled-out letters)."""
    out: list[str] = []
    blank: bool | None = None  # while inside a run of whitespace: whether it holds a line break
    for c in folded:
        if c.isspace():
            blank = bool(blank) or c in "\n\r"
        else:
            if blank is not None:
                if out:
                    out.append("\n" if blank else " ")
                blank = None
            out.append(c)
    return _SPACED.sub(lambda m: m.group(0).replace(" ", ""), "".join(out))


def _ascii_alpha(c: str) -> bool:
    return c.isascii() and c.isalpha()


def split_identifiers(text: str) -> str:
    """`ignore_all_previous`, `ignore-all.previous` and `ignoreAllPrevious` as words."""
    out: list[str] = []
    for i, c in enumerate(text):
        prev = text[i - 1] if i > 0 else ""
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if c in "_-." and _ascii_alpha(prev) and _ascii_alpha(nxt):
            out.append(" ")
            continue
        if c.isascii() and c.isupper() and prev.isascii() and prev.islower():
            out.append(" ")
        out.append(c)
    return "".join(out)


def _hidden_tag_text(text: str) -> str:
    out: list[str] = []
    prev = "\0"
    skip = False
    tag = range(0xE0020, 0xE007F)
    for c in text:
        cp = ord(c)
        if cp in tag:
            if ord(prev) not in tag:
                skip = prev == "\U0001f3f4"
                out.append(" ")
            if not skip:
                out.append(chr(cp - 0xE0000))
        prev = c
    return "".join(out).strip()


def _decode_base64(s: str) -> bytes | None:
    s = s.rstrip("=")
    if len(s) % 4 == 1:
        return None
    out = bytearray()
    acc = bits = 0
    for ch in s:
        if "A" <= ch <= "Z":
            v = ord(ch) - 65
        elif "a" <= ch <= "z":
            v = ord(ch) - 97 + 26
        elif "0" <= ch <= "9":
            v = ord(ch) - 48 + 52
        elif ch in "+-":
            v = 62
        elif ch in "/_":
            v = 63
        else:
            return None
        acc = (acc << 6) | v
        bits += 6
        if bits >= 8:
            bits -= 8
            out.append(acc >> bits)
            acc &= (1 << bits) - 1
    return bytes(out)


def _printable_text(data: bytes) -> str | None:
    try:
        s = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    printable = sum(1 for c in s if unicodedata.category(c) != "Cc" or c in "\n\t\r")
    return s if len(s) >= 4 and printable * 10 >= len(s) * 9 else None


@lru_cache(maxsize=1)
def _consent() -> tuple[re.Pattern[str], list[re.Pattern[str]], list[re.Pattern[str]]]:
    def compile_all(patterns: list[str]) -> list[re.Pattern[str]]:
        return [re.compile(_ascii_words(p)) for p in patterns]

    return re.compile(_ascii_words(DESTRUCTIVE)), compile_all(UNCONSENTED), compile_all(FORBIDDEN)


def _unconsented_destruction(normalised: str) -> bool:
    """A destructive command and "without asking the user" (or its like) on one line, with
    nothing else on the line forbidding it."""
    destructive, unconsented, forbidden = _consent()
    for line in normalised.split("\n"):
        if not destructive.search(line) or not any(u.search(line) for u in unconsented):
            continue
        # The consent phrase itself may hold a negation ("do not tell the user", "不要告诉用户").
        rest = line
        for u in unconsented:
            rest = u.sub(" ", rest)
        if not any(f.search(rest) for f in forbidden):
            return True
    return False


def _match(normalised: str, found: list[bool]) -> None:
    for category, pattern in _table():
        if pattern.search(normalised):
            found[CATEGORIES.index(category)] = True


def screen(text: str) -> list[str]:
    """The categories the text falls in (empty for ordinary work notes), in `CATEGORIES` order."""
    if not text.strip():
        return []
    found = [False] * len(CATEGORIES)
    base = _unfolded(text)
    folded = _fold_leet(base)
    n = _collapse(folded)
    _match(n, found)
    # Commands are literal, and folding leetspeak rewrites them (`@env | curl` reads `aenv`,
    # `base64` reads `base6a`): the text is also screened as written, when folding changed it.
    literal = _collapse(base) if folded != base else None
    if literal is not None:
        _match(literal, found)
    found[0] = found[0] or _unconsented_destruction(literal if literal is not None else n)
    split = split_identifiers(n)
    if split != n:
        # Only the wording categories: splitting `List<SystemConfig>` must not make a role tag.
        words = [False] * len(CATEGORIES)
        _match(split, words)
        found[0] = found[0] or words[0]
        found[1] = found[1] or words[1]
    hidden = _hidden_tag_text(text)
    if sum(1 for c in hidden if c.isascii() and c.isalnum()) >= 4:
        found[6] = True
        _match(normalise(hidden), found)
    for m in list(_BASE64_RUN.finditer(text))[:MAX_BASE64_RUNS]:
        run = m.group(0)
        if len(run) > MAX_BASE64_LEN or not any(c.isdigit() or c.isupper() for c in run):
            continue
        raw = _decode_base64(run)
        decoded = _printable_text(raw) if raw is not None else None
        if decoded is None:
            continue
        inner = [False] * len(CATEGORIES)
        _match(normalise(decoded), inner)
        if any(inner):
            found[5] = True
    return [c for c, f in zip(CATEGORIES, found) if f]


def is_injection(text: str) -> bool:
    """True when the text tries to steer a model (any category but a dangerous command)."""
    return any(c != DANGEROUS_COMMAND for c in screen(text))
