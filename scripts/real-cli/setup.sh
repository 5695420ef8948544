#!/usr/bin/env bash
# Builds the real Pulumi CLI and its Node.js, YAML and Go language hosts from their Go modules into
# .cache/real-cli/<version>/bin, so that the real-CLI tests can use the CLI as the arbiter.
#
# What pins what:
# - pkg/v3 and sdk/v3 are tagged releases: the go command checks them, and every dependency
#   added while building, against the checksum database (reached through the module proxy).
# - The language host module has no tags, and the checksum database has no entry for its
#   pseudo-versions, so GONOSUMDB names that one module and this script checks its zip against
#   the h1: hash below (the one recorded in public go.sum files) before building it.
# - Both go.mod files replace sdk/v3 (and pkg/v3) with sibling folders of the monorepo; those
#   directory replaces are dropped and the sibling modules required at a tagged version instead.
#   For the CLI that is its own version. The newest language host the proxy serves here is from
#   2025-08-06 and does not compile against pkg/v3 v3.274.1 (the LanguageRuntimeServer and
#   ResourceMonitorServer interfaces gained methods, pcl and codegen signatures changed), so it
#   is built against v3.188.0, the first release after its commit. The CLI talks to it over the
#   language-host gRPC protocol, which keeps old hosts working (new methods answer Unimplemented).
# - The YAML language host, github.com/pulumi/pulumi-yaml cmd/pulumi-language-yaml, is a tagged
#   release whose go.mod has no replace directives: `go install module/cmd@version` builds it as
#   published, every dependency checked against the checksum database. v1.25.0 is the newest the
#   proxy serves here; it requires pkg/sdk v3.206.0 and talks to the CLI over the same protocol.
# - The Go language host, sdk/go/pulumi-language-go/v3, is built exactly as the Node.js host: the
#   same monorepo pseudo-version (commit bee5e4fa4815), its zip checked against the h1: hash below
#   (the checksum database also has this one, so the go command checks it too), the directory
#   replaces dropped and pkg/sdk required at v3.188.0. It runs `go build` on a Go program, so Go
#   programs need the go command on PATH, as under a user's CLI.
# Each binary has its own stamp, so a cache with the CLI built only adds what is missing.
set -euo pipefail

version="3.274.1"
# Newest pseudo-version of the language host served by the module proxy here (2025-08-06).
langhost_module="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
langhost_version="v3.0.0-20250806165243-bee5e4fa4815"
langhost_sum="h1:+QJTFK7UcOFTYCg3XaSTrRZHWJ6Hqza8w9oADa4pPcM="
langhost_pulumi_version="3.188.0"
golanghost_module="github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3"
golanghost_version="$langhost_version"
golanghost_sum="h1:tipGG4aEPejP424igQYxJ6TOtWVtZJa0z679oIv00ho="
yaml_module="github.com/pulumi/pulumi-yaml"
yaml_version="v1.25.0"

root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="$root/.cache/real-cli/v$version"
bin="$cache/bin"
stamp="$bin/.built-$version-$langhost_version-$langhost_pulumi_version"
yaml_stamp="$bin/.yaml-built-$yaml_version"
go_stamp="$bin/.go-built-$golanghost_version-$langhost_pulumi_version"
go_program="$root/examples/citrix-delivery-groups-go"
go_program_stamp="$bin/.go-program-$(cat "$go_program/go.mod" "$go_program/go.sum" | sha256sum | cut -c1-16)"

cli_built() { [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ] && [ -f "$stamp" ]; }
yaml_built() { [ -x "$bin/pulumi-language-yaml" ] && [ -f "$yaml_stamp" ]; }
go_built() { [ -x "$bin/pulumi-language-go" ] && [ -f "$go_stamp" ]; }

if cli_built && yaml_built && go_built && [ -f "$go_program_stamp" ]; then
    echo "real-cli: pulumi v$version, pulumi-language-yaml $yaml_version and pulumi-language-go already built in ${bin#$root/}"
    exit 0
fi

command -v go >/dev/null || { echo "real-cli: needs Go (go not found on PATH)" >&2; exit 2; }

export GOFLAGS="-mod=mod -buildvcs=false"
export GONOSUMDB="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"

# download MODULE@VERSION: prints the module's read-only folder in the module cache.
download() {
    local json
    json="$(cd "$cache" && go mod download -json "$1")"
    if printf '%s' "$json" | grep -q '"Error"'; then
        printf '%s\n' "$json" >&2
        return 1
    fi
    printf '%s' "$json" | node -e 'const j=JSON.parse(require("fs").readFileSync(0,"utf8")); process.stdout.write(j.Dir + "\n" + j.Sum)'
}

# writable_copy DIR DEST: a module is read-only in the cache; its go.mod must be edited.
writable_copy() {
    rm -rf "$2"
    mkdir -p "$(dirname "$2")"
    cp -r "$1" "$2"
    chmod -R u+w "$2"
}

mkdir -p "$cache" "$bin"

