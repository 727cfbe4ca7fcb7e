# Thin wrapper around CMake. `make demo` and `make test` install missing Debian
# packages first (scripts/install-deps.sh), then build.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build deps deps-demo python test test-asan test-tsan test-kernels demo examples bench fig2 clean mnist angio sweep bounds experiments variants variants-goals phase

all: build

deps:
	@sh scripts/install-deps.sh full

deps-demo:
	@sh scripts/install-deps.sh demo

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGSFW_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Whole suite in the release build, then the unit tests again under ASan+UBSan, the
# threads test under ThreadSanitizer, and the numeric tests under the other OpenBLAS
# kernels (tests/kernels.sh: Prescott, Sandybridge, Haswell, SkylakeX).
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory test-tsan
	@sh tests/kernels.sh $(BUILD) $(JOBS)

test-kernels: build
	@sh tests/kernels.sh $(BUILD) $(JOBS)

test-asan: deps
	@cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DGSFW_SANITIZE=ON -DGSFW_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_ASAN) -j $(JOBS)
	@cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 GSFW_SANITIZED=1 ctest --output-on-failure -j $(JOBS)

# tests/test_threads.c (every solver, oracle and the PCSF in 8 threads at once) and
# tests/test_operator_threads.c (the transforms' worker threads) under ThreadSanitizer.
# gcc 12's TSan runtime cannot use the address-space layout of kernels with more ASLR
# bits (it stops with "unexpected memory mapping" before any test runs): a test is then
# run again with ASLR off, and skipped only if that is refused too.
TSAN_RUN = OPENBLAS_NUM_THREADS=1 TSAN_OPTIONS=halt_on_error=1
TSAN_TESTS = test_threads test_operator_threads
test-tsan: deps
	@cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGSFW_SANITIZE_THREAD=ON -DGSFW_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_TSAN) -j $(JOBS) --target $(TSAN_TESTS)
	@cd $(BUILD_TSAN) && for t in $(TSAN_TESTS); do \
	  $(TSAN_RUN) ./$$t >tsan.log 2>&1; rc=$$?; \
	  if [ $$rc -ne 0 ] && grep -q "unexpected memory mapping" tsan.log; then \
	    $(TSAN_RUN) setarch "$$(uname -m)" -R ./$$t >tsan.log 2>&1; rc=$$?; \
	  fi; \
	  if [ $$rc -ne 0 ] && grep -q "unexpected memory mapping\|setarch" tsan.log; then \
	    echo "test-tsan: $$t skipped, the ThreadSanitizer runtime cannot start here:"; \
	    head -n 1 tsan.log; \
	  else cat tsan.log; [ $$rc -eq 0 ] || exit $$rc; fi; \
	done

# The Python package (docs/python.md): a venv in .venv that sees Debian's numpy, scipy,
# networkx and scikit-learn, with gsfw built from python/ and installed into it (offline).
python: deps
	@test -x .venv/bin/python || /usr/bin/python3 -m venv --system-site-packages .venv
	@.venv/bin/python -m pip install -q --no-index ./python
	@.venv/bin/python -c "import gsfw; print('gsfw', gsfw.__version__, 'installed in .venv')"

# The demo's packages and targets only: libgsfw (static) and the gsfw tool, no tests,
# benchmarks or experiments. The build's output goes to $(BUILD)/build.log and is shown
# only when the build fails.
demo:
	@mkdir -p $(BUILD)
	@{ sh scripts/install-deps.sh demo && \
	   cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGSFW_WERROR=ON $(CMAKE_FLAGS) && \
	   cmake --build $(BUILD) -j $(JOBS) --target gsfw; } >$(BUILD)/build.log 2>&1 || \
	  { cat $(BUILD)/build.log; echo "make demo: the build failed (log: $(BUILD)/build.log)"; exit 1; }
	@sh experiments/demo.sh $(BUILD)

# The inputs of the README's command-line tour (experiments/example_data.c).
examples:
	@mkdir -p $(BUILD)
	@$(MAKE) --no-print-directory build >$(BUILD)/build.log 2>&1 || \
	  { cat $(BUILD)/build.log; echo "make examples: the build failed (log: $(BUILD)/build.log)"; exit 1; }
	@$(BUILD)/example_data examples/data

fig2: build
	@sh experiments/fig2.sh $(BUILD) results/fig2

bench: build
	@sh bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_TSAN)

# The paper's recovery experiments (docs/experiments-recovery.md). TRIALS=N overrides the
# trial count (e.g. `make angio TRIALS=3` for a quick run); results go to results/NAME/.
mnist: build
	@sh experiments/mnist.sh $(BUILD) results/mnist

angio: build
	@sh experiments/angio.sh $(BUILD) results/angio

sweep: build
	@sh experiments/sweep.sh $(BUILD) results/sweep

bounds: build
	@sh experiments/bounds.sh $(BUILD) results/bounds

# The Frank-Wolfe variants x step rules with polish (docs/experiments-variants.md);
# TRIALS=N for a quick run.
variants: build
	@sh experiments/variants.sh $(BUILD) results/variants

# Phase transitions with the limits drawn (docs/experiments-phase.md): a quick run, or
# with FULL=1 the full one (20 trials a point, hours); SETS=, VARIANTS=, TRIALS= narrow
# them.
phase: build
	@MODE=$(if $(FULL),full,quick) sh experiments/phase.sh $(BUILD) results/phase$(if $(FULL),-full)

# The measured goals of docs/experiments-variants.md (needs python3-sklearn).
variants-goals: build
	@sh experiments/variants_goals.sh $(BUILD) results/variants_goals

experiments: bounds mnist sweep angio

# Graph-sparse against L1-logistic regression on Fashion-MNIST
# (docs/experiments-logistic.md); `make fashion QUICK=1` for a small run. Installs the
# data set and the Python packages it needs when run as root.
.PHONY: fashion
fashion: build
	@QUICK=$(QUICK) sh experiments/fashion_logistic.sh $(BUILD) results/fashion

# Headers, libgsfw.so and libgsfw.a, gsfw.pc and the gsfw tool under PREFIX (lib/,
# include/, bin/); DESTDIR stages the tree elsewhere, e.g. for packaging.
PREFIX ?= /usr/local
.PHONY: install
install: build
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# The wavelet-tree compressive-sensing experiment (docs/experiments-trees.md); TRIALS=N
# sets the 1-D trial count (default 20), results go to results/tree_images/.
.PHONY: tree-images
tree-images: build
	@sh experiments/tree_images.sh $(BUILD) results/tree_images

# Megapixel recovery of the retinal vessel map (docs/experiments-megapixel.md): sizes 256,
# 1024 and 2048 with DCT sensing; `make megapixel SIZE=256` is the quick run (SIZES, ITERS,
# SENSING, METHOD, MODEL, EXTRA: see bench/megapixel.sh). Results in results/megapixel/.
.PHONY: megapixel
megapixel: build
	@sh bench/megapixel.sh $(BUILD) results/megapixel

# PCSF time and memory against the nodes (gsfw and, where built, pcst_fast) and recovery
# time against the image side: bench/scale.sh (GRIDS, ROUNDS, SIDES). Results, table and
# plots in results/bench-scale/. About 20 minutes on an idle machine.
.PHONY: bench-scale
bench-scale: build
	@sh bench/scale.sh $(BUILD) results/bench-scale
