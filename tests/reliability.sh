#!/bin/sh
# The guarantees of docs/reliability.md, checked on the real gsfw (ctest "reliability"):
# memory refused under an address-space or cgroup limit, SIGINT / SIGTERM / SIGKILL and
# I/O errors at every step of the final move (timed by tests/hooks/move_hook.c,
# preloaded), concurrent runs. After each case the output directory holds one complete
# set of outputs, the earlier run's or the new one's, and nothing else.
#
#   usage: reliability.sh GSFW MOVE_HOOK SOURCE_DIR
#   env:   ROUNDS=N adds N signals at random times into runs (scripts/reliability.sh);
#          GSFW_SANITIZED=1 skips the address-space cases (the sanitizers reserve terabytes)
set -u
G=$1 HOOK=$2 SRC=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsfw-rel-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0 cases=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
signum() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; KILL) echo 9 ;; esac; }
ok() { cases=$((cases + 1)); }

IMG=$SRC/data/mnist_0.npy
# recover DIR ITERS [FLAGS]: the run whose outputs are compared; 3 iterations = "old",
# 12 = "new"
rec() { d=$1 i=$2; shift 2; "$G" recover --image "$IMG" --ratio 2 --out-dir "$d" --no-plot --iters "$i" "$@"; }
# start DIR ITERS ERR: rec in the background, $! its pid, with SIGINT not ignored (as a
# shell without job control does for background commands)
start() {
    env --default-signal=INT,TERM "$G" recover --image "$IMG" --ratio 2 --out-dir "$1" \
        --no-plot --iters "$2" >/dev/null 2>"$3" &
}
hook() { # STEP ACTION COMMAND...: the command with the hook preloaded
    s=$1 a=$2; shift 2
    LD_PRELOAD=$HOOK GSFW_HOOK_STEP=$s GSFW_HOOK_ACTION=$a \
        ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 "$@"
}
rec old 3 >/dev/null && rec new 12 >/dev/null || { echo "reference runs failed"; exit 1; }
# state DIR: old, new, none or mixed (the trace's time column differs from run to run:
# its length tells the runs apart)
state() {
    n=0
    for f in recovered.npy recovered.png truth.png trace.csv; do [ -e "$1/$f" ] && n=$((n + 1)); done
    [ $n = 0 ] && { echo none; return; }
    for w in old new; do
        if [ $n = 4 ] && cmp -s "$1/recovered.npy" $w/recovered.npy &&
            cmp -s "$1/recovered.png" $w/recovered.png && cmp -s "$1/truth.png" $w/truth.png &&
            [ "$(wc -l <"$1/trace.csv")" = "$(wc -l <$w/trace.csv)" ]; then
            echo $w; return
        fi
    done
    echo mixed
}
left() { ls -A "$1" | grep '^\.gsfw-' | tr '\n' ' '; }
with_old() { rm -rf "$1"; rec "$1" 3 >/dev/null || fail "run into $1"; }
wait_for() { # TEST: up to 20 s
    t=0; while ! eval "$1" && [ $t -lt 2000 ]; do sleep 0.01; t=$((t + 1)); done
}

