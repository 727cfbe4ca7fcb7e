# The numeric tests: they compare floating-point results with independent computations
# or across code paths (operators, losses, row blocks, Python against the command line,
# the command line against the library, a restart round against a warm solve, float32),
# or follow paths that rounding steers (which instance one run misses, where a run
# stalls), so OpenBLAS's choice of kernel changes their last bits. They carry the ctest
# label "numeric"; `make test` runs them under several kernels (tests/kernels.sh), and
# `ctest -L numeric` selects them. mpi is labelled numeric_mpi: it is the slowest of them.
set(GSFW_NUMERIC_TESTS
  test_adversarial test_baselines test_cli test_cli_surprises test_fw_cli test_fw_family
  test_headtail test_headtail_size test_losses test_operators test_oracles test_pursuit
  test_random_signs test_recover_cli test_recover_pictures test_recover_pursuit_cli
  test_recover_signs_cli test_restarts test_solve_loss_cli test_solver test_tree
  test_unbounded test_wavelet test_mpi_blocks doc_examples python_numeric)
foreach(name IN LISTS GSFW_NUMERIC_TESTS)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES LABELS numeric)
  endif()
endforeach()
get_property(_tests DIRECTORY PROPERTY TESTS)
foreach(name IN LISTS _tests)
  if(name MATCHES "^example_")
    set_tests_properties(${name} PROPERTIES LABELS numeric)
  endif()
endforeach()
if(TEST mpi)
  set_tests_properties(mpi PROPERTIES LABELS numeric_mpi)
endif()
