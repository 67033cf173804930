// What Tucana's Clang tools (tucana-translate, tucana-cco) need of the file
// system: where Tucana's headers are, and writing an output whole.
#pragma once

#include <string>
#include <vector>

namespace tucana::translate {

// Tucana's include directories (its <mpi.h> first): next to an installed
// tool (PREFIX/bin/../include/tucana/mpi and PREFIX/include, so that a moved
// prefix works), else `build_tree_dirs`, a ';'-separated list fixed when the
// tool was configured. `main_addr` is an address in the tool's executable
// (for llvm::sys::fs::getMainExecutable).
std::vector<std::string> tucana_include_dirs(const char* argv0, void* main_addr,
                                             const std::string& build_tree_dirs);

// Writes `text` to `path` through a temporary file in the same directory and
// a rename, so that `path` is either untouched or complete. Returns "" on
// success, else the error ("cannot write 'PATH': REASON"); the temporary file
// is removed then.
std::string write_whole_file(const std::string& path, const std::string& text);

}  // namespace tucana::translate