# --- memory: the estimate against what the process may use
refused() { # the one line of a refusal, exit status 1
    [ "$1" = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q 'needs about .*\(available\|allows\)' err
}
if [ -z "${GSFW_SANITIZED:-}" ]; then
    prlimit --as=8589934592 "$G" recover --image "$SRC/data/angio.npy" --ratio 300 --out-dir m1 \
        --no-plot 2>err; rc=$?
    refused $rc && grep -q 'from 186600 measurements' err && [ ! -e m1 ] && ok ||
        fail "--ratio 300 under 8 GB: $rc $(cat err)"
    prlimit --as=1073741824 "$G" recover --image "$SRC/data/angio.npy" --ratio 30 --out-dir m2 \
        --no-plot 2>err; rc=$?
    refused $rc && ok || fail "--ratio 30 under 1 GB: $rc $(cat err)"
    # a PNG of 12000 x 12000 pixels: the pixel limit from its header, then the estimate
    if python3 -c 'import struct, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
row = b"\0" * 12001
data = zlib.compress(b"\0\xff" + row[2:] + row * 11999, 1)
open("big.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 12000, 12000, 8, 0, 0, 0, 0)) + chunk(b"IDAT", data) + chunk(b"IEND", b""))' 2>/dev/null; then
        prlimit --as=3221225472 "$G" recover --image big.png --ratio 2 --out-dir m3 --no-plot 2>err; rc=$?
        [ $rc = 1 ] && grep -q 'more than the limit of 100000000' err && ok ||
            fail "12000 x 12000 PNG: $rc $(cat err)"
        prlimit --as=3221225472 "$G" recover --image big.png --ratio 2 --out-dir m3 --no-plot \
            --max-pixels 200000000 2>err; rc=$?
        refused $rc && ok || fail "12000 x 12000 PNG with --max-pixels: $rc $(cat err)"
    fi
fi
# a container's limit is a cgroup's, which MemAvailable does not show (cgroup v1, root)
cg=/sys/fs/cgroup/memory/gsfw-reliability-$$
if mkdir "$cg" 2>/dev/null; then
    if echo 1073741824 >"$cg/memory.limit_in_bytes"; then
        sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$G" recover \
            --image "$SRC/data/angio.npy" --ratio 30 --out-dir m4 --no-plot 2>err; rc=$?
        refused $rc && ok || fail "--ratio 30 in a 1 GB cgroup: $rc $(cat err)"
    fi
    rmdir "$cg"
fi

# --- sizes declared in headers are checked before anything of that size is allocated:
# a Matrix Market file of one entry declaring 30 x 2e9, a quadtree of 2^30 nodes
npy_ones() { # FILE N: an .npy of N float64 ones (no numpy needed)
    python3 -c 'import struct, sys
n = int(sys.argv[2])
h = "{\x27descr\x27: \x27<f8\x27, \x27fortran_order\x27: False, \x27shape\x27: (%d,), }" % n
h += " " * (63 - (10 + len(h)) % 64) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode()
                              + struct.pack("<%dd" % n, *([1.0] * n)))' "$1" "$2"
}
npy_ones y30.npy 30; npy_ones y29.npy 29; npy_ones z2.npy 2; npy_ones z4096.npy 4096
printf '%%%%MatrixMarket matrix coordinate real general\n30 2000000000 1\n1 1 1.0\n' >wide.mtx
WIDE="solve --A wide.mtx --model topk --s 3 --C 3 --method fw --iters 5"
capped() { # under a 2 GB address space (not under the sanitizers, which reserve more)
    if [ -n "${GSFW_SANITIZED:-}" ]; then "$@"; else prlimit --as=2147483648 "$@"; fi
}
capped "$G" $WIDE --y y30.npy --max-memory 1G 2>err; rc=$?
refused $rc && grep -q '30 x 2000000000 with 1 entries' err && ok ||
    fail "30 x 2e9 .mtx, --max-memory 1G: $rc $(cat err)"
printf '%%%%MatrixMarket matrix coordinate real general\n30 30 900000000000\n1 1 1.0\n' >absurd.mtx
capped "$G" solve --A absurd.mtx --model topk --s 3 --C 3 --method fw --iters 5 --y y30.npy \
    --max-memory 1G 2>err; rc=$?
refused $rc && grep -q '30 x 30 with 900000000000 entries' err && ok ||
    fail "30 x 30 .mtx promising 9e11 entries: the count as declared: $rc $(cat err)"
capped "$G" $WIDE --y y30.npy 2>err; rc=$?
refused $rc && ok || fail "30 x 2e9 .mtx, the available memory: $rc $(cat err)"
capped "$G" $WIDE --y y29.npy --max-memory 1G 2>err; rc=$?
[ $rc = 1 ] && [ "$(cat err)" = "gsfw solve: --y: 'y29.npy' has 29 entries but A ('wide.mtx') has 30 rows" ] &&
    ok || fail "30 x 2e9 .mtx against 29 entries of --y: $rc $(cat err)"
if [ -z "${GSFW_SANITIZED:-}" ]; then # past the estimate, the allocation fails: its size named
    capped "$G" $WIDE --y y30.npy --max-memory unlimited 2>err; rc=$?
    [ $rc = 1 ] && grep -q 'out of memory for a 30 x 2000000000 matrix with 1 entries' err && ok ||
        fail "30 x 2e9 .mtx, --max-memory unlimited under 2 GB: $rc $(cat err)"
fi
capped "$G" dmo --z z2.npy --model tree --s 1 --tree quadtree:32768x32768 2>err; rc=$?
[ $rc = 1 ] && grep -q 'has 1073741824 nodes but the vector has 2 entries' err && ok ||
    fail "quadtree:32768x32768 for 2 entries: $rc $(cat err)"
"$G" dmo --z z4096.npy --model tree --s 1 --tree quadtree:64x64 --max-memory 20K 2>err; rc=$?
refused $rc && grep -q 'quadtree:64x64 needs about' err && ok ||
    fail "quadtree:64x64 under --max-memory 20K: $rc $(cat err)"

# --- signals during the set-up: reading an endless .mtx (a FIFO: its size line is read
# once alone, then the file from the start), generating the rows of a huge implicit
# Gaussian matrix. timeout ends a run that ignores the signal (it passes the signal on).
mkfifo endless.mtx
banner='%%%%MatrixMarket matrix coordinate real general\n30 30 100000000\n'
for sig in INT TERM; do
    { printf "$banner"; sleep 2; printf "$banner"; yes '3 7 1.5'; } >endless.mtx 2>/dev/null &
    feeder=$!
    timeout -s KILL 60 env --default-signal=INT,TERM "$G" solve --A endless.mtx --y y30.npy \
        --model topk --s 3 --C 3 --method fw --iters 5 --max-memory unlimited >/dev/null 2>err &
    pid=$!
    sleep 3; kill -$sig $pid; wait $pid; rc=$?
    kill $feeder 2>/dev/null; wait $feeder 2>/dev/null
    [ $rc = $((128 + $(signum $sig))) ] &&
        [ "$(cat err)" = "gsfw solve: interrupted (SIG$sig); no output was written" ] && ok ||
        fail "SIG$sig while reading an endless .mtx: $rc $(cat err)"
done
for sig in INT TERM; do
    timeout -s KILL 60 env --default-signal=INT,TERM "$G" recover --image "$IMG" \
        --sensing implicit-gaussian --ratio 1e6 --out-dir ig --no-plot --max-memory unlimited \
        >/dev/null 2>err & pid=$!
    sleep 1; t0=$(date +%s); kill -$sig $pid; wait $pid; rc=$?; took=$(($(date +%s) - t0))
    [ $rc = $((128 + $(signum $sig))) ] && [ $took -le 5 ] &&
        [ "$(cat err)" = "gsfw recover: interrupted (SIG$sig); no output was changed" ] &&
        [ ! -e ig ] && ok || fail "SIG$sig in the implicit-gaussian set-up: $rc after ${took}s, $(cat err)"
done

# --- signals while the solver runs: stop, leave the earlier outputs, one line
for sig in INT TERM; do
    with_old s
    start s 2000000 err; pid=$!
    wait_for '[ -n "$(left s)" ]'
    sleep 0.2
    kill -$sig $pid; wait $pid; rc=$?
    want="gsfw recover: interrupted (SIG$sig); no output was changed"
    [ $rc = $((128 + $(signum $sig))) ] && [ "$(cat err)" = "$want" ] && [ "$(state s)" = old ] &&
        [ -z "$(left s)" ] && ok || fail "SIG$sig in the solve: $rc, $(cat err), $(state s), $(left s)"
done

# --- every step of the move (4 backups, 4 renames): SIGINT, SIGTERM, an I/O error
for step in 1 2 3 4 5 6 7 8; do
    for action in INT TERM EIO; do
        with_old m
        hook $step $action rec m 12 >/dev/null 2>err; rc=$?
        st=$(state m)
        case $action.$rc.$st in
            INT.130.old|INT.130.new|TERM.143.old|TERM.143.new|EIO.1.old|EIO.0.new) ;;
            *) fail "$action at step $step: exit $rc, outputs $st: $(cat err)"; continue ;;
        esac
        [ -z "$(left m)" ] && [ "$(wc -l <err)" -le 1 ] && ok ||
            fail "$action at step $step: left $(left m), $(cat err)"
    done
    # SIGKILL: the next run cleans up, and names a backup it keeps
    with_old k
    hook $step KILL rec k 12 >/dev/null 2>&1
    rec k 3 >/dev/null 2>err; rc=$?
    kept_named=1
    for b in $(ls -A k | grep '^\.gsfw-old-'); do grep -q "$b" err || kept_named=0; done
    [ $rc = 0 ] && [ "$(state k)" = old ] && [ -z "$(ls -A k | grep '^\.gsfw-\(staging\|tmp\)')" ] &&
        [ $kept_named = 1 ] && ok || fail "SIGKILL at step $step, then a run: $rc, $(state k), $(left k)"
