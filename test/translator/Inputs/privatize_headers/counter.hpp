// C++ in a header: an inline function's static local (one per program and
// subrank, whichever file calls it), a header-defined object with a
// constructor, and the singleton idiom's function-local static.
#pragma once
#include <vector>
inline int next_id() {
  static int n = 0;
  return ++n;
}
static std::vector<int> requests;
struct Registry {
  int count = 0;
  static Registry &get() {
    static Registry r;
    return r;
  }
};
int from_other_file();
