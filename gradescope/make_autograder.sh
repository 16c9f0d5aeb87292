#!/usr/bin/env bash
# Builds gradescope/autograder.zip from the committed tree (HEAD): setup.sh, run_autograder,
# crib-src.tar.gz and visibility (gradescope/visibility, or the policy named by
# $CRIB_GRADESCOPE_VISIBILITY: all-visible, examples-visible, after-due-date, hidden). Upload the zip as the assignment's autograder on Gradescope
# ("Configure Autograder", Ubuntu base image).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$here/setup.sh" "$here/run_autograder" "$tmp/"
chmod +x "$tmp/setup.sh" "$tmp/run_autograder"
if [ -n "${CRIB_GRADESCOPE_VISIBILITY:-}" ]; then
    echo "$CRIB_GRADESCOPE_VISIBILITY" > "$tmp/visibility"
else
    cp "$here/visibility" "$tmp/visibility"
fi
git -C "$repo" archive --format=tar.gz -o "$tmp/crib-src.tar.gz" HEAD
rm -f "$here/autograder.zip"
(cd "$tmp" && zip -q "$here/autograder.zip" setup.sh run_autograder crib-src.tar.gz visibility)
echo "wrote $here/autograder.zip"
