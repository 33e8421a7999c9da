#!/usr/bin/env bash
# Builds idbudget (release) and installs the binary, shell completions and the man page under PREFIX
# (default ~/.local): PREFIX/bin/idbudget, PREFIX/share/man/man1/idbudget.1, and completions for bash,
# zsh and fish in their usual PREFIX/share folders. Needs GMP and MPFR headers (libgmp-dev,
# libmpfr-dev): scripts/setup.sh installs them with apt, saying so, when they are missing.
#   scripts/install.sh                 # into ~/.local
#   PREFIX=/usr/local scripts/install.sh
set -euo pipefail
prefix=$(realpath -m "${PREFIX:-$HOME/.local}")  # before cd, so a relative PREFIX means the caller's
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product idbudget >&2
bin=.build/release/idbudget
mkdir -p "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$bin" "$prefix/bin/idbudget"
"$bin" --generate-completion-script bash > "$prefix/share/bash-completion/completions/idbudget"
"$bin" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_idbudget"
"$bin" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/idbudget.fish"
# The man page comes from the command's own help, through swift-argument-parser's plugin.
swift package --allow-writing-to-package-directory generate-manual >&2
install -m 644 .build/plugins/GenerateManual/outputs/IDBudgetCLI/idbudget.1 "$prefix/share/man/man1/idbudget.1"
echo "installed: $prefix/bin/idbudget, its man page and bash/zsh/fish completions"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "add $prefix/bin to PATH to run idbudget" ;; esac
