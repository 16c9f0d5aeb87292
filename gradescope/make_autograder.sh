#!/usr/bin/env bash
# Builds gradescope/autograder.zip from the committed tree (HEAD): setup.sh, run_autograder,
# crib-src.tar.gz and visibility (gradescope/visibility, or the policy named by
# $CRIB_GRADESCOPE_VISIBILITY: all-visible, examples-visible, after-due-date, hidden). Upload
# the zip as the assignment's autograder on Gradescope ("Configure Autograder", Ubuntu base
# image).
#
#   make_autograder.sh [--course-seed FILE]
#
# Without --course-seed every submission is graded on tests drawn from a fresh secret seed.
# With it, FILE (made here, readable by you only, if it does not exist; keep it, and never
# commit it) goes into the zip as `seed`, and each submission's tests derive from it and the
# submission's id: a regrade gives a submission the same tests and the same marks.
set -euo pipefail
course_seed=""
while [ $# -gt 0 ]; do
    case "$1" in
        --course-seed)
            [ $# -ge 2 ] || { echo "make_autograder.sh: --course-seed needs a FILE" >&2; exit 2; }
            course_seed="$2"
            shift 2
            ;;
        *)
            echo "make_autograder.sh: unknown argument: $1 (expected --course-seed FILE)" >&2
            exit 2
            ;;
    esac
done
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
files=(setup.sh run_autograder crib-src.tar.gz visibility)
if [ -n "$course_seed" ]; then
    if [ ! -e "$course_seed" ]; then
        (umask 077 && {
            echo "# crib grade's secret course seed: keep it from students"
            od -An -N32 -tx1 /dev/urandom | tr -d ' \n'
            echo
        } > "$course_seed")
        echo "made a new course seed in $course_seed: keep it, never commit it"
    fi
    cp "$course_seed" "$tmp/seed"
    files+=(seed)
fi
git -C "$repo" archive --format=tar.gz -o "$tmp/crib-src.tar.gz" HEAD
rm -f "$here/autograder.zip"
(cd "$tmp" && zip -q "$here/autograder.zip" "${files[@]}")
echo "wrote $here/autograder.zip"