done

# --- concurrent runs into one directory
# B starts while A pauses inside its move: B is refused, A's outputs land whole
rm -rf c
GSFW_HOOK_MARK=mark hook 2 sleep:2000 rec c 3 >/dev/null 2>errA & pid=$!
wait_for '[ -e mark ]'
rec c 12 >/dev/null 2>errB; rcB=$?
wait $pid; rcA=$?
[ $rcA = 0 ] && [ $rcB = 1 ] && grep -q 'another gsfw run' errB && [ "$(state c)" = old ] && ok ||
    fail "recover during a move: A $rcA, B $rcB $(cat errB), $(state c)"
# B starts while A computes: refused with A's pid
with_old c
start c 2000000 /dev/null; pid=$!
wait_for '[ -n "$(left c)" ]'
rec c 12 >/dev/null 2>errB; rcB=$?
kill -INT $pid; wait $pid
[ $rcB = 1 ] && grep -q "another gsfw run (pid $pid)" errB && [ "$(wc -l <errB)" = 1 ] &&
    [ "$(state c)" = old ] && ok || fail "second recover: $rcB $(cat errB), $(state c)"
# two solve runs writing --out and --trace into one directory: B waits for A, then
# replaces both
"$(dirname "$G")/example_data" ex >/dev/null || fail "example_data"
solve() { "$G" solve --A ex/A.npy --y ex/y.npy --model topk --s 24 --C 1 --method fw \
    --iters "$@"; }
