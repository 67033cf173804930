#include "fiber/stack.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace tucana::fiber {

namespace {
std::size_t round_to_pages(std::size_t bytes) {
  static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}
}  // namespace

Stack allocate_stack(std::size_t usable, std::size_t guard) {
  Stack s;
  s.usable = round_to_pages(usable);
  s.guard = round_to_pages(guard);
  s.mapped = s.usable + s.guard;
  // MAP_NORESERVE: hundreds of 8 MiB stacks must not count against overcommit.
  void* p = mmap(nullptr, s.mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap fiber stack");
  if (mprotect(p, s.guard, PROT_NONE) != 0) {
    int e = errno;
    munmap(p, s.mapped);
    throw std::system_error(e, std::generic_category(), "mprotect stack guard");
  }
  s.mapping = p;
  return s;
}

void release_stack(Stack& s) {
#if defined(__SANITIZE_ADDRESS__)
  // A finished fiber's last frames never return, so AddressSanitizer still
  // has their red zones marked; a new stack mapped here must not inherit them.
  if (s.mapping) __asan_unpoison_memory_region(s.mapping, s.mapped);
#endif
  if (s.mapping) munmap(s.mapping, s.mapped);
  s = Stack{};
}

}  // namespace tucana::fiber
