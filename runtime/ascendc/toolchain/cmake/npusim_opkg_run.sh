#!/bin/sh
# A custom operator package (__OPKG_NAME__) built against npusim: this installer, then a tar.gz of the
# vendor tree. Installs into <dir>/vendors/__OPKG_NAME__ for --install-path=<dir>, else into
# $ASCEND_OPP_PATH/vendors/__OPKG_NAME__ (set_env.sh sets ASCEND_OPP_PATH), and lists __OPKG_NAME__ first in
# vendors/config.ini's load_priority.
set -e
name='__OPKG_NAME__'
target=''
for arg in "$@"; do
  case "$arg" in
    --install-path=*) target="${arg#--install-path=}" ;;
    --quiet|--install|--full) ;;
    *) echo "[ops_custom] ERROR: unknown option $arg (use --install-path=<dir>)" >&2; exit 2 ;;
  esac
done
if [ -z "$target" ]; then
  if [ -z "${ASCEND_OPP_PATH:-}" ]; then
    echo "[ops_custom] ERROR: ASCEND_OPP_PATH is not set (source set_env.sh) and no --install-path=<dir>" >&2
    exit 1
  fi
  target="$ASCEND_OPP_PATH"
fi
vendors="$target/vendors"
mkdir -p "$vendors"
tmp="$vendors/.$name.installing.$$"
rm -rf "$tmp"
mkdir "$tmp"
skip=$(awk '/^__NPUSIM_OPKG_PAYLOAD__$/ { print NR + 1; exit }' "$0")
tail -n +"$skip" "$0" | tar -xzf - -C "$tmp"
rm -rf "${vendors:?}/$name"
mv "$tmp" "$vendors/$name"
config="$vendors/config.ini"
others=''
if [ -f "$config" ]; then
  others=$(sed -n 's/^load_priority=//p' "$config" | tr ',' '\n' | grep -v -x -e "$name" -e '' | paste -sd, -)
fi
echo "load_priority=$name${others:+,$others}" > "$config"
echo "[ops_custom] $name installed in $vendors/$name"
echo "SUCCESS"
exit 0
__NPUSIM_OPKG_PAYLOAD__
