#!/usr/bin/env bash
# The SPIR-V words of every corpus program, hashed per kernel: the safety net
# of a refactoring that must not change what kiln emits.
#
#   ci/spirv_words.sh [--out FILE] [--kiln BIN]       # hashes of this tree
#   ci/spirv_words.sh --compare BASE_COMMIT           # ... and BASE's; diff
#
# Programs: the tensor e2e corpus (gpu-tests/tests/tensor/*.mlir), the
# reference e2e files (core/tests/tensor/e2e/*.mlir), the bench programs
# (bench/programs, dynamic ones included) and the example models
# (examples/models). Targets, each compiled with `kiln compile -o DIR`:
#   lavapipe  core/tests/lower/envs/lavapipe.env (offline: conservative facts)
#   h200      core/tests/lower/envs/nvidia-h200.env
#   minimal   MLIR's default env (Vulkan 1.0 Shader, default limits)
#   mobile    core/tests/lower/envs/mobile.env
#   device0   `--device 0` when a Vulkan device answers (on this machine
#             lavapipe with its driver facts: texel reads, word stores), with
#             an empty tuning cache
# One line per kernel: `PROGRAM TARGET KERNEL SHA256`, or per program that
# does not compile: `PROGRAM TARGET error SHA256-OF-THE-MESSAGE`. Sorted, so
# two runs compare with diff.
#
# --compare BASE builds BASE's kiln in a detached worktree under
# target/spirv-words/ (sharing this target dir: only kiln's own crates
# rebuild) and hashes the same programs of THIS tree with it; the hashes of
# BASE are cached by commit. Exit status 1 when the two differ.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target_dir=${CARGO_TARGET_DIR:-$root/target}
work=$target_dir/spirv-words
mkdir -p "$work"

out=
kiln=
base=
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=$2; shift 2 ;;
        --kiln) kiln=$2; shift 2 ;;
        --compare) base=$2; shift 2 ;;
        *) echo "usage: $0 [--out FILE] [--kiln BIN] [--compare BASE_COMMIT]" >&2; exit 2 ;;
    esac
done

# Hashes of every program compiled by the kiln binary $1, written to $2.
hash_all() {
    local bin=$1 dest=$2 tmp
    tmp=$(mktemp -d "$work/run.XXXXXX")
    mkdir -p "$tmp/cache"
    local minimal='#spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>'
    local -a names=(lavapipe h200 minimal mobile)
    local -a args=("@core/tests/lower/envs/lavapipe.env" "@core/tests/lower/envs/nvidia-h200.env"
        "$minimal" "@core/tests/lower/envs/mobile.env")
    local device=0
    if KILN_CACHE_DIR="$tmp/cache" "$bin" devices --target-env-only --device 0 >/dev/null 2>&1; then
        device=1
    fi
    : >"$tmp/lines"
    local f i d msg
    for f in gpu-tests/tests/tensor/*.mlir core/tests/tensor/e2e/*.mlir \
        bench/programs/*.mlir bench/programs/dynamic/*.mlir examples/models/*.mlir; do
        for i in 0 1 2 3 4; do
            local -a flags
            if [ "$i" = 4 ]; then
                [ "$device" = 1 ] || continue
                flags=(--device 0)
                name=device0
            else
                flags=(--target-env "${args[$i]}")
                name=${names[$i]}
            fi
            d=$tmp/out
            rm -rf "$d"
            if msg=$(KILN_CACHE_DIR="$tmp/cache" "$bin" compile "$f" -o "$d" "${flags[@]}" 2>&1); then
                for k in "$d"/*.spv; do
                    [ -e "$k" ] || continue
                    printf '%s %s %s %s\n' "$f" "$name" "$(basename "$k" .spv)" \
                        "$(sha256sum <"$k" | cut -d' ' -f1)" >>"$tmp/lines"
                done
            else
                printf '%s %s error %s\n' "$f" "$name" \
                    "$(printf '%s' "$msg" | sha256sum | cut -d' ' -f1)" >>"$tmp/lines"
            fi
        done
    done
    LC_ALL=C sort "$tmp/lines" >"$dest"
    rm -rf "$tmp"
}

if [ -z "$kiln" ]; then
    cargo build -q -p kiln-cli
    kiln=$target_dir/debug/kiln
fi
mine=${out:-$work/current.txt}
cp "$kiln" "$work/kiln-current"
hash_all "$work/kiln-current" "$mine"
echo "$(wc -l <"$mine") kernel hashes ($(grep -c ' error ' "$mine" || true) programs that do not compile) in $mine" >&2

[ -n "$base" ] || exit 0
commit=$(git rev-parse --verify "$base^{commit}")
theirs=$work/$commit.txt
if [ ! -s "$theirs" ]; then
    src=$work/src
    if [ ! -d "$src" ]; then
        git worktree add --detach "$src" "$commit" >/dev/null
    else
        git -C "$src" checkout -q --detach "$commit"
    fi
    (cd "$src" && CARGO_TARGET_DIR=$target_dir cargo build -q -p kiln-cli)
    cp "$target_dir/debug/kiln" "$work/kiln-$commit"
    # Put this tree's binary back where cargo left BASE's.
    cp "$work/kiln-current" "$target_dir/debug/kiln"
    hash_all "$work/kiln-$commit" "$theirs"
fi
if diff -u "$theirs" "$mine"; then
    echo "same SPIR-V words as $base ($commit): $(wc -l <"$mine") lines" >&2
else
    echo "SPIR-V words differ from $base ($commit)" >&2
    exit 1
fi
