# Build fragment for the statistics program (stats/), included by the
# top-level Makefile.  Adds its executables to STATS_TARGETS and its cmocka
# tests to UNIT_TESTS.
