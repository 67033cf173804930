# lit configuration of the golden tests of tucana-cco (check and rewrite).
# Each test is a C file whose RUN lines run the tool and whose CHECK lines
# say what must come out. Running lit on this source directory reads the
# site configuration from $TUCANA_BUILD_DIR (default: build/ at the top).
import os

import lit.formats

if not hasattr(config, "tucana_cco"):
    _src = os.path.dirname(os.path.abspath(__file__))
    _build = os.environ.get("TUCANA_BUILD_DIR", os.path.join(_src, "..", "..", "build"))
    _site = os.path.join(_build, "test", "advise", "lit.site.cfg.py")
    if not os.path.exists(_site):
        lit_config.fatal("no %s: configure and build Tucana first" % _site)
    lit_config.load_config(config, _site)
else:
    config.name = "tucana-cco"
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = [".c"]
    config.excludes = ["programs", "Inputs"]
    config.test_source_root = config.tucana_test_source_dir
    config.test_exec_root = config.tucana_test_binary_dir
    for tool in (config.tucana_cco, config.filecheck):
        if not os.path.exists(tool):
            lit_config.fatal("%s does not exist: build it first (cmake --build build)" % tool)
    config.substitutions.append(("%tucana-cco", config.tucana_cco))
    config.substitutions.append(("%mpicc", config.mpicc or "mpicc"))
    config.substitutions.append(("%programs", os.path.join(config.tucana_test_source_dir, "programs")))
    tool_dir = os.path.join(config.test_exec_root, "lit-tools")
    os.makedirs(tool_dir, exist_ok=True)
    llvm_bin = os.path.dirname(config.filecheck)
    for name, path in (("FileCheck", config.filecheck), ("not", config.not_tool or os.path.join(llvm_bin, "not"))):
        link = os.path.join(tool_dir, name)
        if path and os.path.exists(path) and not os.path.lexists(link):
            os.symlink(path, link)
    config.environment["PATH"] = os.pathsep.join([tool_dir, config.environment["PATH"]])
    if config.mpicc:
        config.available_features.add("mpicc")
