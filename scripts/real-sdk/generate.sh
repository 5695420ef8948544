#!/usr/bin/env bash
# Generates the Node.js SDK of every Pulumi schema in scripts/real-sdk/schemas/ into
# .cache/real-sdk/<package>/nodejs with the code generator of the Pulumi CLI version the real-CLI
# tests use (scripts/real-sdk/gen: pkg/v3 codegen/nodejs, what `pulumi package gen-sdk` runs),
# so that the tests type-check the examples against what a real program imports (README.md here).
# Idempotent: a package is generated again only when its schema or the generator changed.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
out_root="$root/.cache/real-sdk"
gen="$out_root/bin/gen"
command -v go >/dev/null || { echo "real-sdk: needs Go (go not found on PATH)" >&2; exit 2; }

export GOFLAGS="-mod=mod -buildvcs=false"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
mkdir -p "$out_root/bin"
gen_sum="$(cat "$root"/scripts/real-sdk/gen/go.mod "$root"/scripts/real-sdk/gen/go.sum "$root"/scripts/real-sdk/gen/main.go | sha256sum | cut -c1-16)"
if [ ! -x "$gen" ] || [ ! -f "$gen.$gen_sum" ]; then
    echo "real-sdk: building the SDK generator (pkg/v3 codegen/nodejs)"
    (cd "$root/scripts/real-sdk/gen" && go build -trimpath -ldflags "-s -w" -o "$gen" .)
    rm -f "$gen".*
    touch "$gen.$gen_sum"
fi

for schema in "$root"/scripts/real-sdk/schemas/*.json; do
    pkg="$(basename "$schema" .json)"
    sum="$( (cat "$schema"; echo "$gen_sum") | sha256sum | cut -c1-16)"
    dest="$out_root/$pkg"
    if [ -f "$dest/.schema-$sum" ]; then
        echo "real-sdk: $pkg SDK up to date in ${dest#$root/}/nodejs"
        continue
    fi
    rm -rf "$dest"
    "$gen" "$schema" "$dest/nodejs"
    touch "$dest/.schema-$sum"
    echo "real-sdk: generated the $pkg SDK into ${dest#$root/}/nodejs"
done
