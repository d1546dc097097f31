# Sourced by the Python benchmarks (run.sh, run-mount.sh): the venv .venv-bench with
# benches/python/requirements.txt and a release wheel of libmcp for Python installed into it (a
# wheel, not an editable install: that would put the release extension into
# bindings-python/python/libmcp, where the test venv's debug build lives). Sets `venv` and `work`
# (a temporary directory removed at exit).
source scripts/lib/common.sh

venv=.venv-bench
ensure_venv "$venv" benches/python/requirements.txt
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# LIBMCP_WHEEL=PATH installs that wheel instead (benches/artifacts.sh: the wheel scripts/dist.sh ships).
if [ -n "${LIBMCP_WHEEL:-}" ]; then
  mkdir -p "$work/wheel" && cp "$LIBMCP_WHEEL" "$work/wheel/"
else
  "$venv/bin/maturin" build --release --quiet --locked -m bindings-python/Cargo.toml -i "$venv/bin/python" \
    --out "$work/wheel"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
  "$work"/wheel/libmcp-*.whl
