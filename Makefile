# Thin wrapper around CMake. `make demo` and `make test` install missing Debian
# packages first (scripts/install-deps.sh), then build.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build deps test test-asan test-tsan demo bench fig2 clean mnist angio sweep bounds experiments

all: build

deps:
	@sh scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGSFW_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Whole suite in the release build, then the unit tests again under ASan+UBSan, then
# the threads test under ThreadSanitizer.
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory test-tsan

test-asan: deps
	@cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DGSFW_SANITIZE=ON -DGSFW_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_ASAN) -j $(JOBS)
	@cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 GSFW_SANITIZED=1 ctest --output-on-failure -j $(JOBS)

# tests/test_threads.c (every solver, oracle and the PCSF in 8 threads at once) under
# ThreadSanitizer. gcc 12's TSan runtime cannot use the address-space layout of kernels
# with more ASLR bits (it stops with "unexpected memory mapping" before any test runs):
# the test is then run again with ASLR off, and skipped only if that is refused too.
TSAN_RUN = OPENBLAS_NUM_THREADS=1 TSAN_OPTIONS=halt_on_error=1
test-tsan: deps
	@cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGSFW_SANITIZE_THREAD=ON -DGSFW_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_TSAN) -j $(JOBS) --target test_threads
	@cd $(BUILD_TSAN) && $(TSAN_RUN) ./test_threads >tsan.log 2>&1; rc=$$?; \
	  if [ $$rc -ne 0 ] && grep -q "unexpected memory mapping" tsan.log; then \
	    $(TSAN_RUN) setarch "$$(uname -m)" -R ./test_threads >tsan.log 2>&1; rc=$$?; \
	  fi; \
	  if [ $$rc -ne 0 ] && grep -q "unexpected memory mapping\|setarch" tsan.log; then \
	    echo "test-tsan: skipped, the ThreadSanitizer runtime cannot start here:"; \
	    head -n 1 tsan.log; \
	  else cat tsan.log; exit $$rc; fi

demo: build
	@sh experiments/demo.sh $(BUILD)

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

experiments: bounds mnist sweep angio

# Headers, libgsfw.so and libgsfw.a, gsfw.pc and the gsfw tool under PREFIX (lib/,
# include/, bin/); DESTDIR stages the tree elsewhere, e.g. for packaging.
PREFIX ?= /usr/local
.PHONY: install
install: build
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# Megapixel recovery of the retinal vessel map (docs/experiments-megapixel.md): sizes 256,
# 1024 and 2048 with DCT sensing; `make megapixel SIZE=256` is the quick run (SIZES, ITERS,
# SENSING, METHOD, MODEL, EXTRA: see bench/megapixel.sh). Results in results/megapixel/.
.PHONY: megapixel
megapixel: build
	@sh bench/megapixel.sh $(BUILD) results/megapixel
