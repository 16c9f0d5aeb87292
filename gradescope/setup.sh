#!/usr/bin/env bash
# Gradescope runs this once, as root on its Ubuntu image, when it builds the autograder:
# it installs SWI-Prolog, bubblewrap and Rust, then builds `crib` from the source shipped in
# the zip (crib-src.tar.gz, made by make_autograder.sh) into /usr/local/bin.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
    ca-certificates curl build-essential pkg-config software-properties-common bubblewrap
apt-add-repository -y ppa:swi-prolog/stable
apt-get update
apt-get install -y --no-install-recommends swi-prolog-nox
curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
# shellcheck disable=SC1091
source "$HOME/.cargo/env"
src=/autograder/source/crib
mkdir -p "$src"
tar -xzf /autograder/source/crib-src.tar.gz -C "$src"
cargo install --locked --path "$src/crates/cli" --root /usr/local
crib grade --help > /dev/null
