#!/usr/bin/env bash
# Builds gradescope/autograder.zip from the committed tree (HEAD): setup.sh, run_autograder
# and crib-src.tar.gz. Upload the zip as the assignment's autograder on Gradescope
# ("Configure Autograder", Ubuntu base image).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$here/setup.sh" "$here/run_autograder" "$tmp/"
chmod +x "$tmp/setup.sh" "$tmp/run_autograder"
git -C "$repo" archive --format=tar.gz -o "$tmp/crib-src.tar.gz" HEAD
rm -f "$here/autograder.zip"
(cd "$tmp" && zip -q "$here/autograder.zip" setup.sh run_autograder crib-src.tar.gz)
echo "wrote $here/autograder.zip"