solve 9 --out xB.npy >/dev/null 2>&1
mkdir sd; rm -f mark
GSFW_HOOK_MARK=mark hook 2 sleep:2000 solve 4 --out sd/x.npy --trace sd/t.csv >/dev/null \
    2>errA & pid=$!
wait_for '[ -e mark ]'
solve 9 --out sd/x.npy --trace sd/t.csv >/dev/null 2>errB; rcB=$?
wait $pid; rcA=$?
[ $rcA = 0 ] && [ $rcB = 0 ] && cmp -s sd/x.npy xB.npy && [ "$(wc -l <sd/t.csv)" = 11 ] && ok ||
    fail "concurrent solve runs: A $rcA $(cat errA), B $rcB $(cat errB)"

# --- a killed run's leftovers in a directory whose name holds a control byte: the notes
# that name it escape it as every other message does (\x1B), not the raw byte
esc=$(printf 'k\033]0;x\007')
mkdir -p "$esc" && : >"$esc/.gsfw-tmp-999999999-x.npy" && : >"$esc/.gsfw-old-999999997-z.npy"
rec "$esc" 3 >/dev/null 2>errE; rcE=$?
if [ $rcE = 0 ] && grep -q 'removed 1 unfinished file left in .k\\x1B\]0;x\\x07' errE &&
    grep -q "note: 'k\\\\x1B\]0;x\\\\x07/.gsfw-old-999999997-z.npy' holds" errE &&
    ! grep -q "$(printf '\033')" errE; then ok
else fail "leftover notes in an escaped directory: exit $rcE, $(cat -v errE)"; fi

# --- random signals into runs that replace earlier outputs
rounds=${ROUNDS:-0} seed=20261126 done_ok=0 stopped=0 killed=0 early=0
start=$(date +%s%N); rec new2 12 >/dev/null; span=$((($(date +%s%N) - start) / 770))
r=0
while [ $r -lt "$rounds" ]; do
    r=$((r + 1))
    seed=$(((seed * 1103515245 + 12345) % 2147483648))
    sig=$(echo INT TERM KILL | cut -d' ' -f$((seed % 3 + 1)))
    delay=$((seed / 7 % (span > 1000 ? span : 1000)))
    with_old q
    start q 12 err; pid=$!
    sleep "$(awk "BEGIN { print $delay / 1e6 }")"
    kill -$sig $pid 2>/dev/null; wait $pid; rc=$?
    st=$(state q)
    if [ $rc = 0 ] && [ $st = new ] && [ -z "$(left q)" ]; then done_ok=$((done_ok + 1))
    elif [ $sig = KILL ] && [ $rc = 137 ] && rec q 3 >/dev/null 2>&1 && [ "$(state q)" = old ] &&
        [ -z "$(ls -A q | grep '^\.gsfw-\(staging\|tmp\)')" ]; then killed=$((killed + 1))
    elif [ $rc = $((128 + $(signum $sig))) ] && [ -z "$(left q)" ] &&
        { [ $st = old ] || [ $st = new ]; }; then
        if grep -q interrupted err; then stopped=$((stopped + 1)); else early=$((early + 1)); fi
    else fail "round $r: SIG$sig after ${delay} us: exit $rc, outputs $st, left $(left q)"; fi
done
[ "$rounds" -gt 0 ] && echo "random signals: $rounds rounds: $done_ok completed, $stopped" \
    "stopped cleanly, $killed killed and cleaned by the next run, $early ended at startup"
echo "reliability: $cases cases passed, $fails failed"
[ $fails = 0 ]