build_cli() {
    local start
    start=$(date +%s)
    echo "real-cli: downloading github.com/pulumi/pulumi/pkg/v3@v$version"
    pkg_dir="$(download "github.com/pulumi/pulumi/pkg/v3@v$version" | head -n 1)"
    writable_copy "$pkg_dir" "$cache/src/pkg"
    (cd "$cache/src/pkg" && go mod edit \
        -dropreplace=github.com/pulumi/pulumi/sdk/v3 \
        -require="github.com/pulumi/pulumi/sdk/v3@v$version")

    echo "real-cli: downloading $langhost_module@$langhost_version"
    lh="$(download "$langhost_module@$langhost_version")"
    lh_dir="$(printf '%s' "$lh" | head -n 1)"
    lh_sum="$(printf '%s' "$lh" | tail -n 1)"
    if [ "$lh_sum" != "$langhost_sum" ]; then
        echo "real-cli: $langhost_module@$langhost_version has hash $lh_sum, expected $langhost_sum" >&2
        exit 1
    fi
    writable_copy "$lh_dir" "$cache/src/langhost"
    (cd "$cache/src/langhost" && go mod edit \
        -dropreplace=github.com/pulumi/pulumi/sdk/v3 \
        -dropreplace=github.com/pulumi/pulumi/pkg/v3 \
        -require="github.com/pulumi/pulumi/sdk/v3@v$langhost_pulumi_version" \
        -require="github.com/pulumi/pulumi/pkg/v3@v$langhost_pulumi_version")

    echo "real-cli: building pulumi (cold: about 5 min on an idle 2-core machine, up to about 25 min on a busy one; docs/real-cli.md)"
    (cd "$cache/src/pkg" && go build -trimpath -ldflags "$ldflags" -o "$bin/pulumi" ./cmd/pulumi)
    echo "real-cli: building pulumi-language-nodejs"
    (cd "$cache/src/langhost" && go build -trimpath -ldflags "${ldflags/v$version/v$langhost_pulumi_version}" -o "$bin/pulumi-language-nodejs" .)

    rm -f "$bin"/.built-[0-9]*
    touch "$stamp"
    echo "real-cli: built pulumi v$version and pulumi-language-nodejs in $(( $(date +%s) - start )) s into ${bin#$root/}"
}

build_yaml() {
    local start
    start=$(date +%s)
    echo "real-cli: building pulumi-language-yaml $yaml_version ($yaml_module/cmd/pulumi-language-yaml)"
    (cd "$cache" && GOFLAGS="-buildvcs=false" GOBIN="$bin" go install -trimpath \
        -ldflags "-s -w -X $yaml_module/pkg/version.Version=$yaml_version" \
        "$yaml_module/cmd/pulumi-language-yaml@$yaml_version")
    rm -f "$bin"/.yaml-built-*
    touch "$yaml_stamp"
    echo "real-cli: built pulumi-language-yaml $yaml_version in $(( $(date +%s) - start )) s into ${bin#$root/}"
}

build_go() {
    local start go_lh go_dir go_sum
    start=$(date +%s)
    echo "real-cli: downloading $golanghost_module@$golanghost_version"
    go_lh="$(download "$golanghost_module@$golanghost_version")"
    go_dir="$(printf '%s' "$go_lh" | head -n 1)"
    go_sum="$(printf '%s' "$go_lh" | tail -n 1)"
    if [ "$go_sum" != "$golanghost_sum" ]; then
        echo "real-cli: $golanghost_module@$golanghost_version has hash $go_sum, expected $golanghost_sum" >&2
        exit 1
    fi
    writable_copy "$go_dir" "$cache/src/golanghost"
    (cd "$cache/src/golanghost" && go mod edit \
        -dropreplace=github.com/pulumi/pulumi/sdk/v3 \
        -dropreplace=github.com/pulumi/pulumi/pkg/v3 \
        -require="github.com/pulumi/pulumi/sdk/v3@v$langhost_pulumi_version" \
        -require="github.com/pulumi/pulumi/pkg/v3@v$langhost_pulumi_version")
    echo "real-cli: building pulumi-language-go"
    (cd "$cache/src/golanghost" && go build -trimpath -ldflags "${ldflags/v$version/v$langhost_pulumi_version}" -o "$bin/pulumi-language-go" .)
    rm -f "$bin"/.go-built-*
    touch "$go_stamp"
    echo "real-cli: built pulumi-language-go in $(( $(date +%s) - start )) s into ${bin#$root/}"
}

# The Go twin (examples/citrix-delivery-groups-go) is compiled by the Go language host at each
# preview with a plain `go build` in its folder. Its first compile on a machine (sdk/v3 and its
# dependencies; the CLI's -trimpath build does not share the cache entries) takes minutes, so it is
# done here, the same command, to fill the Go build cache outside the test's time limit.
warm_go_program() {
    local start
    start=$(date +%s)
    echo "real-cli: compiling examples/citrix-delivery-groups-go (fills the Go build cache for test:real)"
    (cd "$go_program" && GOFLAGS="-mod=readonly -buildvcs=false" go build -o /dev/null .)
    rm -f "$bin"/.go-program-*
    touch "$go_program_stamp"
    echo "real-cli: compiled examples/citrix-delivery-groups-go in $(( $(date +%s) - start )) s"
}

cli_built || build_cli
yaml_built || build_yaml
go_built || build_go
[ -f "$go_program_stamp" ] || warm_go_program
"$bin/pulumi" version
