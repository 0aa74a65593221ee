# lit configuration for the instrumentation pass tests. Run lit on the build
# directory that holds the generated lit.site.cfg.py, e.g.
#   python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv build-pass/tests/pass
import os

import lit.formats

config.name = "numaperf-pass"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".c"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.excludes = ["Inputs"]

if not hasattr(config, "numaperf_plugin"):
    lit_config.fatal("no lit.site.cfg.py: run lit on the build tree "
                     "(<build>/tests/pass), not on the source tree")
if not os.path.exists(config.numaperf_plugin):
    lit_config.fatal("plugin not built: %s" % config.numaperf_plugin)

tools = config.llvm_tools_dir
for tool in ("opt", "FileCheck"):
    if not os.path.exists(os.path.join(tools, tool)):
        lit_config.fatal("%s not found in %s" % (tool, tools))

# The LLVM under test comes first on PATH, so plain `FileCheck` in RUN lines
# is the one that matches opt.
config.environment["PATH"] = os.pathsep.join(
    [tools, config.environment.get("PATH", os.environ.get("PATH", ""))])

opt = os.path.join(tools, "opt")
# Tests are written with typed pointers (LLVM 14 cannot read `ptr` by
# default) and checked in opaque-pointer form, which LLVM 14-16 produce with
# -opaque-pointers; from 17 on there are only opaque pointers.
v = config.llvm_version_major
opaque = " -opaque-pointers" if v <= 16 else ""
if v <= 16:
    config.available_features.add("typed-pointers")
    config.substitutions.append(("%opt-typed", opt + " -opaque-pointers=0"))
config.substitutions.append(("%opt", opt + opaque))
config.substitutions.append(("%plugin", config.numaperf_plugin))

# llc reads opt's output, so it takes the same pointer mode.
llc = os.path.join(tools, "llc")
if os.path.exists(llc):
    config.available_features.add("llc")
    config.substitutions.append(("%llc", llc + opaque))

clang = os.path.join(tools, "clang")
if os.path.exists(clang):
    config.available_features.add("clang")
    config.substitutions.append(("%clang", clang))
