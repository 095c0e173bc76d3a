# Sourced by scripts/play, test, bench, typecheck and new-plugin: make .venv if needed and install atoll.
# Usage: ensure_venv [EXTRAS]   (EXTRAS like "dev"; reinstalls only when pyproject.toml changed)
#
# atoll is installed editable in setuptools' strict mode: .venv sees a tree of links to the files
# of core/, net/ and plugins/ under their import names, which mypy follows (it cannot follow the
# import hook of the default mode; docs/decisions/0003-typed-installs.md). A module added or removed
# needs new links, so the list of files is stamped too and a changed list re-links (a second or two).

ensure_venv() {
  local extras="${1:-}"
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local venv="$root/.venv"
  local python="${PYTHON:-python3}"
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "atoll needs Python 3.11 or newer; '$python' was not found (set PYTHON=/path/to/python3.11)" >&2
    return 1
  fi
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "atoll needs Python 3.11 or newer; $("$python" --version) found (set PYTHON=...)" >&2
    return 1
  fi
  if [ ! -x "$venv/bin/python" ]; then
    echo "making $venv ..." >&2
    "$python" -m venv "$venv"
  fi
  local hash stamp files linked
  hash="$(sha256sum "$root/pyproject.toml" | cut -c1-16)"
  stamp="$venv/.installed-$hash${extras:+-$extras}"
  files="$(cd "$root" && find core net plugins -name __pycache__ -prune -o -type f \
    \( -name '*.py' -o -name '*.tmpl' -o -name py.typed \) -print | LC_ALL=C sort | sha256sum | cut -c1-16)"
  linked="$venv/.linked-$files"
  # an install with extras serves a plain request too
  if [ ! -f "$stamp" ] && { [ -n "$extras" ] || ! compgen -G "$venv/.installed-$hash*" >/dev/null; }; then
    echo "installing atoll${extras:+ with [$extras]} into $venv (first time takes a minute) ..." >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    _quiet_pip "$venv" --config-settings editable_mode=strict -e "$root${extras:+[$extras]}"
    rm -f "$venv"/.installed-* "$venv"/.linked-*
    touch "$stamp" "$linked"
  elif [ ! -f "$linked" ]; then
    echo "linking atoll's modules into $venv (a module was added or removed) ..." >&2
    # the dependencies are in place, only the links change: no index, and no build environment
    # unless the venv's own setuptools is too old to build atoll
    _quiet_pip "$venv" --no-deps --no-index --no-build-isolation --config-settings editable_mode=strict \
      -e "$root" 2>/dev/null ||
      _quiet_pip "$venv" --no-deps --config-settings editable_mode=strict -e "$root"
    rm -f "$venv"/.linked-*
    touch "$linked"
  fi
  # Byte-compile atoll's modules, as pip does for a regular install: where PYTHONDONTWRITEBYTECODE
  # is set (this project's machines set it), Python never caches them itself and compiles every
  # module again at each start, about 0.1 CPU-s of `atoll games`. Up-to-date files are skipped.
  local built
  for built in "$root"/build/__editable__.atoll-*; do
    [ -d "$built" ] && { "$venv/bin/python" -m compileall -q "$built" >/dev/null ||
      echo "note: some of atoll's modules did not byte-compile; Python will say why on import" >&2; }
  done
  return 0
}

# pip install, its output shown only when it fails (strict mode's notes are long and always the same)
_quiet_pip() {
  local venv="$1" out
  shift
  if ! out="$("$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" 2>&1)"; then
    echo "$out" >&2
    return 1
  fi
}
