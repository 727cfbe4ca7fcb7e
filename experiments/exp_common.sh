# Shared helpers of the recovery experiments (mnist.sh, angio.sh, sweep.sh, bounds.sh).
# Sourced, not run. POSIX sh; needs awk, od and gnuplot.
#
# After sourcing: $exp_dir (this folder), $root (the repository), and the functions below.
# Callers set $build (the build directory holding the gsfw executable) first.

exp_dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$exp_dir/.." && pwd)

die() { echo "$0: $*" >&2; exit 1; }

# need_gsfw: check that $build/gsfw exists and is runnable; sets $gsfw.
need_gsfw() {
    gsfw="$build/gsfw"
    [ -x "$gsfw" ] || die "no gsfw executable in '$build' (run 'make' or pass the build dir)"
    command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found"
}

# begin_output OUT: results are assembled in OUT.tmp.PID and renamed to OUT at the end
# (finish_output), so an interrupted run leaves nothing half-written under OUT.
begin_output() {
    out=$1
    mkdir -p "$(dirname "$out")"
    tmp="$out.tmp.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    trap 'rm -rf "$tmp"' EXIT
    trap 'rm -rf "$tmp"; exit 130' INT TERM
}

finish_output() {
    rm -rf "$out.old.$$"
    [ -e "$out" ] && mv "$out" "$out.old.$$"
    mv "$tmp" "$out"
    rm -rf "$out.old.$$"
    trap - EXIT INT TERM
}

# runs_header: the columns written by summary_to_csv (after the caller's label columns).
runs_cols="method,model,seed,n,d,s,g,iters,time_s,setup_s,f,f_last,est_err,rel_err,psnr,support_f1,nnz,oracle_calls,pcsf_calls,L"

# summary_to_csv LABELS: turn one `gsfw recover` summary line (stdin) into a CSV row
# "LABELS,<runs_cols>"; a missing key is an error.
summary_to_csv() {
    awk -v labels="$1" -v cols="$runs_cols" '
        { for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); val[k] = v } }
        END {
            nc = split(cols, c, ",")
            row = labels
            for (i = 1; i <= nc; i++) {
                if (!(c[i] in val)) { print "summary line lacks " c[i] > "/dev/stderr"; exit 1 }
                row = row "," val[c[i]]
            }
            print row
        }'
}

# trace_rows TRIAL < trace.csv: "trial,iter,time_s,f,est_err" rows (no header).
trace_rows() {
    awk -F, -v trial="$1" 'NR > 1 { print trial "," $1 "," $2 "," $3 "," $5 }'
}

# recover_run LABELS RUNS_CSV RAW_CSV SEED [gsfw recover flags...]: run one trial into a
# scratch directory, append its summary to RUNS_CSV and its trace to RAW_CSV.
# Keeps the scratch directory in $run_dir (for the caller to take recovered.npy from).
recover_run() {
    _labels=$1 _runs=$2 _raw=$3 _seed=$4
    shift 4
    run_dir="$tmp/scratch"
    rm -rf "$run_dir"
    # --polish off: the paper's experiments report the iterates themselves
    _line=$("$gsfw" recover --seed "$_seed" --out-dir "$run_dir" --no-plot --polish off "$@") ||
        die "gsfw recover failed: $* --seed $_seed"
    printf '%s\n' "$_line" | summary_to_csv "$_labels" >>"$_runs" || die "bad summary line: $_line"
    trace_rows "$_seed" <"$run_dir/trace.csv" >>"$_raw"
}

# npy_to_matrix FILE [NORMALISE]: a 2-D little-endian float64 C-order .npy as a text
# matrix (one image row per line), for gnuplot's `matrix with image`. With NORMALISE=1
# the values are divided by the array's l2 norm.
npy_to_matrix() {
    _hdr=$(head -c 10 "$1" | od -A n -t u1 | awk '{ print $9 + 256 * $10 }')
    _hdrtext=$(head -c $((10 + _hdr)) "$1" | tail -c "$_hdr")
    case $_hdrtext in
        *"'<f8'"*"False"*) ;;
        *) die "$1: not a little-endian float64 C-order .npy" ;;
    esac
    _w=$(printf '%s\n' "$_hdrtext" | sed -n "s/.*'shape': *([0-9]*, *\([0-9]*\)).*/\1/p")
    [ -n "$_w" ] || die "$1: not a 2-D array"
    od -A n -v -t f8 -j $((10 + _hdr)) "$1" |
        awk -v w="$_w" -v norm="${2:-0}" '
            { for (i = 1; i <= NF; i++) v[n++] = $i + 0 }
            END {
                s = 1
                if (norm) { s = 0; for (i = 0; i < n; i++) s += v[i] * v[i]; s = sqrt(s) }
                for (i = 0; i < n; i++) printf "%.9g%s", v[i] / s, (i % w == w - 1) ? "\n" : " "
            }'
}
