#!/usr/bin/env bash
# What the test suite runs for real and npm does not bring, set up on this machine: Debian's
# redis-server (the queue's tests), openssl (a certificate for the API's TLS test), chromium (the
# web pages, in a real browser; never a downloaded one), bubblewrap and socat (the sandbox's
# walls) and prometheus (its promtool checks /metrics), then the user agents run as in the
# tests of BRIDGE_AGENT_USER (jsonl-agent), with every folder above this checkout passable to
# it. The one recipe: `.ci/run` runs it, and so does `npm test` first (`--unattended`).
#
#   bash scripts/test-setup.sh                sets up what is missing, as root or with sudo
#   bash scripts/test-setup.sh --unattended   the same where it needs no password (root, or
#                                             sudo -n); else says in one line what to run,
#                                             and stops only when a part every run needs is missing
set -euo pipefail
cd "$(dirname "$0")/.."
unattended=$([ "${1:-}" = --unattended ] && echo 1 || true)

# command:package, what every run needs (the rest skips its tests, saying why, when missing)
NEEDED="redis-server:redis-server openssl:openssl chromium:chromium promtool:prometheus"
WALLS="bwrap:bubblewrap socat:socat"
AGENT=jsonl-agent

missing_packages() {
  for pair in $1; do command -v "${pair%%:*}" >/dev/null || printf '%s ' "${pair#*:}"; done
}

# The agent user's tests switch to it, so need root: only root's run wants the user, and every
# folder above the checkout passable to it.
closed_folders() {
  local dir=$PWD
  while [ "$dir" != / ]; do
    runuser -u "$AGENT" -- test -x "$dir" || printf '%s ' "$dir"
    dir=$(dirname "$dir")
  done
}

needed=$(missing_packages "$NEEDED")
walls=$(missing_packages "$WALLS")
packages=$(echo $needed $walls)
user= closed=
if [ "$(id -u)" = 0 ]; then
  if id "$AGENT" >/dev/null 2>&1; then closed=$(closed_folders); else user=$AGENT; fi
fi
if [ -z "$packages$user$closed" ]; then exit 0; fi

# How to become root: being it, or sudo (without a password when unattended).
if [ "$(id -u)" = 0 ]; then
  SUDO=
elif command -v sudo >/dev/null && { [ -z "$unattended" ] || sudo -n true 2>/dev/null; }; then
  SUDO=sudo
else
  if [ -n "$needed" ]; then
    echo "npm test needs Debian's ${packages} (apt-get install -y ${packages}): run \`sudo bash scripts/test-setup.sh\` once, which installs them, or \`bash .ci/run\`." >&2
    exit 1
  fi
  echo "npm test: the sandbox's tests are skipped without ${packages}; \`sudo bash scripts/test-setup.sh\` installs them." >&2
  exit 0
fi

if [ -n "$packages" ]; then
  if ! command -v apt-get >/dev/null; then
    echo "The tests need ${packages}, and this machine has no apt-get: install them with its package manager." >&2
    if [ -n "$needed" ]; then exit 1; fi
  else
    echo "Installing what the tests need: ${packages}" >&2
    $SUDO apt-get update -qq
    # promtool alone is wanted of prometheus: not the node exporter and the rest it recommends.
    apt=$(echo " $packages " | sed 's/ prometheus / /')
    if [ -n "${apt// /}" ]; then DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $apt >/dev/null; fi
    case " $needed " in *" prometheus "*)
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null ;;
    esac
    # Debian's packages start system instances (Redis, Prometheus on :9090); the tests start their own on free ports.
    $SUDO systemctl stop redis-server 2>/dev/null || $SUDO service redis-server stop 2>/dev/null || true
    $SUDO systemctl disable --now prometheus 2>/dev/null || $SUDO service prometheus stop 2>/dev/null || true
  fi
fi

# Root's run: the agent user, who runs this checkout's CLIs, so passes every folder above it (o+x, not listable).
[ "$(id -u)" = 0 ] || exit 0
if [ -n "$user" ]; then
  echo "Making the user $AGENT, whom the tests of BRIDGE_AGENT_USER run agents as" >&2
  useradd --create-home --shell /bin/bash "$AGENT"
  closed=$(closed_folders)
fi
for dir in $closed; do chmod o+x "$dir"; done
