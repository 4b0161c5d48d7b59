#!/usr/bin/env bash
# The embedder's tests on aarch64, emulated: cross-built for aarch64-unknown-linux-gnu and run
# under qemu-user. The NEON `sdot` integer tile is checked bit for bit against the portable
# kernel (random layers, and both real models end to end); a CPU without the dot product
# (Cortex-A72) must fall back to the portable path.
# Emulation says nothing about speed: no aarch64 hardware here.
#
# Installs what it needs (once): Debian's cross gcc and qemu-user, and the Rust standard library
# for the target (rustup). If that target cannot be installed, says so and exits 0: the rest of
# the suite does not depend on it.
set -euo pipefail
cd "$(dirname "$0")/.."
target=aarch64-unknown-linux-gnu

if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user >/dev/null
fi
if ! rustup target list --installed | grep -qx "$target"; then
  if ! rustup target add "$target"; then
    echo "aarch64 tests SKIPPED: rustup could not install the $target standard library"
    exit 0
  fi
fi

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
run() {
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu $1" \
    cargo test -p knowhub-embed --target "$target" "${@:2}"
}
# Armv8.2+ with the dot product: NEON integer tile (the default there), every kernel test.
run max --lib
# The real models on that path: E5's and MiniLM's int8 vectors bit-identical to the portable
# kernel's (which the native run ties to the AVX2 kernel's, and to within cosine 0.995 of the f32
# GEMM: so the same holds here without repeating those slow emulated tests).
run max --test model --test minilm -- portable_kernels_agree_with_simd_kernels portable_int8_kernel_matches
# A plain Armv8.0 core: no `sdot`, so the portable path and f32 by default.
run cortex-a72 --lib
