#!/usr/bin/env bash
# Build .device-kit/ here, for tests/bench/device/scaleout.sh on a machine that has neither
# our Python packages nor a PostgreSQL server and reaches no network (the 16-core device).
#
#   bash tests/bench/device/prepare.sh            # wheels for Python 3.12 (the device's)
#   KIT_PYTHON=3.11 bash tests/bench/device/prepare.sh   # for a dry run on this machine
#
# It downloads, as wheels for KIT_PYTHON on manylinux x86-64, the exact versions installed in
# .venv of every runtime package (test, lint and profiling tools, and the plotting stack that
# the device image already holds, left out; psycopg's binary build, a dependency, is among
# them: the device has no libpq), pytest (tests/pg.py imports it) and pgserver, a wheel that
# carries a relocatable PostgreSQL 16 build. Nothing is installed here.
set -euo pipefail
cd "$(dirname "$0")/../../.."
KIT=${KIT:-.device-kit}
PYVER=${KIT_PYTHON:-3.12}
SKIP='^(annales|ast_serialize|contourpy|cycler|execnet|fonttools|greenlet|grpcio-tools|hypothesis|iniconfig|kiwisolver|librt|matplotlib|mypy|mypy_extensions|numpy|pathspec|pillow|playwright|py-spy|pyparsing|pytest-xdist|ruff|types-networkx|types-protobuf|yappi)=='
[ -x .venv/bin/pip ] || { echo "run 'make install' first (.venv holds the versions to carry)"; exit 1; }
rm -rf "$KIT/wheels" && mkdir -p "$KIT/wheels"
{
  .venv/bin/pip freeze --exclude-editable 2>/dev/null | grep -v '^#' | grep -Eiv "$SKIP"
  echo "pgserver==0.1.4"
  echo "fasteners>=0.19"
  echo "platformdirs>=4"
} > "$KIT/requirements.txt"
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version "$PYVER" \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  --platform manylinux1_x86_64 -d "$KIT/wheels" -r "$KIT/requirements.txt"
echo "$PYVER" > "$KIT/python"
du -sh "$KIT"
echo "carry: [\"$KIT\", \"service/gen\"]; run: bash tests/bench/device/scaleout.sh"
