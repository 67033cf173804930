# lit configuration of the golden tests of tucana-translate.
#
# Each test is an annotated C or C++ file whose RUN lines translate it and
# whose CHECK lines, next to the input they are about, say what must come
# out. See README.md in this directory.
#
# The paths of the tools come from lit.site.cfg.py, which CMake generates in
# the build tree (build/test/translator). Running lit on this source directory
# works too: the site configuration is then read from $TUCANA_BUILD_DIR
# (default: the build/ directory at the top of the source tree).

import os

import lit.formats

if not hasattr(config, "tucana_translate"):
    # lit was pointed at the source directory: load the generated site
    # configuration, which loads this file again with the paths set.
    _src = os.path.dirname(os.path.abspath(__file__))
    _build = os.environ.get("TUCANA_BUILD_DIR", os.path.join(_src, "..", "..", "build"))
    _site = os.path.join(_build, "test", "translator", "lit.site.cfg.py")
    if not os.path.exists(_site):
        lit_config.fatal(
            "no %s: configure and build Tucana first (cmake -B build && cmake --build build), "
            "or set TUCANA_BUILD_DIR to the build directory" % _site
        )
    lit_config.load_config(config, _site)
else:
    config.name = "tucana-translate"
    # lit's own shell: pipes, redirections, 'not', 'diff', 'rm', 'mkdir' and
    # 'cd' are built in; anything else runs from PATH.
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = [".c", ".cpp"]
    config.excludes = ["Inputs"]
    config.test_source_root = config.tucana_test_source_dir
    config.test_exec_root = config.tucana_test_binary_dir

    for tool in (config.tucana_translate, config.filecheck):
        if not os.path.exists(tool):
            lit_config.fatal("%s does not exist: build it first (cmake --build build)" % tool)

    include_dirs = [d for d in config.tucana_include_dirs.split(";") if d]
    mpi_flags = " ".join("-I" + d for d in include_dirs)

    # Longest names first: a substitution is a regular expression applied in
    # this order, before lit's own %s, %t, ...
    config.substitutions.append(("%tucana-translate", config.tucana_translate))
    config.substitutions.append(("%tucana-run", config.tucana_run))
    config.substitutions.append(("%tucanacxx", config.tucanacxx))
    config.substitutions.append(("%tucanacc", config.tucanacc))
    config.substitutions.append(("%FileCheck", config.filecheck))
    config.substitutions.append(("%mpi-flags", mpi_flags))
    # The host compilers (the ones the wrappers call), for -fsyntax-only checks.
    # The C compiler's own header directory (omp.h), as tucanacc gives it to
    # the translator.
    import subprocess
    try:
        gcc_include = subprocess.run([config.c_compiler, "-print-file-name=include"], capture_output=True,
                                     text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        gcc_include = "/nonexistent"
    config.substitutions.append(("%gcc-include", gcc_include))
    config.substitutions.append(("%cxx", config.cxx_compiler))
    config.substitutions.append(("%cc", config.c_compiler))

    # Plain 'FileCheck' (and 'not', 'split-file', 'count') resolve too: their
    # directory of links goes first on PATH. The rest of LLVM's bin directory
    # (clang, ...) stays off PATH, so 'cc' is still the system compiler.
    tool_dir = os.path.join(config.test_exec_root, "lit-tools")
    os.makedirs(tool_dir, exist_ok=True)
    llvm_bin = os.path.dirname(config.filecheck)
    for name, path in (
        ("FileCheck", config.filecheck),
        ("not", config.not_tool or os.path.join(llvm_bin, "not")),
        ("split-file", os.path.join(llvm_bin, "split-file")),
        ("count", os.path.join(llvm_bin, "count")),
    ):
        link = os.path.join(tool_dir, name)
        if path and os.path.exists(path):
            if os.path.lexists(link) and os.path.realpath(link) != os.path.realpath(path):
                os.remove(link)  # left from another configuration
            if not os.path.lexists(link):
                os.symlink(path, link)
    # 'count N' (exactly N lines on stdin) is a one-liner where LLVM lacks it.
    count = os.path.join(tool_dir, "count")
    if not os.path.lexists(count):
        with open(count, "w") as f:
            f.write('#!/bin/sh\nn=$(wc -l | tr -d " ")\n'
                    '[ "$n" -eq "$1" ] || { echo "Expected $1 lines, got $n." >&2; exit 1; }\n')
        os.chmod(count, 0o755)
    config.environment["PATH"] = os.pathsep.join([tool_dir, config.environment["PATH"]])

    # Programs built by the tests run under tucana-run, through mpirun; Open
    # MPI refuses to start as root (containers, CI) without these.
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    for var in ("HOME", "TMPDIR", "TUCANA_MPIRUN", "TUCANA_MPIRUN_ARGS"):
        if var in os.environ:
            config.environment[var] = os.environ[var]
