#!/usr/bin/env bash
# README commands 1 and 2, verbatim, on a fresh Debian 12 (bookworm) made by debootstrap: a manual
# check (needs root, network and about 3 GB; not a ctest). Two roots from one debootstrap:
#   root  a root shell without sudo: command 1, then command 2;
#   user  a user "dev" whose sudo needs no password (non-interactive), with empty package lists
#         as after an install: command 1 (and command 2 with --tests-as-user).
# Usage: tests/tools/fresh_debian12.sh [root|user|both] [--tests-as-user]
# WORK (default /tmp/deb12) holds the roots; SRC (default: this checkout) is cloned into them at
# its HEAD (commit first). Logs: $WORK-<case>.log.
set -euo pipefail
case_name=${1:-both}
src=${SRC:-$(git -C "$(dirname "$0")/../.." rev-parse --show-toplevel)}
work=${WORK:-/tmp/deb12}
mirror=${MIRROR:-http://deb.debian.org/debian}
readme="$src/README.md"
# The two commands exactly as the README prints them (the line under "# 1." and under "# 2.").
cmd1=$(awk '/^# 1\./{f=1;next} f&&/^[^#]/&&NF{print;exit}' "$readme")
cmd2=$(awk '/^# 2\./{f=1;next} f&&/^[^#]/&&NF{print;exit}' "$readme")
echo "command 1: $cmd1"
echo "command 2: $cmd2"

[ -x "$work/bin/bash" ] || debootstrap bookworm "$work" "$mirror"

mount_all() {  # /proc, /sys, /dev and /dev/pts, as PoCL and apt need them
  local r=$1
  for m in proc sys dev dev/pts; do mountpoint -q "$r/$m" || mount --bind "/$m" "$r/$m"; done
}
umount_all() {
  local r=$1
  for m in dev/pts dev sys proc; do mountpoint -q "$r/$m" && umount "$r/$m" || true; done
}

clone_into() {  # a fresh clone of $src's HEAD at $1/clfdtd
  rm -rf "$1/clfdtd"
  git clone -q "$src" "$1/clfdtd"
  git -C "$1/clfdtd" checkout -q "$(git -C "$src" rev-parse HEAD)"
}

run_root() {
  local r="$work-root"
  [ -d "$r" ] || cp -a "$work" "$r"
  mount_all "$r"
  trap 'umount_all "$r"' RETURN
  clone_into "$r/root"
  chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd /root/clfdtd && command -v sudo || echo 'no sudo here'; id -u; $cmd1; echo \"command 1 exit \$?\"; $cmd2; echo \"command 2 exit \$?\""
}

run_user() {
  local r="$work-user" tests=$1
  if [ ! -d "$r" ]; then
    cp -a "$work" "$r"
    mount_all "$r"
    # sudo and a user, as the Debian installer leaves them; then empty the package lists again.
    chroot "$r" /bin/bash -c "apt-get update -qq && apt-get install -y -qq sudo > /dev/null &&
      useradd -m -s /bin/bash -G sudo dev && echo 'dev ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/dev &&
      apt-get clean && rm -rf /var/lib/apt/lists/*"
  fi
  mount_all "$r"
  trap 'umount_all "$r"' RETURN
  clone_into "$r/home/dev"
  chroot "$r" chown -R dev:dev /home/dev/clfdtd
  local after="echo done"
  [ "$tests" = yes ] && after="$cmd2; echo \"command 2 exit \$?\""
  chroot "$r" /usr/bin/env -i TERM=dumb PATH=/usr/bin:/bin /usr/bin/su - dev -c \
    "cd ~/clfdtd && id -u && ls /var/lib/apt/lists/ | wc -l; $cmd1; echo \"command 1 exit \$?\"; $after"
}

case $case_name in
  root) run_root 2>&1 | tee "$work-root.log" ;;
  user) run_user "${2:+yes}" 2>&1 | tee "$work-user.log" ;;
  both) run_root 2>&1 | tee "$work-root.log"; run_user "${2:+yes}" 2>&1 | tee "$work-user.log" ;;
  *) echo "usage: $0 [root|user|both] [--tests-as-user]" >&2; exit 2 ;;
esac
