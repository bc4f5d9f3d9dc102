# A small lit suite run by tests/system/harness.sh with interloper run as the
# wrapper of every measured command, the way the LLVM test-suite runs its
# programs under TEST_SUITE_RUN_UNDER.  lit substitutes %{run_under} with
# the parameter run_under (lit --param run_under="interloper run ... --").
import os

import lit.formats

config.name = "interloper-lit"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.substitutions.append(("%{run_under}", lit_config.params.get("run_under", "")))
