#include "tucana/translate/ToolFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace tucana::translate {

std::vector<std::string> tucana_include_dirs(const char* argv0, void* main_addr,
                                             const std::string& build_tree_dirs) {
  std::string exe = llvm::sys::fs::getMainExecutable(argv0, main_addr);
  llvm::SmallString<256> prefix(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::SmallString<256> mpi_dir(prefix);
  llvm::sys::path::append(mpi_dir, "include", "tucana", "mpi");
  if (llvm::sys::fs::exists(llvm::Twine(mpi_dir) + "/mpi.h")) {
    llvm::SmallString<256> include_dir(prefix);
    llvm::sys::path::append(include_dir, "include");
    return {std::string(mpi_dir), std::string(include_dir)};
  }
  std::vector<std::string> dirs;
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(build_tree_dirs).split(parts, ';', -1, false);
  for (llvm::StringRef d : parts) dirs.push_back(d.str());
  return dirs;
}

std::string write_whole_file(const std::string& path, const std::string& text) {
  llvm::SmallString<256> temp;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temp))
    return "cannot write '" + path + "': " + ec.message();
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << text;
    out.close();
    if (out.has_error()) {
      llvm::sys::fs::remove(temp);
      return "cannot write '" + path + "': " + out.error().message();
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return "cannot write '" + path + "': " + ec.message();
  }
  return "";
}

}  // namespace tucana::translate
